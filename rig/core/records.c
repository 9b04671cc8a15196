// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * records.csv read back: see records.h.
 */
#include "records.h"

#include <string.h>

/*
 * The columns read, found by header name; offset may be absent, and t_bh
 * is (before ABI 5 there was no bh stamp: its flag is never set then).
 */
enum { COL_SEQ, COL_CHANNEL, COL_FLAGS, COL_RAISE, COL_HARDIRQ, COL_THREAD,
       COL_DONE, COL_OFFSET, COL_BH, NCOLS };
static const char *const col_names[NCOLS] = {
	"seq", "channel", "flags", "t_raise", "t_hardirq", "t_thread", "t_done",
	"offset", "t_bh",
};

/* Each stamp's vCPU column, "cpu_<stamp>" (IRQSTORM_STAMPS); optional. */
static const struct irqstorm_stamp_desc stamps[IRQSTORM_STAMP_COUNT] = {
	IRQSTORM_STAMPS(IRQSTORM_STAMP_DESC)
};

static gboolean records_fail(GError **error, const char *path, guint line,
			     const char *why)
{
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s:%u: %s", path,
		    line, why);
	return FALSE;
}

/* The index of each stamp's vCPU column in names, or -1. */
static void records_cpu_columns(char **names, int *cpu_cols)
{
	for (guint p = 0; p < IRQSTORM_STAMP_COUNT; p++) {
		g_autofree char *want = g_strconcat("cpu_", stamps[p].name, NULL);

		cpu_cols[p] = -1;
		for (guint i = 0; names[i]; i++)
			if (!strcmp(names[i], want))
				cpu_cols[p] = i;
	}
}

/* The index of each column in the header line, -1 for an absent offset. */
static gboolean records_header(const char *line, const char *path,
			       gboolean need_offset, int *cols, int *cpu_cols,
			       GError **error)
{
	g_auto(GStrv) names = g_strsplit(line, ",", -1);

	records_cpu_columns(names, cpu_cols);

	for (guint c = 0; c < NCOLS; c++) {
		g_autofree char *why = NULL;

		cols[c] = -1;
		for (guint i = 0; names[i]; i++)
			if (!strcmp(names[i], col_names[c]))
				cols[c] = i;
		if (cols[c] >= 0 || (c == COL_OFFSET && !need_offset) ||
		    c == COL_BH)
			continue;
		why = g_strdup_printf(c == COL_OFFSET ?
				      "no column '%s': not the records.csv of a run "
				      "with triggered records (ABI 4 or later)" :
				      "no column '%s': not a records.csv", col_names[c]);
		return records_fail(error, path, 1, why);
	}
	return TRUE;
}

/* A field as a number; an empty field is 0 (its flag says it is absent). */
static gboolean records_field(char **f, guint nf, int col, guint64 *v)
{
	char *end;

	if (col < 0) {
		*v = 0;
		return TRUE;
	}
	if ((guint)col >= nf)
		return FALSE;
	if (!*f[col]) {
		*v = 0;
		return TRUE;
	}
	*v = g_ascii_strtoull(f[col], &end, 10);
	return !*end;
}

/* One CSV line as a record; NULL on success, else what is wrong with it. */
static const char *records_line(const char *line, const int *cols,
				const int *cpu_cols, struct irqstorm_record *r)
{
	g_auto(GStrv) f = g_strsplit(line, ",", -1);
	guint nf = g_strv_length(f);
	guint64 v[NCOLS];

	for (guint c = 0; c < NCOLS; c++)
		if (!records_field(f, nf, cols[c], &v[c]))
			return "not a records.csv line";
	memset(r, 0, sizeof(*r));
	r->seq = v[COL_SEQ];
	r->channel = v[COL_CHANNEL];
	r->flags = v[COL_FLAGS];
	r->t_raise = v[COL_RAISE];
	r->t_hardirq = v[COL_HARDIRQ];
	r->t_thread = v[COL_THREAD];
	r->t_done = v[COL_DONE];
	r->offset = v[COL_OFFSET];
	r->t_bh = v[COL_BH];
	for (guint p = 0; p < IRQSTORM_STAMP_COUNT; p++) {
		guint64 cpu;

		if (cpu_cols[p] < 0 || (guint)cpu_cols[p] >= nf || !*f[cpu_cols[p]])
			cpu = IRQSTORM_CPU_NONE;
		else if (!records_field(f, nf, cpu_cols[p], &cpu) || cpu > IRQSTORM_CPU_NONE)
			return "not a records.csv line";
		G_STRUCT_MEMBER(guint8, r, stamps[p].cpu) = cpu;
	}
	if ((r->flags & IRQSTORM_REC_TRIGGERED) &&
	    (cols[COL_OFFSET] < 0 || !*f[cols[COL_OFFSET]]))
		return "a triggered record without its offset";
	return NULL;
}

GArray *irqstorm_records_read(const char *records_csv, gboolean need_offset,
			      GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	g_autoptr(GArray) recs = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	int cols[NCOLS], cpu_cols[IRQSTORM_STAMP_COUNT];

	if (!g_file_get_contents(records_csv, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	if (!lines[0] || !records_header(lines[0], records_csv, need_offset, cols, cpu_cols,
						    error))
		return NULL;
	for (guint i = 1; lines[i]; i++) {
		struct irqstorm_record r;
		const char *why;

		if (!*lines[i])
			continue;
		why = records_line(lines[i], cols, cpu_cols, &r);
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
