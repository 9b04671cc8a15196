/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results of one run: its outcome (run.h) and what the guest said on
 * its console, judged (are the numbers complete, do the witnesses agree,
 * did the guest stall, were the thresholds met) and written to the output
 * directory.
 */
#ifndef IRQSTORM_RESULTS_H
#define IRQSTORM_RESULTS_H

#include <stdio.h>
#include <glib.h>

#include "run.h"

/* The judgement of a run; the command makes an exit status of it. */
typedef enum {
	IRQSTORM_VERDICT_PASSED,
	IRQSTORM_VERDICT_ERROR,		/* incomplete, or a cross-check failed */
	IRQSTORM_VERDICT_THRESHOLD,	/* a scenario threshold was exceeded */
	IRQSTORM_VERDICT_STALL,		/* the guest stalled: an i8042 region or
					 * spin timed out, the kernel disabled
					 * an interrupt line ("nobody cared"), or
					 * a livelock: the device ended the storm */
} IrqstormVerdict;

/* A scenario threshold against what was measured. */
typedef struct {
	const IrqstormThreshold *threshold;
	gboolean measured;		/* the stage had samples */
	guint64 value_ns;
	gboolean exceeded;
} IrqstormLimitResult;

typedef struct {
	const IrqstormRunSettings *set;
	IrqstormRunOutcome *outcome;

	/* the guest's console */
	GHashTable *guest;		/* the IRQSTORM-RESULT line's key=value */
	double guest_uptime_s;		/* last kernel log time stamp, or -1 */
	GPtrArray *kernel_events;	/* notable kernel log lines (char *) */

	/* the judgement */
	gboolean complete;
	char *incomplete_reason;
	GPtrArray *failed_checks;	/* of char *, human-readable */
	GArray *limits;			/* of IrqstormLimitResult, one per threshold */
	GPtrArray *stalls;		/* why the guest stalled (char *), if it did */
	IrqstormVerdict verdict;
} IrqstormResults;

/* Judge the outcome of a run of set (taking it). */
IrqstormResults *irqstorm_results_evaluate(const IrqstormRunSettings *set,
					   IrqstormRunOutcome *outcome);
void irqstorm_results_free(IrqstormResults *res);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormResults, irqstorm_results_free)

/*
 * Write histogram.txt (and histogram-chN.txt) and summary.json, whose
 * "return_code" is the caller's exit status, return_code; then set the
 * INCOMPLETE marker to the reason, or remove it.
 */
gboolean irqstorm_results_write(const IrqstormResults *res, int return_code,
				GError **error);

/* The human summary. */
void irqstorm_results_print(const IrqstormResults *res, FILE *out);

GHashTable *irqstorm_parse_result_line(const char *console_text);
double irqstorm_last_printk_time(const char *console_text);
GPtrArray *irqstorm_kernel_events(const char *console_text);

#endif /* IRQSTORM_RESULTS_H */
