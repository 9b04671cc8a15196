// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A triggered sweep's results, from records.csv: see sweep.h.
 */
#include "sweep.h"

#include "files.h"
#include "irqentry.h"
#include "records.h"

static IrqstormSweepPoint sweep_point(const struct irqstorm_record *r)
{
	IrqstormSweepPoint p = {
		.offset_ns = r->offset, .seq = r->seq, .raise_ns = r->t_raise,
	};

	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
		guint64 to;

		p.others[st] = IRQSTORM_SWEEP_UNKNOWN;
		p.cpu[st] = irqstorm_stage_cpu(r, st);
		if (irqstorm_stage_span(r, st, &p.from_ns[st], &to))
			p.stage_ns[st] = to - p.from_ns[st];
		else
			p.stage_ns[st] = IRQSTORM_SWEEP_NONE;
	}
	return p;
}

gint irqstorm_sweep_point_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormSweepPoint *x = a, *y = b;

	if (x->offset_ns != y->offset_ns)
		return x->offset_ns < y->offset_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Channel ch's records of records.csv, only the triggered ones or all. */
static GArray *sweep_read(const char *records_csv, guint ch, gboolean triggered,
			  GError **error)
{
	g_autoptr(GArray) recs = irqstorm_records_read(records_csv, TRUE, error);
	g_autoptr(GArray) points = NULL;

	if (!recs)
		return NULL;
	points = g_array_new(FALSE, FALSE, sizeof(IrqstormSweepPoint));
	for (guint i = 0; i < recs->len; i++) {
		const struct irqstorm_record *r =
			&g_array_index(recs, struct irqstorm_record, i);
		IrqstormSweepPoint p;

		if (r->channel != ch || (triggered && !(r->flags & IRQSTORM_REC_TRIGGERED)))
			continue;
		p = sweep_point(r);
		g_array_append_val(points, p);
	}
	if (triggered)
		g_array_sort(points, irqstorm_sweep_point_compare);
	return g_steal_pointer(&points);
}

GArray *irqstorm_sweep_read(const char *records_csv, guint ch, GError **error)
{
	return sweep_read(records_csv, ch, TRUE, error);
}

GArray *irqstorm_sweep_read_channel(const char *records_csv, guint ch,
				    GError **error)
{
	return sweep_read(records_csv, ch, FALSE, error);
}

guint64 irqstorm_sweep_span(const GArray *points)
{
	guint64 first = G_MAXUINT64, last = 0;

	for (guint i = 0; i < points->len; i++) {
		const IrqstormSweepPoint *p = &g_array_index(points, IrqstormSweepPoint, i);

		first = MIN(first, p->raise_ns);
		last = MAX(last, p->raise_ns);
	}
	return points->len < 2 ? 0 : last - first;
}

/* Is p among which for stage st? */
static gboolean sweep_which(const IrqstormSweepPoint *p, IrqstormStage st,
			    IrqstormSweepWhich which)
{
	if (which == IRQSTORM_SWEEP_ALL)
		return TRUE;
	if (p->others[st] == IRQSTORM_SWEEP_UNKNOWN)
		return FALSE;
	return (p->others[st] > 0) == (which == IRQSTORM_SWEEP_INTERFERED);
}

IrqstormSweepWorst irqstorm_sweep_worst_of(const GArray *points, IrqstormStage st,
					   IrqstormSweepWhich which)
{
	IrqstormSweepWorst w = { 0 };
	guint count = 0;

	for (guint i = 0; i < points->len; i++) {
		const IrqstormSweepPoint *p = &g_array_index(points, IrqstormSweepPoint, i);
		guint64 ns = p->stage_ns[st];

		if (ns == IRQSTORM_SWEEP_NONE || !sweep_which(p, st, which))
			continue;
		count++;
		if (w.any && ns <= w.latency_ns)
			continue;
		w = (IrqstormSweepWorst) { TRUE, p->offset_ns, ns, p->others[st],
					   p->other[st], 0 };
	}
	w.count = count;
	return w;
}

IrqstormSweepWorst irqstorm_sweep_worst(const GArray *points, IrqstormStage st)
{
	return irqstorm_sweep_worst_of(points, st, IRQSTORM_SWEEP_ALL);
}

gboolean irqstorm_sweep_interference_known(const GArray *points)
{
	for (guint i = 0; i < points->len; i++)
		for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
			const IrqstormSweepPoint *p =
				&g_array_index(points, IrqstormSweepPoint, i);

			if (p->stage_ns[st] != IRQSTORM_SWEEP_NONE &&
			    p->others[st] == IRQSTORM_SWEEP_UNKNOWN)
				return FALSE;
		}
	return points->len > 0;
}

void irqstorm_sweep_interference(GArray *points, const GArray *taken)
{
	for (guint i = 0; i < points->len; i++) {
		IrqstormSweepPoint *p = &g_array_index(points, IrqstormSweepPoint, i);

		for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++) {
			guint64 from = p->from_ns[st];

			if (p->stage_ns[st] == IRQSTORM_SWEEP_NONE)
				continue;
			p->others[st] = irqstorm_irqentry_others(
				taken, from, from + p->stage_ns[st],
				p->cpu[st] == IRQSTORM_CPU_NONE ? G_MAXUINT : p->cpu[st],
				p->raise_ns, p->raise_ns - p->offset_ns, &p->other[st]);
		}
	}
}

gboolean irqstorm_sweep_write_csv(const char *path, const GArray *points,
				  GError **error)
{
	g_autoptr(GString) s = g_string_new("offset_ns,seq");

	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
		g_string_append_printf(s, ",%s_ns", irqstorm_stage_name(st));
	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
		g_string_append_printf(s, ",%s_others", irqstorm_stage_name(st));
	g_string_append_c(s, '\n');
	for (guint i = 0; i < points->len; i++) {
		const IrqstormSweepPoint *p = &g_array_index(points, IrqstormSweepPoint, i);

		g_string_append_printf(s, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT,
				       p->offset_ns, p->seq);
		for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
			if (p->stage_ns[st] == IRQSTORM_SWEEP_NONE)
				g_string_append_c(s, ',');
			else
				g_string_append_printf(s, ",%" G_GUINT64_FORMAT, p->stage_ns[st]);
		for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
			if (p->stage_ns[st] == IRQSTORM_SWEEP_NONE ||
			    p->others[st] == IRQSTORM_SWEEP_UNKNOWN)
				g_string_append_c(s, ',');
			else
				g_string_append_printf(s, ",%u", p->others[st]);
		g_string_append_c(s, '\n');
	}
	return irqstorm_write_file(path, s->str, s->len, error);
}
