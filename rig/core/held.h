/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interrupts one vCPU sent another under -icount quantum: QEMU holds
 * each to the end of its window of virtual time (qemu-device/patches/0003)
 * and traces it (icount_window_irq: the target, when it was sent, when it
 * was raised). Read back, they say how late a cross-CPU interrupt was:
 * never before it was sent, never more than the quantum after.
 */
#ifndef IRQSTORM_HELD_H
#define IRQSTORM_HELD_H

#include <glib.h>

/* QEMU's trace event, as -trace enable= takes it */
#define IRQSTORM_HELD_TRACE_EVENT "icount_window_irq"

typedef struct {
	guint64 count;			/* interrupts held to a window's end */
	gint64 min_ns, max_ns;		/* raised - sent; 0 when count is 0 */
	gint64 outside;			/* how many not in [0, quantum] */
} IrqstormHeldIrqs;

/*
 * Read QEMU's trace file at path into held, judging each delay against
 * quantum_ns. Lines of other events are skipped; a line of this event that
 * does not parse is an error naming it.
 */
gboolean irqstorm_held_irqs_read(const char *path, guint quantum_ns,
				 IrqstormHeldIrqs *held, GError **error);

#endif /* IRQSTORM_HELD_H */
