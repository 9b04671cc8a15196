/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm matrix: one scenario run for every combination of some of its
 * values, in four steps, each in its file:
 *
 *   parse   matrix.c         the command line: options, --vary, clashes
 *   plan    matrix-plan.c    the cells, each checked, the binary, OUT
 *   run     matrix-run.c     the cells as child processes, --jobs at once
 *   report  matrix-report.c  matrix.json, the table, the tool failures
 *
 * and matrix-outcome.c, how a cell ended. The pure parts (parsing the
 * varies, naming the cells, classifying how one ended) are declared first
 * so that they can be tested alone.
 */
#ifndef IRQSTORM_MATRIX_H
#define IRQSTORM_MATRIX_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "cmd.h"
#include "core/launch.h"
#include "core/summary.h"

G_BEGIN_DECLS

/*
 * OUT/matrix.json, written by irqstorm_matrix_write_json(): "format",
 * "scenario" (as given) and "scenario_sha256" (of its text), "build" (the
 * identity files, irqstorm_matrix_read_identity()), "shard" ({ "index",
 * "count" }, or null when not sharded), "set", "run_options", "vary" ([{
 * "key", "values" }]), "interrupted", and "cells": every cell of the
 * matrix in order, each { "dir", "values", "status" ("ran", "skipped",
 * "not started", "not run", "running", "other shard"), "exit_status",
 * "signal" (what killed it, or null), "complete", "ended", "outcome",
 * "reason", "stages" }. irqstorm merge reads it back.
 */
#define IRQSTORM_MATRIX_FILE	"matrix.json"
#define IRQSTORM_MATRIX_FORMAT	"irqstorm-matrix"

/* One --vary GROUP.KEY=V1,V2,... */
typedef struct {
	char *key;		/* "channel0.rate" */
	char *name;		/* in cell names: "rate", or the key when ambiguous */
	char **values;		/* GStrv, in the order given */
} IrqstormVary;

void irqstorm_vary_free(IrqstormVary *v);

/* One combination of values: a run. */
typedef struct {
	char *name;		/* its directory: "rate=1000,threading=hardirq" */
	char **values;		/* GStrv: one value per IrqstormVary */
	char **sets;		/* GStrv: "channel0.rate=1000", ... for --set */
} IrqstormCell;

void irqstorm_cell_free(IrqstormCell *c);

/* The most values one range A..B of a --vary may give. */
#define IRQSTORM_MATRIX_MAX_RANGE	10000u

/*
 * Parse the --vary options into a GPtrArray of IrqstormVary. An item of a
 * list that contains ".." and begins with a digit, a sign or '.' is a
 * range A..B of decimal integers, inclusive,
 * expanded in order (machine.seed=1..100, channel0.rate=1000,5..7 gives
 * 1000,5,6,7). Errors (G_OPTION_ERROR_BAD_VALUE) for: no '=', a key that
 * is not GROUP.KEY, an empty list, an empty value, a range whose ends are
 * not integers, which ends before it starts (B < A), or which has more
 * than IRQSTORM_MATRIX_MAX_RANGE values, a value twice in one list (also
 * through a range), a key in two --vary. A vary's name is its KEY without
 * the GROUP when no other vary has the same KEY, else GROUP.KEY.
 */
GPtrArray *irqstorm_matrix_parse_vary(const char *const *specs, GError **error);

/*
 * The cartesian product, as a GPtrArray of IrqstormCell: the first vary
 * changes slowest, the last fastest. A cell's name is its NAME=VALUE pairs
 * joined with ',', each value made filesystem-safe (every character outside
 * [A-Za-z0-9._+=-] becomes '_'). Fails when two cells get the same name.
 */
GPtrArray *irqstorm_matrix_cells(GPtrArray *varies, GError **error);

/* s with every character outside [A-Za-z0-9._+=-] replaced by '_'. */
char *irqstorm_matrix_safe_name(const char *s);

/*
 * How a cell ended: an outcome of the scenario, which a table of results
 * shows, or a failure of the tool, which leaves nothing to show.
 */
typedef enum {
	IRQSTORM_CELL_NOT_RUN,		/* not (yet) run: the matrix stopped */
	IRQSTORM_CELL_PASSED,		/* outcome: exit 0 */
	IRQSTORM_CELL_THRESHOLD,	/* outcome: exit 2, a threshold exceeded */
	IRQSTORM_CELL_STALL,		/* outcome: exit 3, the guest stalled */
	IRQSTORM_CELL_REFUSED,		/* outcome: the guest reported an error */
	IRQSTORM_CELL_KERNEL,		/* outcome: exit 5, the kernel reported a
					 * fault not expected (or not one that was) */
	IRQSTORM_CELL_TOOL_FAILURE,	/* anything else: no outcome */
	IRQSTORM_CELL_INTERRUPTED,	/* stopped by the matrix's own ^C: no
					 * outcome, no failure; run again on resume */
} IrqstormCellEnd;

