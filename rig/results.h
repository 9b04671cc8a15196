/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results of one run: what was collected, how the run ended, the checks
 * that say whether the numbers can be trusted, and the files they go to.
 */
#ifndef IRQSTORM_RESULTS_H
#define IRQSTORM_RESULTS_H

#include <stdio.h>
#include <glib.h>

#include "collect.h"
#include "run.h"

typedef struct {
	const IrqstormRunSettings *set;
	IrqstormCollected *data;	/* NULL if collection never started */

	/* device counters, read over QMP after the guest powered off */
	gboolean have_counters;
	char *counters_error;
	guint64 dev_raised, dev_coalesced, dev_handled;
	guint64 dev_published, dev_lost, dev_guest_errors;

	/* how it ended */
	gboolean guest_shutdown;
	char *shutdown_reason;		/* QMP SHUTDOWN "reason" */
	char *stop_reason;		/* what ended the run otherwise */
	GHashTable *guest;		/* the IRQSTORM-RESULT line's key=value */
	double wall_seconds;

	/* filled by irqstorm_results_finish() */
	gboolean complete;
	char *incomplete_reason;
	GPtrArray *failed_checks;	/* of char *, human-readable */
} IrqstormResults;

IrqstormResults *irqstorm_results_new(const IrqstormRunSettings *set);
void irqstorm_results_free(IrqstormResults *res);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormResults, irqstorm_results_free)

gboolean irqstorm_results_begin(IrqstormResults *res, GError **error);
void irqstorm_results_read_console(IrqstormResults *res, const char *path);
GHashTable *irqstorm_parse_result_line(const char *console_text);
int irqstorm_results_finish(IrqstormResults *res, GError **error);
void irqstorm_results_print(const IrqstormResults *res, FILE *out);

#endif /* IRQSTORM_RESULTS_H */
