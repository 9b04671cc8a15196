// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm compare: reading summary.json back (rig/summary.c), the table
 * and its JSON (rig/compare.c) on fixture summaries built here, and the
 * command itself ($IRQSTORM_BIN): exit codes, errors naming the file.
 */
#include <math.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "cmd/compare.h"
#include "core/summary.h"
#include "testutil.h"

/* One stage's JSON: the statistics in ns, all null when cycles is 0. */

/* The channels of runs of one channel each: the pooled stages (kept for
 * the test's life: reachable, not leaked). */
static const GArray *pooled(void)
{
	static GArray *a;
	const int c = IRQSTORM_CHANNELS_POOLED;

	if (!a) {
		a = g_array_new(FALSE, FALSE, sizeof(int));
		g_array_append_val(a, c);
	}
	return a;
}

static char *stage_json(const char *name, guint cycles, double min, double p50,
			double p90, double p99, double p99_9, double p99_99,
			double max)
{
	if (!cycles)
		return g_strdup_printf(
			"\"%s\": {\"cycles\": 0, \"min\": null, \"avg\": null, "
			"\"max\": null, \"p50\": null, \"p90\": null, \"p99\": null, "
			"\"p99_9\": null, \"p99_99\": null, \"overflows\": 0, "
			"\"bin_ns\": 1000, \"histogram\": {}}", name);
	return g_strdup_printf(
		"\"%s\": {\"cycles\": %u, \"min\": %.0f, \"avg\": %.3f, \"max\": %.0f, "
		"\"p50\": %.0f, \"p90\": %.0f, \"p99\": %.0f, \"p99_9\": %.0f, "
		"\"p99_99\": %.0f, \"overflows\": 0, \"bin_ns\": 1000, "
		"\"histogram\": {\"1000\": %u}}",
		name, cycles, min, (min + max) / 2, max, p50, p90, p99, p99_9, p99_99,
		cycles);
}

/* root/name/summary.json with the given stages (a "..., ..." list). */
static char *write_run(const char *root, const char *name, gboolean complete,
		       const char *reason, guint failed, const char *stages)
{
	char *dir = g_build_filename(root, name, NULL);
	g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
	g_autofree char *checks = g_strdup(failed ? "[\"records lost = 1 but expected = 0\"]" : "[]");
	g_autofree char *why = reason ? g_strdup_printf("\"%s\"", reason) : g_strdup("null");
	g_autofree char *text = g_strdup_printf(
		"{\n  \"format\": \"irqstorm-summary\",\n  \"file_version\": 1,\n"
		"  \"return_code\": %d,\n  \"complete\": %s,\n"
		"  \"incomplete_reason\": %s,\n  \"failed_checks\": %s,\n"
		"  \"sysinfo\": {\"accel\": \"tcg\", \"icount_shift\": 3, \"deterministic\": true},\n"
		"  \"counts\": {\"host\": {\"records\": 1, \"all_records\": 7}, \"device\": null,"
		" \"guest\": {}},\n"
		"  \"stages\": {%s}\n}\n",
		complete && !failed ? 0 : 1, complete ? "true" : "false", why, checks,
		stages);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	tu_write(path, text);
	return dir;
}

/* The two runs of most tests: a baseline and a slower one. */
typedef struct {
	char *root;
	char *base, *storm;
} Fixture;

static void fixture_setup(Fixture *f, gconstpointer data)
{
	g_autofree char *a1 = stage_json("hardirq", 100, 1500, 2000, 2000, 3000, 5000, 9000, 9500);
	g_autofree char *a2 = stage_json("thread", 0, 0, 0, 0, 0, 0, 0, 0);
	g_autofree char *a3 = stage_json("done", 100, 1600, 2000, 3000, 3000, 6000, 9000, 9700);
	g_autofree char *b1 = stage_json("hardirq", 200, 2500, 3000, 3000, 5490, 8000, 12000, 17385);
	g_autofree char *b2 = stage_json("thread", 200, 15000, 16000, 16000, 17000, 30000, 50000, 53944);
	g_autofree char *b3 = stage_json("done", 200, 15100, 16000, 17000, 18000, 31000, 51000, 54000);
	g_autofree char *a = g_strjoin(", ", a1, a2, a3, NULL);
	g_autofree char *b = g_strjoin(", ", b1, b2, b3, NULL);

	f->root = tu_make_dir();
	f->base = write_run(f->root, "base", TRUE, NULL, 0, a);
	f->storm = write_run(f->root, "storm", TRUE, NULL, 0, b);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->root);
	g_free(f->root);
	g_free(f->base);
	g_free(f->storm);
}

static IrqstormSummary *load(const char *dir)
{
	g_autoptr(GError) err = NULL;
	IrqstormSummary *s = irqstorm_summary_load(dir, &err);

	g_assert_no_error(err);
	g_assert_nonnull(s);
	return s;
}

/* ---- summary.json back ------------------------------------------------- */

