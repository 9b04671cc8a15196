/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Judging a run from its outcome and the guest's console: did it end as
 * planned (complete), do its three witnesses (guest, device, host) agree
 * (cross-checks), did the guest stall, were the scenario's thresholds met;
 * and the verdict that sums it up.
 */
#ifndef IRQSTORM_CHECKS_H
#define IRQSTORM_CHECKS_H

#include <glib.h>

#include "console.h"
#include "run.h"

/* The judgement of a run; a command makes an exit status of it. */
typedef enum {
	IRQSTORM_VERDICT_PASSED,
	IRQSTORM_VERDICT_ERROR,		/* incomplete, or a cross-check failed */
	IRQSTORM_VERDICT_THRESHOLD,	/* a scenario threshold was exceeded */
	IRQSTORM_VERDICT_STALL,		/* the guest stalled: an i8042 region or
					 * spin timed out, the kernel disabled
					 * an interrupt line ("nobody cared"), or
					 * a livelock: the device ended the storm */
	IRQSTORM_VERDICT_KERNEL,	/* the kernel reported a fault the scenario
					 * does not expect ([run] kernel_expect),
					 * or did not report one it does */
} IrqstormVerdict;

/* A scenario threshold against what was measured: in a run of several
 * channels, one per channel (the probe's once: it is the run's). */
typedef struct {
	const IrqstormThreshold *threshold;
	int channel;			/* the channel judged, or IRQSTORM_NONE:
					 * the run's one channel, or the probe */
	gboolean measured;		/* the stage had samples */
	guint64 value_ns;
	gboolean exceeded;
} IrqstormLimitResult;

typedef struct {
	gboolean complete;
	char *incomplete_reason;	/* NULL when complete */
	GPtrArray *failed_checks;	/* of char *, human-readable */
	GArray *limits;			/* of IrqstormLimitResult, one per threshold
					 * (and channel) */
	GPtrArray *stalls;		/* why the guest stalled (char *), if it did */
	GPtrArray *kernel;		/* why the kernel fails the run (char *): a
					 * report not expected, a kind expected and
					 * not reported, a broken promise (starting
					 * IRQSTORM_PROMISE_FAILURE) */
	IrqstormVerdict verdict;
} IrqstormChecks;

/*
 * Judge a run of sc. The cross-checks run only on a complete run; stalls
 * and thresholds only when those passed (else the verdict is ERROR). The
 * kernel's reports are judged on every run, complete or not, and a fault
 * decides the verdict (KERNEL): a kernel that oopses is the culprit of the
 * run it cut short. Marks each of con's reports expected or not.
 */
IrqstormChecks *irqstorm_checks_run(const IrqstormScenario *sc,
				    const IrqstormRunOutcome *out,
				    const IrqstormConsole *con);
void irqstorm_checks_free(IrqstormChecks *c);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormChecks, irqstorm_checks_free)

#endif /* IRQSTORM_CHECKS_H */
