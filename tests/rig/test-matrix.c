// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix: --vary parsing, cell names and the cartesian product
 * (rig/matrix.c), then the command ($IRQSTORM_BIN) with a fake `irqstorm
 * run` (IRQSTORM_RUN_BINARY, a shell script written here) that records its
 * arguments and start/end times and writes a summary.json: the cells'
 * arguments, resuming, --jobs, exit codes, bad options, ^C.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "matrix.h"
#include "testutil.h"

/* ---- parsing and naming ------------------------------------------------- */

static GPtrArray *parse(const char *const *specs)
{
	g_autoptr(GError) err = NULL;
	GPtrArray *v = irqstorm_matrix_parse_vary(specs, &err);

	g_assert_no_error(err);
	g_assert_nonnull(v);
	return v;
}

static void test_parse(void)
{
	const char *const specs[] = { "channel0.rate=1000,20000", "channel0.threading=hardirq", NULL };
	g_autoptr(GPtrArray) v = parse(specs);
	const IrqstormVary *a = v->pdata[0], *b = v->pdata[1];

	g_assert_cmpuint(v->len, ==, 2);
	g_assert_cmpstr(a->key, ==, "channel0.rate");
	g_assert_cmpstr(a->name, ==, "rate");
	g_assert_cmpuint(g_strv_length(a->values), ==, 2);
	g_assert_cmpstr(a->values[1], ==, "20000");
	g_assert_cmpstr(b->name, ==, "threading");
	g_assert_cmpstr(b->values[0], ==, "hardirq");
}

static void test_parse_errors(void)
{
	static const struct {
		const char *a, *b;
		const char *message;
	} cases[] = {
		{ "channel0.rate", NULL, "no '='" },
		{ "rate=1,2", NULL, "'rate' is not GROUP.KEY" },
		{ ".rate=1", NULL, "is not GROUP.KEY" },
		{ "channel0.=1", NULL, "is not GROUP.KEY" },
		{ "a.b.c=1", NULL, "is not GROUP.KEY" },
		{ "channel0.rate=", NULL, "empty list of values" },
		{ "channel0.rate=1,,2", NULL, "empty value (item 2 of the list)" },
		{ "channel0.rate=1,", NULL, "empty value (item 2 of the list)" },
		{ "channel0.rate=1,2,1", NULL, "value '1' is listed twice" },
		{ "channel0.rate=1", "channel0.rate=2", "channel0.rate is varied twice" },
		{ NULL, NULL, "no --vary" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const specs[] = { cases[i].a, cases[i].b, NULL };
		g_autoptr(GError) err = NULL;
		g_autoptr(GPtrArray) v = irqstorm_matrix_parse_vary(specs, &err);

		g_assert_null(v);
		g_assert_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
		if (!strstr(err->message, cases[i].message))
			g_error("case %zu: '%s' lacks '%s'", i, err->message, cases[i].message);
	}
}

/* The group is kept only where the key alone is ambiguous. */
static void test_names(void)
{
	const char *const specs[] = { "channel0.rate=1", "channel1.rate=2",
				      "kernel.cmdline=threadirqs", NULL };
	g_autoptr(GPtrArray) v = parse(specs);

	g_assert_cmpstr(((IrqstormVary *)v->pdata[0])->name, ==, "channel0.rate");
	g_assert_cmpstr(((IrqstormVary *)v->pdata[1])->name, ==, "channel1.rate");
	g_assert_cmpstr(((IrqstormVary *)v->pdata[2])->name, ==, "cmdline");
}

static void test_cells(void)
{
	const char *const specs[] = { "channel0.rate=1000,2000,3000",
				      "channel0.threading=hardirq,threaded", NULL };
	g_autoptr(GPtrArray) v = parse(specs);
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) cells = irqstorm_matrix_cells(v, &err);
	static const char *const expected[] = {
		"rate=1000,threading=hardirq", "rate=1000,threading=threaded",
		"rate=2000,threading=hardirq", "rate=2000,threading=threaded",
		"rate=3000,threading=hardirq", "rate=3000,threading=threaded",
	};
	const IrqstormCell *c;

	g_assert_no_error(err);
	g_assert_cmpuint(cells->len, ==, G_N_ELEMENTS(expected));
	for (guint i = 0; i < cells->len; i++)
		g_assert_cmpstr(((IrqstormCell *)cells->pdata[i])->name, ==, expected[i]);
	c = cells->pdata[3];
	g_assert_cmpstr(c->values[0], ==, "2000");
	g_assert_cmpstr(c->values[1], ==, "threaded");
	g_assert_cmpuint(g_strv_length(c->sets), ==, 2);
	g_assert_cmpstr(c->sets[0], ==, "channel0.rate=2000");
	g_assert_cmpstr(c->sets[1], ==, "channel0.threading=threaded");
}