static void test_load(Fixture *f, gconstpointer data)
{
	g_autoptr(IrqstormSummary) s = load(f->storm);
	const IrqstormStageStats *st;

	g_assert_cmpstr(s->label, ==, "storm");
	g_assert_true(s->complete);
	g_assert_null(s->incomplete_reason);
	g_assert_cmpint(s->return_code, ==, 0);
	g_assert_cmpuint(s->stages->len, ==, 3);
	/* The file's order, not alphabetical. */
	g_assert_cmpstr(((IrqstormStageStats *)s->stages->pdata[0])->name, ==, "hardirq");
	g_assert_cmpstr(((IrqstormStageStats *)s->stages->pdata[1])->name, ==, "thread");
	g_assert_cmpstr(((IrqstormStageStats *)s->stages->pdata[2])->name, ==, "done");
	st = irqstorm_summary_stage(s, "thread");
	g_assert_nonnull(st);
	g_assert_cmpuint(st->cycles, ==, 200);
	g_assert_cmpfloat(st->v[IRQSTORM_STAT_P99_9], ==, 30000);
	g_assert_cmpfloat(st->v[IRQSTORM_STAT_MAX], ==, 53944);
	g_assert_cmpuint(st->bin_ns, ==, 1000);
	g_assert_cmpint(s->records, ==, 7);
	g_assert_null(irqstorm_summary_stage(s, "probe"));
}

static void test_load_nulls(Fixture *f, gconstpointer data)
{
	g_autoptr(IrqstormSummary) s = load(f->base);
	const IrqstormStageStats *st = irqstorm_summary_stage(s, "thread");

	g_assert_nonnull(st);
	g_assert_cmpuint(st->cycles, ==, 0);
	g_assert_true(isnan(st->v[IRQSTORM_STAT_P99]));
	g_assert_null(irqstorm_summary_stage_sampled(s, "thread"));
	g_assert_nonnull(irqstorm_summary_stage_sampled(s, "done"));
}

/* Each broken directory gives an error that names the file. */
static void test_load_errors(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *name;
		const char *text;	/* NULL: no summary.json at all */
		const char *message;
	} cases[] = {
		{ "missing", NULL, "summary.json: no such file" },
		{ "garbage", "{ not json", "summary.json: not valid JSON" },
		{ "array", "[1, 2]", "summary.json: not an irqstorm summary" },
		{ "nocomplete", "{\"stages\": {}}", "no boolean \"complete\"" },
		{ "nostages", "{\"complete\": true}", "no \"stages\" object" },
		{ "badstage", "{\"complete\": true, \"stages\": {\"done\": 3}}",
		  "stages.done: expected an object" },
		{ "nocycles", "{\"complete\": true, \"stages\": {\"done\": {}}}",
		  "stages.done.cycles: expected a count" },
		{ "badstat", "{\"complete\": true, \"stages\": {\"done\": "
		  "{\"cycles\": 1, \"p99\": \"fast\"}}}", "stages.done.p99: expected a number or null" },
		{ "otherformat", "{\"format\": \"rt-tests\", \"complete\": true, \"stages\": {}}",
		  "not an irqstorm summary (\"format\": \"rt-tests\", expected \"irqstorm-summary\")" },
		{ "badformat", "{\"format\": 1, \"complete\": true, \"stages\": {}}",
		  "\"format\" is not a string" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *dir = g_build_filename(f->root, cases[i].name, NULL);
		g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormSummary) s = NULL;
		int code = cases[i].text ? IRQSTORM_SUMMARY_ERROR_INVALID :
					   IRQSTORM_SUMMARY_ERROR_MISSING;

		g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
		if (cases[i].text)
			tu_write(path, cases[i].text);
		s = irqstorm_summary_load(dir, &err);
		g_assert_null(s);
		g_assert_error(err, IRQSTORM_SUMMARY_ERROR, code);
		g_assert_nonnull(strstr(err->message, path));
		if (!strstr(err->message, cases[i].message))
			g_error("%s: '%s' lacks '%s'", cases[i].name, err->message,
				cases[i].message);
	}
}

/* An INCOMPLETE file makes a run incomplete even if the summary says not. */
static void test_load_marker(Fixture *f, gconstpointer data)
{
	g_autofree char *marker = g_build_filename(f->storm, "INCOMPLETE", NULL);
	g_autoptr(IrqstormSummary) s = NULL;

	tu_write(marker, "interrupted by a signal (SIGINT/SIGTERM/SIGHUP)\n");
	s = load(f->storm);
	g_assert_false(s->complete);
	g_assert_cmpstr(s->incomplete_reason, ==,
			"interrupted by a signal (SIGINT/SIGTERM/SIGHUP)");
}

static void test_labels(void)
{
	const char *const dirs[] = { "results/a/run", "results/b/run/", "x/other", NULL };
	const char *const given[] = { "one", "two", "three", NULL };
	g_auto(GStrv) auto_labels = irqstorm_run_labels(dirs, 3, NULL);
	g_auto(GStrv) labels = irqstorm_run_labels(dirs, 3, given);

	/* Same basename: the directory as given tells them apart. */
	g_assert_cmpstr(auto_labels[0], ==, "results/a/run");
	g_assert_cmpstr(auto_labels[1], ==, "results/b/run");
	g_assert_cmpstr(auto_labels[2], ==, "other");
	g_assert_cmpstr(labels[1], ==, "two");
}

/* ---- the table --------------------------------------------------------- */

