// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Histogram files read back and added up: see histfile.h.
 */
#include "histfile.h"

#include <string.h>

/* What one file says, before it becomes histograms. */
typedef struct {
	guint64 bin_ns;
	char **names;
	GArray *rows;		/* guint64[nstages] per bin, flattened */
	guint64 *overflows, *min, *max, *avg;
	gboolean have[4];	/* the footers above, seen */
} Parsed;

static void parsed_clear(Parsed *p)
{
	g_strfreev(p->names);
	if (p->rows)
		g_array_unref(p->rows);
	g_free(p->overflows);
	g_free(p->min);
	g_free(p->max);
	g_free(p->avg);
}

static gboolean bad(GError **error, const char *path, guint line, const char *what)
{
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "%s:%u: %s (not a histogram file as irqstorm run writes it)",
		    path, line, what);
	return FALSE;
}

/* "27.616" or "27" (microseconds, at most 3 decimals) into ns. */
static gboolean us_to_ns(const char *s, guint64 *ns)
{
	g_auto(GStrv) parts = g_strsplit(s, ".", -1);
	guint64 us, frac = 0;
	gsize digits = parts[0] && parts[1] ? strlen(parts[1]) : 0;

	if (!parts[0] || (parts[1] && parts[2]) || digits > 3 ||
	    !g_ascii_string_to_unsigned(parts[0], 10, 0, G_MAXUINT64 / 1000, &us, NULL))
		return FALSE;
	if (parts[1] && !g_ascii_string_to_unsigned(parts[1], 10, 0, 999, &frac, NULL))
		return FALSE;
	for (gsize d = digits; d < 3; d++)
		frac *= 10;
	*ns = us * 1000 + frac;
	return TRUE;
}

/* The n numbers after a footer's label: counts, or us ("-": none, 0). */
static gboolean footer_values(const char *rest, guint n, gboolean us, guint64 *v)
{
	g_auto(GStrv) tok = g_strsplit_set(g_strstrip((char *)rest), " \t", -1);
	guint k = 0;

	for (guint i = 0; tok[i]; i++) {
		if (!*tok[i])
			continue;
		if (k == n)
			return FALSE;
		if (!strcmp(tok[i], "-"))
			v[k] = 0;
		else if (us ? !us_to_ns(tok[i], &v[k]) :
			 !g_ascii_string_to_unsigned(tok[i], 10, 0, G_MAXUINT64, &v[k], NULL))
			return FALSE;
		k++;
	}
	return k == n;
}

/* A row: its lower edge, then a count per stage. */
static gboolean parse_row(Parsed *p, char *line)
{
	g_auto(GStrv) tok = g_strsplit_set(line, " \t", -1);
	guint n = g_strv_length(p->names), k = 0;
	g_autofree guint64 *v = g_new0(guint64, n);

	for (guint i = 1; tok[0] && tok[i]; i++) {
		if (!*tok[i])
			continue;
		if (k == n || !g_ascii_string_to_unsigned(tok[i], 10, 0, G_MAXUINT64,
							  &v[k], NULL))
			return FALSE;
		k++;
	}
	if (k != n)
		return FALSE;
	g_array_append_vals(p->rows, v, n);
	return TRUE;
}

/* The footers read back, each into a value per stage. */
static const struct {
	const char *label;
	gboolean us;
	gsize field;		/* offsetof the array in Parsed */
} footers[] = {
	{ "# Histogram Overflows:", FALSE, G_STRUCT_OFFSET(Parsed, overflows) },
	{ "# Exact min (us):", TRUE, G_STRUCT_OFFSET(Parsed, min) },
	{ "# Exact avg (us):", TRUE, G_STRUCT_OFFSET(Parsed, avg) },
	{ "# Exact max (us):", TRUE, G_STRUCT_OFFSET(Parsed, max) },
};

/* One line; the error says what is wrong with it. */
static gboolean parse_line(Parsed *p, char *line, const char **what)
{
	guint n = p->names ? g_strv_length(p->names) : 0;

	if (g_str_has_prefix(line, "# Bin width is ")) {
		char *unit = strstr(line, " us");

		*what = "bad bin width";
		if (!unit || strcmp(unit, " us"))
			return FALSE;
		*unit = '\0';
		return us_to_ns(line + strlen("# Bin width is "), &p->bin_ns) && p->bin_ns;
	}
	if (g_str_has_prefix(line, "# Stages:")) {
		*what = "no stages";
		g_strfreev(p->names);
		p->names = g_strsplit(g_strstrip(line + strlen("# Stages:")), " ", -1);
		return p->names[0] && *p->names[0];
	}
	for (gsize i = 0; i < G_N_ELEMENTS(footers); i++) {
		guint64 **v = G_STRUCT_MEMBER_P(p, footers[i].field);

		if (!g_str_has_prefix(line, footers[i].label))
			continue;
		*what = "a footer without a value per stage";
		if (!n || p->have[i])
			return FALSE;
		*v = g_new0(guint64, n);
		p->have[i] = TRUE;
		return footer_values(line + strlen(footers[i].label), n, footers[i].us, *v);
	}
	if (g_ascii_isdigit(line[0])) {
		*what = "a row without a count per stage (or before \"# Stages:\")";
		return n && parse_row(p, line);
	}
	return line[0] == '#' || !line[0];
}