/* Values become safe names; the --set keeps the value as it was. */
static void test_cells_safe(void)
{
	const char *const specs[] = { "kernel.cmdline=preempt=full threadirqs,a/../b", NULL };
	g_autoptr(GPtrArray) v = parse(specs);
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) cells = irqstorm_matrix_cells(v, &err);
	const IrqstormCell *c0, *c1;

	g_assert_no_error(err);
	c0 = cells->pdata[0];
	c1 = cells->pdata[1];
	g_assert_cmpstr(c0->name, ==, "cmdline=preempt=full_threadirqs");
	g_assert_cmpstr(c0->sets[0], ==, "kernel.cmdline=preempt=full threadirqs");
	g_assert_cmpstr(c1->name, ==, "cmdline=a_.._b");
	g_assert_null(strchr(c1->name, '/'));
}

static void test_cells_collision(void)
{
	const char *const specs[] = { "kernel.cmdline=a b,a_b", NULL };
	g_autoptr(GPtrArray) v = parse(specs);
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) cells = irqstorm_matrix_cells(v, &err);

	g_assert_null(cells);
	g_assert_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
	g_assert_nonnull(strstr(err->message, "'cmdline=a_b'"));
}

static void test_exit_code(void)
{
	const int pass[] = { 0, 0 }, thr[] = { 0, 2, 2 }, fail[] = { 2, 1, 0 };
	const int killed[] = { 0, -1 }, other[] = { 3 };

	g_assert_cmpint(irqstorm_matrix_exit_code(pass, 2), ==, 0);
	g_assert_cmpint(irqstorm_matrix_exit_code(thr, 3), ==, 2);
	g_assert_cmpint(irqstorm_matrix_exit_code(fail, 3), ==, 1);
	g_assert_cmpint(irqstorm_matrix_exit_code(killed, 2), ==, 1);
	g_assert_cmpint(irqstorm_matrix_exit_code(other, 1), ==, 1);
}

/* ---- the command, with a fake `irqstorm run` ---------------------------- */

/*
 * Called as: fake run SCENARIO --out DIR --quiet [--set K=V]... [options].
 * Appends DIR to $FAKE_LOG; writes DIR/args (one argument a line),
 * DIR/start and DIR/end (time in ns), DIR/pid and DIR/sleep.pid; sleeps
 * $FAKE_SLEEP s, or $FAKE_SLOW_SLEEP s when its arguments contain
 * $FAKE_SLOW_MATCH; writes DIR/summary.json and exits with
 * $FAKE_FAIL_CODE when its arguments contain $FAKE_FAIL_MATCH, else 0.
 */