/* The cells of the row of label in the block of stage, joined by '|'. */
static char *row_cells(const char *table, const char *stage, const char *label)
{
	g_autofree char *title = g_strdup_printf("%s (", stage);
	g_auto(GStrv) lines = g_strsplit(table, "\n", -1);
	gboolean in_block = FALSE;

	for (gsize i = 0; lines[i]; i++) {
		if (g_str_has_prefix(lines[i], title)) {
			in_block = TRUE;
		} else if (!*lines[i]) {
			in_block = FALSE;
		} else if (in_block && g_str_has_prefix(lines[i], label) &&
			   lines[i][strlen(label)] == ' ') {
			g_auto(GStrv) words = g_strsplit_set(lines[i] + strlen(label), " ", -1);
			g_autoptr(GPtrArray) cells = g_ptr_array_new();

			for (gsize w = 0; words[w]; w++)
				if (*words[w])
					g_ptr_array_add(cells, words[w]);
			g_ptr_array_add(cells, NULL);
			return g_strjoinv("|", (char **)cells->pdata);
		}
	}
	return NULL;
}

static void test_table_exact(Fixture *f, gconstpointer data)
{
	IrqstormSummary *runs[] = { load(f->base), load(f->storm) };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 2, NULL, pooled(), IRQSTORM_UNIT_US, FALSE);

	g_assert_cmpstr(t->str, ==,
		"hardirq (us)\n"
		"run    cycles     min     p50     p90     p99   p99.9  p99.99     max  p99 ratio  max ratio\n"
		"base      100   1.500   2.000   2.000   3.000   5.000   9.000   9.500\n"
		"storm     200   2.500   3.000   3.000   5.490   8.000  12.000  17.385      x1.83      x1.83\n"
		"\n"
		"thread (us)\n"
		"run    cycles     min     p50     p90     p99   p99.9  p99.99     max  p99 ratio  max ratio\n"
		"base        0       -       -       -       -       -       -       -\n"
		"storm     200  15.000  16.000  16.000  17.000  30.000  50.000  53.944          -          -\n"
		"\n"
		"done (us)\n"
		"run    cycles     min     p50     p90     p99   p99.9  p99.99     max  p99 ratio  max ratio\n"
		"base      100   1.600   2.000   3.000   3.000   6.000   9.000   9.700\n"
		"storm     200  15.100  16.000  17.000  18.000  31.000  51.000  54.000      x6.00      x5.57\n"
		"\n"
		"ratios: p99 and max over those of the first run, base\n");
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

/* The order of the runs is the order of the ratios. */
static void test_table_reversed(Fixture *f, gconstpointer data)
{
	IrqstormSummary *runs[] = { load(f->storm), load(f->base) };
	const char *const only[] = { "done", NULL };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 2, only, pooled(), IRQSTORM_UNIT_US, FALSE);

	/* 3000 / 18000 and 9700 / 54000 */
	g_assert_nonnull(strstr(t->str, "   9.700      x0.17      x0.18\n"));
	g_assert_null(strstr(t->str, "hardirq"));
	g_assert_null(strstr(t->str, "thread"));
	g_assert_true(g_str_has_prefix(t->str, "done (us)\n"));
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

static void test_table_one_run_ns(Fixture *f, gconstpointer data)
{
	IrqstormSummary *runs[] = { load(f->storm) };
	const char *const only[] = { "thread", NULL };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 1, only, pooled(), IRQSTORM_UNIT_NS, FALSE);

	/* No ratio columns with one run, and no ratio line. */
	g_assert_cmpstr(t->str, ==,
		"thread (ns)\n"
		"run    cycles    min    p50    p90    p99  p99.9  p99.99    max\n"
		"storm     200  15000  16000  16000  17000  30000   50000  53944\n");
	irqstorm_summary_free(runs[0]);
}

static void test_table_incomplete(Fixture *f, gconstpointer data)
{
	g_autofree char *st = stage_json("done", 10, 1000, 2000, 2000, 2000, 2000, 2000, 2500);
	g_autofree char *dir = write_run(f->root, "cut", FALSE, "the guest never powered off", 0, st);
	g_autofree char *dir2 = write_run(f->root, "checked", TRUE, NULL, 1, st);
	g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
	IrqstormSummary *runs[] = { load(f->base), load(dir), load(dir2) };
	const char *const only[] = { "done", NULL };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 3, only, pooled(), IRQSTORM_UNIT_US, FALSE);
	g_autofree char *note = g_strdup_printf("cut [INCOMPLETE]: %s: the guest never powered off\n",
						path);

	g_autofree char *cut = row_cells(t->str, "done", "cut [INCOMPLETE]");
	g_autofree char *checked = row_cells(t->str, "done", "checked [checks failed]");

	/* Still shown and compared: 2000 / 3000, 2500 / 9700 */
	g_assert_cmpstr(cut, ==, "10|1.000|2.000|2.000|2.000|2.000|2.000|2.500|x0.67|x0.26");
	g_assert_cmpstr(checked, ==, "10|1.000|2.000|2.000|2.000|2.000|2.000|2.500|x0.67|x0.26");
	g_assert_nonnull(strstr(t->str, note));
	g_assert_nonnull(strstr(t->str, "checked [checks failed]: 1 failed cross-check, see failed_checks in"));
	g_assert_null(strstr(t->str, "base ["));
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

