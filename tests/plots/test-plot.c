// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm plot: gnuplot quoting (checked against gnuplot itself), then the
 * command ($IRQSTORM_BIN) on copies of fixture/ (a real run of the default
 * scenario with the probe, made by make-fixture.sh: summary.json and
 * rt-tests.json as written; histogram.txt cut to its first 200 bins, which
 * hold every sample; records.csv cut to 299 records): every figure in every
 * format, several runs, names that try to inject gnuplot commands, missing
 * gnuplot, missing inputs, runs without samples; the colours and legends;
 * and the fixture against what the writer writes now.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "cmd/gnuplot.h"
#include "core/hist.h"
#include "core/output.h"
#include "core/stages.h"
#include "core/summary-keys.h"
#include "../rig/testutil.h"
#include "core/records.h"
#include "core/histfile.h"

/* ---- quoting ------------------------------------------------------------- */

static const char *const nasty[] = {
	"plain",
	"it's",
	"q\"uote",
	"back\\slash\\n",
	"`touch PWNED-backquote`",
	"$(touch PWNED-dollar) $HOME",
	"@macro @@",
	"semi; print 'x'; system('touch PWNED-system')",
	"it's @macro `touch PWNED-after-quote` $HOME",
	"line\nbreak",
	"''",
	"'''x''",
	"'",
	"",
	"tab\tcr\r\x01",
	"utf-8: \xc2\xb5s \xe2\x86\x92",
};

static void test_quote(void)
{
	g_autofree char *a = irqstorm_gnuplot_quote("it's");
	g_autofree char *b = irqstorm_gnuplot_quote("");
	g_autofree char *c = irqstorm_gnuplot_quote("a\"b\\c`d`");
	g_autofree char *d = irqstorm_gnuplot_quote("''");

	g_assert_cmpstr(a, ==, "('it' . sprintf('%c', 39) . 's')");
	g_assert_cmpstr(b, ==, "''");
	g_assert_cmpstr(c, ==, "'a\"b\\c`d`'");
	g_assert_cmpstr(d, ==, "('' . sprintf('%c', 39) . '' . sprintf('%c', 39) . '')");
}

/* gnuplot reads every quoted string back exactly, and runs nothing. */
static void test_quote_gnuplot(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");

	g_assert_nonnull(gnuplot);
	for (gsize i = 0; i < G_N_ELEMENTS(nasty); i++) {
		g_autofree char *q = irqstorm_gnuplot_quote(nasty[i]);
		g_autofree char *cmd = g_strdup_printf("s = %s; print s", q);
		const char *argv[] = { gnuplot, "-e", cmd, NULL };
		g_autofree char *err = NULL;
		g_autofree char *expected = g_strconcat(nasty[i], "\n", NULL);
		g_autoptr(GError) error = NULL;
		int status;

		/* gnuplot's print writes to stderr. */
		g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
			     NULL, NULL, NULL, &err, &status, &error);
		g_assert_no_error(error);
		g_assert_true(g_spawn_check_wait_status(status, NULL));
		g_assert_cmpstr(err, ==, expected);
	}
	{
		g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);

		g_assert_null(g_dir_read_name(d));	/* no PWNED-* */
	}
	tu_rmtree(dir);
}

/*
 * A sweep's log axis shows every series its key lists: a handler of
 * 0.304 us beside a hardirq of 3 us is above the axis' bottom (it started
 * at 0.8 us); each of sweep.gp and sweeps.gp, asked of gnuplot after the
 * plot (GPVAL_Y_MIN).
 */
static void test_sweep_axis(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *csv = g_build_filename(dir, "sweep.csv", NULL);
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	static const char *const scripts[] = { "sweep.gp", "sweeps.gp" };

	tu_write(csv, "offset_ns,seq,hardirq_ns,thread_ns,bh_ns,done_ns,handler_ns\n"
		      "0,1,3000,,,30000,304\n8,2,3100,,,31000,310\n");
	for (gsize i = 0; i < G_N_ELEMENTS(scripts); i++) {
		g_autofree char *script = g_build_filename(g_getenv("IRQSTORM_PLOTS_DIR"),
							   scripts[i], NULL);
		g_autofree char *params = g_strdup_printf(
			"input='%s'; input1='%s'; n=1; stage='handler'; "
			"output='%s/out.png'", csv, csv, dir);
		const char *argv[] = { gnuplot, "-e", params, script, "-e",
				       "print GPVAL_Y_MIN", NULL };
		g_autofree char *err = NULL;
		g_autoptr(GError) error = NULL;
		int status;

		g_spawn_sync(dir, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL,
			     NULL, NULL, &err, &status, &error);
		g_assert_no_error(error);
		g_test_message("%s: %s", scripts[i], err);
		g_assert_true(g_spawn_check_wait_status(status, NULL));
		g_assert_cmpfloat(g_ascii_strtod(err, NULL), <, 0.304);
	}
	tu_rmtree(dir);
}

/*
 * No figure's legend covers its data: every `set key` of plots/ puts it in
 * a margin (tmargin, bmargin, lmargin, rmargin, or `at screen` where the
 * script made room), or turns it off; a key inside the axes (gnuplot's
 * default, `top right`) fails.
 */
static void test_keys_outside(void)
{
	const char *dir = g_getenv("IRQSTORM_PLOTS_DIR");
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;
	guint scripts = 0;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *text = NULL;
		g_auto(GStrv) lines = NULL;

		if (!g_str_has_suffix(name, ".gp") || !strcmp(name, "stages.gp"))
			continue;
		text = tu_slurp(path);
		lines = g_strsplit(text, "\n", -1);
		scripts++;
		for (guint i = 0; lines[i]; i++) {
			const char *l = g_strchug(lines[i]);

			if (!g_str_has_prefix(l, "set key"))
				continue;
			g_test_message("%s: %s", name, l);
			g_assert_true(strstr(l, "margin") || strstr(l, "at screen") ||
				      !strcmp(l, "set key off"));
		}
	}
	g_assert_cmpuint(scripts, >=, 8);
}

static void test_paths(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "/abs/x", "/abs/x" },
		{ "./rel", "./rel" },
		{ "rel/x", "./rel/x" },
		{ "<cmd", "./<cmd" },
		{ "|cmd", "./|cmd" },
		{ "-", "./-" },
		{ "$data", "./$data" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *p = irqstorm_gnuplot_path(cases[i].in);

		g_assert_cmpstr(p, ==, cases[i].out);
	}
	{
		g_autofree char *s = irqstorm_plot_safe_name("a b/c.d-e_f\"");

		g_assert_cmpstr(s, ==, "a_b_c.d-e_f_");
	}
}

