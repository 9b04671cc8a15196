// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * records.csv, written and read back by one table of its columns: see
 * records.h.
 */
#include "records.h"

#include <stddef.h>
#include <string.h>

#include "stages.h"

/* A column: a field of struct irqstorm_record, a stamp's time or vCPU. */
typedef struct {
	char name[32];
	size_t offset, size;	/* in the record */
	guint32 flag;		/* written only when the record has it; 0: always */
	gboolean required;	/* a file without it is no records.csv */
	gboolean cpu;		/* a vCPU: absent or empty reads IRQSTORM_CPU_NONE */
} Column;

#define FIELD(m, flag, required)					\
	{ #m, offsetof(struct irqstorm_record, m),			\
	  sizeof(((struct irqstorm_record *)0)->m), flag, required, FALSE }

/* Stamp p's time ("t_<stamp>") or vCPU ("cpu_<stamp>") as column *c. */
static void stamp_column(Column *c, guint p, gboolean cpu, gboolean required)
{
	const struct irqstorm_stamp_desc *s = irqstorm_stamp(p);

	g_snprintf(c->name, sizeof(c->name), "%s%s", cpu ? "cpu_" : "t_", s->name);
	c->offset = cpu ? s->cpu : s->time;
	c->size = cpu ? sizeof(guint8) : sizeof(guint64);
	c->flag = s->flag;
	c->required = required;
	c->cpu = cpu;
}

#define MAX_COLUMNS (8 + 2 * IRQSTORM_STAMP_COUNT)

/* The file's columns, laid out once (layout()). */
typedef struct {
	Column c[MAX_COLUMNS];
	guint n;
	guint offset;		/* the offset column's index */
} Layout;

/*
 * The columns in the file's order, which is the order they came in: the
 * fields and the stamps of ABI 1, the offset (ABI 4), then every stamp
 * IRQSTORM_STAMPS added since, its time and its vCPU (bh: ABI 5). A new
 * stamp is a new pair of columns at the end, with no change here.
 */
static void lay_out(Layout *lay)
{
	static const Column head[] = {
		FIELD(seq, 0, TRUE), FIELD(channel, 0, TRUE), FIELD(flags, 0, TRUE),
		FIELD(t_raise, 0, TRUE),
	};
	static const Column mid[] = { FIELD(coalesced, 0, FALSE), FIELD(work, 0, FALSE) };
	static const guint first[] = {
		IRQSTORM_STAMP_HARDIRQ, IRQSTORM_STAMP_THREAD, IRQSTORM_STAMP_DONE,
	};
	gboolean listed[IRQSTORM_STAMP_COUNT] = { FALSE };
	Column *c = lay->c;
	guint n = 0;

	for (guint i = 0; i < G_N_ELEMENTS(head); i++)
		c[n++] = head[i];
	for (guint i = 0; i < G_N_ELEMENTS(first); i++)
		stamp_column(&c[n++], first[i], FALSE, TRUE);
	for (guint i = 0; i < G_N_ELEMENTS(mid); i++)
		c[n++] = mid[i];
	for (guint i = 0; i < G_N_ELEMENTS(first); i++) {
		stamp_column(&c[n++], first[i], TRUE, FALSE);
		listed[first[i]] = TRUE;
	}
	lay->offset = n;
	c[n++] = (Column)FIELD(offset, IRQSTORM_REC_TRIGGERED, FALSE);
	for (guint p = 0; p < IRQSTORM_STAMP_COUNT; p++) {
		if (listed[p])
			continue;
		stamp_column(&c[n++], p, FALSE, FALSE);
		stamp_column(&c[n++], p, TRUE, FALSE);
	}
	lay->n = n;
}

/* The layout, made on first use: every record written or read uses it. */
static const Layout *layout(void)
{
	static Layout lay;
	static gsize done;

	if (g_once_init_enter(&done)) {
		lay_out(&lay);
		g_once_init_leave(&done, 1);
	}
	return &lay;
}

static guint64 column_value(const Column *c, const struct irqstorm_record *r)
{
	const guint8 *p = (const guint8 *)r + c->offset;

	switch (c->size) {
	case 1:
		return *p;
	case 4:
		return *(const guint32 *)p;
	default:
		return *(const guint64 *)p;
	}
}

/* v into column c of r; FALSE if it does not fit. */
static gboolean column_set(const Column *c, struct irqstorm_record *r, guint64 v)
{
	guint8 *p = (guint8 *)r + c->offset;

	if (c->size < sizeof(v) && v >> (8 * c->size))
		return FALSE;
	switch (c->size) {
	case 1:
		*p = v;
		break;
	case 4:
		*(guint32 *)p = v;
		break;
	default:
		*(guint64 *)p = v;
	}
	return TRUE;
}