/* Stages are the union over the runs, in order of first appearance, and a
 * run without a stage shows "-" even for cycles. */
static void test_table_union(Fixture *f, gconstpointer data)
{
	g_autofree char *s1 = stage_json("done", 10, 1000, 2000, 2000, 2000, 2000, 2000, 2500);
	g_autofree char *s2 = stage_json("probe", 5, 100, 200, 200, 200, 200, 200, 250);
	g_autofree char *stages = g_strjoin(", ", s1, s2, NULL);
	g_autofree char *dir = write_run(f->root, "probed", TRUE, NULL, 0, stages);
	IrqstormSummary *runs[] = { load(f->base), load(dir) };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 2, NULL, pooled(), IRQSTORM_UNIT_US, FALSE);
	const char *h = strstr(t->str, "hardirq (us)");
	const char *th = strstr(t->str, "thread (us)");
	const char *d = strstr(t->str, "done (us)");
	const char *p = strstr(t->str, "probe (us)");
	g_autofree char *base_probe = row_cells(t->str, "probe", "base");
	g_autofree char *probed_probe = row_cells(t->str, "probe", "probed");
	g_autofree char *probed_hardirq = row_cells(t->str, "hardirq", "probed");
	g_autofree char *base_thread = row_cells(t->str, "thread", "base");

	g_assert_true(h && th && d && p);
	g_assert_true(h < th && th < d && d < p);
	/* No such stage: "-" even for cycles; no sample: 0 cycles. */
	g_assert_cmpstr(base_probe, ==, "-|-|-|-|-|-|-|-");
	g_assert_cmpstr(probed_probe, ==, "5|0.100|0.200|0.200|0.200|0.200|0.200|0.250|-|-");
	g_assert_cmpstr(probed_hardirq, ==, "-|-|-|-|-|-|-|-|-|-");
	g_assert_cmpstr(base_thread, ==, "0|-|-|-|-|-|-|-");
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

/* A stage with its own bins: in ns, p50 to p99.99 given, max at p99.99. */
static char *stage_bins(const char *name, guint bin_ns, double min, double p50, double p99)
{
	return g_strdup_printf(
		"\"%s\": {\"cycles\": 100, \"min\": %.0f, \"avg\": %.0f, \"max\": %.0f, "
		"\"p50\": %.0f, \"p90\": %.0f, \"p99\": %.0f, \"p99_9\": %.0f, \"p99_99\": %.0f, "
		"\"overflows\": 0, \"bin_ns\": %u, \"histogram\": {}}",
		name, min, p50, p99, p50, p99, p99, p99, p99, bin_ns);
}

/*
 * Warnings under the table (and in --json): runs whose bins differ, and a
 * stage whose median lies in the first bin (the handler's 0.184 us at 1 us
 * bins reads p50 = p99 = max), with how to get finer bins.
 */
