// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/output.c (histfile, CSV, JSON summary) and of the stage
 * derivation in rig/stages.c that feeds them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "core/hist.h"
#include "core/output.h"
#include "core/records.h"
#include "core/stages.h"
#include "core/histfile.h"

/* A fresh temporary directory; removed by rmtree_dir(). */
static char *make_dir(void)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp("irqstorm-test-XXXXXX", &error);

	g_assert_no_error(error);
	return dir;
}

/* g_ptr_array_sort() comparator for strings. */
static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the entries of dir, sorted, joined by spaces. */
static char *list_dir(const char *dir)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) d = g_dir_open(dir, 0, &error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	g_assert_no_error(error);
	while ((name = g_dir_read_name(d)))
		g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, cmp_strp);
	g_ptr_array_add(names, NULL);
	return g_strjoinv(" ", (char **)names->pdata);
}

/* Remove dir and the plain files in it. */
static void rmtree_dir(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *p = g_build_filename(dir, name, NULL);

		g_assert_cmpint(g_unlink(p), ==, 0);
	}
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

/* Contents of path. */
static char *slurp(const char *path)
{
	g_autoptr(GError) error = NULL;
	char *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

/* Parse a decimal u64 that must make up the whole of s. */
static guint64 parse_u64(const char *s)
{
	g_autoptr(GError) error = NULL;
	guint64 v = 0;

	g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, &v, &error);
	g_assert_no_error(error);
	return v;
}

/* ---- histfile ------------------------------------------------------- */

/* The lines every histfile begins with. */
#define HEADER_HEAD \
	"# Histogram\n" \
	"# Layout: cyclictest --histfile of rt-tests up to 2.6 (Debian 12: 2.4)," \
	" empty rows and \"# Total:\" included (2.7 dropped both)\n" \
	"# Columns: the bin's lower edge, then one per stage" \
	" (where cyclictest has one per thread), in the order of \"# Stages:\"\n" \
	"# Time unit is microseconds\n"


/* The exact bytes of a small microsecond histfile. */
static void test_histfile_exact_us(void)
{
	g_autoptr(IrqstormHist) a = irqstorm_hist_new(1000, 3);
	g_autoptr(IrqstormHist) b = irqstorm_hist_new(1000, 3);
	IrqstormHist *hists[] = { a, b };
	const char *const names[] = { "a", "b" };
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "hist.txt", NULL);
	g_autofree char *text = NULL;

	irqstorm_hist_add(a, 0);
	irqstorm_hist_add(a, 500);
	irqstorm_hist_add(a, 1500);
	irqstorm_hist_add(a, 2999);
	irqstorm_hist_add(a, 5000);
	irqstorm_hist_add(b, 1000);

	g_assert_true(irqstorm_write_histfile(path, hists, names, 2, &error));
	g_assert_no_error(error);
	text = slurp(path);
	g_assert_cmpstr(text, ==,
			HEADER_HEAD
			"# Bin width is 1 us\n"
			"# Stages: a b\n"
			"000000 000002\t000000\n"
			"000001 000001\t000001\n"
			"000002 000001\t000000\n"
			"# Total: 000000004 000000001\n"
			"# Min Latencies: 00000 00001\n"
			"# Avg Latencies: 00001 00001\n"
			"# Max Latencies: 00005 00001\n"
			"# Histogram Overflows: 00001 00000\n"
			"# Exact min (us): 0.000 1.000\n"
			"# Exact avg (us): 1.999 1.000\n"
			"# Exact max (us): 5.000 1.000\n");
	rmtree_dir(dir);
}

/*
 * A bin width under (or not a multiple of) a microsecond keeps the file in
 * microseconds, bins with decimals: OSADL's plot script and gnuplot read
 * them as us, where a nanosecond file was labelled us by them. The
 * cyclictest footers stay whole us; the exact ones carry the ns.
 */
static void test_histfile_sub_us(void)
{
	g_autoptr(IrqstormHist) a = irqstorm_hist_new(250, 3);
	g_autoptr(IrqstormHist) none = irqstorm_hist_new(250, 3);
	IrqstormHist *hists[] = { a, none };
	const char *const names[] = { "done", "probe" };
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "hist.txt", NULL);
	g_autofree char *text = NULL;

	irqstorm_hist_add(a, 260);
	irqstorm_hist_add(a, 749);
	irqstorm_hist_add(a, 1234567);

	g_assert_true(irqstorm_write_histfile(path, hists, names, 2, &error));
	g_assert_no_error(error);
	text = slurp(path);
	g_assert_cmpstr(text, ==,
			HEADER_HEAD
			"# Bin width is 0.250 us\n"
			"# Stages: done probe\n"
			"000000.000 000000\t000000\n"
			"000000.250 000001\t000000\n"
			"000000.500 000001\t000000\n"
			"# Total: 000000002 000000000\n"
			"# Min Latencies: 00000 00000\n"
			"# Avg Latencies: 00411 00000\n"
			"# Max Latencies: 01234 00000\n"
			"# Histogram Overflows: 00001 00000\n"
			"# Exact min (us): 0.260 -\n"
			"# Exact avg (us): 411.858 -\n"
			"# Exact max (us): 1234.567 -\n");
	g_assert_null(strstr(text, "nanoseconds"));
	rmtree_dir(dir);
}

