// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latencies derived from one log record: see stages.h. Everything here
 * follows the tables of include/irqstorm/: a stage is its row.
 */
#include "stages.h"

#include <string.h>

/* A point of a record: a stamp, the raise, or the handler's start. */
enum {
	POINT_RAISE = -1,
	POINT_HANDLER_START = -2,
#define POINT_OF_STAMP(id, name, reg, flag, time, cpu) \
	POINT_##id = IRQSTORM_STAMP_##id,
	IRQSTORM_STAMPS(POINT_OF_STAMP)
#undef POINT_OF_STAMP
};

typedef struct {
	const char *name;
	gboolean probe;		/* of probe records */
	int from, to;		/* points */
	const char *help;
} StageDesc;

#define STAGE_DESC(id, name, rec, from, to, help) \
	{ name, !IRQSTORM_STAGE_OF_##rec, POINT_##from, POINT_##to, help },
static const StageDesc stages[IRQSTORM_STAGE_COUNT] = {
	IRQSTORM_STAGES(STAGE_DESC)
};
#undef STAGE_DESC

/* The table lists the interrupt stages first: per-channel files rely on it. */
#define STAGE_ORDER(id, name, rec, from, to, help)			\
	G_STATIC_ASSERT(IRQSTORM_STAGE_OF_##rec ==			\
			((int)IRQSTORM_STAGE_##id < (int)IRQSTORM_STAGE_IRQ_COUNT));
IRQSTORM_STAGES(STAGE_ORDER)
#undef STAGE_ORDER

static const struct irqstorm_stamp_desc stamps[IRQSTORM_STAMP_COUNT] = {
	IRQSTORM_STAMPS(IRQSTORM_STAMP_DESC)
};

const struct irqstorm_stamp_desc *irqstorm_stamp(guint p)
{
	g_return_val_if_fail(p < IRQSTORM_STAMP_COUNT, NULL);
	return &stamps[p];
}

/* The time of point p of record r into *t; FALSE if r lacks its stamp. */
static gboolean point_time(const struct irqstorm_record *r, int p, guint64 *t)
{
	if (p == POINT_RAISE) {
		*t = r->t_raise;
		return TRUE;
	}
	if (p == POINT_HANDLER_START)
		return point_time(r, POINT_BH, t) ||
		       point_time(r, POINT_THREAD, t) ||
		       point_time(r, POINT_HARDIRQ, t);
	if (!(r->flags & stamps[p].flag))
		return FALSE;
	*t = G_STRUCT_MEMBER(guint64, r, stamps[p].time);
	return TRUE;
}

gboolean irqstorm_stage_span(const struct irqstorm_record *r, IrqstormStage st,
			     guint64 *from, guint64 *to)
{
	g_return_val_if_fail((guint)st < IRQSTORM_STAGE_COUNT, FALSE);
	if (!(r->flags & IRQSTORM_REC_PROBE) != !stages[st].probe)
		return FALSE;
	return point_time(r, stages[st].from, from) &&
	       point_time(r, stages[st].to, to) && *to >= *from;
}

gboolean irqstorm_stage_value(const struct irqstorm_record *r,
			      IrqstormStage st, guint64 *ns)
{
	guint64 from, to;

	if (!irqstorm_stage_span(r, st, &from, &to))
		return FALSE;
	*ns = to - from;
	return TRUE;
}

guint irqstorm_stage_cpu(const struct irqstorm_record *r, IrqstormStage st)
{
	int p;

	g_return_val_if_fail((guint)st < IRQSTORM_STAGE_COUNT, IRQSTORM_CPU_NONE);
	p = stages[st].to;
	if (p < 0 || !(r->flags & stamps[p].flag))
		return IRQSTORM_CPU_NONE;
	return G_STRUCT_MEMBER(guint8, r, stamps[p].cpu);
}

guint irqstorm_stage_points(const struct irqstorm_record *r,
			    const char **names, guint64 *times)
{
	guint n = 0;

	names[n] = "raise";
	times[n++] = r->t_raise;
	for (int p = 0; p < IRQSTORM_STAMP_COUNT; p++) {
		if (!point_time(r, p, &times[n]))
			continue;
		names[n++] = stamps[p].name;
	}
	return n;
}

guint irqstorm_stage_event_points(const struct irqstorm_record *r, const char **names,
				  guint64 *times, guint *cpus)
{
	guint n = irqstorm_stage_points(r, names, times), c = 0;
	guint64 t;

	cpus[c++] = IRQSTORM_CPU_NONE;
	for (int p = 0; p < IRQSTORM_STAMP_COUNT; p++)
		if (point_time(r, p, &t))
			cpus[c++] = G_STRUCT_MEMBER(guint8, r, stamps[p].cpu);
	if ((r->flags & IRQSTORM_REC_PROBE) && n > 1) {
		names[0] = "expected";
		names[n - 1] = "wake-up";
	}
	return n;
}

const char *irqstorm_stage_name(IrqstormStage st)
{
	return (guint)st < IRQSTORM_STAGE_COUNT ? stages[st].name : NULL;
}

const char *irqstorm_stage_help(IrqstormStage st)
{
	return (guint)st < IRQSTORM_STAGE_COUNT ? stages[st].help : NULL;
}

gboolean irqstorm_stage_is_probe(IrqstormStage st)
{
	return (guint)st < IRQSTORM_STAGE_COUNT && stages[st].probe;
}

gboolean irqstorm_stage_from_raise(IrqstormStage st)
{
	return (guint)st < IRQSTORM_STAGE_COUNT && !stages[st].probe &&
	       stages[st].from == POINT_RAISE;
}

gboolean irqstorm_stage_from_name(const char *name, IrqstormStage *st)
{
	for (guint i = 0; i < IRQSTORM_STAGE_COUNT; i++) {
		if (strcmp(name, stages[i].name) == 0) {
			*st = (IrqstormStage)i;
			return TRUE;
		}
	}
	return FALSE;
}

char *irqstorm_stage_names(gboolean with_probe)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < IRQSTORM_STAGE_COUNT; i++)
		if (with_probe || !stages[i].probe)
			g_string_append_printf(s, "%s%s", s->len ? " " : "",
					       stages[i].name);
	return g_string_free(s, FALSE);
}