static void test_warnings(Fixture *f, gconstpointer data)
{
	g_autofree char *coarse = stage_bins("handler", 1000, 136, 184, 184);
	g_autofree char *fine = stage_bins("handler", 100, 136, 184, 184);
	g_autofree char *wide = stage_bins("handler", 1000, 500, 1000, 2000);
	g_autofree char *d1 = write_run(f->root, "coarse", TRUE, NULL, 0, coarse);
	g_autofree char *d2 = write_run(f->root, "fine", TRUE, NULL, 0, fine);
	g_autofree char *d3 = write_run(f->root, "wide", TRUE, NULL, 0, wide);
	IrqstormSummary *runs[] = { load(d1), load(d2), load(d3), load(f->base) };
	g_autoptr(GString) t = irqstorm_compare_table(runs, 4, NULL, pooled(), IRQSTORM_UNIT_US, FALSE);
	g_autoptr(GString) same = irqstorm_compare_table(runs + 2, 2, NULL, pooled(), IRQSTORM_UNIT_US, FALSE);
	g_autoptr(JsonNode) node = irqstorm_compare_json(runs, 2, NULL, pooled(), IRQSTORM_UNIT_US);
	JsonArray *w = json_object_get_array_member(json_node_get_object(node), "warnings");

	g_assert_nonnull(strstr(t->str, "\nwarning: the runs have different histogram bins "
				"(coarse 1000 ns, fine 100 ns, wide 1000 ns, base 1000 ns): "
				"percentiles are bin upper edges"));
	/* coarse (p50 to p99.99 in the first bin) and wide (p50 only), not fine */
	g_assert_nonnull(strstr(t->str, "\nwarning: handler: the median is within the first bin "
				"(1000 ns) in coarse, wide: p50 to p99.99 there are that bin's "
				"upper edge clamped to the max, not measurements (max is exact); "
				"for finer bins run with --set run.bin_ns=100 ([run] bin_ns)\n"));
	g_assert_null(strstr(same->str, "different histogram bins"));
	g_assert_nonnull(strstr(same->str, "in wide: p50 there are"));
	g_assert_cmpuint(json_array_get_length(w), ==, 2);
	g_assert_nonnull(strstr(json_array_get_string_element(w, 0), "different histogram bins"));
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

/* ---- JSON -------------------------------------------------------------- */

static JsonObject *row_of(JsonObject *root, const char *stage, guint run)
{
	JsonArray *stages = json_object_get_array_member(root, "stages");

	for (guint i = 0; i < json_array_get_length(stages); i++) {
		JsonObject *s = json_array_get_object_element(stages, i);

		if (!strcmp(json_object_get_string_member(s, "name"), stage))
			return json_array_get_object_element(
				json_object_get_array_member(s, "rows"), run);
	}
	g_assert_not_reached();
	return NULL;
}

static void test_json(Fixture *f, gconstpointer data)
{
	IrqstormSummary *runs[] = { load(f->base), load(f->storm) };
	g_autoptr(JsonNode) node = irqstorm_compare_json(runs, 2, NULL, pooled(), IRQSTORM_UNIT_US);
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	JsonObject *root, *row;
	JsonArray *stages;

	/* What is printed parses back. */
	json_generator_set_root(gen, node);
	text = json_generator_to_data(gen, NULL);
	json_parser_load_from_data(parser, text, -1, &err);
	g_assert_no_error(err);
	root = json_node_get_object(json_parser_get_root(parser));

	g_assert_cmpstr(json_object_get_string_member(root, "unit"), ==, "us");
	g_assert_cmpstr(json_object_get_string_member(root, "reference"), ==, "base");
	stages = json_object_get_array_member(root, "stages");
	g_assert_cmpuint(json_array_get_length(stages), ==, 3);
	g_assert_cmpstr(json_object_get_string_member(
		json_array_get_object_element(stages, 2), "name"), ==, "done");

	row = row_of(root, "hardirq", 1);
	g_assert_cmpstr(json_object_get_string_member(row, "label"), ==, "storm");
	g_assert_cmpint(json_object_get_int_member(row, "cycles"), ==, 200);
	g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "p99"), 5.49, 1e-9);
	g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "max"), 17.385, 1e-9);
	g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "p99_ratio"),
				       5490.0 / 3000, 1e-9);
	g_assert_cmpfloat_with_epsilon(json_object_get_double_member(row, "max_ratio"),
				       17385.0 / 9500, 1e-9);
	row = row_of(root, "hardirq", 0);
	g_assert_true(json_object_get_null_member(row, "p99_ratio"));
	row = row_of(root, "thread", 0);
	g_assert_true(json_object_get_boolean_member(row, "present"));
	g_assert_cmpint(json_object_get_int_member(row, "cycles"), ==, 0);
	g_assert_true(json_object_get_null_member(row, "p99"));
	row = row_of(root, "thread", 1);
	g_assert_true(json_object_get_null_member(row, "p99_ratio"));
	for (gsize i = 0; i < G_N_ELEMENTS(runs); i++)
		irqstorm_summary_free(runs[i]);
}

/* ---- the command ------------------------------------------------------- */

static void test_cmd(Fixture *f, gconstpointer data)
{
	g_autofree char *out = NULL, *err = NULL;
	const char *const args[] = { "compare", f->base, f->storm, NULL };

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, &err), ==, 0);
	g_assert_true(g_str_has_prefix(out, "hardirq (us)\nrun    cycles"));
	g_assert_nonnull(strstr(out, "storm     200  15.100  16.000  17.000  18.000  31.000  51.000  54.000      x6.00      x5.57\n"));
	g_assert_cmpstr(err, ==, "");
}

static void test_cmd_json(Fixture *f, gconstpointer data)
{
	g_autofree char *out = NULL;
	const char *const args[] = { "compare", "--json", "--unit", "ns", "--stage", "done",
				     "--label", "before", "--label", "after",
				     f->base, f->storm, NULL };
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;
	JsonObject *root, *row;

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	json_parser_load_from_data(parser, out, -1, &error);
	g_assert_no_error(error);
	root = json_node_get_object(json_parser_get_root(parser));
	g_assert_cmpstr(json_object_get_string_member(root, "unit"), ==, "ns");
	g_assert_cmpuint(json_array_get_length(json_object_get_array_member(root, "stages")), ==, 1);
	row = row_of(root, "done", 1);
	g_assert_cmpstr(json_object_get_string_member(row, "label"), ==, "after");
	g_assert_cmpint(json_object_get_int_member(row, "max"), ==, 54000);
}

/* --diff: after the first run, the differences to it; JSON has them always. */
static void test_cmd_diff(Fixture *f, gconstpointer data)
{
	g_autofree char *out = NULL, *json = NULL;
	const char *const args[] = { "compare", "--diff", f->base, f->storm, NULL };
	const char *const jargs[] = { "compare", "--json", "--unit", "ns", f->base, f->storm, NULL };
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *diff;

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	g_assert_nonnull(strstr(out, "done (us; after the first run: the difference to it)\n"));
	/* done: 15100 - 1600 ... 54000 - 9700 */
	g_assert_nonnull(strstr(out, "+13.500"));
	g_assert_nonnull(strstr(out, "+44.300"));
	/* hardirq p99: 5490 - 3000 */
	g_assert_nonnull(strstr(out, "+2.490"));
	g_assert_cmpint(tu_run(NULL, jargs, NULL, &json, NULL), ==, 0);
	g_assert_true(json_parser_load_from_data(parser, json, -1, NULL));
	diff = json_object_get_object_member(row_of(json_node_get_object(
		json_parser_get_root(parser)), "done", 1), "diff");
	g_assert_cmpint(json_object_get_int_member(diff, "max"), ==, 44300);
	g_assert_cmpint(json_object_get_int_member(diff, "min"), ==, 13500);
}