/* ---- the command ---------------------------------------------------------- */

typedef struct {
	char *root;
	char *run;		/* a copy of the fixture */
} Fixture;

static const char *fixture_dir(void)
{
	const char *d = g_getenv("IRQSTORM_PLOT_FIXTURE");

	if (!d || !*d)
		g_error("IRQSTORM_PLOT_FIXTURE is not set (run the tests with meson test)");
	return d;
}

static void fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = tu_make_dir();
	f->run = g_build_filename(f->root, "run", NULL);
	tu_copy_dir(fixture_dir(), f->run);
}

/* The run is fixture-two/ (scenarios/priority.ini: channels critical and
 * bulk), beside fixture/. */
static void fixture_two_setup(Fixture *f, gconstpointer data)
{
	g_autofree char *two = g_strconcat(fixture_dir(), "-two", NULL);

	f->root = tu_make_dir();
	f->run = g_build_filename(f->root, "run", NULL);
	tu_copy_dir(two, f->run);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->root);
	g_free(f->root);
	g_free(f->run);
}

/* dir/name's text. */
static char *slurp_in(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	return tu_slurp(path);
}

/* path exists, is not empty, and starts like a PNG or an SVG. */
static void assert_figure(const char *path)
{
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents(path, &text, &len, NULL))
		g_error("%s: missing", path);
	g_assert_cmpuint(len, >, 1000);
	if (g_str_has_suffix(path, ".png"))
		g_assert_true(len > 8 && !memcmp(text, "\x89PNG\r\n\x1a\n", 8));
	else
		g_assert_nonnull(g_strstr_len(text, MIN(len, 400), "<svg"));
}

static void assert_no_partials(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d)))
		g_assert_false(g_str_has_suffix(name, ".partial"));
}

static const char *const per_run[] = { "histogram", "percentiles", "timeline", "breakdown" };

/* One DIR: its four figures into it, the paths printed, histogram first. */
static void test_one(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "plot", f->run, NULL };
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GString) expected = g_string_new(NULL);

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, &err), ==, 0);
	for (gsize i = 0; i < G_N_ELEMENTS(per_run); i++) {
		g_autofree char *p = g_strdup_printf("%s/%s.png", f->run, per_run[i]);
		g_autofree char *svg = g_strdup_printf("%s/%s.svg", f->run, per_run[i]);

		assert_figure(p);
		g_assert_false(g_file_test(svg, G_FILE_TEST_EXISTS));
		g_string_append_printf(expected, "%s\n", p);
	}
	g_assert_cmpstr(out, ==, expected->str);
	g_assert_cmpstr(err, ==, "");
	assert_no_partials(f->run);
}

/* --format both --out: eight figures there, nothing in the run's DIR. */
static void test_one_out_both(Fixture *f, gconstpointer data)
{
	g_autofree char *dest = g_build_filename(f->root, "figs", "deeper", NULL);
	const char *const args[] = { "plot", f->run, "--out", dest, "--format", "both", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(tu_run(NULL, args, NULL, &out, NULL), ==, 0);
	g_assert_cmpuint(tu_count(out, "\n"), ==, 8);
	for (gsize i = 0; i < G_N_ELEMENTS(per_run); i++) {
		g_autofree char *png = g_strdup_printf("%s/%s.png", dest, per_run[i]);
		g_autofree char *svg = g_strdup_printf("%s/%s.svg", dest, per_run[i]);
		g_autofree char *in_run = g_strdup_printf("%s/%s.png", f->run, per_run[i]);

		assert_figure(png);
		assert_figure(svg);
		g_assert_false(g_file_test(in_run, G_FILE_TEST_EXISTS));
	}
	assert_no_partials(dest);
}

/* A stage's legend entry as its summary.json gives it: "NAME (N events, max X us)". */
static char *legend_entry(const char *run, const char *stage)
{
	g_autofree char *path = g_build_filename(run, "summary.json", NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;
	JsonObject *st;

	json_parser_load_from_file(parser, path, &error);
	g_assert_no_error(error);
	st = json_object_get_object_member(json_object_get_object_member(
		json_node_get_object(json_parser_get_root(parser)), IRQSTORM_KEY_STAGES), stage);
	return g_strdup_printf("%s (%" G_GINT64_FORMAT " events, max %.3f us)", stage,
			       json_object_get_int_member(st, "cycles"),
			       json_object_get_int_member(st, "max") / 1000.0);
}

static void test_svg(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };
	g_autofree char *svg = g_build_filename(f->run, "percentiles.svg", NULL);
	g_autofree char *png = g_build_filename(f->run, "percentiles.png", NULL);
	g_autofree char *text = NULL;

	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	assert_figure(svg);
	g_assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
	/* The legend carries each stage's count and max, exact (to the ns);
	 * the fixture has samples of every stage. */
	text = tu_slurp(svg);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		g_autofree char *entry = legend_entry(f->run, irqstorm_stage_name(st));

		g_assert_nonnull(strstr(text, entry));
	}
}

/* g_ptr_array_sort() comparator for strings. */
static gint cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file of dir with a hash of its contents, sorted: a snapshot. */
static char *dir_snapshot(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d))) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *text = NULL;
		gsize len = 0;

		g_autofree char *sum = NULL;

		g_file_get_contents(path, &text, &len, NULL);
		sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256,
						  (const guchar *)(text ? text : ""), len);
		g_ptr_array_add(lines, g_strdup_printf("%s %s", name, sum));
	}
	g_ptr_array_sort(lines, cmp_strp);
	g_ptr_array_add(lines, NULL);
	return g_strjoinv("\n", (char **)lines->pdata);
}

/*
 * Several DIRs, named to break out of gnuplot strings and file names: the
 * comparison into --out and nowhere else (the runs' directories are as
 * they were), and nothing is run.
 */
