// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Histogram files written, read back and added up: see histfile.h.
 */
#include "histfile.h"

#include <string.h>

#include "files.h"

/* ---- writing ------------------------------------------------------------ */

/* Check that a stage name can be a whitespace-separated column title. */
static gboolean histfile_name_ok(const char *name)
{
	const char *c;

	if (!name || !*name)
		return FALSE;
	for (c = name; *c; c++) {
		if (g_ascii_isspace(*c) || !g_ascii_isprint(*c))
			return FALSE;
	}
	return TRUE;
}

/* Samples inside the bins: cyclictest's "# Total:" excludes overflows. */
static guint64 in_range_count(const IrqstormHist *h)
{
	return irqstorm_hist_count(h) - irqstorm_hist_overflows(h);
}

/* cyclictest's footer lines, in its order and widths; latencies in whole
 * microseconds, truncated as cyclictest's own are. */
static const struct {
	const char *label;
	int width;
	guint64 (*stat)(const IrqstormHist *h);
	gboolean latency;	/* ns, printed in whole us */
} cyclictest_footers[] = {
	{ "# Total:", 9, in_range_count, FALSE },
	{ "# Min Latencies:", 5, irqstorm_hist_min, TRUE },
	{ "# Avg Latencies:", 5, irqstorm_hist_avg_floor, TRUE },
	{ "# Max Latencies:", 5, irqstorm_hist_max, TRUE },
	{ "# Histogram Overflows:", 5, irqstorm_hist_overflows, FALSE },
};

/* The same latencies to the ns, in lines no cyclictest reader looks for
 * (OSADL's script greps "Max Latencies" and takes the largest number). */
static const struct {
	const char *label;
	guint64 (*stat)(const IrqstormHist *h);
} exact_footers[] = {
	{ "# Exact min (us):", irqstorm_hist_min },
	{ "# Exact avg (us):", irqstorm_hist_avg_floor },
	{ "# Exact max (us):", irqstorm_hist_max },
};

/* All hists alike (bins and width) and every name a column title. */
static gboolean histfile_check(const char *path, IrqstormHist *const *hists,
			       const char *const *names, guint n, GError **error)
{
	guint64 bin_ns = irqstorm_hist_bin_ns(hists[0]);
	guint nbins = irqstorm_hist_nbins(hists[0]);

	for (guint j = 0; j < n; j++) {
		if (irqstorm_hist_bin_ns(hists[j]) != bin_ns ||
		    irqstorm_hist_nbins(hists[j]) != nbins) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s: histogram %u has %u bins of %" G_GUINT64_FORMAT
				    " ns (expected %u bins of %" G_GUINT64_FORMAT " ns, like histogram 0)",
				    path, j, irqstorm_hist_nbins(hists[j]),
				    irqstorm_hist_bin_ns(hists[j]), nbins, bin_ns);
			return FALSE;
		}
		if (!histfile_name_ok(names[j])) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s: bad name for histogram %u (expected a non-empty name without whitespace)",
				    path, j);
			return FALSE;
		}
	}
	return TRUE;
}

/* ns as microseconds with three decimals: "27.616", or "%06" padded. */
static void append_us(GString *s, guint64 ns, gboolean padded)
{
	g_string_append_printf(s, padded ? "%06" G_GUINT64_FORMAT ".%03u" :
			       "%" G_GUINT64_FORMAT ".%03u",
			       ns / 1000, (guint)(ns % 1000));
}

/* What the file is, its unit and bin, and the stages' names. */
static void histfile_header(GString *s, guint64 bin_ns,
			    const char *const *names, guint n)
{
	g_string_append(s, "# Histogram\n"
		"# Layout: cyclictest --histfile of rt-tests up to 2.6 (Debian 12: 2.4),"
		" empty rows and \"# Total:\" included (2.7 dropped both)\n"
		"# Columns: the bin's lower edge, then one per stage"
		" (where cyclictest has one per thread), in the order of \"# Stages:\"\n"
		"# Time unit is microseconds\n");
	g_string_append(s, "# Bin width is ");
	if (bin_ns % 1000 == 0)
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, bin_ns / 1000);
	else
		append_us(s, bin_ns, FALSE);
	g_string_append(s, " us\n# Stages:");
	for (guint j = 0; j < n; j++)
		g_string_append_printf(s, " %s", names[j]);
	g_string_append_c(s, '\n');
}

/* One line per bin: "%06d " (whole us, or with decimals under 1 us
 * bins), then the tab-separated "%06lu" count of each stage. */
static void histfile_rows(GString *s, IrqstormHist *const *hists, guint n)
{
	guint64 bin_ns = irqstorm_hist_bin_ns(hists[0]);
	guint nbins = irqstorm_hist_nbins(hists[0]);

	for (guint i = 0; i < nbins; i++) {
		if (bin_ns % 1000 == 0)
			g_string_append_printf(s, "%06" G_GUINT64_FORMAT,
					       (guint64)i * (bin_ns / 1000));
		else
			append_us(s, (guint64)i * bin_ns, TRUE);
		g_string_append_c(s, ' ');
		for (guint j = 0; j < n; j++)
			g_string_append_printf(s, "%s%06" G_GUINT64_FORMAT, j ? "\t" : "",
					       irqstorm_hist_bin_count(hists[j], i));
		g_string_append_c(s, '\n');
	}
}

/* cyclictest's footers, then the exact ones ("-": no sample). */
static void histfile_footers(GString *s, IrqstormHist *const *hists, guint n)
{
	for (guint i = 0; i < G_N_ELEMENTS(cyclictest_footers); i++) {
		g_string_append(s, cyclictest_footers[i].label);
		for (guint j = 0; j < n; j++) {
			guint64 v = cyclictest_footers[i].stat(hists[j]);

			g_string_append_printf(s, " %0*" G_GUINT64_FORMAT, cyclictest_footers[i].width,
					       cyclictest_footers[i].latency ? v / 1000 : v);
		}
		g_string_append_c(s, '\n');
	}
	for (guint i = 0; i < G_N_ELEMENTS(exact_footers); i++) {
		g_string_append(s, exact_footers[i].label);
		for (guint j = 0; j < n; j++) {
			g_string_append_c(s, ' ');
			if (irqstorm_hist_count(hists[j]))
				append_us(s, exact_footers[i].stat(hists[j]), FALSE);
			else
				g_string_append_c(s, '-');
		}
		g_string_append_c(s, '\n');
	}
}

/* Write the histograms as a cyclictest --histfile; see histfile.h. */
gboolean irqstorm_write_histfile(const char *path, IrqstormHist *const *hists,
				 const char *const *names, guint n,
				 GError **error)
{
	g_autoptr(GString) s = NULL;

	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	if (n == 0 || !hists || !names) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: no histograms to write", path);
		return FALSE;
	}
	if (!histfile_check(path, hists, names, n, error))
		return FALSE;
	s = g_string_sized_new(512 + (gsize)irqstorm_hist_nbins(hists[0]) * (12 + 8 * n));
	histfile_header(s, irqstorm_hist_bin_ns(hists[0]), names, n);
	histfile_rows(s, hists, n);
	histfile_footers(s, hists, n);
	return irqstorm_write_file(path, s->str, (gssize)s->len, error);
}

/* ---- reading ------------------------------------------------------------ */


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