/* A bin of several microseconds: whole us, the bin's lower edge. */
static void test_histfile_wide_bins(void)
{
	g_autoptr(IrqstormHist) a = irqstorm_hist_new(2500, 2);
	IrqstormHist *hists[] = { a };
	const char *const names[] = { "thread" };
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "hist.txt", NULL);
	g_autofree char *text = NULL;

	irqstorm_hist_add(a, 3000);
	g_assert_true(irqstorm_write_histfile(path, hists, names, 1, &error));
	g_assert_no_error(error);
	text = slurp(path);
	g_assert_nonnull(strstr(text, "# Bin width is 2.500 us\n"));
	g_assert_nonnull(strstr(text, "\n000002.500 000001\n"));
	rmtree_dir(dir);
}

/* Parse "# <label>: v v v" into n values. */
static void parse_footer(char **lines, const char *label, guint n,
			 guint64 *out)
{
	g_autofree char *prefix = g_strdup_printf("# %s:", label);
	guint i, j;

	for (i = 0; lines[i]; i++) {
		g_auto(GStrv) f = NULL;

		if (!g_str_has_prefix(lines[i], prefix))
			continue;
		f = g_strsplit(lines[i] + strlen(prefix), " ", -1);
		/* The line starts with a space: f[0] is empty. */
		g_assert_cmpuint(g_strv_length(f), ==, n + 1);
		g_assert_cmpstr(f[0], ==, "");
		for (j = 0; j < n; j++) {
			g_assert_cmpuint(strlen(f[j + 1]), >=,
					 strcmp(label, "Total") == 0 ? 9 : 5);
			out[j] = parse_u64(f[j + 1]);
		}
		return;
	}
	g_error("no \"%s\" line", prefix);
}

/* "# Exact max (us):" has each stage's max to the ns. */
static void check_exact_max(char **lines, IrqstormHist **hists, guint n)
{
	const char *label = "# Exact max (us): ";

	for (guint i = 0; lines[i]; i++) {
		g_auto(GStrv) f = NULL;

		if (!g_str_has_prefix(lines[i], label))
			continue;
		f = g_strsplit(lines[i] + strlen(label), " ", -1);
		g_assert_cmpuint(g_strv_length(f), ==, n);
		for (guint j = 0; j < n; j++) {
			g_autofree char *want = g_strdup_printf("%" G_GUINT64_FORMAT ".%03u",
				irqstorm_hist_max(hists[j]) / 1000,
				(guint)(irqstorm_hist_max(hists[j]) % 1000));

			g_assert_cmpstr(f[j], ==, want);
		}
		return;
	}
	g_error("no \"%s\" line", label);
}

/* Random data survives a write and a parse of the histfile. */
static void test_histfile_roundtrip(void)
{
	const guint nbins = 500, n = IRQSTORM_STAGE_COUNT;
	g_autoptr(GRand) rand = g_rand_new_with_seed(4242);
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "hist.txt", NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	IrqstormHist *hists[IRQSTORM_STAGE_COUNT];
	const char *names[IRQSTORM_STAGE_COUNT];
	guint64 footer[IRQSTORM_STAGE_COUNT];
	guint i, j, row = 0;

	for (j = 0; j < n; j++) {
		hists[j] = irqstorm_hist_new(2000, nbins);
		names[j] = irqstorm_stage_name(j);
		for (i = 0; i < 20000 * (j + 1); i++)
			irqstorm_hist_add(hists[j], (guint64)g_rand_int_range(rand, 100, 1100000 + 300000 * (gint32)j));
	}
	g_assert_true(irqstorm_write_histfile(path, hists, names, n, &error));
	g_assert_no_error(error);

	text = slurp(path);
	lines = g_strsplit(text, "\n", -1);
	g_assert_cmpstr(lines[0], ==, "# Histogram");
	g_assert_cmpstr(lines[3], ==, "# Time unit is microseconds");
	g_assert_cmpstr(lines[4], ==, "# Bin width is 2 us");
	g_assert_cmpstr(lines[5], ==, "# Stages: hardirq thread bh done handler probe");
	for (i = 0; lines[i] && *lines[i]; i++) {
		g_auto(GStrv) f = NULL;

		if (lines[i][0] == '#')
			continue;
		/* cyclictest: "%06d " then tab-separated "%06lu" counts */
		g_assert_cmpuint(strcspn(lines[i], " "), ==, 6);
		f = g_strsplit_set(lines[i], " \t", -1);
		g_assert_cmpuint(g_strv_length(f), ==, n + 1);
		g_assert_cmpuint(parse_u64(f[0]), ==, row * 2);
		for (j = 0; j < n; j++)
			g_assert_cmpuint(parse_u64(f[j + 1]), ==,
					 irqstorm_hist_bin_count(hists[j], row));
		row++;
	}
	g_assert_cmpuint(row, ==, nbins);
	g_assert_null(lines[i + 1]);	/* the file ends with "\n" */

	parse_footer(lines, "Total", n, footer);
	for (j = 0; j < n; j++)
		g_assert_cmpuint(footer[j], ==, irqstorm_hist_count(hists[j]) -
				 irqstorm_hist_overflows(hists[j]));
	parse_footer(lines, "Min Latencies", n, footer);
	for (j = 0; j < n; j++)
		g_assert_cmpuint(footer[j], ==, irqstorm_hist_min(hists[j]) / 1000);
	parse_footer(lines, "Avg Latencies", n, footer);
	for (j = 0; j < n; j++)
		g_assert_cmpuint(footer[j], ==,
				 irqstorm_hist_avg_floor(hists[j]) / 1000);
	parse_footer(lines, "Max Latencies", n, footer);
	for (j = 0; j < n; j++)
		g_assert_cmpuint(footer[j], ==, irqstorm_hist_max(hists[j]) / 1000);
	parse_footer(lines, "Histogram Overflows", n, footer);
	for (j = 0; j < n; j++) {
		g_assert_cmpuint(footer[j], ==, irqstorm_hist_overflows(hists[j]));
		g_assert_cmpuint(footer[j], >, 0);
	}
	check_exact_max(lines, hists, n);

	for (j = 0; j < n; j++)
		irqstorm_hist_free(hists[j]);
	rmtree_dir(dir);
}