static void test_several_nasty(Fixture *f, gconstpointer data)
{
	static const char *const names[] = {
		"q\"uote `touch PWNED1` $(touch PWNED2)",
		"it's @x \\n; system('touch PWNED3')",
		"<touch PWNED4",
		"|touch PWNED5",
	};
	g_autofree char *dest = g_build_filename(f->root, "cmp", NULL);
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) before = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *out = NULL, *err = NULL;
	g_autoptr(GDir) d = NULL;
	const char *name;

	g_ptr_array_add(args, g_strdup("plot"));
	g_ptr_array_add(args, g_strdup(f->run));
	g_ptr_array_add(before, dir_snapshot(f->run));
	for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *dir = g_build_filename(f->root, names[i], NULL);

		tu_copy_dir(fixture_dir(), dir);
		g_ptr_array_add(before, dir_snapshot(dir));
		/* relative names: "<..." and "|..." would reach gnuplot as is */
		g_ptr_array_add(args, g_strdup(names[i]));
	}
	g_ptr_array_add(args, g_strdup("--out"));
	g_ptr_array_add(args, g_strdup("cmp"));
	g_ptr_array_add(args, g_strdup("--stage"));
	g_ptr_array_add(args, g_strdup("done"));
	g_ptr_array_add(args, g_strdup("--stage"));
	g_ptr_array_add(args, g_strdup("hardirq"));
	g_ptr_array_add(args, NULL);

	g_assert_cmpint(tu_run(f->root, (const char *const *)args->pdata, NULL, &out, &err), ==, 0);
	for (gsize i = 0; i <= G_N_ELEMENTS(names); i++) {
		g_autofree char *dir = g_build_filename(f->root, i ? names[i - 1] : "run", NULL);
		g_autofree char *now = dir_snapshot(dir);

		g_assert_cmpstr(now, ==, before->pdata[i]);
	}
	{
		g_autofree char *b = g_build_filename(dest, "compare-breakdown.png", NULL);
		g_autofree char *c1 = g_build_filename(dest, "compare-done.png", NULL);
		g_autofree char *c2 = g_build_filename(dest, "compare-hardirq.png", NULL);

		g_autofree char *listing = dir_snapshot(dest);

		assert_figure(b);
		assert_figure(c1);
		assert_figure(c2);
		g_assert_cmpuint(tu_count(listing, "\n"), ==, 2);	/* three files */
	}
	g_assert_cmpuint(tu_count(out, "\n"), ==, 3);
	d = g_dir_open(f->root, 0, NULL);
	while ((name = g_dir_read_name(d)))
		if (g_str_has_prefix(name, "PWNED"))
			g_error("gnuplot ran a command from a name: %s exists", name);
	g_assert_null(strstr(err, "PWNED"));
}

/* A comparison without --out writes nothing, here or into the runs. */
static void test_several_no_out(Fixture *f, gconstpointer data)
{
	g_autofree char *other = g_build_filename(f->root, "other", NULL);
	g_autofree char *cwd = g_build_filename(f->root, "cwd", NULL);
	const char *const args[] = { "plot", f->run, other, NULL };
	g_autofree char *before = dir_snapshot(f->run);
	g_autofree char *after = NULL, *here = NULL;
	g_autofree char *out = NULL, *err = NULL;

	tu_copy_dir(fixture_dir(), other);
	g_assert_cmpint(g_mkdir(cwd, 0755), ==, 0);
	g_assert_cmpint(tu_run(cwd, args, NULL, &out, &err), ==, 1);
	g_assert_nonnull(strstr(err, "say where it goes with --out DIR"));
	g_assert_cmpstr(out, ==, "");
	after = dir_snapshot(f->run);
	g_assert_cmpstr(after, ==, before);
	here = dir_snapshot(cwd);
	g_assert_cmpstr(here, ==, "");
}

/* A --stage no run has is refused before anything is drawn. */
static void test_several_bad_stage(Fixture *f, gconstpointer data)
{
	g_autofree char *dest = g_build_filename(f->root, "cmp", NULL);
	const char *const args[] = { "plot", f->run, f->run, "--out", dest, "--stage", "dne", NULL };
	g_autofree char *err = NULL;

	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 1);
	g_assert_nonnull(strstr(err, "no run has a stage 'dne' (stages: hardirq, thread, bh, done, handler, probe)"));
	g_assert_false(g_file_test(dest, G_FILE_TEST_EXISTS));
}

/* An incomplete run is plotted, its titles say so. */
static void test_incomplete(Fixture *f, gconstpointer data)
{
	g_autofree char *marker = g_build_filename(f->run, "INCOMPLETE", NULL);
	g_autofree char *svg = g_build_filename(f->run, "histogram.svg", NULL);
	g_autofree char *text = NULL;
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };

	tu_write(marker, "the guest never powered off\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	text = tu_slurp(svg);
	g_assert_nonnull(strstr(text, "run [INCOMPLETE]: latency histogram"));
}

/* Without records.csv (run --no-csv) there is no timeline, and it is fine. */
static void test_no_csv(Fixture *f, gconstpointer data)
{
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	g_autofree char *timeline = g_build_filename(f->run, "timeline.png", NULL);
	g_autofree char *hist = g_build_filename(f->run, "histogram.png", NULL);
	const char *const args[] = { "plot", f->run, NULL };
	g_autofree char *err = NULL;

	g_assert_cmpint(g_unlink(csv), ==, 0);
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 0);
	g_assert_nonnull(strstr(err, "no records.csv"));
	g_assert_false(g_file_test(timeline, G_FILE_TEST_EXISTS));
	assert_figure(hist);
}

/* A records.csv without records still gives a (labelled, empty) timeline. */
static void test_empty_csv(Fixture *f, gconstpointer data)
{
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	g_autofree char *timeline = g_build_filename(f->run, "timeline.png", NULL);
	const char *const args[] = { "plot", f->run, NULL };

	tu_write(csv, "seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	assert_figure(timeline);
}

/* Columns are found by name: reordered and extra columns change nothing. */
static void test_csv_columns(Fixture *f, gconstpointer data)
{
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	g_autofree char *svg = g_build_filename(f->run, "timeline.svg", NULL);
	g_autofree char *text = NULL;
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };

	tu_write(csv, "t_done,extra,flags,seq,t_raise\n"
		      "1000,x,4,1,0\n"
		      "3000500,y,4,2,3000000\n"
		      "9000,z,3,3,5000\n"
		      "4020000,p,516,4,4000000\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	text = tu_slurp(svg);
	/* Two done records (flags & 4), the slower 0.5 us; the third has no
	 * done; the fourth is the probe's (flags & 512), a series apart. */
	g_assert_nonnull(strstr(text, "interrupts, done - raise: 2 events in the window, mean 0.75 us, max 1.000 us"));
	g_assert_nonnull(strstr(text, "probe (wake-up lateness): 1 events in the window, mean 20.00 us, max 20.000 us"));
}

static void test_no_gnuplot(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "plot", f->run, NULL };
	const char *const env[] = { "PATH=/nonexistent", NULL };
	g_autofree char *out = NULL, *err = NULL;

	g_assert_cmpint(tu_run(NULL, args, env, &out, &err), ==, 1);
	g_assert_cmpstr(out, ==, "");
	g_assert_nonnull(strstr(err, "gnuplot not found: apt-get install gnuplot-nox"));
}

