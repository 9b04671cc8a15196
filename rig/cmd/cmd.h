/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command layer: the commands main.c dispatches to, and what they
 * share. Each command parses its own options with GOptionContext (argv[0]
 * is the command's name) and returns an IRQSTORM_EXIT_* code.
 */
#ifndef IRQSTORM_CMD_H
#define IRQSTORM_CMD_H

#include <glib.h>

#include "core/results.h"

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
};

/* The exit status of a run judged so. */
int irqstorm_exit_code(IrqstormVerdict verdict);

int irqstorm_cmd_run(int argc, char **argv);		/* run.c */
int irqstorm_cmd_compare(int argc, char **argv);	/* compare.c */
int irqstorm_cmd_plot(int argc, char **argv);		/* plot.c */
int irqstorm_cmd_matrix(int argc, char **argv);	/* matrix.c */

/* Print "irqstorm: msg" and the context's help to stderr; returns 1. */
int irqstorm_usage_error(GOptionContext *ctx, const char *msg);

G_END_DECLS

#endif /* IRQSTORM_CMD_H */