gboolean irqstorm_records_write_header(FILE *f)
{
	const Layout *lay = layout();

	for (guint i = 0; i < lay->n; i++)
		if (fprintf(f, "%s%s", i ? "," : "", lay->c[i].name) < 0)
			return FALSE;
	return fputc('\n', f) != EOF;
}

gboolean irqstorm_records_write(FILE *f, const struct irqstorm_record *r)
{
	const Layout *lay = layout();
	const Column *c = lay->c;

	for (guint i = 0; i < lay->n; i++) {
		if (i && fputc(',', f) == EOF)
			return FALSE;
		if ((!c[i].flag || (r->flags & c[i].flag)) &&
		    fprintf(f, "%" G_GUINT64_FORMAT, column_value(&c[i], r)) < 0)
			return FALSE;
	}
	return fputc('\n', f) != EOF;
}

static gboolean records_fail(GError **error, const char *path, guint line,
			     const char *why)
{
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path,
		    line, why);
	return FALSE;
}

/* Where each of the n columns c is in the header line (-1: absent). */
static gboolean records_header(const char *line, const char *path, gboolean need_offset,
			       const Layout *lay, int *at, GError **error)
{
	g_auto(GStrv) names = g_strsplit(line, ",", -1);
	const Column *c = lay->c;

	for (guint k = 0; k < lay->n; k++) {
		g_autofree char *why = NULL;
		gboolean offset = k == lay->offset;

		at[k] = -1;
		for (guint i = 0; names[i]; i++)
			if (!strcmp(names[i], c[k].name))
				at[k] = i;
		if (at[k] >= 0 || !(c[k].required || (offset && need_offset)))
			continue;
		why = g_strdup_printf(offset ?
				      "no column '%s': not the records.csv of a run "
				      "with triggered records (ABI 4 or later)" :
				      "no column '%s': not a records.csv", c[k].name);
		return records_fail(error, path, 1, why);
	}
	return TRUE;
}

/* Column c of fields f (nf of them, at its index at) into r; FALSE if
 * the line is not one of records.csv. Empty (or an absent vCPU): 0, or
 * IRQSTORM_CPU_NONE for a vCPU. */
static gboolean records_field(const Column *c, int at, char **f, guint nf,
			      struct irqstorm_record *r)
{
	guint64 v = c->cpu ? IRQSTORM_CPU_NONE : 0;
	char *end;

	if (at >= 0 && (guint)at >= nf && !c->cpu)
		return FALSE;
	if (at >= 0 && (guint)at < nf && *f[at]) {
		v = g_ascii_strtoull(f[at], &end, 10);
		if (*end)
			return FALSE;
	}
	return column_set(c, r, v);
}

/* One CSV line as a record; NULL on success, else what is wrong with it. */
static const char *records_line(const char *line, const Layout *lay, const int *at,
				struct irqstorm_record *r)
{
	g_auto(GStrv) f = g_strsplit(line, ",", -1);
	guint nf = g_strv_length(f);
	int o = at[lay->offset];

	memset(r, 0, sizeof(*r));
	for (guint k = 0; k < lay->n; k++)
		if (!records_field(&lay->c[k], at[k], f, nf, r))
			return "not a records.csv line";
	if ((r->flags & IRQSTORM_REC_TRIGGERED) && !(o >= 0 && (guint)o < nf && *f[o]))
		return "a triggered record without its offset";
	return NULL;
}

GArray *irqstorm_records_read(const char *records_csv, gboolean need_offset,
			      GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GArray) recs = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	const Layout *lay = layout();
	int at[MAX_COLUMNS];

	if (!g_file_get_contents(records_csv, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	if (!lines[0] || !records_header(lines[0], records_csv, need_offset, lay, at, error))
		return NULL;
	for (guint i = 1; lines[i]; i++) {
		struct irqstorm_record r;
		const char *why;

		if (!*lines[i])
			continue;
		why = records_line(lines[i], lay, at, &r);
		if (why) {
			records_fail(error, records_csv, i + 1, why);
			return NULL;
		}
		g_array_append_val(recs, r);
	}
	return g_steal_pointer(&recs);
}

const struct irqstorm_record *irqstorm_records_find(const GArray *records,
						    guint64 seq)
{
	for (guint i = 0; i < records->len; i++)
		if (g_array_index(records, struct irqstorm_record, i).seq == seq)
			return &g_array_index(records, struct irqstorm_record, i);
	return NULL;
}