static void test_errors(Fixture *f, gconstpointer data)
{
	g_autofree char *nowhere = g_build_filename(f->root, "nowhere", NULL);
	g_autofree char *hist = g_build_filename(f->run, "histogram.txt", NULL);
	g_autofree char *err = NULL, *err2 = NULL, *err3 = NULL, *err4 = NULL;

	{
		const char *const args[] = { "plot", f->run, nowhere, "--out", f->root, NULL };

		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 1);
		g_assert_nonnull(strstr(err, "nowhere: no such directory"));
	}
	{
		const char *const args[] = { "plot", "--format", "jpeg", f->run, NULL };

		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err2), ==, 1);
		g_assert_nonnull(strstr(err2, "--format must be png, svg or both"));
	}
	{
		const char *const args[] = { "plot", "--stage", "done", f->run, NULL };

		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err3), ==, 1);
		g_assert_nonnull(strstr(err3, "give several DIRs"));
	}
	{
		const char *const args[] = { "plot", f->run, NULL };
		g_autofree char *png = g_build_filename(f->run, "histogram.png", NULL);

		g_assert_cmpint(g_unlink(hist), ==, 0);
		g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err4), ==, 1);
		g_assert_nonnull(strstr(err4, "histogram.txt: no such file"));
		g_assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
	}
}

/* gnuplot failing leaves no figure, not even an empty one. */
static void test_gnuplot_fails(Fixture *f, gconstpointer data)
{
	g_autofree char *hist = g_build_filename(f->run, "histogram.txt", NULL);
	g_autofree char *png = g_build_filename(f->run, "histogram.png", NULL);
	const char *const args[] = { "plot", f->run, NULL };
	g_autofree char *err = NULL;

	tu_write(hist, "# Histogram\n# Stages: done\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 1);
	g_assert_nonnull(strstr(err, "gnuplot "));
	g_assert_false(g_file_test(png, G_FILE_TEST_EXISTS));
	assert_no_partials(f->run);
}

/* The fixture's interrupts and probe wake-ups with a done stamp. */
static void count_csv(const char *csv, guint *irq, guint *probe)
{
	g_autofree char *text = tu_slurp(csv);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	*irq = *probe = 0;
	for (gsize i = 1; lines[i] && *lines[i]; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], ",", -1);
		guint flags = (guint)g_ascii_strtoull(f[2], NULL, 10);

		if (flags & IRQSTORM_REC_DONE)
			(flags & IRQSTORM_REC_PROBE ? (*probe)++ : (*irq)++);
	}
}

/* A stage's cycles in the run's summary.json: what its table counts. */
static gint64 summary_cycles(const char *run, const char *stage)
{
	g_autofree char *path = g_build_filename(run, "summary.json", NULL);
	g_autoptr(JsonParser) parser = json_parser_new();

	g_assert_true(json_parser_load_from_file(parser, path, NULL));
	return json_object_get_int_member(json_object_get_object_member(
		json_object_get_object_member(json_node_get_object(json_parser_get_root(parser)),
					      IRQSTORM_KEY_STAGES), stage), "cycles");
}

/* The timeline: the interrupts only (the done stage), the probe apart;
 * each legend counts the events of the window, as the table does, and
 * those outside it (the stop tail) apart. */
static void test_timeline_probe(Fixture *f, gconstpointer data)
{
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	g_autofree char *svg = g_build_filename(f->run, "timeline.svg", NULL);
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };
	g_autofree char *text = NULL, *irq_title = NULL, *probe_title = NULL;
	gint64 done = summary_cycles(f->run, "done"), woken = summary_cycles(f->run, "probe");
	guint irq, probe;

	count_csv(csv, &irq, &probe);
	g_assert_cmpuint(irq, >, done);
	g_assert_cmpuint(probe, >, woken);
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	text = tu_slurp(svg);
	irq_title = g_strdup_printf("interrupts, done - raise: %" G_GINT64_FORMAT " events in "
				    "the window (+%" G_GINT64_FORMAT " outside it),", done,
				    irq - done);
	probe_title = g_strdup_printf("probe (wake-up lateness): %" G_GINT64_FORMAT " events in "
				      "the window (+%" G_GINT64_FORMAT " outside it),", woken,
				      probe - woken);
	g_assert_nonnull(strstr(text, irq_title));
	g_assert_nonnull(strstr(text, probe_title));
	g_assert_nonnull(strstr(text, ">window<"));
}

/* histogram.txt of the run with thread and probe empty (a hardirq run). */
static void write_hardirq_histfile(const char *path)
{
	IrqstormHist *hists[IRQSTORM_STAGE_COUNT];
	const char *names[IRQSTORM_STAGE_COUNT];
	g_autoptr(GError) error = NULL;

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		hists[st] = irqstorm_hist_new(1000, 100);
		names[st] = irqstorm_stage_name(st);
	}
	irqstorm_hist_add(hists[IRQSTORM_STAGE_HARDIRQ], 3090);
	irqstorm_hist_add(hists[IRQSTORM_STAGE_HARDIRQ], 27616);
	irqstorm_hist_add(hists[IRQSTORM_STAGE_DONE], 31000);
	irqstorm_hist_add(hists[IRQSTORM_STAGE_HANDLER], 136);
	g_assert_true(irqstorm_write_histfile(path, hists, names, IRQSTORM_STAGE_COUNT, &error));
	g_assert_no_error(error);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_hist_free(hists[st]);
}

/* Legends list the stages with samples only, and do not round maxima
 * down: "max 27.616 us", not "27 us". (Of a histogram file alone: without
 * records.csv, the tail is the histogram's too.) */