static const char fake_script[] =
	"#!/bin/sh\n"
	"out=; prev=\n"
	"for a in \"$@\"; do [ \"$prev\" = --out ] && out=$a; prev=$a; done\n"
	"mkdir -p \"$out\" || exit 9\n"
	"echo \"$out\" >> \"$FAKE_LOG\"\n"
	"printf '%s\\n' \"$@\" > \"$out/args\"\n"
	"echo $$ > \"$out/pid\"\n"
	"date +%s%N > \"$out/start\"\n"
	"echo \"fake: starting\"\n"
	"s=${FAKE_SLEEP:-0}\n"
	"case \"$*\" in *\"${FAKE_SLOW_MATCH:-@none@}\"*) s=$FAKE_SLOW_SLEEP;; esac\n"
	"sleep \"$s\" & echo $! > \"$out/sleep.pid\"; wait $!\n"
	"code=0\n"
	"case \"$*\" in *\"${FAKE_FAIL_MATCH:-@none@}\"*) code=$FAKE_FAIL_CODE;; esac\n"
	"cat > \"$out/summary.json\" <<EOF\n"
	"{\"complete\": true, \"return_code\": $code, \"failed_checks\": [], \"stages\": {\n"
	" \"hardirq\": {\"cycles\": 10, \"min\": 1000, \"avg\": 1500, \"max\": 9000, \"p50\": 2000,"
	" \"p90\": 2000, \"p99\": 3000, \"p99_9\": 9000, \"p99_99\": 9000},\n"
	" \"done\": {\"cycles\": 10, \"min\": 1100, \"avg\": 1600, \"max\": 12345, \"p50\": 2000,"
	" \"p90\": 3000, \"p99\": 4000, \"p99_9\": 12345, \"p99_99\": 12345}}}\n"
	"EOF\n"
	"date +%s%N > \"$out/end\"\n"
	"[ $code = 0 ] || echo \"fake: failing with $code\" >&2\n"
	"exit $code\n";

typedef struct {
	char *root;
	char *fake;
	char *log;
	char *scenario;
	char *out;
	char *env_bin;
	char *env_log;
} Fixture;

static void fixture_setup(Fixture *f, gconstpointer data)
{
	f->root = tu_make_dir();
	f->fake = g_build_filename(f->root, "fake-irqstorm", NULL);
	f->log = g_build_filename(f->root, "fake.log", NULL);
	f->scenario = g_build_filename(f->root, "test.ini", NULL);
	f->out = g_build_filename(f->root, "out", NULL);
	tu_write(f->fake, fake_script);
	g_assert_cmpint(g_chmod(f->fake, 0755), ==, 0);
	tu_write(f->scenario, "[channel0]\nrate = 1000\n");
	f->env_bin = g_strconcat("IRQSTORM_RUN_BINARY=", f->fake, NULL);
	f->env_log = g_strconcat("FAKE_LOG=", f->log, NULL);
}

static void fixture_teardown(Fixture *f, gconstpointer data)
{
	tu_rmtree(f->root);
	g_free(f->root);
	g_free(f->fake);
	g_free(f->log);
	g_free(f->scenario);
	g_free(f->out);
	g_free(f->env_bin);
	g_free(f->env_log);
}

/* irqstorm matrix SCENARIO --out OUT <args...>, with extra env. */
static int matrix(Fixture *f, const char *const *args, const char *const *env,
		  char **out, char **err)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GPtrArray) envp = g_ptr_array_new();

	g_ptr_array_add(argv, "matrix");
	g_ptr_array_add(argv, f->scenario);
	g_ptr_array_add(argv, "--out");
	g_ptr_array_add(argv, f->out);
	for (gsize i = 0; args[i]; i++)
		g_ptr_array_add(argv, (char *)args[i]);
	g_ptr_array_add(argv, NULL);
	g_ptr_array_add(envp, f->env_bin);
	g_ptr_array_add(envp, f->env_log);
	for (gsize i = 0; env && env[i]; i++)
		g_ptr_array_add(envp, (char *)env[i]);
	g_ptr_array_add(envp, NULL);
	return tu_run(NULL, (const char *const *)argv->pdata,
		      (const char *const *)envp->pdata, out, err);
}

static char *cell_file(Fixture *f, const char *cell, const char *name)
{
	return g_build_filename(f->out, cell, name, NULL);
}

/* How many runs the fake has done. */
static guint fake_runs(Fixture *f)
{
	g_autofree char *text = NULL;

	if (!g_file_get_contents(f->log, &text, NULL, NULL))
		return 0;
	return tu_count(text, "\n");
}

static gint64 read_ns(Fixture *f, const char *cell, const char *name)
{
	g_autofree char *path = cell_file(f, cell, name);
	g_autofree char *text = tu_slurp(path);

	return g_ascii_strtoll(text, NULL, 10);
}

