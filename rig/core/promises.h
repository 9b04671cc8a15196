/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * genirq's promises to a handler, held against what a run recorded: the
 * guest's result line (its counters, its threads' policies) and the
 * device's records (each stage's time and vCPU). Each promise names the
 * kernel code that makes it; docs/analysis.md lists them.
 */
#ifndef IRQSTORM_PROMISES_H
#define IRQSTORM_PROMISES_H

#include <glib.h>

#include "console.h"
#include "scenario.h"

/* How a broken promise starts among a run's kernel failures. */
#define IRQSTORM_PROMISE_FAILURE	"promise "

typedef struct {
	const char *promise;	/* its name (static): "one-at-a-time", ... */
	int channel;		/* the channel it was held for */
	gboolean held;
	char *detail;		/* what was measured; why it broke */
} IrqstormPromise;

/*
 * The promises every run is held to, whatever its scenario does, from the
 * guest's console alone: one handler run at a time, and each handler's
 * context as its threading mode is promised. Of IrqstormPromise, as
 * irqstorm_promises_judge()'s.
 */
GArray *irqstorm_promises_always(const IrqstormScenario *sc, const IrqstormConsole *con);

/*
 * Every promise that applies to sc's active channels (the above and the
 * rest), judged from the
 * guest's console and the run's records (of struct irqstorm_record, from
 * records.csv; NULL: the promises that need them are not judged).
 * fifo_secondary: the kernel has sched_set_fifo_secondary() (its
 * System.map says), so a secondary thread is promised one below.
 * Of IrqstormPromise; each detail is the array's to free (g_free).
 */
GArray *irqstorm_promises_judge(const IrqstormScenario *sc, const IrqstormConsole *con,
				const GArray *records, gboolean fifo_secondary);

/* Where the kernel makes the promise named so (documentation), or NULL. */
const char *irqstorm_promise_source(const char *promise);

#endif /* IRQSTORM_PROMISES_H */
