/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rtla-hist.txt: a run's latencies in the layout of "rtla timerlat hist -u"
 * (tools/tracing/rtla of Linux 6.12: timerlat_hist.c), so that what reads
 * rtla's histograms (rteval's timerlat module, scripts written for rtla)
 * reads ours. rtla's three columns per CPU are irqstorm's three stages
 * measured from an event to a handler on one CPU:
 *
 *   IRQ-NNN  the hardirq stage (raise to the hard-interrupt handler) of
 *            the interrupts whose hard handler ran on vCPU NNN
 *   Thr-NNN  the thread stage (raise to the threaded handler's start), by
 *            the vCPU of the thread
 *   Usr-NNN  the probe stage (the real-time probe's wake-up lateness, a
 *            user-space thread woken by a timer, like timerlat's -u), by
 *            the vCPU the probe woke on
 *
 * As rtla keeps them: each sample truncated to whole microseconds, 1 us
 * buckets (Index is the bucket's us), the samples at or past the last
 * bucket counted in "over:", count/min/avg/max of the truncated values
 * (avg their sum divided by their count, truncated; "-" without samples),
 * then the "ALL:" summary of every CPU. Rows without any sample are left
 * out (rtla without --with-zeros). A vCPU is listed when one of its
 * columns has a sample.
 */
#ifndef IRQSTORM_RIG_RTLA_H
#define IRQSTORM_RIG_RTLA_H

#include <glib.h>

#include "irqstorm/abi.h"

G_BEGIN_DECLS

typedef struct IrqstormRtla IrqstormRtla;

/* entries: the number of 1 us buckets (rtla's -E; its default is 256). */
IrqstormRtla *irqstorm_rtla_new(guint entries);
void irqstorm_rtla_free(IrqstormRtla *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormRtla, irqstorm_rtla_free)

/* Count record r: its hardirq, thread or probe stage, where it has one. */
void irqstorm_rtla_add(IrqstormRtla *t, const struct irqstorm_record *r);

/*
 * The file's text. duration_s (the storm's duration) is printed as rtla
 * prints its own ("# Duration:   0 00:00:02"); the three comment lines of
 * rtla are followed by one of irqstorm's that says what the columns are.
 */
char *irqstorm_rtla_format(const IrqstormRtla *t, guint64 duration_s);

/* Write it to path, atomically (temporary + rename). */
gboolean irqstorm_rtla_write(const char *path, const IrqstormRtla *t,
			     guint64 duration_s, GError **error);

G_END_DECLS

#endif /* IRQSTORM_RIG_RTLA_H */