/* "passed", "threshold", "stall", "refused", "kernel", "tool failure",
 * "interrupted", "not run". */
const char *irqstorm_cell_end_name(IrqstormCellEnd end);

/* Is it an outcome of the scenario (not a tool failure, not unrun)? */
gboolean irqstorm_cell_end_is_outcome(IrqstormCellEnd end);

/*
 * How a cell whose `irqstorm run` exited with status code (>= 0) ended,
 * from its summary.json (NULL: none could be read). An outcome when:
 *   - the run is complete (summary.json "complete", no INCOMPLETE), its
 *     "return_code" is code, no cross-check failed, and code is 0, 2 or 3;
 *   - or it is incomplete because the guest itself reported an error:
 *     code and "return_code" are 1 and the guest's result line said a
 *     status other than ok (counts.guest.status: e.g. the kernel refused
 *     request_irq, "Flags mismatch"). That is REFUSED.
 * Anything else is a TOOL_FAILURE: no summary.json, incomplete for any
 * other reason (QEMU did not start or crashed, the wall-clock timeout, a
 * rig error, a signal), failed cross-checks, or an exit status that
 * summary.json does not account for. *why says why for a refusal or a
 * tool failure (NULL for the others); free it.
 */
IrqstormCellEnd irqstorm_matrix_classify(int code, const IrqstormSummary *s,
					 char **why);

/*
 * Shards: `--shard I/N` runs a part of the cells, so that N machines (a
 * Slurm job array, a Kubernetes indexed Job, a CI matrix) share a matrix
 * and `irqstorm merge` puts the parts together. The rule, the only one:
 *
 *   shards are numbered 1..N; the cell at index c (from 0, in the order
 *   of irqstorm_matrix_cells(): the first vary slowest) is in shard
 *   c % N + 1.
 *
 * It depends only on the cells and N: not on the machine, nor on which
 * shards run. N may exceed the number of cells (the shards past it have
 * no cell). A shard's OUT/matrix.json is the whole matrix's with
 * "shard": { "index": I, "count": N } and the cells of other shards
 * "status": "other shard" (see irqstorm_matrix_write_json()).
 */
#define IRQSTORM_MATRIX_MAX_SHARDS	100000u

/* The shard (1..n) of the cell at index c. */
guint irqstorm_matrix_shard_of(guint c, guint n);

/* Parse "I/N" (1 <= I <= N <= IRQSTORM_MATRIX_MAX_SHARDS). */
gboolean irqstorm_matrix_parse_shard(const char *s, guint *index, guint *count,
				     GError **error);

/* Exit status of `irqstorm matrix` when a cell ended in a tool failure. */
#define IRQSTORM_MATRIX_EXIT_TOOL_FAILURE	IRQSTORM_EXIT_TOOL_FAILURE

/*
 * The matrix's exit status from how its cells ended: 1 when one was not
 * run; else 4 when one was a tool failure; else 3 when one stalled or was
 * refused; else 2 when one exceeded a threshold; else 0.
 */
int irqstorm_matrix_exit_code(const IrqstormCellEnd *ends, guint n);

/* ---- the steps --------------------------------------------------------- */

/* What the command line asks for, and the cells it makes (parse, plan). */
typedef struct {
	char *scenario;		/* SCENARIO */
	char *out;		/* OUT */
	char **sets;		/* --set, for every cell */
	char **passthrough;	/* after --, for every cell */
	guint jobs;
	char **channels;	/* --channel: the table's channels (NULL: each) */
	GPtrArray *varies;	/* of IrqstormVary */
	GPtrArray *cells;	/* of IrqstormCell (plan) */
	char *binary;		/* the irqstorm that runs them (plan) */
	GPtrArray *build;	/* flavours whose guest parts are missing from
				 * the build directory, built before the cells
				 * (plan; NULL-terminated) */
	guint shard, shards;	/* --shard I/N: this is shard I of N; 0/0:
				 * not sharded, every cell runs */
	char *scenario_sha256;	/* of SCENARIO's text (plan) */
	GPtrArray *flavours;	/* the kernel flavours of the cells (plan) */
	JsonNode *identity;	/* the build's identity files, by name: their
				 * text, or null when missing (after the
				 * guest parts are built:
				 * irqstorm_matrix_read_identity()) */
} IrqstormMatrixPlan;

void irqstorm_matrix_plan_free(IrqstormMatrixPlan *plan);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormMatrixPlan, irqstorm_matrix_plan_free)

/*
 * The cells of plan's varies, each cell's scenario loaded and checked (a
 * typo fails now, not after hours of the cells before it), the binary
 * found, OUT made, and an OUT/matrix.json of another invocation refused.
 */
gboolean irqstorm_matrix_plan(IrqstormMatrixPlan *plan, GError **error);

/*
 * The identity of the build the cells run: the text of qemu-identity in
 * the QEMU directory and of kernel-FLAVOUR-identity in the kernel
 * directory for each flavour of the cells (the build directory's, or the
 * --qemu-dir and --kernel-dir given after '--'), null for a missing file.
 */