/* --fail-if: each run after the first against it; 2 when a gate trips. */
static void test_cmd_fail_if(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *gate;
		int status;
		const char *message;
	} cases[] = {
		/* storm's done p99 is 18000 ns, base's 3000: x6 */
		{ "done.p99 > 5", 2, "compare: FAILED --fail-if 'done.p99 > 5': storm's done p99 "
		  "is 18.000 us, x6.0000 of base's 3.000 us\n" },
		{ "done.p99 > 6", 0, "compare: passed --fail-if 'done.p99 > 6': storm's done p99 "
		  "is 18.000 us, x6.0000 of base's 3.000 us\n" },
		{ " hardirq.p99.9>1.5 ", 2, "FAILED --fail-if ' hardirq.p99.9>1.5 ': storm's "
		  "hardirq p99.9 is 8.000 us, x1.6000" },
		{ "hardirq.p99_9 > 1.6", 0, "passed" },
		{ "thread.max > 2", 1, "cannot judge --fail-if 'thread.max > 2': base has no "
		  "thread samples" },
		{ "done.p98 > 2", 1, "no such statistic" },
		{ "done > 2", 1, "not STAGE.STAT" },
		{ "done.p99 > -1", 1, "the ratio is not a positive number" },
		{ "done.p99 < 2", 1, "needs exactly one '>'" },
		{ "bh.p99 > 2", 1, "no run has a stage 'bh'" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *out = NULL, *err = NULL;
		const char *const args[] = { "compare", "--fail-if", cases[i].gate, f->base,
					     f->storm, NULL };

		g_test_message("case %zu: %s", i, cases[i].gate);
		g_assert_cmpint(tu_run(NULL, args, NULL, &out, &err), ==, cases[i].status);
		g_assert_nonnull(strstr(err, cases[i].message));
	}
	{
		const char *const one[] = { "compare", "--fail-if", "done.p99 > 2", f->base, NULL };
		g_autofree char *err = NULL;

		g_assert_cmpint(tu_run(NULL, one, NULL, NULL, &err), ==, 1);
		g_assert_nonnull(strstr(err, "give two DIRs or more"));
	}
}

/* Runs of two kernels: each named under the table, the differences exact. */
static void test_cmd_kernels(Fixture *f, gconstpointer data)
{
	const char *const dirs[] = { f->base, f->storm };
	const char *const flavours[] = { "rt", "dyn" };
	const char *const args[] = { "compare", "--stage", "done", f->base, f->storm, NULL };
	g_autofree char *out = NULL;

	for (gsize i = 0; i < 2; i++) {
		g_autofree char *path = g_build_filename(dirs[i], "summary.json", NULL);
		g_autofree char *text = tu_slurp(path);
		g_autofree char *kernel = g_strdup_printf(
			"\"kernel\": {\"kernel-debian-source\": \"linux-source-6.12 6.12.118-1\", "
			"\"kernel-flavour\": \"%s\", \"kernel-cache-key\": \"k%zu\", "
			"\"irqstorm-driver\": \"d%zu\"},\n  \"sysinfo\"", flavours[i], i, i);
		g_auto(GStrv) parts = g_strsplit(text, "\"sysinfo\"", 2);
		g_autofree char *joined = g_strjoinv(kernel, parts);

		tu_write(path, joined);
	}
	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	g_assert_nonnull(strstr(out, "kernels:\n"
		"  base: linux-source-6.12 6.12.118-1, rt, build k0, driver d0\n"
		"  storm: linux-source-6.12 6.12.118-1, dyn, build k1, driver d1\n"
		"every run deterministic: the differences are exact"));
}

/* A run on two vCPUs under the quantum: its resolution across CPUs said. */
static void test_cmd_quantum(Fixture *f, gconstpointer data)
{
	g_autofree char *path = g_build_filename(f->storm, "summary.json", NULL);
	g_autofree char *text = tu_slurp(path);
	g_auto(GStrv) parts = g_strsplit(text, "\"sysinfo\": {", 2);
	g_autofree char *joined = g_strjoinv("\"sysinfo\": {\"cpus\": 2, \"quantum_ns\": 10000, ",
					     parts);
	const char *const args[] = { "compare", "--stage", "done", f->base, f->storm, NULL };
	g_autofree char *out = NULL;

	g_assert_nonnull(parts[1]);
	tu_write(path, joined);
	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	g_assert_nonnull(strstr(out, "storm: 2 vCPUs in windows of 10000 ns of virtual time: "
				"a latency on one CPU is exact; one across CPUs (a wake-up or "
				"IPI sent from another) is late by at most 10000 ns"));
	g_assert_null(strstr(out, "base: 2 vCPUs"));
}