static JsonObject *load_matrix_json(Fixture *f, JsonParser *parser)
{
	g_autofree char *path = g_build_filename(f->out, "matrix.json", NULL);
	g_autoptr(GError) err = NULL;

	json_parser_load_from_file(parser, path, &err);
	g_assert_no_error(err);
	return json_node_get_object(json_parser_get_root(parser));
}

/* Every cell runs once, with the --set of its values after the common
 * ones, and the options after -- last. */
static void test_run_cells(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000",
				     "--vary", "channel0.threading=hardirq,threaded",
				     "--set", "run.duration=0.5", "--", "--no-csv", NULL };
	static const char *const cells[] = {
		"rate=1000,threading=hardirq", "rate=1000,threading=threaded",
		"rate=2000,threading=hardirq", "rate=2000,threading=threaded",
	};
	g_autofree char *out = NULL;
	g_autofree char *args_path = cell_file(f, cells[2], "args");
	g_autofree char *args_text = NULL;
	g_autofree char *expected = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *root, *cell, *stage;
	JsonArray *list;

	g_assert_cmpint(matrix(f, args, NULL, &out, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 4);
	for (gsize i = 0; i < G_N_ELEMENTS(cells); i++) {
		g_autofree char *summary = cell_file(f, cells[i], "summary.json");
		g_autofree char *log = cell_file(f, cells[i], "matrix-run.log");
		g_autofree char *log_text = NULL;

		g_assert_true(g_file_test(summary, G_FILE_TEST_IS_REGULAR));
		log_text = tu_slurp(log);
		g_assert_cmpstr(log_text, ==, "fake: starting\n");
	}
	args_text = tu_slurp(args_path);
	expected = g_strdup_printf("run\n%s\n--out\n%s/%s\n--quiet\n--set\nrun.duration=0.5\n"
				   "--set\nchannel0.rate=2000\n--set\nchannel0.threading=hardirq\n"
				   "--no-csv\n", f->scenario, f->out, cells[2]);
	g_assert_cmpstr(args_text, ==, expected);

	/* matrix.json: every cell, its values, exit status, stages. */
	root = load_matrix_json(f, parser);
	g_assert_false(json_object_get_boolean_member(root, "interrupted"));
	list = json_object_get_array_member(root, "cells");
	g_assert_cmpuint(json_array_get_length(list), ==, 4);
	cell = json_array_get_object_element(list, 1);
	g_assert_cmpstr(json_object_get_string_member(cell, "dir"), ==, cells[1]);
	g_assert_cmpstr(json_object_get_string_member(
		json_object_get_object_member(cell, "values"), "channel0.threading"), ==, "threaded");
	g_assert_cmpstr(json_object_get_string_member(cell, "status"), ==, "ran");
	g_assert_cmpint(json_object_get_int_member(cell, "exit_status"), ==, 0);
	g_assert_true(json_object_get_boolean_member(cell, "complete"));
	stage = json_object_get_object_member(json_object_get_object_member(cell, "stages"), "done");
	g_assert_cmpint(json_object_get_int_member(stage, "p50"), ==, 2000);
	g_assert_cmpint(json_object_get_int_member(stage, "p99"), ==, 4000);
	g_assert_cmpint(json_object_get_int_member(stage, "max"), ==, 12345);

	/* The table: one row per cell, p99 and max of each stage in us. */
	g_assert_nonnull(strstr(out, "                        hardirq        done\n"
				     "rate  threading  exit     p99    max     p99     max\n"
				     "1000  hardirq    0      3.000  9.000   4.000  12.345\n"));
	g_assert_cmpuint(tu_count(out, "  0      3.000  9.000   4.000  12.345\n"), ==, 4);
}

/* A second run of the same matrix runs nothing; a cell without a complete
 * run (no summary, or INCOMPLETE) runs again. */
