// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result writers: see output.h.
 */
#include "output.h"

#include <string.h>

#include "json-build.h"
#include "summary-keys.h"

/* Write contents to path via a temporary file and rename. */
static gboolean write_atomically(const char *path, const char *contents,
				 gsize len, GError **error)
{
	return g_file_set_contents_full(path, contents, (gssize)len,
					G_FILE_SET_CONTENTS_CONSISTENT, 0644,
					error);
}

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
} footers[] = {
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
	for (guint i = 0; i < G_N_ELEMENTS(footers); i++) {
		g_string_append(s, footers[i].label);
		for (guint j = 0; j < n; j++) {
			guint64 v = footers[i].stat(hists[j]);

			g_string_append_printf(s, " %0*" G_GUINT64_FORMAT, footers[i].width,
					       footers[i].latency ? v / 1000 : v);
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

/* Write the histograms as a cyclictest --histfile; see output.h. */
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
	return write_atomically(path, s->str, s->len, error);
}

/* Write the CSV column titles. */
gboolean irqstorm_write_csv_header(FILE *f)
{
	return fputs("seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced,"
		     "work,cpu_hardirq,cpu_thread,cpu_done\n", f) >= 0;
}

/* Write one CSV field: a stamp if its flag is set, else nothing. */
static gboolean csv_stamp(FILE *f, guint32 flags, guint32 flag, guint64 t)
{
	if (!(flags & flag))
		return fputs(",", f) >= 0;
	return fprintf(f, ",%" G_GUINT64_FORMAT, t) >= 0;
}

/* Write one record as a CSV line. */
gboolean irqstorm_write_csv_record(FILE *f, const struct irqstorm_record *r)
{
	if (fprintf(f, "%" G_GUINT64_FORMAT ",%" G_GUINT32_FORMAT ",%"
		    G_GUINT32_FORMAT ",%" G_GUINT64_FORMAT,
		    (guint64)r->seq, (guint32)r->channel, (guint32)r->flags,
		    (guint64)r->t_raise) < 0)
		return FALSE;
	if (!csv_stamp(f, r->flags, IRQSTORM_REC_HARDIRQ, r->t_hardirq) ||
	    !csv_stamp(f, r->flags, IRQSTORM_REC_THREAD, r->t_thread) ||
	    !csv_stamp(f, r->flags, IRQSTORM_REC_DONE, r->t_done))
		return FALSE;
	if (fprintf(f, ",%" G_GUINT32_FORMAT ",%" G_GUINT32_FORMAT,
		    (guint32)r->coalesced, (guint32)r->work) < 0)
		return FALSE;
	if (!csv_stamp(f, r->flags, IRQSTORM_REC_HARDIRQ, r->cpu_hardirq) ||
	    !csv_stamp(f, r->flags, IRQSTORM_REC_THREAD, r->cpu_thread) ||
	    !csv_stamp(f, r->flags, IRQSTORM_REC_DONE, r->cpu_done))
		return FALSE;
	return fputc('\n', f) != EOF;
}

/* Add statistic s of h in ns, or null when the histogram is empty. */
static void json_add_stat(JsonBuilder *b, const IrqstormHist *h,
			  IrqstormStat s, gboolean empty)
{
	json_builder_set_member_name(b, irqstorm_stat_key(s));
	if (empty)
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, (gint64)irqstorm_stat_value(h, s));
}

/* Build the JSON summary of one stage; see output.h. */
JsonNode *irqstorm_summary_stage_json(const IrqstormHist *h)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	gboolean empty = irqstorm_hist_count(h) == 0;
	guint64 bin_ns = irqstorm_hist_bin_ns(h);
	guint i;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, IRQSTORM_KEY_CYCLES);
	json_builder_add_int_value(b, (gint64)irqstorm_hist_count(h));
	json_add_stat(b, h, IRQSTORM_STAT_MIN, empty);
	json_builder_set_member_name(b, irqstorm_stat_key(IRQSTORM_STAT_AVG));
	if (empty)
		json_builder_add_null_value(b);
	else
		json_builder_add_double_value(b, irqstorm_hist_avg(h));
	json_add_stat(b, h, IRQSTORM_STAT_MAX, empty);
	for (i = 0; i < IRQSTORM_STAT_COUNT; i++)
		if (irqstorm_stat_percentile(i) > 0)
			json_add_stat(b, h, i, empty);
	json_builder_set_member_name(b, "overflows");
	json_builder_add_int_value(b, (gint64)irqstorm_hist_overflows(h));
	json_builder_set_member_name(b, "bin_ns");
	json_builder_add_int_value(b, (gint64)bin_ns);

	json_builder_set_member_name(b, "histogram");
	json_builder_begin_object(b);
	for (i = 0; i < irqstorm_hist_nbins(h); i++) {
		guint64 c = irqstorm_hist_bin_count(h, i);
		char key[24];

		if (!c)
			continue;
		g_snprintf(key, sizeof(key), "%" G_GUINT64_FORMAT,
			   (guint64)i * bin_ns);
		json_builder_set_member_name(b, key);
		json_builder_add_int_value(b, (gint64)c);
	}
	json_builder_end_object(b);

	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* Write a JSON document pretty-printed, via a temporary file and rename. */
gboolean irqstorm_write_json_file(const char *path, JsonNode *root,
				  GError **error)
{
	g_autofree char *text = NULL;

	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(root != NULL, FALSE);

	text = irqstorm_json_text(root);
	return write_atomically(path, text, strlen(text), error);
}