/* Every broken DIR is named, and nothing is printed on stdout. */
static void test_cmd_errors(Fixture *f, gconstpointer data)
{
	g_autofree char *nowhere = g_build_filename(f->root, "nowhere", NULL);
	g_autofree char *empty = g_build_filename(f->root, "empty", NULL);
	g_autofree char *bad = g_build_filename(f->root, "bad", NULL);
	g_autofree char *bad_json = g_build_filename(bad, "summary.json", NULL);
	g_autofree char *out = NULL, *err = NULL;
	const char *const args[] = { "compare", f->base, nowhere, empty, bad, NULL };

	g_assert_cmpint(g_mkdir(empty, 0755), ==, 0);
	g_assert_cmpint(g_mkdir(bad, 0755), ==, 0);
	tu_write(bad_json, "{\"complete\": tru");
	g_assert_cmpint(tu_run(NULL, args, NULL, &out, &err), ==, 1);
	g_assert_cmpstr(out, ==, "");
	g_assert_nonnull(strstr(err, nowhere));
	g_assert_nonnull(strstr(err, "empty/summary.json: no such file"));
	g_assert_nonnull(strstr(err, "bad/summary.json: not valid JSON"));
}

static void test_cmd_usage(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *opt1, *opt2;
		const char *message;
	} cases[] = {
		{ "--stage", "probe", "no run has a stage 'probe' (stages: hardirq, thread, done)" },
		{ "--unit", "ms", "--unit must be us or ns" },
		{ "--label", "one", "1 --label for 2 DIRs" },
		{ "--bogus", "x", "Unknown option --bogus" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *err = NULL;
		const char *const args[] = { "compare", cases[i].opt1, cases[i].opt2,
					     f->base, f->storm, NULL };

		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 1);
		if (!strstr(err, cases[i].message))
			g_error("'%s' lacks '%s'", err, cases[i].message);
	}
	{
		const char *const args[] = { "compare", NULL };

		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 1);
	}
}

