// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latencies derived from one log record: see stages.h.
 */
#include "stages.h"

#include <string.h>

static const char *const stage_names[IRQSTORM_STAGE_COUNT] = {
	[IRQSTORM_STAGE_HARDIRQ] = "hardirq",
	[IRQSTORM_STAGE_THREAD] = "thread",
	[IRQSTORM_STAGE_DONE] = "done",
	[IRQSTORM_STAGE_HANDLER] = "handler",
	[IRQSTORM_STAGE_PROBE] = "probe",
};

/* *ns = later - earlier, unless that would be negative. */
static gboolean stamp_diff(guint64 later, guint64 earlier, guint64 *ns)
{
	if (later < earlier)
		return FALSE;
	*ns = later - earlier;
	return TRUE;
}

/* Compute stage st of record r, if its stamps are present and ordered. */
gboolean irqstorm_stage_value(const struct irqstorm_record *r,
			      IrqstormStage st, guint64 *ns)
{
	guint32 f = r->flags;

	if (!(f & IRQSTORM_REC_PROBE) != (st != IRQSTORM_STAGE_PROBE))
		return FALSE;
	switch (st) {
	case IRQSTORM_STAGE_PROBE:
		if (!(f & IRQSTORM_REC_DONE))
			return FALSE;
		return stamp_diff(r->t_done, r->t_raise, ns);
	case IRQSTORM_STAGE_HARDIRQ:
		if (!(f & IRQSTORM_REC_HARDIRQ))
			return FALSE;
		return stamp_diff(r->t_hardirq, r->t_raise, ns);
	case IRQSTORM_STAGE_THREAD:
		if (!(f & IRQSTORM_REC_THREAD))
			return FALSE;
		return stamp_diff(r->t_thread, r->t_raise, ns);
	case IRQSTORM_STAGE_DONE:
		if (!(f & IRQSTORM_REC_DONE))
			return FALSE;
		return stamp_diff(r->t_done, r->t_raise, ns);
	case IRQSTORM_STAGE_HANDLER:
		if (!(f & IRQSTORM_REC_DONE))
			return FALSE;
		if (f & IRQSTORM_REC_THREAD)
			return stamp_diff(r->t_done, r->t_thread, ns);
		if (f & IRQSTORM_REC_HARDIRQ)
			return stamp_diff(r->t_done, r->t_hardirq, ns);
		return FALSE;
	case IRQSTORM_STAGE_COUNT:
	default:
		break;
	}
	g_return_val_if_reached(FALSE);
}

/* Output name of stage st. */
const char *irqstorm_stage_name(IrqstormStage st)
{
	if ((guint)st >= IRQSTORM_STAGE_COUNT)
		return NULL;
	return stage_names[st];
}

/* Find the stage called name. */
gboolean irqstorm_stage_from_name(const char *name, IrqstormStage *st)
{
	guint i;

	for (i = 0; i < IRQSTORM_STAGE_COUNT; i++) {
		if (strcmp(name, stage_names[i]) == 0) {
			*st = (IrqstormStage)i;
			return TRUE;
		}
	}
	return FALSE;
}