/* A failed write leaves the old file alone and no temporary behind. */
static void test_histfile_atomic(void)
{
	g_autoptr(IrqstormHist) a = irqstorm_hist_new(1000, 10);
	g_autoptr(IrqstormHist) b = irqstorm_hist_new(1000, 11);
	IrqstormHist *hists[] = { a, b };
	const char *const names[] = { "a", "b" };
	const char *const bad_names[] = { "a", "b c" };
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "hist.txt", NULL);
	g_autofree char *nodir = g_build_filename(dir, "missing", "hist.txt", NULL);
	g_autofree char *text = NULL;
	g_autofree char *ls = NULL;

	g_file_set_contents(path, "old\n", -1, &error);
	g_assert_no_error(error);

	/* Mismatched bins. */
	g_assert_false(irqstorm_write_histfile(path, hists, names, 2, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
	g_assert_nonnull(strstr(error->message, "histogram 1 has 11 bins"));
	g_clear_error(&error);

	/* A name that would break the columns. */
	g_assert_false(irqstorm_write_histfile(path, &hists[1], &bad_names[1], 1,
					       &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL);
	g_clear_error(&error);

	/* A directory that does not exist. */
	g_assert_false(irqstorm_write_histfile(nodir, hists, names, 1, &error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
	g_clear_error(&error);

	text = slurp(path);
	g_assert_cmpstr(text, ==, "old\n");
	ls = list_dir(dir);
	g_assert_cmpstr(ls, ==, "hist.txt");

	/* Success replaces the file, and leaves nothing else. */
	irqstorm_hist_add(a, 1);
	g_assert_true(irqstorm_write_histfile(path, hists, names, 1, &error));
	g_assert_no_error(error);
	g_clear_pointer(&text, g_free);
	text = slurp(path);
	g_assert_true(g_str_has_prefix(text, "# Histogram\n"));
	g_assert_nonnull(strstr(text, "\n# Histogram Overflows: 00000\n"));
	g_clear_pointer(&ls, g_free);
	ls = list_dir(dir);
	g_assert_cmpstr(ls, ==, "hist.txt");
	rmtree_dir(dir);
}

/* ---- CSV ------------------------------------------------------------ */

/*
 * Missing stamps are empty fields, and so is the offset of a record no
 * trigger raised; everything else is decimal.
 */
static void test_csv(void)
{
	const struct irqstorm_record recs[] = {
		{ .seq = 1, .t_raise = 100, .t_hardirq = 150, .t_thread = 170,
		  .t_done = 200, .channel = 0, .coalesced = 0, .work = 512,
		  .cpu_hardirq = 0, .cpu_thread = 1, .cpu_done = 1,
		  .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD |
			   IRQSTORM_REC_DONE },
		{ .seq = 2, .t_raise = 300, .t_hardirq = 999, .t_thread = 999,
		  .t_done = 999, .channel = 3, .coalesced = 4,
		  .flags = IRQSTORM_REC_INCOMPLETE | IRQSTORM_REC_COALESCED },
		{ .seq = G_MAXUINT64, .t_raise = G_MAXUINT64, .t_hardirq = 1,
		  .t_done = 2, .channel = G_MAXUINT32, .coalesced = 7,
		  .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE |
			   IRQSTORM_REC_LEVEL },
		{ .seq = 4, .t_raise = 1000, .t_hardirq = 3000, .t_done = 3100,
		  .offset = 4000000000u, .cpu_thread = 9,
		  .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE |
			   IRQSTORM_REC_MSI | IRQSTORM_REC_TRIGGERED },
		{ .seq = 5, .t_raise = 10, .t_hardirq = 20, .t_bh = 50, .t_done = 90,
		  .channel = 1, .cpu_bh = 1, .cpu_thread = 9,
		  .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_BH | IRQSTORM_REC_DONE },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	guint i;

	g_assert_nonnull(f);
	g_assert_true(irqstorm_records_write_header(f));
	for (i = 0; i < G_N_ELEMENTS(recs); i++)
		g_assert_true(irqstorm_records_write(f, &recs[i]));
	g_assert_cmpint(fclose(f), ==, 0);
	g_assert_cmpstr(buf, ==,
			"seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced,"
			"work,cpu_hardirq,cpu_thread,cpu_done,offset,t_bh,cpu_bh\n"
			"1,0,7,100,150,170,200,0,512,0,1,1,,,\n"
			"2,3,48,300,,,,4,0,,,,,,\n"
			"18446744073709551615,4294967295,13,18446744073709551615,1,,2,7,0,0,,0,,,\n"
			"4,0,1093,1000,3000,,3100,0,0,0,,0,4000000000,,\n"
			"5,1,2053,10,20,,90,0,0,0,,0,,50,1\n");

	/* Read back (core/records.h): each stamp's vCPU, none where unstamped. */
	{
		g_autofree char *dir = g_dir_make_tmp("irqstorm-csv-XXXXXX", NULL);
		g_autofree char *path = g_build_filename(dir, "records.csv", NULL);
		g_autoptr(GError) err = NULL;
		g_autoptr(GArray) back = NULL;
		const struct irqstorm_record *r;

		g_assert_true(g_file_set_contents(path, buf, len, NULL));
		back = irqstorm_records_read(path, TRUE, &err);
		g_assert_no_error(err);
		g_assert_cmpuint(back->len, ==, G_N_ELEMENTS(recs));
		r = &g_array_index(back, struct irqstorm_record, 0);
		g_assert_cmpuint(r->cpu_hardirq, ==, 0);
		g_assert_cmpuint(r->cpu_thread, ==, 1);
		g_assert_cmpuint(r->cpu_done, ==, 1);
		g_assert_cmpuint(r->cpu_bh, ==, IRQSTORM_CPU_NONE);
		r = &g_array_index(back, struct irqstorm_record, 4);
		g_assert_cmpuint(r->cpu_bh, ==, 1);
		g_assert_cmpuint(r->cpu_thread, ==, IRQSTORM_CPU_NONE);
		g_assert_cmpuint(r->t_bh, ==, 50);
		g_unlink(path);
		g_rmdir(dir);
	}
	free(buf);
}

/* ---- JSON ----------------------------------------------------------- */

/* Integer member name of object o. */
static gint64 member_int(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);

	g_assert_nonnull(n);
	g_assert_cmpint(json_node_get_value_type(n), ==, G_TYPE_INT64);
	return json_node_get_int(n);
}

/* The summary survives a write and a parse, and matches the histogram. */
static void test_json_summary(void)
{
	static const struct {
		const char *name;
		double p;
	} pcts[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99_9", 99.9 },
		{ "p99_99", 99.99 },
	};
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 100);
	g_autoptr(IrqstormHist) empty = irqstorm_hist_new(500, 10);
	g_autoptr(GRand) rand = g_rand_new_with_seed(7);
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = make_dir();
	g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
	g_autofree char *ls = NULL;
	JsonObject *top, *o, *hist, *e;
	g_autoptr(GList) keys = NULL;
	guint64 total = 0;
	guint i, nonzero = 0;
	GList *l;

	for (i = 0; i < 50000; i++)
		irqstorm_hist_add(h, (guint64)g_rand_int_range(rand, 2000, 60000));
	irqstorm_hist_add(h, 7654321);	/* one overflow */

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "hardirq");
	json_builder_add_value(b, irqstorm_summary_stage_json(h));
	json_builder_set_member_name(b, "thread");
	json_builder_add_value(b, irqstorm_summary_stage_json(empty));
	json_builder_end_object(b);
	root = json_builder_get_root(b);

	g_assert_true(irqstorm_write_json_file(path, root, &error));
	g_assert_no_error(error);
	ls = list_dir(dir);
	g_assert_cmpstr(ls, ==, "summary.json");

	json_parser_load_from_file(parser, path, &error);
	g_assert_no_error(error);
	top = json_node_get_object(json_parser_get_root(parser));
	o = json_object_get_object_member(top, "hardirq");
	g_assert_nonnull(o);

	g_assert_cmpint(member_int(o, "cycles"), ==, 50001);
	g_assert_cmpint(member_int(o, "min"), ==, (gint64)irqstorm_hist_min(h));
	g_assert_cmpint(member_int(o, "max"), ==, 7654321);
	g_assert_cmpint(member_int(o, "overflows"), ==, 1);
	g_assert_cmpint(member_int(o, "bin_ns"), ==, 1000);
	g_assert_cmpfloat(json_object_get_double_member(o, "avg"), ==,
			  irqstorm_hist_avg(h));
	for (i = 0; i < G_N_ELEMENTS(pcts); i++)
		g_assert_cmpint(member_int(o, pcts[i].name), ==,
				(gint64)irqstorm_hist_percentile(h, pcts[i].p));
	/* With 1 overflow among 50001, p99.99 is in range but p100 is not. */
	g_assert_cmpint(member_int(o, "p99_99"), <=, 60000);

	hist = json_object_get_object_member(o, "histogram");
	g_assert_nonnull(hist);
	keys = json_object_get_members(hist);
	for (l = keys; l; l = l->next) {
		guint64 edge = parse_u64(l->data);
		gint64 c = member_int(hist, l->data);

		g_assert_cmpuint(edge % 1000, ==, 0);
		g_assert_cmpint(c, >, 0);
		g_assert_cmpint(c, ==, (gint64)irqstorm_hist_bin_count(h, (guint)(edge / 1000)));
		total += (guint64)c;
	}
	for (i = 0; i < irqstorm_hist_nbins(h); i++)
		nonzero += irqstorm_hist_bin_count(h, i) != 0;
	g_assert_cmpuint(g_list_length(keys), ==, nonzero);
	g_assert_cmpuint(nonzero, ==, 58);	/* bins 2..59 */
	g_assert_cmpuint(total, ==, 50000);

	e = json_object_get_object_member(top, "thread");
	g_assert_cmpint(member_int(e, "cycles"), ==, 0);
	g_assert_true(json_object_get_null_member(e, "min"));
	g_assert_true(json_object_get_null_member(e, "avg"));
	g_assert_true(json_object_get_null_member(e, "max"));
	g_assert_true(json_object_get_null_member(e, "p99_9"));
	g_assert_cmpint(member_int(e, "overflows"), ==, 0);
	g_assert_cmpuint(json_object_get_size(json_object_get_object_member(e, "histogram")), ==, 0);

	rmtree_dir(dir);
}

/* A JSON write into a missing directory fails cleanly. */
static void test_json_write_error(void)
{
	g_autoptr(JsonNode) root = json_node_new(JSON_NODE_OBJECT);
	g_autoptr(GError) error = NULL;

	json_node_take_object(root, json_object_new());
	g_assert_false(irqstorm_write_json_file("/nonexistent/dir/x.json", root,
						&error));
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* ---- rt-tests.json ---------------------------------------------------- */

/* Two stages, one without samples, at a fixed time. */
static char *small_rt_tests(guint64 bin_ns, GDateTime *start, GDateTime *end)
{
	g_autoptr(IrqstormHist) a = irqstorm_hist_new(bin_ns, (guint)(8000 / bin_ns));
	g_autoptr(IrqstormHist) b = irqstorm_hist_new(bin_ns, (guint)(8000 / bin_ns));
	IrqstormHist *hists[] = { a, b };
	const char *const names[] = { "hardirq", "thread" };
	const IrqstormRtTestsInfo info = {
		.cmdline = "irqstorm run \"x\".ini", .start = start, .end = end,
		.return_code = 2, .sysname = "Linux", .nodename = "(none)",
		.release = "6.12.118", .version = "irqstorm guest", .machine = "x86_64",
		.realtime = TRUE, .cpu = 0,
	};

	irqstorm_hist_add(a, 2100);
	irqstorm_hist_add(a, 2900);
	irqstorm_hist_add(a, 5500);
	irqstorm_hist_add(a, 27616);	/* beyond the bins: 8 us */
	return irqstorm_rt_tests_json(hists, names, 2, &info);
}

/* The exact text: cyclictest's layout, spacing and spelling. */
static void test_rt_tests_exact(void)
{
	g_autoptr(GDateTime) start = g_date_time_new_utc(2026, 12, 3, 20, 21, 43);
	g_autoptr(GDateTime) end = g_date_time_new_utc(2026, 12, 3, 20, 21, 45);
	g_autofree char *text = small_rt_tests(1000, start, end);

	g_assert_cmpstr(text, ==,
		"{\n"
		"  \"file_version\": 1,\n"
		"  \"cmdline:\": \"irqstorm run \\\"x\\\".ini\",\n"
		"  \"rt_test_version:\": \"2.40\",\n"
		"  \"start_time\": \"Thu, 03 Dec 2026 20:21:43 +0000\",\n"
		"  \"end_time\": \"Thu, 03 Dec 2026 20:21:45 +0000\",\n"
		"  \"return_code\": 2,\n"
		"  \"sysinfo\": {\n"
		"    \"sysname\": \"Linux\",\n"
		"    \"nodename\": \"(none)\",\n"
		"    \"release\": \"6.12.118\",\n"
		"    \"version\": \"irqstorm guest\",\n"
		"    \"machine\": \"x86_64\",\n"
		"    \"realtime\": 1\n"
		"  },\n"
		"  \"num_threads\": 2,\n"
		"  \"resolution_in_ns\": 0,\n"
		"  \"thread\": {\n"
		"    \"0\": {\n"
		"      \"histogram\": {\n"
		"        \"2\": 2,\n"
		"        \"5\": 1\n"
		"      },\n"
		"      \"cycles\": 4,\n"
		"      \"min\": 2,\n"
		"      \"max\": 27,\n"
		"      \"avg\": 9.53,\n"
		"      \"cpu\": 0,\n"
		"      \"node\": 0,\n"
		"      \"name\": \"hardirq\"\n"
		"    },\n"
		"    \"1\": {\n"
		"      \"histogram\": {      },\n"
		"      \"cycles\": 0,\n"
		"      \"min\": 0,\n"
		"      \"max\": 0,\n"
		"      \"avg\": 0.00,\n"
		"      \"cpu\": 0,\n"
		"      \"node\": 0,\n"
		"      \"name\": \"thread\"\n"
		"    }\n"
		"  }\n"
		"}\n");
}

/* Sub-us bins land in 1 us buckets keyed by whole us; times keep their
 * offset from UTC. */
static void test_rt_tests_buckets(void)
{
	g_autoptr(GTimeZone) tz = g_time_zone_new_identifier("+05:30");
	g_autoptr(GDateTime) t = g_date_time_new(tz, 2027, 1, 4, 9, 5, 7);
	g_autofree char *text = small_rt_tests(250, t, t);

	g_assert_nonnull(strstr(text, "\"start_time\": \"Mon, 04 Jan 2027 09:05:07 +0530\""));
	g_assert_nonnull(strstr(text, "\"histogram\": {\n        \"2\": 2,\n        \"5\": 1\n      },"));
}

/*
 * Linaro test-definitions' consumer of rt-tests JSON,
 * automated/lib/parse_rt_tests_results.py (what LAVA runs after
 * cyclictest --json), re-implemented line for line: it prints the lines
 * below, or returns NULL where the script would raise (KeyError).
 */
static char *py_str(JsonNode *n)
{
	double v;

	if (json_node_get_value_type(n) == G_TYPE_INT64)
		return g_strdup_printf("%" G_GINT64_FORMAT, json_node_get_int(n));
	if (json_node_get_value_type(n) != G_TYPE_DOUBLE)
		return g_strdup(json_node_get_string(n));
	/* Python's repr(): the shortest decimals that read back, ".0" at least */
	v = json_node_get_double(n);
	for (int d = 0; d <= 17; d++) {
		char buf[G_ASCII_DTOSTR_BUF_SIZE];
		g_autofree char *fmt = g_strdup_printf("%%.%df", d);

		g_ascii_formatd(buf, sizeof(buf), fmt, v);
		if (g_ascii_strtod(buf, NULL) == v)
			return d ? g_strdup(buf) : g_strconcat(buf, ".0", NULL);
	}
	return g_strdup("?");
}

static JsonNode *py_get(JsonNode *o, const char *key)
{
	return o && JSON_NODE_HOLDS_OBJECT(o) ?
		json_object_get_member(json_node_get_object(o), key) : NULL;
}

static GPtrArray *linaro_parse(const char *testname, const char *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(g_free);
	static const char *const keys[] = { "min", "avg", "max" };
	JsonNode *raw, *rc;

	g_assert_true(json_parser_load_from_data(parser, text, -1, NULL));
	raw = json_parser_get_root(parser);
	if (py_get(raw, "num_threads")) {
		gint64 num = json_node_get_int(py_get(raw, "num_threads"));

		for (gint64 i = 0; i < num; i++) {
			g_autofree char *tid = g_strdup_printf("%" G_GINT64_FORMAT, i);
			JsonNode *data = py_get(py_get(raw, "thread"), tid);

			if (!data)
				return NULL;
			if (py_get(data, "receiver"))
				data = py_get(data, "receiver");
			for (gsize k = 0; k < G_N_ELEMENTS(keys); k++) {
				g_autofree char *v = NULL;

				if (!py_get(data, keys[k]))
					return NULL;
				v = py_str(py_get(data, keys[k]));
				g_ptr_array_add(out, g_strdup_printf("t%s-%s-latency pass %s us",
								     tid, keys[k], v));
			}
		}
	}
	/* (num_irqs: rtla's; inversion: pi_stress's; neither is ours) */
	rc = py_get(raw, "return_code");
	if (!rc)
		return NULL;
	g_ptr_array_add(out, g_strdup_printf("%s %s", testname,
					     json_node_get_int(rc) == 0 ? "pass" : "fail"));
	return g_steal_pointer(&out);
}

/* The consumer finds every stage's numbers in rt-tests.json, where it
 * found none in summary.json and reported a pass without numbers. */
static void test_rt_tests_linaro(void)
{
	g_autoptr(GDateTime) t = g_date_time_new_utc(2026, 12, 3, 20, 21, 43);
	g_autofree char *text = small_rt_tests(1000, t, t);
	g_autoptr(GPtrArray) lines = linaro_parse("cyclictest", text);
	g_autoptr(GPtrArray) summary = linaro_parse("cyclictest",
		"{\"format\": \"irqstorm-summary\", \"file_version\": 1, \"return_code\": 0,"
		" \"stages\": {\"done\": {\"cycles\": 1, \"min\": 2000, \"max\": 2000}}}");
	static const char *const expected[] = {
		"t0-min-latency pass 2 us", "t0-avg-latency pass 9.53 us",
		"t0-max-latency pass 27 us", "t1-min-latency pass 0 us",
		"t1-avg-latency pass 0.0 us", "t1-max-latency pass 0 us",
		"cyclictest fail",
	};

	g_assert_nonnull(lines);
	g_assert_cmpuint(lines->len, ==, G_N_ELEMENTS(expected));
	for (guint i = 0; i < lines->len; i++)
		g_assert_cmpstr(lines->pdata[i], ==, expected[i]);
	g_assert_nonnull(summary);
	g_assert_cmpuint(summary->len, ==, 1);
	g_assert_cmpstr(summary->pdata[0], ==, "cyclictest pass");
}

/* The fixtures of this directory (tests/rig/fixture). */
static char *fixture_path(const char *name)
{
	const char *dir = g_getenv("IRQSTORM_TEST_FIXTURES");

	if (!dir || !*dir)
		g_error("IRQSTORM_TEST_FIXTURES is not set (run the tests with meson test)");
	return g_build_filename(dir, name, NULL);
}

static JsonNode *parse_json(const char *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;

	json_parser_load_from_data(parser, text, -1, &error);
	g_assert_no_error(error);
	return json_node_copy(json_parser_get_root(parser));
}

static const char *shape_name(JsonNode *n)
{
	if (JSON_NODE_HOLDS_OBJECT(n))
		return "object";
	if (JSON_NODE_HOLDS_ARRAY(n))
		return "array";
	if (JSON_NODE_HOLDS_NULL(n))
		return "null";
	return g_type_name(json_node_get_value_type(n));
}

static void assert_same_shape(JsonNode *ref, JsonNode *ours, const char *where);

/* Every member of a keyed object ("thread", "histogram") has the shape of
 * ref's first, and the keys are numbers ("0".. in order for threads). */
static void assert_keyed_shape(JsonObject *ref, JsonObject *ours, const char *where,
			       gboolean in_order)
{
	g_autoptr(GList) rk = json_object_get_members(ref);
	g_autoptr(GList) ok = json_object_get_members(ours);
	guint i = 0;

	g_assert_nonnull(rk);
	for (GList *l = ok; l; l = l->next, i++) {
		g_autofree char *at = g_strdup_printf("%s.%s", where, (char *)l->data);
		g_autofree char *want = g_strdup_printf("%u", i);
		guint64 v;

		if (in_order)
			g_assert_cmpstr(l->data, ==, want);
		g_assert_true(g_ascii_string_to_unsigned(l->data, 10, 0, G_MAXUINT64, &v, NULL));
		assert_same_shape(json_object_get_member(ref, rk->data),
				  json_object_get_member(ours, l->data), at);
	}
}

/* ours has ref's members in ref's order, each of ref's type, recursively;
 * the only member of its own is a thread's "name". */
static void assert_same_shape(JsonNode *ref, JsonNode *ours, const char *where)
{
	g_autoptr(GList) rk = NULL;
	g_autoptr(GList) ok = NULL;
	GList *r, *o;

	if (g_strcmp0(shape_name(ref), shape_name(ours)))
		g_error("%s: %s in cyclictest's, %s in ours", where, shape_name(ref),
			shape_name(ours));
	if (!JSON_NODE_HOLDS_OBJECT(ref))
		return;
	if (g_str_has_suffix(where, ".thread") || g_str_has_suffix(where, ".histogram")) {
		assert_keyed_shape(json_node_get_object(ref), json_node_get_object(ours),
				   where, g_str_has_suffix(where, ".thread"));
		return;
	}
	rk = json_object_get_members(json_node_get_object(ref));
	ok = json_object_get_members(json_node_get_object(ours));
	for (r = rk, o = ok; r || o; r = r ? r->next : NULL, o = o ? o->next : NULL) {
		g_autofree char *at = g_strdup_printf("%s.%s", where, (char *)(r ? r->data : o->data));

		if (!r && !strcmp(o->data, "name") && !o->next && strstr(where, ".thread."))
			break;
		if (!r || !o || strcmp(r->data, o->data))
			g_error("%s: cyclictest has \"%s\" there, ours \"%s\"", at,
				r ? (char *)r->data : "nothing", o ? (char *)o->data : "nothing");
		assert_same_shape(json_object_get_member(json_node_get_object(ref), r->data),
				  json_object_get_member(json_node_get_object(ours), o->data), at);
	}
}

/* Ours has the structure of the real thing: Debian 12's cyclictest --json
 * (fixture/cyclictest-2.4.json, from `cyclictest -q -l 40 -i 1000 -h 150
 * -t 2 --json=...`). */
static void test_rt_tests_shape(void)
{
	g_autofree char *ref_path = fixture_path("cyclictest-2.4.json");
	g_autofree char *ref_text = slurp(ref_path);
	g_autoptr(GDateTime) t = g_date_time_new_utc(2026, 12, 3, 20, 21, 43);
	g_autofree char *text = small_rt_tests(1000, t, t);
	g_autoptr(JsonNode) ref = parse_json(ref_text);
	g_autoptr(JsonNode) ours = parse_json(text);

	assert_same_shape(ref, ours, "$");
	g_assert_cmpint(json_object_get_int_member(json_node_get_object(ours), "num_threads"), ==,
			json_object_get_size(json_object_get_object_member(
				json_node_get_object(ours), "thread")));
}

/* ---- stages --------------------------------------------------------- */

/* A probe record gives the probe stage and nothing else; others never it. */
static void test_stage_probe(void)
{
	struct irqstorm_record r = {
		.t_raise = 1000, .t_done = 1750, .channel = IRQSTORM_PROBE_CHANNEL,
		.flags = IRQSTORM_REC_PROBE | IRQSTORM_REC_DONE,
	};
	guint64 v = 0;

	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_PROBE, &v));
	g_assert_cmpuint(v, ==, 750);
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_DONE, &v));
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));
	r.flags = IRQSTORM_REC_DONE;
	r.channel = 0;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_PROBE, &v));
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_DONE, &v));
}

