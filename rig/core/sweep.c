// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A triggered sweep's results, from records.csv: see sweep.h.
 */
#include "sweep.h"

#include <string.h>


/* The records.csv columns a sweep needs, found by header name. */
enum { COL_SEQ, COL_CHANNEL, COL_FLAGS, COL_RAISE, COL_HARDIRQ, COL_THREAD,
       COL_DONE, COL_OFFSET, NCOLS };
static const char *const col_names[NCOLS] = {
	"seq", "channel", "flags", "t_raise", "t_hardirq", "t_thread", "t_done",
	"offset",
};

static gboolean sweep_fail(GError **error, const char *path, guint line,
			   const char *why)
{
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path,
		    line, why);
	return FALSE;
}

/* The index of each needed column in the header line. */
static gboolean sweep_header(const char *line, const char *path, int *cols,
			     GError **error)
{
	g_auto(GStrv) names = g_strsplit(line, ",", -1);

	for (guint c = 0; c < NCOLS; c++) {
		cols[c] = -1;
		for (guint i = 0; names[i]; i++)
			if (!strcmp(names[i], col_names[c]))
				cols[c] = i;
		if (cols[c] < 0) {
			g_autofree char *why = g_strdup_printf(
				"no column '%s': not the records.csv of a run with "
				"triggered records (ABI 4 or later)", col_names[c]);

			return sweep_fail(error, path, 1, why);
		}
	}
	return TRUE;
}

/* A field as a number; an empty field is 0 (its flag says it is absent). */
static gboolean sweep_field(char **f, guint nf, int col, guint64 *v)
{
	char *end;

	if ((guint)col >= nf)
		return FALSE;
	if (!*f[col]) {
		*v = 0;
		return TRUE;
	}
	*v = g_ascii_strtoull(f[col], &end, 10);
	return !*end;
}

/*
 * One CSV line as a record, and whether its offset field is filled; FALSE
 * when it is not a records.csv line.
 */
static gboolean sweep_record(const char *line, const int *cols,
			     struct irqstorm_record *r, gboolean *has_offset)
{
	g_auto(GStrv) f = g_strsplit(line, ",", -1);
	guint nf = g_strv_length(f);
	guint64 v[NCOLS];

	for (guint c = 0; c < NCOLS; c++)
		if (!sweep_field(f, nf, cols[c], &v[c]))
			return FALSE;
	*has_offset = *f[cols[COL_OFFSET]] != '\0';
	memset(r, 0, sizeof(*r));
	r->seq = v[COL_SEQ];
	r->channel = v[COL_CHANNEL];
	r->flags = v[COL_FLAGS];
	r->t_raise = v[COL_RAISE];
	r->t_hardirq = v[COL_HARDIRQ];
	r->t_thread = v[COL_THREAD];
	r->t_done = v[COL_DONE];
	r->offset = v[COL_OFFSET];
	return TRUE;
}

static IrqstormSweepPoint sweep_point(const struct irqstorm_record *r)
{
	IrqstormSweepPoint p = {
		.offset_ns = r->offset, .seq = r->seq, .raise_ns = r->t_raise,
	};

	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
		if (!irqstorm_stage_value(r, st, &p.stage_ns[st]))
			p.stage_ns[st] = IRQSTORM_SWEEP_NONE;
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
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(IrqstormSweepPoint));
	int cols[NCOLS];

	if (!g_file_get_contents(records_csv, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	if (!lines[0] || !sweep_header(lines[0], records_csv, cols, error))
		return NULL;
	for (guint i = 1; lines[i]; i++) {
		struct irqstorm_record r;
		IrqstormSweepPoint p;
		gboolean has_offset;

		if (!*lines[i])
			continue;
		if (!sweep_record(lines[i], cols, &r, &has_offset)) {
			sweep_fail(error, records_csv, i + 1, "not a records.csv line");
			return NULL;
		}
		if (r.channel != ch || (triggered && !(r.flags & IRQSTORM_REC_TRIGGERED)))
			continue;
		if ((r.flags & IRQSTORM_REC_TRIGGERED) && !has_offset) {
			sweep_fail(error, records_csv, i + 1,
				   "a triggered record without its offset");
			return NULL;
		}
		p = sweep_point(&r);
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

IrqstormSweepWorst irqstorm_sweep_worst(const GArray *points, IrqstormStage st)
{
	IrqstormSweepWorst w = { 0 };

	for (guint i = 0; i < points->len; i++) {
		const IrqstormSweepPoint *p = &g_array_index(points, IrqstormSweepPoint, i);
		guint64 ns = p->stage_ns[st];

		if (ns == IRQSTORM_SWEEP_NONE || (w.any && ns <= w.latency_ns))
			continue;
		w = (IrqstormSweepWorst) { TRUE, p->offset_ns, ns };
	}
	return w;
}

gboolean irqstorm_sweep_write_csv(const char *path, const GArray *points,
				  GError **error)
{
	g_autoptr(GString) s = g_string_new("offset_ns,seq");

	for (int st = 0; st < IRQSTORM_STAGE_IRQ_COUNT; st++)
		g_string_append_printf(s, ",%s_ns", irqstorm_stage_name(st));
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
		g_string_append_c(s, '\n');
	}
	return g_file_set_contents(path, s->str, s->len, error);
}
