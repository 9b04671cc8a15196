/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results of one run: its outcome (run.h), what the guest said on its
 * console (console.h) and the judgement of both (checks.h); written to the
 * output directory (histograms here, summary.json by summary-write.h) and
 * printed (report.h).
 */
#ifndef IRQSTORM_RESULTS_H
#define IRQSTORM_RESULTS_H

#include <glib.h>

#include "checks.h"
#include "console.h"
#include "run.h"

typedef struct IrqstormResults {
	const IrqstormRunSettings *set;
	IrqstormRunOutcome *outcome;
	IrqstormConsole *console;
	IrqstormChecks *checks;
} IrqstormResults;

/* Read the console of a run of set and judge its outcome (taken). */
IrqstormResults *irqstorm_results_evaluate(const IrqstormRunSettings *set,
					   IrqstormRunOutcome *outcome);
void irqstorm_results_free(IrqstormResults *res);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormResults, irqstorm_results_free)

/*
 * Write histogram.txt (and histogram-chN.txt), rt-tests.json and
 * summary.json, whose "return_code" is the caller's exit status,
 * return_code; then set the INCOMPLETE marker to the reason, or remove it.
 */
gboolean irqstorm_results_write(const IrqstormResults *res, int return_code,
				GError **error);

#endif /* IRQSTORM_RESULTS_H */