static void test_legends(Fixture *f, gconstpointer data)
{
	g_autofree char *hist = g_build_filename(f->run, "histogram.txt", NULL);
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };
	static const char *const figs[] = { "histogram.svg", "percentiles.svg" };

	write_hardirq_histfile(hist);
	g_assert_cmpint(g_unlink(csv), ==, 0);
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	for (gsize i = 0; i < G_N_ELEMENTS(figs); i++) {
		g_autofree char *svg = g_build_filename(f->run, figs[i], NULL);
		g_autofree char *text = tu_slurp(svg);

		g_assert_nonnull(strstr(text, "max 27.616 us"));
		g_assert_nonnull(strstr(text, "handler ("));
		g_assert_null(strstr(text, "thread ("));
		g_assert_null(strstr(text, "probe ("));
		g_assert_null(strstr(text, "max 27 us"));
	}
}

/* The x (us) of the first point of block k of a tail file at which y <=
 * at_most, and of its last point. */
static void tail_points(const char *text, guint k, double at_most, double *cross, double *last)
{
	g_auto(GStrv) blocks = NULL;
	g_auto(GStrv) lines = NULL;
	g_autofree char *norm = g_strdup(text);

	/* blocks are apart by two blank lines */
	blocks = g_strsplit(norm, "\n\n\n", -1);
	g_assert_cmpuint(g_strv_length(blocks), >, k);
	lines = g_strsplit(g_strstrip(blocks[k]), "\n", -1);
	g_assert_cmpstr(lines[0], ==, "0 1");
	*cross = NAN;
	for (guint i = 0; lines[i]; i++) {
		double x = g_ascii_strtod(lines[i], NULL);
		double y = g_ascii_strtod(strchr(lines[i], ' '), NULL);

		if (isnan(*cross) && y <= at_most)
			*cross = x;
		*last = x;
		if (!lines[i + 1])
			g_assert_cmpfloat(y, ==, 0);
	}
}

/*
 * The percentiles' tail is drawn from the exact latencies of records.csv
 * over the window, not from 1 us bins: each stage's curve crosses the p99
 * line at summary.json's p99 and ends at its max, to the ns (a stage of
 * max 3.112 us does not end at 4). A stand-in percentiles.gp keeps the
 * data gnuplot was given.
 */
static void test_exact_tail(Fixture *f, gconstpointer data)
{
	g_autofree char *fake = g_build_filename(f->root, "plots", NULL);
	g_autofree char *gp = g_build_filename(fake, "percentiles.gp", NULL);
	g_autofree char *env = g_strconcat("IRQSTORM_PLOTS_DIR=", fake, NULL);
	g_autofree char *dat = g_build_filename(f->root, "tail.dat", NULL);
	g_autofree char *params = g_build_filename(f->root, "tail.dat.params", NULL);
	g_autofree char *env_dat = g_strconcat("IRQSTORM_TEST_TAIL=", dat, NULL);
	const char *const envp[] = { env, env_dat, NULL };
	const char *const args[] = { "plot", f->run, NULL };
	g_autofree char *text = NULL, *names = NULL, *summary = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	g_auto(GStrv) words = NULL;
	JsonObject *stages;

	g_assert_cmpint(g_mkdir_with_parents(fake, 0755), ==, 0);
	for (const char *const *s = (const char *const[]) { "histogram.gp", "timeline.gp",
			"breakdown.gp", "stages.gp", NULL }; *s; s++) {
		g_autofree char *from = g_build_filename(g_getenv("IRQSTORM_PLOTS_DIR"), *s, NULL);
		g_autofree char *to = g_build_filename(fake, *s, NULL);
		g_autofree char *body = tu_slurp(from);

		tu_write(to, body);
	}
	tu_write(gp, "system(sprintf(\"cp '%s' \\\"$IRQSTORM_TEST_TAIL\\\"\", exact))\n"
		 "system(sprintf(\"echo '%s' >\\\"$IRQSTORM_TEST_TAIL\\\".params\", exact_stages))\n"
		 "set print output\nprint 'x'\nunset print\n");
	g_assert_cmpint(tu_run(NULL, args, envp, NULL, NULL), ==, 0);
	text = tu_slurp(dat);
	names = tu_slurp(params);
	words = g_strsplit(g_strstrip(names), " ", -1);
	summary = g_build_filename(f->run, "summary.json", NULL);
	json_parser_load_from_file(parser, summary, NULL);
	stages = json_object_get_object_member(json_node_get_object(
		json_parser_get_root(parser)), IRQSTORM_KEY_STAGES);
	g_assert_cmpuint(g_strv_length(words), ==, IRQSTORM_STAGE_COUNT);
	for (guint k = 0; words[k]; k++) {
		JsonObject *st = json_object_get_object_member(stages, words[k]);
		double cross = NAN, last = NAN;

		tail_points(text, k, 0.01, &cross, &last);
		g_test_message("%s: p99 %.3f, max %.3f", words[k], cross, last);
		g_assert_cmpfloat_with_epsilon(cross, json_object_get_int_member(st, "p99") / 1e3,
					       1e-6);
		g_assert_cmpfloat_with_epsilon(last, json_object_get_int_member(st, "max") / 1e3,
					       1e-6);
	}
}

/*
 * A run of two channels (fixture-two/, priority.ini) is drawn channel by
 * channel: histogram-chN and percentiles-chN, titled with the channel and
 * its name, each legend holding that channel's counts (the tail from its
 * exact records, in agreement with summary.json: nothing said on stderr),
 * no pooled figure unless --pooled (titled so); a timeline series and a
 * breakdown bar per channel; --channel bulk draws channel 1 alone; a
 * comparison compare-done-chN per channel.
 */
