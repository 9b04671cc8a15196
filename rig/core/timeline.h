/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run as a timeline in the Chrome trace-event format (JSON), the one
 * Perfetto UI, chrome://tracing and speedscope open: a track for the
 * device's raises, then per vCPU: its points' track, and each recorded
 * event as an async slice from its raise to its last point, cut at its
 * points (raise, hardirq, thread, bh, done; the probe's expected,
 * wake-up), with a flow from the raise to the last point's vCPU; its tasks'
 * track, the whole run's tasks with the hard interrupts nested in them
 * (irqstorm explain's tasks.json); its explained track, the explained
 * windows' tasks (contexts) that ran, each with its functions nested under
 * it. Times are virtual (QEMU_CLOCK_VIRTUAL): ts
 * and dur are microseconds as the format wants them, written with three
 * decimals, so every nanosecond of the records is kept exactly.
 * docs/export.md describes the file.
 */
#ifndef IRQSTORM_RIG_TIMELINE_H
#define IRQSTORM_RIG_TIMELINE_H

#include <glib.h>

#include "irqstorm/abi.h"
#include "tasks.h"

G_BEGIN_DECLS

/* A stretch of one function on one vCPU, from an explained window. */
typedef struct {
	guint cpu;
	guint64 from_ns, to_ns;
	const char *function;
	const char *context;	/* the task, as explain names it */
} IrqstormTimelineSpan;

/*
 * The trace of records (struct irqstorm_record, in any order) on a
 * machine of cpus vCPUs, spans (of IrqstormTimelineSpan, may be NULL) and
 * tasks (of IrqstormTaskSlice, may be NULL), labelled label: the JSON text.
 */
char *irqstorm_timeline_json(const GArray *records, guint cpus, const GArray *spans,
			     const GArray *tasks, const char *label);

G_END_DECLS

#endif