static void test_resume(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000,3000", NULL };
	g_autofree char *out = NULL, *out2 = NULL;
	g_autofree char *summary = cell_file(f, "rate=2000", "summary.json");
	g_autofree char *marker = cell_file(f, "rate=3000", "INCOMPLETE");

	g_assert_cmpint(matrix(f, args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 3);

	g_assert_cmpint(matrix(f, args, NULL, &out, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 3);
	g_assert_cmpuint(tu_count(out, ": skipped (done)\n"), ==, 3);
	g_assert_nonnull(strstr(out, "[2/3] rate=2000: skipped (done)\n"));
	g_assert_cmpuint(tu_count(out, "started"), ==, 0);

	g_assert_cmpint(g_unlink(summary), ==, 0);
	tu_write(marker, "interrupted\n");
	g_assert_cmpint(matrix(f, args, NULL, &out2, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 5);
	g_assert_nonnull(strstr(out2, "[1/3] rate=1000: skipped (done)\n"));
	g_assert_nonnull(strstr(out2, "[2/3] rate=2000: started\n"));
	g_assert_nonnull(strstr(out2, "[3/3] rate=3000: started\n"));
}

/* A matrix with other --set in the same OUT would reuse foreign cells. */
static void test_resume_other(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000", NULL };
	const char *const args2[] = { "--vary", "channel0.rate=1000",
				      "--set", "run.duration=2", NULL };
	g_autofree char *err = NULL;

	g_assert_cmpint(matrix(f, args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpint(matrix(f, args2, NULL, NULL, &err), ==, 1);
	g_assert_nonnull(strstr(err, "holds a matrix of another invocation"));
	g_assert_cmpuint(fake_runs(f), ==, 1);
}

/* --jobs 2: two fakes overlap in time; --jobs 1: they never do. */
static void test_jobs(Fixture *f, gconstpointer data)
{
	const char *const par[] = { "--vary", "channel0.rate=1000,2000", "--jobs", "2", NULL };
	const char *const seq[] = { "--vary", "channel0.threading=hardirq,threaded", NULL };
	const char *const env[] = { "FAKE_SLEEP=0.4", NULL };
	gint64 s1, e1, s2, e2;

	g_assert_cmpint(matrix(f, par, env, NULL, NULL), ==, 0);
	s1 = read_ns(f, "rate=1000", "start");
	e1 = read_ns(f, "rate=1000", "end");
	s2 = read_ns(f, "rate=2000", "start");
	e2 = read_ns(f, "rate=2000", "end");
	g_assert_cmpint(e1 - s1, >=, 300000000);
	g_assert_cmpint(s2, <, e1);
	g_assert_cmpint(s1, <, e2);

	g_free(f->out);
	f->out = g_build_filename(f->root, "out-seq", NULL);
	g_assert_cmpint(matrix(f, seq, env, NULL, NULL), ==, 0);
	e1 = read_ns(f, "threading=hardirq", "end");
	s2 = read_ns(f, "threading=threaded", "start");
	g_assert_cmpint(s2, >=, e1);
}

/* A cell's failure is the matrix's: 1 over 2 over 0; the others run. */
static void test_exit_codes(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000,3000", NULL };
	const char *const env2[] = { "FAKE_FAIL_MATCH=rate=2000", "FAKE_FAIL_CODE=2", NULL };
	const char *const env1[] = { "FAKE_FAIL_MATCH=rate=3000", "FAKE_FAIL_CODE=1", NULL };
	g_autofree char *out = NULL, *out2 = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonArray *cells;

	g_assert_cmpint(matrix(f, args, env2, &out, NULL), ==, 2);
	g_assert_cmpuint(fake_runs(f), ==, 3);
	g_assert_nonnull(strstr(out, "[2/3] rate=2000: exit 2 (a scenario threshold was exceeded)"));
	cells = json_object_get_array_member(load_matrix_json(f, parser), "cells");
	g_assert_cmpint(json_object_get_int_member(json_array_get_object_element(cells, 1),
						   "exit_status"), ==, 2);
	g_assert_cmpint(json_object_get_int_member(json_array_get_object_element(cells, 0),
						   "exit_status"), ==, 0);

	tu_rmtree(f->out);
	g_assert_cmpint(matrix(f, args, env1, &out2, NULL), ==, 1);
	g_assert_cmpuint(fake_runs(f), ==, 6);
	g_assert_nonnull(strstr(out2, "[3/3] rate=3000: exited with status 1 in "));
	g_assert_nonnull(strstr(out2, ": fake: failing with 1 (log: "));
	g_assert_nonnull(strstr(out2, "\n3000  1      3.000"));
}

/* A cell that cannot even start fails the matrix. */
static void test_no_binary(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000", NULL };
	const char *const env[] = { "IRQSTORM_RUN_BINARY=/nonexistent/irqstorm", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(matrix(f, args, env, &out, NULL), ==, 1);
	g_assert_nonnull(strstr(out, "[1/1] rate=1000: could not start: "));
	g_assert_nonnull(strstr(out, "\n1000  not started\n"));
}

/* Bad options are errors before anything runs. */
static void test_bad_options(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *a, *b, *c, *d;
		const char *message;
	} cases[] = {
		{ "--vary", "channel0.rate", NULL, NULL, "no '='" },
		{ "--vary", "channel0.rate=", NULL, NULL, "empty list of values" },
		{ "--vary", "channel0.rate=1", "--vary", "channel0.rate=2", "varied twice" },
		{ "--jobs", "0", "--vary", "channel0.rate=1", "--jobs must be at least 1" },
		{ "--set", "channel0.rate=5", "--vary", "channel0.rate=1,2",
		  "channel0.rate is both --set and --vary" },
		/* The scenario rejects these before any cell runs. */
		{ "--vary", "channel0.speed=1,2", NULL, NULL, "speed" },
		{ "--vary", "channel0.threading=hardirq,sometimes", NULL, NULL, "sometimes" },
		{ "--vary", "channel0.rate=1", "--", "--out", "matrix sets --out per cell" },
		{ "--vary", "channel0.rate=1", "--", "--set", "--set goes before '--'" },
		{ "--vary", "channel0.rate=1", "--", "-sx.y=1", "--set goes before '--'" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const args[] = { cases[i].a, cases[i].b, cases[i].c, cases[i].d, NULL };
		g_autofree char *err = NULL;

		g_assert_cmpint(matrix(f, args, NULL, NULL, &err), ==, 1);
		if (!strstr(err, cases[i].message))
			g_error("case %zu: '%s' lacks '%s'", i, err, cases[i].message);
	}
	{
		const char *const args[] = { "--vary", "channel0.rate=1", "extra.ini", NULL };

		g_assert_cmpint(matrix(f, args, NULL, NULL, NULL), ==, 1);
	}
	g_assert_cmpuint(fake_runs(f), ==, 0);
}

/* A process is gone: no such pid, or a zombie nobody reaps yet. */
static gboolean pid_gone(pid_t pid)
{
	g_autofree char *stat_path = g_strdup_printf("/proc/%d/stat", pid);
	g_autofree char *stat = NULL;
	const char *paren;

	if (kill(pid, 0) < 0 && errno == ESRCH)
		return TRUE;
	if (!g_file_get_contents(stat_path, &stat, NULL, NULL))
		return TRUE;
	paren = strrchr(stat, ')');
	return paren && paren[1] == ' ' && paren[2] == 'Z';
}

/* ^C: the running cell's whole process group goes, the finished cell
 * stays, the rest is not run, exit 1; the same command then resumes. */
static void test_interrupt(Fixture *f, gconstpointer data)
{
	const char *argv[] = { tu_bin(), "matrix", f->scenario, "--out", f->out,
			       "--vary", "channel0.rate=1000,2000,3000", NULL };
	g_auto(GStrv) envp = g_get_environ();
	g_autoptr(GError) err = NULL;
	g_autofree char *start2 = cell_file(f, "rate=2000", "start");
	g_autofree char *summary1 = cell_file(f, "rate=1000", "summary.json");
	g_autofree char *summary2 = cell_file(f, "rate=2000", "summary.json");
	g_autofree char *dir3 = g_build_filename(f->out, "rate=3000", NULL);
	g_autofree char *sleep_pid_path = cell_file(f, "rate=2000", "sleep.pid");
	g_autofree char *sleep_pid = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	const char *const resume_args[] = { "--vary", "channel0.rate=1000,2000,3000", NULL };
	gint64 deadline, sent;
	GPid pid;
	int status = 0;
	pid_t sleeper;

	envp = g_environ_setenv(envp, "IRQSTORM_RUN_BINARY", f->fake, TRUE);
	envp = g_environ_setenv(envp, "FAKE_LOG", f->log, TRUE);
	envp = g_environ_setenv(envp, "FAKE_SLOW_MATCH", "rate=2000", TRUE);
	envp = g_environ_setenv(envp, "FAKE_SLOW_SLEEP", "30", TRUE);
	g_spawn_async(NULL, (char **)argv, envp,
		      G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL |
		      G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &pid, &err);
	g_assert_no_error(err);

	/* Wait for the slow cell's sleep to be running. */
	deadline = g_get_monotonic_time() + 20 * G_USEC_PER_SEC;
	while (!g_file_test(sleep_pid_path, G_FILE_TEST_EXISTS) ||
	       !g_file_get_contents(sleep_pid_path, &sleep_pid, NULL, NULL) ||
	       !strchr(sleep_pid, '\n')) {
		g_clear_pointer(&sleep_pid, g_free);
		g_assert_cmpint(g_get_monotonic_time(), <, deadline);
		g_usleep(20000);
	}
	g_assert_true(g_file_test(start2, G_FILE_TEST_EXISTS));
	sleeper = (pid_t)g_ascii_strtoll(sleep_pid, NULL, 10);
	g_assert_cmpint(sleeper, >, 1);

	sent = g_get_monotonic_time();
	g_assert_cmpint(kill(pid, SIGINT), ==, 0);
	while (waitpid(pid, &status, 0) < 0)
		g_assert_cmpint(errno, ==, EINTR);
	g_spawn_close_pid(pid);
	/* Well before the 30 s sleep or the 15 s grace period. */
	g_assert_cmpint(g_get_monotonic_time() - sent, <, 5 * G_USEC_PER_SEC);
	g_assert_true(WIFEXITED(status));
	g_assert_cmpint(WEXITSTATUS(status), ==, 1);

	/* The sleep was the fake's child, not ours: killed with its group. */
	deadline = g_get_monotonic_time() + 5 * G_USEC_PER_SEC;
	while (!pid_gone(sleeper)) {
		g_assert_cmpint(g_get_monotonic_time(), <, deadline);
		g_usleep(20000);
	}
	g_assert_true(g_file_test(summary1, G_FILE_TEST_IS_REGULAR));
	g_assert_false(g_file_test(summary2, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(dir3, G_FILE_TEST_EXISTS));
	g_assert_true(json_object_get_boolean_member(load_matrix_json(f, parser), "interrupted"));
	g_assert_cmpuint(fake_runs(f), ==, 2);

	/* Resume: only the two unfinished cells run. */
	g_assert_cmpint(matrix(f, resume_args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 4);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/matrix/parse", test_parse);
	g_test_add_func("/matrix/parse/errors", test_parse_errors);
	g_test_add_func("/matrix/names", test_names);
	g_test_add_func("/matrix/cells", test_cells);
	g_test_add_func("/matrix/cells/safe", test_cells_safe);
	g_test_add_func("/matrix/cells/collision", test_cells_collision);
	g_test_add_func("/matrix/exit-code", test_exit_code);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/matrix/cmd/cells", test_run_cells);
	ADD("/matrix/cmd/resume", test_resume);
	ADD("/matrix/cmd/resume-other", test_resume_other);
	ADD("/matrix/cmd/jobs", test_jobs);
	ADD("/matrix/cmd/exit-codes", test_exit_codes);
	ADD("/matrix/cmd/no-binary", test_no_binary);
	ADD("/matrix/cmd/bad-options", test_bad_options);
	ADD("/matrix/cmd/interrupt", test_interrupt);
#undef ADD
	return g_test_run();
}
