/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latencies derived from one log record. All are differences of stamps on
 * QEMU's virtual clock, in ns:
 *
 *   hardirq  t_hardirq - t_raise                       needs HARDIRQ
 *   thread   t_thread  - t_raise                       needs THREAD
 *   done     t_done    - t_raise                       needs DONE
 *   handler  t_done - (THREAD ? t_thread : t_hardirq)  needs DONE and
 *                                                      THREAD or HARDIRQ
 *   probe    t_done - t_raise of a probe record: the guest real-time
 *            task's wake-up lateness               needs PROBE
 *
 * The interrupt stages never come from probe records, nor probe from
 * interrupt records.
 */
#ifndef IRQSTORM_RIG_STAGES_H
#define IRQSTORM_RIG_STAGES_H

#include <glib.h>

#include "irqstorm/abi.h"

G_BEGIN_DECLS

typedef enum {
	IRQSTORM_STAGE_HARDIRQ,
	IRQSTORM_STAGE_THREAD,
	IRQSTORM_STAGE_DONE,
	IRQSTORM_STAGE_HANDLER,
	IRQSTORM_STAGE_PROBE,
	IRQSTORM_STAGE_COUNT,	/* number of stages, not a stage */
} IrqstormStage;

/*
 * Compute stage st of record r into *ns. Returns FALSE, leaving *ns alone,
 * when a stamp the stage needs is missing (its flag is clear) or when the
 * later stamp precedes the earlier one (the difference would be negative;
 * the device never produces that, so callers may count it as an anomaly).
 */
gboolean irqstorm_stage_value(const struct irqstorm_record *r,
			      IrqstormStage st, guint64 *ns);

/* Name used in outputs ("hardirq", ...); NULL for an invalid stage. */
const char *irqstorm_stage_name(IrqstormStage st);

/* Look a stage up by its name; FALSE if there is no such stage. */
gboolean irqstorm_stage_from_name(const char *name, IrqstormStage *st);

G_END_DECLS

#endif /* IRQSTORM_RIG_STAGES_H */