/* The parsed file as histograms. */
static IrqstormHistfile *histfile_new(const char *path, Parsed *p)
{
	IrqstormHistfile *f = g_new0(IrqstormHistfile, 1);
	guint n = g_strv_length(p->names);

	f->path = g_strdup(path);
	f->files = 1;
	f->bin_ns = p->bin_ns;
	f->nbins = p->rows->len / n;
	f->names = g_steal_pointer(&p->names);
	f->hists = g_ptr_array_new_with_free_func((GDestroyNotify)irqstorm_hist_free);
	for (guint j = 0; j < n; j++) {
		g_autofree guint64 *bins = g_new0(guint64, f->nbins);
		IrqstormHistCounts c = {
			.bins = bins, .overflows = p->overflows[j],
			.min = p->min[j], .max = p->max[j], .avg_floor = p->avg[j],
		};
		IrqstormHist *h = irqstorm_hist_new(f->bin_ns, f->nbins);

		for (guint i = 0; i < f->nbins; i++)
			bins[i] = g_array_index(p->rows, guint64, (gsize)i * n + j);
		irqstorm_hist_add_counts(h, &c);
		g_ptr_array_add(f->hists, h);
	}
	return f;
}

IrqstormHistfile *irqstorm_histfile_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	Parsed p = { .rows = g_array_new(FALSE, FALSE, sizeof(guint64)) };
	IrqstormHistfile *f = NULL;
	const char *what = NULL;
	guint i;

	if (!g_file_get_contents(path, &text, NULL, error))
		goto out;
	lines = g_strsplit(text, "\n", -1);
	for (i = 0; lines[i]; i++)
		if (!parse_line(&p, lines[i], &what) && !bad(error, path, i + 1, what))
			goto out;
	if (!p.bin_ns || !p.names || !p.rows->len)
		bad(error, path, i, "no \"# Bin width\", \"# Stages:\" or rows");
	else if (!p.have[0] || !p.have[1] || !p.have[2] || !p.have[3])
		bad(error, path, i, "no \"# Histogram Overflows:\" or \"# Exact ...\" footers");
	else
		f = histfile_new(path, &p);
out:
	parsed_clear(&p);
	return f;
}

void irqstorm_histfile_free(IrqstormHistfile *f)
{
	if (!f)
		return;
	g_free(f->path);
	g_strfreev(f->names);
	g_ptr_array_unref(f->hists);
	g_free(f);
}

gboolean irqstorm_histfile_add(IrqstormHistfile *into, const IrqstormHistfile *from,
			       GError **error)
{
	g_autofree char *a = g_strjoinv(" ", into->names);
	g_autofree char *b = g_strjoinv(" ", from->names);

	if (into->bin_ns != from->bin_ns || into->nbins != from->nbins || strcmp(a, b)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s and %s cannot be added up: %u bins of %" G_GUINT64_FORMAT
			    " ns, stages %s, against %u bins of %" G_GUINT64_FORMAT
			    " ns, stages %s (the runs' [run] bin_ns, bins or stages differ)",
			    into->path, from->path, into->nbins, into->bin_ns, a,
			    from->nbins, from->bin_ns, b);
		return FALSE;
	}
	for (guint j = 0; j < into->hists->len; j++) {
		const IrqstormHist *h = from->hists->pdata[j];
		g_autofree guint64 *bins = g_new0(guint64, from->nbins);
		IrqstormHistCounts c = {
			.bins = bins, .overflows = irqstorm_hist_overflows(h),
			.min = irqstorm_hist_min(h), .max = irqstorm_hist_max(h),
			.avg_floor = irqstorm_hist_avg_floor(h),
		};

		for (guint i = 0; i < from->nbins; i++)
			bins[i] = irqstorm_hist_bin_count(h, i);
		irqstorm_hist_add_counts(into->hists->pdata[j], &c);
	}
	into->files += from->files;
	return TRUE;
}