static void test_channels(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };
	const char *const pooled[] = { "plot", "--format", "svg", "--pooled", f->run, NULL };
	g_autofree char *one = g_build_filename(f->root, "one", NULL);
	const char *const bulk[] = { "plot", "--channel", "bulk", "--out", one, f->run, NULL };
	g_autofree char *cmp = g_build_filename(f->root, "cmp", NULL);
	const char *const two[] = { "plot", f->run, f->run, "--label", "a", "--label", "b",
				    "--out", cmp, NULL };
	g_autofree char *err = NULL, *h0 = NULL, *p1 = NULL, *tl = NULL, *bd = NULL;
	g_autofree char *pooled_h = g_build_filename(f->run, "histogram.svg", NULL);
	g_autofree char *c0 = g_build_filename(cmp, "compare-done-ch0.png", NULL);
	g_autofree char *c1 = g_build_filename(cmp, "compare-done-ch1.png", NULL);
	g_autofree char *ph = NULL;

	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 0);
	g_assert_cmpstr(err, ==, "");
	h0 = slurp_in(f->run, "histogram-ch0.svg");
	p1 = slurp_in(f->run, "percentiles-ch1.svg");
	tl = slurp_in(f->run, "timeline.svg");
	bd = slurp_in(f->run, "breakdown.svg");
	g_assert_nonnull(strstr(h0, "run: channel 0 (critical): latency histogram"));
	g_assert_nonnull(strstr(p1, "run: channel 1 (bulk): latency tail"));
	g_assert_false(g_file_test(pooled_h, G_FILE_TEST_EXISTS));
	g_assert_nonnull(strstr(tl, "channel 0 (critical), done - raise:"));
	g_assert_nonnull(strstr(tl, "channel 1 (bulk), done - raise:"));
	g_assert_nonnull(strstr(bd, "run: channel 0 (critical)"));
	g_assert_nonnull(strstr(bd, "run: channel 1 (bulk)"));

	g_assert_cmpint(tu_run(NULL, pooled, NULL, NULL, NULL), ==, 0);
	ph = tu_slurp(pooled_h);
	g_assert_nonnull(strstr(ph, "run: all channels, pooled: latency histogram"));

	g_assert_cmpint(tu_run(NULL, bulk, NULL, NULL, NULL), ==, 0);
	{
		g_autofree char *b1 = g_build_filename(one, "histogram-ch1.png", NULL);
		g_autofree char *b0 = g_build_filename(one, "histogram-ch0.png", NULL);

		assert_figure(b1);
		g_assert_false(g_file_test(b0, G_FILE_TEST_EXISTS));
	}
	g_assert_cmpint(tu_run(NULL, two, NULL, NULL, NULL), ==, 0);
	assert_figure(c0);
	assert_figure(c1);
}

/* export draws an incomplete run as plot does: what it collected, its
 * name marked [INCOMPLETE], and says so; one without records.csv is an
 * error. */
static void test_export_incomplete(Fixture *f, gconstpointer data)
{
	g_autofree char *marker = g_build_filename(f->run, "INCOMPLETE", NULL);
	g_autofree char *csv = g_build_filename(f->run, "records.csv", NULL);
	g_autofree char *trace = g_build_filename(f->run, "trace.json", NULL);
	const char *const args[] = { "export", f->run, NULL };
	g_autofree char *err = NULL, *err2 = NULL, *text = NULL;

	tu_write(marker, "interrupted by a signal\n");
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 0);
	g_assert_nonnull(strstr(err, "is an incomplete run (interrupted by a signal): its "
				"timeline holds what it collected, marked [INCOMPLETE]"));
	text = tu_slurp(trace);
	g_assert_nonnull(strstr(text, "run [INCOMPLETE]"));
	g_assert_cmpint(g_unlink(csv), ==, 0);
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err2), ==, 1);
	g_assert_nonnull(strstr(err2, "without records: nothing to export"));
}

/* "#rrggbb" as gnuplot's SVG terminal writes it: "rgb(148,   0, 211)". */
static char *svg_rgb(const char *hex)
{
	guint v = (guint)g_ascii_strtoull(hex + 1, NULL, 16);

	return g_strdup_printf("rgb(%3u, %3u, %3u)", v >> 16, (v >> 8) & 0xff, v & 0xff);
}

/* stage_colour() of plots/stages.gp, asked of gnuplot. */
static char *gnuplot_colour(const char *stage)
{
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	g_autofree char *cmd = g_strdup_printf("load '%s/stages.gp'; print stage_colour('%s', 1)",
					       g_getenv("IRQSTORM_PLOTS_DIR"), stage);
	const char *argv[] = { gnuplot, "-e", cmd, NULL };
	g_autoptr(GError) error = NULL;
	char *err = NULL;
	int status;

	g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
		     NULL, &err, &status, &error);
	g_assert_no_error(error);
	g_assert_true(g_spawn_check_wait_status(status, NULL));
	return g_strchomp(err);
}

/* Every stage of the table has a colour of its own in stages.gp, and each
 * figure draws a stage in that colour. */
static void test_colours(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *fig;
		guint stages;	/* 1 << IrqstormStage drawn in it */
	} figs[] = {
		{ "histogram.svg", 0x3f }, { "percentiles.svg", 0x3f },
		{ "timeline.svg", 1 << IRQSTORM_STAGE_DONE | 1 << IRQSTORM_STAGE_PROBE },
		{ "breakdown.svg", 1 << IRQSTORM_STAGE_HARDIRQ | 1 << IRQSTORM_STAGE_THREAD |
				   1 << IRQSTORM_STAGE_BH | 1 << IRQSTORM_STAGE_DONE },
	};
	const char *const args[] = { "plot", "--format", "svg", f->run, NULL };
	g_autoptr(GPtrArray) seen = g_ptr_array_new_with_free_func(g_free);

	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, NULL), ==, 0);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		char *c = gnuplot_colour(irqstorm_stage_name(st));

		g_assert_true(g_str_has_prefix(c, "#") && strlen(c) == 7);
		if (g_ptr_array_find_with_equal_func(seen, c, g_str_equal, NULL))
			g_error("stage %s has the colour of another: %s", irqstorm_stage_name(st), c);
		g_ptr_array_add(seen, c);
	}
	for (gsize i = 0; i < G_N_ELEMENTS(figs); i++) {
		g_autofree char *svg = g_build_filename(f->run, figs[i].fig, NULL);
		g_autofree char *text = tu_slurp(svg);

		for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
			g_autofree char *rgb = svg_rgb(seen->pdata[st]);

			if ((figs[i].stages & 1u << st) && !strstr(text, rgb))
				g_error("%s: no %s (%s) for %s", figs[i].fig, rgb,
					(char *)seen->pdata[st], irqstorm_stage_name(st));
		}
	}
}

/* The fixture made a run that recorded nothing: every stage without
 * samples, no records (as with [run] stamps = false). */