void irqstorm_matrix_read_identity(IrqstormMatrixPlan *plan);

/*
 * Resuming OUT (its matrix.json there) is refused when its cells ran on
 * another build (irqstorm_matrix_read_identity() first) or with another
 * text of the scenario file: finished cells are not run again, and would
 * be taken for this build's.
 */
gboolean irqstorm_matrix_check_resume(const IrqstormMatrixPlan *plan, GError **error);

/* Is every varied key a seed (machine.seed, channelN.seed)? Then the
 * cells are samples of one distribution, and matrix and merge write it
 * (irqstorm_matrix_write_merged()). */
gboolean irqstorm_matrix_is_seed_sweep(GPtrArray *varies);

typedef enum {
	IRQSTORM_CELL_PENDING,		/* not started (yet, or ever: interrupted) */
	IRQSTORM_CELL_SKIPPED,		/* already complete from an earlier matrix */
	IRQSTORM_CELL_RUNNING,
	IRQSTORM_CELL_FINISHED,		/* exited, or could not be started */
	IRQSTORM_CELL_OTHER_SHARD,	/* another shard's: not run here */
} IrqstormCellState;

typedef struct IrqstormMatrixRun IrqstormMatrixRun;

/* One cell of a matrix, as it runs. */
typedef struct {
	IrqstormMatrixRun *m;
	guint index;
	const IrqstormCell *cell;
	char *dir;
	IrqstormCellState state;
	IrqstormChild child;
	gint64 started_us;
	double seconds;
	int code;		/* exit status; -1 killed or not started */
	char *how;		/* "exited with status 1", "could not start: ..." */
	IrqstormSummary *summary;
	IrqstormCellEnd end;	/* NOT_RUN until finished or skipped */
	char *why;		/* for a refusal or a tool failure */
} IrqstormCellRun;

struct IrqstormMatrixRun {
	const IrqstormMatrixPlan *plan;
	IrqstormCellRun *runs;	/* one per cell */
	guint n, next, running;
	gboolean interrupted;	/* by a signal: start nothing more */
	GMainLoop *loop;
	guint kill_timer;
};

/* The plan's cells, those whose directory holds a complete run (an
 * outcome) already skipped. */
IrqstormMatrixRun *irqstorm_matrix_run_new(const IrqstormMatrixPlan *plan);
void irqstorm_matrix_run_free(IrqstormMatrixRun *m);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormMatrixRun, irqstorm_matrix_run_free)

/* Say what will run, and which cells are skipped. */
void irqstorm_matrix_announce(const IrqstormMatrixRun *m);

/* Run the cells that are not done, --jobs at once, until all ended or a
 * signal stopped them. */
void irqstorm_matrix_run_cells(IrqstormMatrixRun *m);

/* The matrix's exit status: irqstorm_matrix_exit_code(), 1 if interrupted. */
int irqstorm_matrix_run_exit_code(const IrqstormMatrixRun *m);

/* "[i/n] cell: ..." on stdout. */
void irqstorm_matrix_say(const IrqstormCellRun *r, const char *fmt, ...)
	G_GNUC_PRINTF(2, 3);

/* The strings of a JSON array member (a GStrv), or NULL when it is not one. */
char **irqstorm_matrix_json_strv(JsonObject *o, const char *name);

/* An existing OUT/matrix.json must come from the same scenario, --set and
 * run options: otherwise its cells would be taken for this one's. */
gboolean irqstorm_matrix_check_same(const IrqstormMatrixPlan *plan,
				    GError **error);

/* OUT/matrix.json: the invocation and every cell as it stands. */
gboolean irqstorm_matrix_write_json(const IrqstormMatrixRun *m, GError **error);

/*
 * A cell as an OUT/matrix.json of a shard recorded it (an object of its
 * "cells"), restored into r, its summary.json read from r->dir: what
 * irqstorm_matrix_write_json() writes of r is then what it read.
 */
gboolean irqstorm_matrix_cell_restore(IrqstormCellRun *r, JsonObject *cell,
				      GError **error);

/* The table of how each cell ended and p99 and max of every stage, then
 * the path of matrix.json, on stdout; the tool failures on stderr. A
 * shard's table has its own cells only. */
void irqstorm_matrix_report(const IrqstormMatrixRun *m);

/*
 * A seed sweep's distribution: OUT/merged/ with, for each histogram file
 * of the cells (histogram.txt, histogram-chN.txt), the sum of the cells'
 * (same layout; every cell must have it with the same bins and stages),
 * and merged.json: per file and stage, count, min, max, avg and the
 * percentiles of summary.json, computed from the summed histogram. Only
 * when every cell ended in an outcome; else it says why not and writes
 * nothing. FALSE with an error for files that do not add up.
 */
gboolean irqstorm_matrix_write_merged(const IrqstormMatrixRun *m, GError **error);

G_END_DECLS

#endif /* IRQSTORM_MATRIX_H */