/* Stage values, their required flags, and negative differences. */
static void test_stages(void)
{
	struct irqstorm_record r = {
		.t_raise = 1000, .t_hardirq = 1300, .t_thread = 2000,
		.t_done = 2600,
		.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD |
			 IRQSTORM_REC_DONE,
	};
	IrqstormStage st;
	guint64 v = 42;

	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_HARDIRQ, &v));
	g_assert_cmpuint(v, ==, 300);
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_THREAD, &v));
	g_assert_cmpuint(v, ==, 1000);
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_DONE, &v));
	g_assert_cmpuint(v, ==, 1600);
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));
	g_assert_cmpuint(v, ==, 600);

	/* Without a thread stamp the handler runs from the hardirq. */
	r.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_THREAD, &v));
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));
	g_assert_cmpuint(v, ==, 1300);

	/* Neither: no handler; no done: no done nor handler. */
	r.flags = IRQSTORM_REC_DONE;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_DONE, &v));
	r.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD |
		  IRQSTORM_REC_INCOMPLETE;
	v = 42;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_DONE, &v));
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));
	g_assert_cmpuint(v, ==, 42);

	/* A stamp before the raise is refused, zero is fine. */
	r.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE;
	r.t_hardirq = 999;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_HARDIRQ, &v));
	r.t_hardirq = 1000;
	g_assert_true(irqstorm_stage_value(&r, IRQSTORM_STAGE_HARDIRQ, &v));
	g_assert_cmpuint(v, ==, 0);
	r.t_done = 999;
	g_assert_false(irqstorm_stage_value(&r, IRQSTORM_STAGE_HANDLER, &v));

	g_assert_cmpstr(irqstorm_stage_name(IRQSTORM_STAGE_HARDIRQ), ==, "hardirq");
	g_assert_cmpstr(irqstorm_stage_name(IRQSTORM_STAGE_THREAD), ==, "thread");
	g_assert_cmpstr(irqstorm_stage_name(IRQSTORM_STAGE_DONE), ==, "done");
	g_assert_cmpstr(irqstorm_stage_name(IRQSTORM_STAGE_HANDLER), ==, "handler");
	g_assert_cmpstr(irqstorm_stage_name(IRQSTORM_STAGE_PROBE), ==, "probe");
	g_assert_null(irqstorm_stage_name(IRQSTORM_STAGE_COUNT));
	g_assert_true(irqstorm_stage_from_name("handler", &st));
	g_assert_cmpint(st, ==, IRQSTORM_STAGE_HANDLER);
	g_assert_false(irqstorm_stage_from_name("bogus", &st));
}

/* Register and run the tests. */
int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/output/histfile/exact-us", test_histfile_exact_us);
	g_test_add_func("/output/histfile/sub-us", test_histfile_sub_us);
	g_test_add_func("/output/histfile/wide-bins", test_histfile_wide_bins);
	g_test_add_func("/output/histfile/roundtrip", test_histfile_roundtrip);
	g_test_add_func("/output/histfile/atomic", test_histfile_atomic);
	g_test_add_func("/output/csv", test_csv);
	g_test_add_func("/output/json/summary", test_json_summary);
	g_test_add_func("/output/json/write-error", test_json_write_error);
	g_test_add_func("/output/rt-tests/exact", test_rt_tests_exact);
	g_test_add_func("/output/rt-tests/buckets", test_rt_tests_buckets);
	g_test_add_func("/output/rt-tests/linaro-consumer", test_rt_tests_linaro);
	g_test_add_func("/output/rt-tests/shape", test_rt_tests_shape);
	g_test_add_func("/output/stages", test_stages);
	g_test_add_func("/output/stage-probe", test_stage_probe);
	return g_test_run();
}
