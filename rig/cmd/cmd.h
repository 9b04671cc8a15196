/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command layer: the commands main.c dispatches to, and what they
 * share, so that every command looks and behaves alike:
 *
 * - Options: each command declares its GOptionEntry table and parses it
 *   with irqstorm_cmd_options() and irqstorm_cmd_parse(); argv[0] is the
 *   command's name. A bad command line is irqstorm_usage_error(): the
 *   message, then the command's help, on stderr; exit status 1.
 * - Help: the context's parameter string is "ARGS - what it does"; its
 *   description says what the command writes and how to read it, then
 *   "Exit status: ..." and "Examples:" with a few command lines.
 * - Errors: "irqstorm: message" on stderr (irqstorm_cmd_fail()).
 * - Exit statuses: IRQSTORM_EXIT_*; a run's verdict maps to one.
 * - Tables: IrqstormTable lays out text columns; JSON is built with
 *   core/json-build.h and printed with irqstorm_cmd_print_json().
 */
#ifndef IRQSTORM_CMD_H
#define IRQSTORM_CMD_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "core/checks.h"
#include "core/guest-build.h"
#include "core/results.h"
#include "core/summary.h"
#include "core/table.h"

G_BEGIN_DECLS

/* Exit statuses of irqstorm (like rtla: passed, error, failed). */
enum {
	IRQSTORM_EXIT_PASSED = 0,
	IRQSTORM_EXIT_ERROR = 1,	/* tool error, incomplete run or failed check */
	IRQSTORM_EXIT_THRESHOLD = 2,	/* a scenario threshold was exceeded */
	IRQSTORM_EXIT_STALL = 3,	/* the guest stalled: an i8042 region or
					 * spin timed out, the kernel disabled
					 * an interrupt line ("nobody cared"), or
					 * a livelock: the device ended the storm */
	IRQSTORM_EXIT_TOOL_FAILURE = 4,	/* matrix: a cell ended in a tool failure */
	IRQSTORM_EXIT_KERNEL = 5,	/* the kernel reported a fault the scenario
					 * does not expect, or not one it does */
};

/* The exit status of a run judged so. */
int irqstorm_exit_code(IrqstormVerdict verdict);

int irqstorm_cmd_run(int argc, char **argv);		/* run.c */
int irqstorm_cmd_compare(int argc, char **argv);	/* compare.c */
int irqstorm_cmd_check(int argc, char **argv);		/* check.c */
int irqstorm_cmd_plot(int argc, char **argv);		/* plot.c */
int irqstorm_cmd_matrix(int argc, char **argv);	/* matrix.c */
int irqstorm_cmd_merge(int argc, char **argv);		/* merge.c */
int irqstorm_cmd_sweep(int argc, char **argv);		/* sweep.c */
int irqstorm_cmd_explain(int argc, char **argv);	/* explain.c */
int irqstorm_cmd_bisect_step(int argc, char **argv);	/* bisect-step.c */
int irqstorm_cmd_export(int argc, char **argv);	/* export.c */

/*
 * The run of set, its results judged and written (summary.json records the
 * exit status, also returned in *code): the results, or NULL when the run
 * could not be made or its results not written. Every command that runs
 * a scenario runs it through this.
 */
IrqstormResults *irqstorm_cmd_run_results(const IrqstormRunSettings *set, int *code,
					  GError **error);

/*
 * The run of set (after building the guest parts it lacks, with builder if
 * given), through irqstorm_cmd_run_results(), and unless quiet printed:
 * the run's exit status.
 */
int irqstorm_cmd_run_and_report(const IrqstormRunSettings *set,
				const IrqstormGuestBuilder *builder);

/*
 * The run command's way: the same into target, which is refused when it
 * holds a complete result unless replace; then the new result is written
 * beside it and takes its place once complete (core/outdir.h). set's
 * out_dir ends as where the result is.
 */
int irqstorm_cmd_run_into(IrqstormRunSettings *set, const IrqstormGuestBuilder *builder,
			  const char *target, gboolean replace);

/* ---- options and errors ---- */

/* A command's options: "ARGS - what it does", its entries, its help. */
GOptionContext *irqstorm_cmd_options(const char *parameters,
				     const GOptionEntry *entries,
				     const char *description);

/* Parse the command line; FALSE after a usage error. */
gboolean irqstorm_cmd_parse(GOptionContext *ctx, int *argc, char ***argv);

/* Print "irqstorm: message" and the command's help to stderr; returns 1. */
int irqstorm_usage_error(GOptionContext *ctx, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

/* Print "irqstorm: message" to stderr; returns 1. */
int irqstorm_cmd_fail(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
int irqstorm_cmd_failv(const char *fmt, va_list ap) G_GNUC_PRINTF(1, 0);

/* The --label option of the commands that take result DIRs. */
#define IRQSTORM_CMD_OPTION_LABEL(labels)					\
	{ "label", 'l', 0, G_OPTION_ARG_STRING_ARRAY, labels,			\
	  "Name the runs, one per DIR in order (default: the DIR's basename)", "TEXT" }

/* --channel and --pooled: which channels of runs of several a table,
 * figure or gate is about (irqstorm_cmd_channels()). */
#define IRQSTORM_CMD_OPTION_CHANNEL(channels)					\
	{ "channel", 'c', 0, G_OPTION_ARG_STRING_ARRAY, channels,		\
	  "Only this channel, by number or [channelN] name (repeatable; "	\
	  "default: each channel apart)", "N|NAME" }
#define IRQSTORM_CMD_OPTION_POOLED(pooled)					\
	{ "pooled", 0, 0, G_OPTION_ARG_NONE, pooled,				\
	  "Also every channel's events pooled, titled so", NULL }

/* irqstorm_summaries_channels() of the runs, or NULL after saying why. */
GArray *irqstorm_cmd_channels(IrqstormSummary *const *runs, guint n, char **want,
			      gboolean pooled);

/* --label: none, or one per DIR (n); else a usage error and FALSE. */
gboolean irqstorm_cmd_check_labels(GOptionContext *ctx, char **labels, guint n);

/* results/<the scenario file's name without extension><suffix> */
char *irqstorm_cmd_default_out(const char *scenario, const char *suffix);

/* Print a JSON document on stdout, as the rig writes its files. */
void irqstorm_cmd_print_json(JsonNode *root);

/* Tables: core/table.h (IrqstormTable), for the commands and the engine alike. */

G_END_DECLS

/*
 * QEMU's arguments loading the explain plugin of this build, values[A] the
 * value of argument A of IRQSTORM_EXPLAIN_ARGS (include/irqstorm/explain.h),
 * those NULL left out: "-plugin", "PATH,NAME=VALUE,...".
 */
GStrv irqstorm_cmd_plugin_args(const char *const *values);

/* The path of a file of sc's kernel build ("System.map", "ko", ...:
 * irqstorm_machine_kernel_file) in this build's kernel directory. */
char *irqstorm_cmd_kernel_path(const IrqstormScenario *sc, const char *what);

/* Where `run` and `matrix` build missing guest parts: this build's
 * directory, with the checkout's scripts (docs/building.md). */
IrqstormGuestBuilder irqstorm_cmd_guest_builder(void);

#endif /* IRQSTORM_CMD_H */