/* An incomplete run is shown, marked, and is not an error. */
static void test_cmd_incomplete(Fixture *f, gconstpointer data)
{
	g_autofree char *marker = g_build_filename(f->storm, "INCOMPLETE", NULL);
	g_autofree char *out = NULL;
	const char *const args[] = { "compare", f->base, f->storm, NULL };

	tu_write(marker, "the guest stopped\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	g_assert_cmpuint(tu_count(out, "\nstorm [INCOMPLETE]  "), ==, 3);
	g_assert_nonnull(strstr(out, "storm [INCOMPLETE]: "));
	g_assert_nonnull(strstr(out, "/storm/summary.json: the guest stopped\n"));
}

/* root/name/summary.json of a run of two channels, 0 named "critical": the
 * done stage pooled and of each channel (p99s in ns), and the probe. */
static char *write_two(const char *root, const char *name, double pooled_p99,
		       double ch0_p99, double ch1_p99)
{
	g_autofree char *all = stage_json("done", 1600, 10000, 20000, 30000, pooled_p99,
					  pooled_p99, pooled_p99, pooled_p99);
	g_autofree char *probe = stage_json("probe", 200, 5000, 6000, 7000, 8000, 8000, 8000, 8000);
	g_autofree char *c0 = stage_json("done", 800, 10000, 20000, 30000, ch0_p99, ch0_p99,
					 ch0_p99, ch0_p99);
	g_autofree char *c1 = stage_json("done", 800, 10000, 20000, 30000, ch1_p99, ch1_p99,
					 ch1_p99, ch1_p99);
	g_autofree char *stages = g_strdup_printf(
		"%s, %s}, \"channels\": {\"0\": {\"name\": \"critical\", \"stages\": {%s}}, "
		"\"1\": {\"stages\": {%s}}", all, probe, c0, c1);

	return write_run(root, name, TRUE, NULL, 0, stages);
}

/*
 * The priority case: channel 0's done p99 16 times worse (40.5 to 645.9 us)
 * while the pooled p99 got better (x0.95). Per channel, the table shows it
 * and the gate trips naming channel 0; a regression of channel 1 alone
 * trips it naming channel 1, and passes with --channel critical; --pooled
 * adds the pooled block, titled so.
 */
static void test_cmd_channels(Fixture *f, gconstpointer data)
{
	g_autofree char *high = write_two(f->root, "high", 680000, 40500, 700000);
	g_autofree char *low = write_two(f->root, "low", 645864, 645900, 650000);
	g_autofree char *bulk = write_two(f->root, "bulk", 700000, 40500, 900000);
	const char *const gate[] = { "compare", "--fail-if", "done.p99 > 1.10", high, low, NULL };
	const char *const only1[] = { "compare", "--fail-if", "done.p99 > 1.10", high, bulk, NULL };
	const char *const crit[] = { "compare", "--fail-if", "done.p99 > 1.10", "--channel",
				     "critical", high, bulk, NULL };
	const char *const pool[] = { "compare", "--pooled", "--channel", "0", high, low, NULL };
	const char *const bad[] = { "compare", "--channel", "bulk", high, low, NULL };
	g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *err3 = NULL;
	g_autofree char *out4 = NULL, *err5 = NULL;

	g_assert_cmpint(tu_run(NULL, gate, NULL, &out, &err), ==, 2);
	g_assert_nonnull(strstr(out, "channel 0 (critical): done (us)\n"));
	g_assert_nonnull(strstr(out, "channel 1: done (us)\n"));
	g_assert_nonnull(strstr(out, "\nprobe (us)\n"));
	g_assert_null(strstr(out, "pooled"));
	g_assert_cmpuint(tu_count(out, "probe (us)"), ==, 1);
	g_assert_nonnull(strstr(err, "compare: FAILED --fail-if 'done.p99 > 1.10': channel 0 "
				"(critical): low's done p99 is 645.900 us, x15.9481 of high's "
				"40.500 us\n"));
	g_assert_nonnull(strstr(err, "compare: passed --fail-if 'done.p99 > 1.10': channel 1: "));

	g_assert_cmpint(tu_run(NULL, only1, NULL, &out2, &err2), ==, 2);
	g_assert_nonnull(strstr(err2, "FAILED --fail-if 'done.p99 > 1.10': channel 1: bulk's"));
	g_assert_nonnull(strstr(err2, "passed --fail-if 'done.p99 > 1.10': channel 0 (critical)"));
	g_assert_cmpint(tu_run(NULL, crit, NULL, NULL, &err3), ==, 0);
	g_assert_null(strstr(err3, "channel 1"));

	g_assert_cmpint(tu_run(NULL, pool, NULL, &out4, NULL), ==, 0);
	g_assert_nonnull(strstr(out4, "channel 0 (critical): done (us)\n"));
	g_assert_nonnull(strstr(out4, "all channels, pooled: done (us)\n"));
	g_assert_null(strstr(out4, "channel 1"));

	g_assert_cmpint(tu_run(NULL, bad, NULL, NULL, &err5), ==, 1);
	g_assert_nonnull(strstr(err5, "no run has a channel 'bulk' (channels: 0 (critical), 1)"));
}

/* bisect-step's limits, judged on results as they are (--judge): per
 * channel, bad when any is over, each line naming it; the probe once;
 * one channel's runs as before. */
static void test_bisect_judge(Fixture *f, gconstpointer data)
{
	g_autofree char *low = write_two(f->root, "low", 645864, 645900, 40000);
	const char *const over[] = { "bisect-step", "--judge", low, "--limit", "done.p99=100",
				     "--limit", "probe.max=10", NULL };
	const char *const bulk[] = { "bisect-step", "--judge", low, "--limit", "done.p99=100",
				     "--channel", "1", NULL };
	const char *const one[] = { "bisect-step", "--judge", f->storm, "--limit",
				    "done.p99=20", NULL };
	g_autofree char *out = NULL, *out2 = NULL, *out3 = NULL;

	g_assert_cmpint(tu_run(NULL, over, NULL, &out, NULL), ==, 1);
	g_assert_nonnull(strstr(out, "bisect-step: low: channel 0 (critical): done.p99 = "
				"645.900 us, limit 100.000 us: EXCEEDED\n"));
	g_assert_nonnull(strstr(out, "bisect-step: low: channel 1: done.p99 = 40.000 us, "
				"limit 100.000 us: held\n"));
	g_assert_nonnull(strstr(out, "bisect-step: low: probe.max = 8.000 us, limit 10.000 us: "
				"held\n"));
	g_assert_cmpuint(tu_count(out, "probe.max"), ==, 1);
	g_assert_nonnull(strstr(out, "bisect-step: low: bad (exit 1)"));
	g_assert_cmpint(tu_run(NULL, bulk, NULL, &out2, NULL), ==, 0);
	g_assert_null(strstr(out2, "channel 0"));
	g_assert_cmpint(tu_run(NULL, one, NULL, &out3, NULL), ==, 0);
	g_assert_nonnull(strstr(out3, "bisect-step: storm: done.p99 = 18.000 us, limit "
				"20.000 us: held\n"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/compare/load", test_load);
	ADD("/compare/load/nulls", test_load_nulls);
	ADD("/compare/load/errors", test_load_errors);
	ADD("/compare/load/marker", test_load_marker);
	g_test_add_func("/compare/labels", test_labels);
	ADD("/compare/table/exact", test_table_exact);
	ADD("/compare/table/reversed", test_table_reversed);
	ADD("/compare/table/one-run-ns", test_table_one_run_ns);
	ADD("/compare/table/incomplete", test_table_incomplete);
	ADD("/compare/table/union", test_table_union);
	ADD("/compare/table/warnings", test_warnings);
	ADD("/compare/json", test_json);
	ADD("/compare/cmd/table", test_cmd);
	ADD("/compare/cmd/json", test_cmd_json);
	ADD("/compare/cmd/errors", test_cmd_errors);
	ADD("/compare/cmd/fail-if", test_cmd_fail_if);
	ADD("/compare/cmd/diff", test_cmd_diff);
	ADD("/compare/cmd/kernels", test_cmd_kernels);
	ADD("/compare/cmd/quantum", test_cmd_quantum);
	ADD("/compare/cmd/usage", test_cmd_usage);
	ADD("/compare/cmd/incomplete", test_cmd_incomplete);
	ADD("/compare/cmd/channels", test_cmd_channels);
	ADD("/compare/bisect-step/judge", test_bisect_judge);
#undef ADD
	return g_test_run();
}
