/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm stages: the latencies the rig derives from the stamps of a log
 * record, each declared once. The device takes the stamps (abi.h,
 * IRQSTORM_STAMPS); the rig (rig/) computes, histograms, checks and plots
 * every stage of this table, in this order, which is the order of the
 * columns of histogram.txt and of the stages in summary.json.
 *
 * X(ID, "name", record, from, to, "meaning")
 *
 * record: IRQ (an interrupt's record) or PROBE (a probe record); from and
 * to: RAISE or a stamp of IRQSTORM_STAMPS, or HANDLER_START, the stamp
 * where the work started (BH if it was deferred, else THREAD if there is
 * one, else HARDIRQ). A stage needs both its stamps, and the later not before the
 * earlier. The interrupt stages come first, then the probe's.
 */
#ifndef IRQSTORM_STAGES_H
#define IRQSTORM_STAGES_H

#define IRQSTORM_STAGES(X)						\
	X(HARDIRQ, "hardirq", IRQ, RAISE, HARDIRQ,			\
	  "to the hard-interrupt handler's first register write")	\
	X(THREAD, "thread", IRQ, RAISE, THREAD,				\
	  "to the threaded handler's start")				\
	X(BH, "bh", IRQ, RAISE, BH,					\
	  "to the deferred work's start (tasklet, work item)")		\
	X(DONE, "done", IRQ, RAISE, DONE, "to the handler's completion") \
	X(HANDLER, "handler", IRQ, HANDLER_START, DONE,			\
	  "from the work's start (bh, thread or hardirq) to done: its own time") \
	X(PROBE, "probe", PROBE, RAISE, DONE,				\
	  "the real-time probe's wake-up lateness")

#endif /* IRQSTORM_STAGES_H */