static void make_empty_run(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
	g_autofree char *hist = g_build_filename(dir, "histogram.txt", NULL);
	g_autofree char *csv = g_build_filename(dir, "records.csv", NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;
	IrqstormHist *hists[IRQSTORM_STAGE_COUNT];
	const char *names[IRQSTORM_STAGE_COUNT];
	JsonObject *root, *stages;

	json_parser_load_from_file(parser, path, &error);
	g_assert_no_error(error);
	root = json_node_get_object(json_parser_get_root(parser));
	stages = json_object_new();
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		hists[st] = irqstorm_hist_new(1000, 100);
		names[st] = irqstorm_stage_name(st);
		json_object_set_member(stages, names[st], irqstorm_summary_stage_json(hists[st]));
	}
	json_object_set_object_member(root, IRQSTORM_KEY_STAGES, stages);
	json_object_set_int_member(json_object_get_object_member(json_object_get_object_member(
		root, IRQSTORM_KEY_COUNTS), IRQSTORM_KEY_HOST), IRQSTORM_KEY_ALL_RECORDS, 0);
	g_assert_true(irqstorm_write_json_file(path, json_parser_get_root(parser), &error));
	g_assert_true(irqstorm_write_histfile(hist, hists, names, IRQSTORM_STAGE_COUNT, &error));
	g_assert_no_error(error);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_hist_free(hists[st]);
	tu_write(csv, "seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced,"
		      "work,cpu_hardirq,cpu_thread,cpu_done\n");
}

/* A run with no records says so plainly, and draws nothing. */
static void test_no_records(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "plot", f->run, NULL };
	g_autofree char *before = NULL, *after = NULL;
	g_autofree char *out = NULL, *err = NULL;

	make_empty_run(f->run);
	before = dir_snapshot(f->run);
	g_assert_cmpint(tu_run(NULL, args, NULL, &out, &err), ==, 1);
	g_assert_cmpstr(out, ==, "");
	g_assert_nonnull(strstr(err, ": no stage has a sample: the run has no records: "
				     "nothing to plot\n"));
	g_assert_null(strstr(err, "gnuplot"));
	after = dir_snapshot(f->run);
	g_assert_cmpstr(after, ==, before);
}

/* Among several, it shows as "no samples", and it is said. */
static void test_no_records_several(Fixture *f, gconstpointer data)
{
	g_autofree char *empty = g_build_filename(f->root, "empty", NULL);
	g_autofree char *dest = g_build_filename(f->root, "cmp", NULL);
	g_autofree char *svg = g_build_filename(dest, "compare-breakdown.svg", NULL);
	const char *const args[] = { "plot", f->run, empty, "--out", dest, "--format", "svg", NULL };
	g_autofree char *err = NULL, *text = NULL;

	tu_copy_dir(fixture_dir(), empty);
	make_empty_run(empty);
	g_assert_cmpint(tu_run(NULL, args, NULL, NULL, &err), ==, 0);
	g_assert_nonnull(strstr(err, "empty: no stage has a sample: the run has no records: "
				     "\"no samples\" in the comparison"));
	text = tu_slurp(svg);
	g_assert_nonnull(strstr(text, "no samples"));
}

/* The width of a PNG, from its IHDR. */
static guint png_width(const char *path)
{
	g_autofree char *text = tu_slurp(path);

	return (guint)(guchar)text[16] << 24 | (guint)(guchar)text[17] << 16 |
	       (guint)(guchar)text[18] << 8 | (guint)(guchar)text[19];
}

/* Six runs with long names: the breakdown widens so that the names (at
 * least ~7 px a character) fit side by side in both panels. */
static void test_breakdown_room(Fixture *f, gconstpointer data)
{
	g_autofree char *dest = g_build_filename(f->root, "cmp", NULL);
	g_autofree char *png = g_build_filename(dest, "compare-breakdown.png", NULL);
	g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
	const guint n = 6, len = 24;

	g_ptr_array_add(args, g_strdup("plot"));
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(args, g_strdup(f->run));
	for (guint i = 0; i < n; i++) {
		g_ptr_array_add(args, g_strdup("--label"));
		g_ptr_array_add(args, g_strdup_printf("run-with-a-long-name-%03u", i));
	}
	g_ptr_array_add(args, g_strdup("--out"));
	g_ptr_array_add(args, g_strdup(dest));
	g_ptr_array_add(args, NULL);
	g_assert_cmpint(tu_run(NULL, (const char *const *)args->pdata, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(png_width(png), >=, 2 * n * len * 7);
}

/* The members of an object, in order, space-separated. */
static char *members(JsonObject *o)
{
	g_autoptr(GList) l = json_object_get_members(o);
	g_autoptr(GString) s = g_string_new(NULL);

	for (GList *i = l; i; i = i->next)
		g_string_append_printf(s, "%s%s", s->len ? " " : "", (char *)i->data);
	return g_string_free(g_steal_pointer(&s), FALSE);
}

static JsonObject *load_object(JsonParser *parser, const char *path)
{
	g_autoptr(GError) error = NULL;

	json_parser_load_from_file(parser, path, &error);
	g_assert_no_error(error);
	return json_node_get_object(json_parser_get_root(parser));
}

/* histogram.txt: the fixture's comment lines and row width are what the
 * writer writes now (its rows are cut, its footers not). */
static void check_fixture_histfile(const char *dir, IrqstormHist **hists,
				   const char *const *names)
{
	g_autofree char *tmp = tu_make_dir();
	g_autofree char *now_path = g_build_filename(tmp, "histogram.txt", NULL);
	g_autofree char *fix_path = g_build_filename(dir, "histogram.txt", NULL);
	g_autofree char *now = NULL, *fix = NULL;
	g_auto(GStrv) a = NULL, b = NULL;
	g_autoptr(GError) error = NULL;
	guint ia = 0, ib = 0;

	g_assert_true(irqstorm_write_histfile(now_path, hists, names, IRQSTORM_STAGE_COUNT, &error));
	now = tu_slurp(now_path);
	fix = tu_slurp(fix_path);
	a = g_strsplit(now, "\n", -1);
	b = g_strsplit(fix, "\n", -1);
	for (; a[ia] || b[ib]; ia++, ib++) {
		g_auto(GStrv) fa = NULL, fb = NULL;

		while (a[ia] && *a[ia] && a[ia][0] != '#' && b[ib] && *b[ib] && b[ib][0] != '#') {
			fa = g_strsplit_set(a[ia++], " \t", -1);
			fb = g_strsplit_set(b[ib++], " \t", -1);
			g_assert_cmpuint(g_strv_length(fb), ==, g_strv_length(fa));
			g_clear_pointer(&fa, g_strfreev);
			g_clear_pointer(&fb, g_strfreev);
		}
		while (b[ib] && *b[ib] && b[ib][0] != '#')
			ib++;	/* the fixture has fewer rows */
		if (!a[ia] || !b[ib])
			break;
		/* a comment line: the same, up to its values for the footers */
		if (g_str_has_prefix(a[ia], "# ") && strchr(a[ia], ':') && !g_str_has_prefix(a[ia], "# Layout") &&
		    !g_str_has_prefix(a[ia], "# Columns") && !g_str_has_prefix(a[ia], "# Stages")) {
			g_autofree char *la = g_strndup(a[ia], strchr(a[ia], ':') - a[ia]);

			g_assert_true(g_str_has_prefix(b[ib], la));
		} else {
			g_assert_cmpstr(b[ib], ==, a[ia]);
		}
	}
	g_assert_null(a[ia]);
	g_assert_null(b[ib]);
	tu_rmtree(tmp);
}

/* summary.json and rt-tests.json: the members the writer writes now. */
static void check_fixture_json(const char *dir, IrqstormHist **hists,
			       const char *const *names)
{
	g_autofree char *sum_path = g_build_filename(dir, "summary.json", NULL);
	g_autofree char *rt_path = g_build_filename(dir, "rt-tests.json", NULL);
	g_autoptr(JsonParser) sp = json_parser_new();
	g_autoptr(JsonParser) rp = json_parser_new();
	g_autoptr(JsonParser) np = json_parser_new();
	g_autoptr(GDateTime) t = g_date_time_new_now_utc();
	const IrqstormRtTestsInfo info = { .start = t, .end = t };
	g_autofree char *rt_now = irqstorm_rt_tests_json(hists, names, IRQSTORM_STAGE_COUNT, &info);
	g_autofree char *stage_names = irqstorm_stage_names(TRUE);
	JsonObject *sum = load_object(sp, sum_path), *rt = load_object(rp, rt_path), *now;
	JsonObject *stages = json_object_get_object_member(sum, IRQSTORM_KEY_STAGES);
	g_autofree char *got_stages = members(stages);

	g_assert_cmpstr(json_object_get_string_member(sum, IRQSTORM_KEY_FORMAT), ==,
			IRQSTORM_SUMMARY_FORMAT);
	g_assert_cmpstr(got_stages, ==, stage_names);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		g_autoptr(JsonNode) n = irqstorm_summary_stage_json(hists[st]);
		g_autofree char *want = members(json_node_get_object(n));
		g_autofree char *got = members(json_object_get_object_member(stages, names[st]));

		g_assert_cmpstr(got, ==, want);
	}
	g_assert_true(json_parser_load_from_data(np, rt_now, -1, NULL));
	now = json_node_get_object(json_parser_get_root(np));
	{
		g_autofree char *want = members(now), *got = members(rt);
		g_autofree char *want0 = members(json_object_get_object_member(
			json_object_get_object_member(now, "thread"), "0"));
		g_autofree char *got0 = members(json_object_get_object_member(
			json_object_get_object_member(rt, "thread"), "0"));

		g_assert_cmpstr(got, ==, want);
		g_assert_cmpstr(got0, ==, want0);
		g_assert_cmpint(json_object_get_int_member(rt, "num_threads"), ==,
				IRQSTORM_STAGE_COUNT);
	}
}

/*
 * fixture/ is what the writer writes now: the same stages (all of the
 * table, the probe's too), histogram.txt's comment lines and columns, the
 * CSV's header, the members of summary.json's stages and of rt-tests.json.
 * When this fails, the writer changed: run tests/plots/make-fixture.sh.
 */
static void test_fixture_current(void)
{
	const char *dir = fixture_dir();
	g_autofree char *csv_path = g_build_filename(dir, "records.csv", NULL);
	g_autofree char *csv = tu_slurp(csv_path);
	IrqstormHist *hists[IRQSTORM_STAGE_COUNT];
	const char *names[IRQSTORM_STAGE_COUNT];
	char *head = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&head, &len);

	g_assert_true(irqstorm_records_write_header(f));
	g_assert_cmpint(fclose(f), ==, 0);
	g_assert_true(g_str_has_prefix(csv, head));
	free(head);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		hists[st] = irqstorm_hist_new(1000, 10);
		irqstorm_hist_add(hists[st], 1000 + st);
		names[st] = irqstorm_stage_name(st);
	}
	check_fixture_histfile(dir, hists, names);
	check_fixture_json(dir, hists, names);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_hist_free(hists[st]);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plot/quote", test_quote);
	g_test_add_func("/plot/quote/gnuplot", test_quote_gnuplot);
	g_test_add_func("/plot/paths", test_paths);
	g_test_add_func("/plot/sweep-axis", test_sweep_axis);
	g_test_add_func("/plot/keys-outside", test_keys_outside);
	g_test_add_func("/plot/fixture/current", test_fixture_current);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/plot/cmd/one", test_one);
	ADD("/plot/cmd/one-out-both", test_one_out_both);
	ADD("/plot/cmd/svg", test_svg);
	ADD("/plot/cmd/several-nasty-names", test_several_nasty);
	ADD("/plot/cmd/several-no-out", test_several_no_out);
	ADD("/plot/cmd/several-bad-stage", test_several_bad_stage);
	ADD("/plot/cmd/timeline-probe", test_timeline_probe);
	ADD("/plot/cmd/legends", test_legends);
	ADD("/plot/cmd/exact-tail", test_exact_tail);
	ADD("/export/incomplete", test_export_incomplete);
	g_test_add("/plot/cmd/channels", Fixture, NULL, fixture_two_setup, test_channels,
		   fixture_teardown);
	ADD("/plot/cmd/colours", test_colours);
	ADD("/plot/cmd/no-records", test_no_records);
	ADD("/plot/cmd/no-records-several", test_no_records_several);
	ADD("/plot/cmd/breakdown-room", test_breakdown_room);
	ADD("/plot/cmd/incomplete", test_incomplete);
	ADD("/plot/cmd/no-csv", test_no_csv);
	ADD("/plot/cmd/empty-csv", test_empty_csv);
	ADD("/plot/cmd/csv-columns", test_csv_columns);
	ADD("/plot/cmd/no-gnuplot", test_no_gnuplot);
	ADD("/plot/cmd/errors", test_errors);
	ADD("/plot/cmd/gnuplot-fails", test_gnuplot_fails);
#undef ADD
	return g_test_run();
}
