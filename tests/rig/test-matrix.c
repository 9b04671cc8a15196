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

#include "cmd/matrix.h"
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

/* A..B expands to every integer from A to B, in order, among other items. */
static void test_parse_ranges(void)
{
	const char *const specs[] = { "machine.seed=1..100", "channel0.seed=7,2..4,0..0", NULL };
	g_autoptr(GPtrArray) v = parse(specs);
	const IrqstormVary *a = v->pdata[0], *b = v->pdata[1];
	const char *const b_values[] = { "7", "2", "3", "4", "0", NULL };

	g_assert_cmpuint(g_strv_length(a->values), ==, 100);
	for (guint i = 0; i < 100; i++) {
		g_autofree char *want = g_strdup_printf("%u", i + 1);

		g_assert_cmpstr(a->values[i], ==, want);
	}
	g_assert_true(g_strv_equal((const char *const *)b->values, b_values));
	g_assert_cmpstr(a->name, ==, "machine.seed");
}

static void test_parse_range_errors(void)
{
	static const struct {
		const char *spec;
		const char *message;
	} cases[] = {
		{ "machine.seed=5..1", "item 1, '5..1': the range ends before it starts" },
		{ "machine.seed=1..x", "item 1, '1..x', is not a range A..B of integers" },
		{ "machine.seed=1.5..3", "is not a range A..B of integers" },
		{ "machine.seed=-1..3", "is not a range A..B of integers" },
		{ "machine.seed=..3", "is not a range A..B of integers" },
		{ "machine.seed=1..", "is not a range A..B of integers" },
		{ "machine.seed=1.. 3", "is not a range A..B of integers" },
		{ "machine.seed=1..2..3", "is not a range A..B of integers" },
		{ "machine.seed=0,1..10001", "item 2, '1..10001': 10001 values, more than "
		  "the 10000 a range may have" },
		{ "machine.seed=0..18446744073709551615", "18446744073709551615 values" },
		{ "machine.seed=1..3,2", "value '2' is listed twice" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		const char *const specs[] = { cases[i].spec, NULL };
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

#define PASSED IRQSTORM_CELL_PASSED
#define THRESHOLD IRQSTORM_CELL_THRESHOLD
#define STALL IRQSTORM_CELL_STALL
#define REFUSED IRQSTORM_CELL_REFUSED
#define TOOL IRQSTORM_CELL_TOOL_FAILURE
#define NOT_RUN IRQSTORM_CELL_NOT_RUN

/* Not run 1, over tool failure 4, over stall or refusal 3, over 2, 0. */
static void test_exit_code(void)
{
	static const struct {
		IrqstormCellEnd ends[3];
		int code;
	} cases[] = {
		{ { PASSED, PASSED, PASSED }, 0 },
		{ { PASSED, THRESHOLD, THRESHOLD }, 2 },
		{ { THRESHOLD, STALL, PASSED }, 3 },
		{ { STALL, STALL, STALL }, 3 },
		{ { STALL, PASSED, PASSED }, 3 },
		{ { REFUSED, PASSED, THRESHOLD }, 3 },
		{ { REFUSED, TOOL, STALL }, IRQSTORM_MATRIX_EXIT_TOOL_FAILURE },
		{ { PASSED, PASSED, TOOL }, 4 },
		{ { TOOL, NOT_RUN, PASSED }, 1 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
		if (irqstorm_matrix_exit_code(cases[i].ends, 3) != cases[i].code)
			g_error("case %zu: not %d", i, cases[i].code);
	g_assert_true(irqstorm_cell_end_is_outcome(REFUSED));
	g_assert_true(irqstorm_cell_end_is_outcome(STALL));
	g_assert_false(irqstorm_cell_end_is_outcome(TOOL));
	g_assert_false(irqstorm_cell_end_is_outcome(NOT_RUN));
}

#define STAGES "\"stages\": {}"
#define GUEST_ERROR "\"counts\": {\"guest\": {\"status\": \"error\", " \
	"\"reason\": \"probe-failed\"}}"
#define GUEST_OK "\"counts\": {\"guest\": {\"status\": \"ok\"}}"
#define REFUSAL "the guest reported status=error reason=probe-failed; " \
	"kernel: genirq: Flags mismatch irq 21"

/* Outcome or tool failure, from the exit status and summary.json. */
static void test_classify(void)
{
	static const struct {
		int code;
		const char *json;	/* NULL: no summary.json */
		IrqstormCellEnd end;
		const char *why;	/* in *why, or NULL for none */
	} cases[] = {
		{ 0, "{\"complete\": true, \"return_code\": 0, " STAGES "}", PASSED, NULL },
		{ 2, "{\"complete\": true, \"return_code\": 2, " STAGES "}", THRESHOLD, NULL },
		{ 3, "{\"complete\": true, \"return_code\": 3, " STAGES "}", STALL, NULL },
		/* The kernel refused: the guest said so. An outcome. */
		{ 1, "{\"complete\": false, \"return_code\": 1, \"incomplete_reason\": \""
		  REFUSAL "\", " GUEST_ERROR ", " STAGES "}", REFUSED, "Flags mismatch" },
		/* No guest verdict: QEMU did not start, the guest hung. */
		{ 1, "{\"complete\": false, \"return_code\": 1, \"incomplete_reason\": "
		  "\"QEMU did not start: qmp.sock: no QMP greeting within 30 s\", "
		  "\"counts\": {\"guest\": {}}, " STAGES "}", TOOL, "QEMU did not start" },
		{ 1, "{\"complete\": false, \"return_code\": 1, \"incomplete_reason\": "
		  "\"the guest did not finish\", " STAGES "}", TOOL, "did not finish" },
		/* The guest said ok, the rig failed after. */
		{ 1, "{\"complete\": false, \"return_code\": 1, \"incomplete_reason\": "
		  "\"device counters unreadable\", " GUEST_OK ", " STAGES "}", TOOL,
		  "counters unreadable" },
		/* The guest's error, but the run did not exit as summary.json says. */
		{ 0, "{\"complete\": false, \"return_code\": 1, \"incomplete_reason\": \""
		  REFUSAL "\", " GUEST_ERROR ", " STAGES "}", TOOL, "exit status 0, but" },
		{ 1, "{\"complete\": true, \"return_code\": 1, \"failed_checks\": "
		  "[\"a\", \"b\"], " STAGES "}", TOOL, "2 cross-checks failed" },
		{ 1, "{\"complete\": true, \"return_code\": 1, " STAGES "}", TOOL,
		  "exit status 1 from a complete run" },
		{ 3, "{\"complete\": true, \"return_code\": 0, " STAGES "}", TOOL,
		  "exit status 3, but summary.json says 0" },
		{ 1, NULL, TOOL, "no readable summary.json" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormSummary) s = NULL;
		g_autofree char *why = NULL;
		IrqstormCellEnd end;

		if (cases[i].json) {
			s = irqstorm_summary_parse("d", "d/summary.json", cases[i].json,
						   -1, &err);
			g_assert_no_error(err);
		}
		end = irqstorm_matrix_classify(cases[i].code, s, &why);
		if (end != cases[i].end)
			g_error("case %zu: %s, not %s", i, irqstorm_cell_end_name(end),
				irqstorm_cell_end_name(cases[i].end));
		if (cases[i].why ? !why || !strstr(why, cases[i].why) : why != NULL)
			g_error("case %zu: why '%s', expected '%s'", i, why, cases[i].why);
	}
}

/* ---- the command, with a fake `irqstorm run` ---------------------------- */

/*
 * Called as: fake run SCENARIO --out DIR --quiet [--set K=V]... [options].
 * Appends DIR to $FAKE_LOG; writes DIR/args (one argument a line),
 * DIR/start and DIR/end (time in ns), DIR/pid and DIR/sleep.pid, and
 * DIR/INCOMPLETE, removed when the run is complete, as `irqstorm run`
 * does; sleeps
 * $FAKE_SLEEP s, or $FAKE_SLOW_SLEEP s when its arguments contain
 * $FAKE_SLOW_MATCH. Then it ends as the first MATCH:KIND of $FAKE_KINDS
 * whose MATCH its arguments contain says, like `irqstorm run` does:
 *   ok       (the default) a complete summary.json, exit 0, or
 *            $FAKE_FAIL_CODE when its arguments contain $FAKE_FAIL_MATCH
 *   stall    a complete summary.json, exit 3
 *   refused  the guest reported status=error (the kernel refused a shared
 *            line): INCOMPLETE, an incomplete summary.json, exit 1
 *   nostart  QEMU did not start: INCOMPLETE, a summary.json without
 *            stages (nothing was collected), exit 1
 *   checks   a complete summary.json with a failed cross-check, exit 1
 *   crash    the rig dies: no summary.json, INCOMPLETE as at the start
 *   killed   SIGKILL
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
	"echo 'run in progress (or the rig died during it)' > \"$out/INCOMPLETE\"\n"
	"s=${FAKE_SLEEP:-0}\n"
	"case \"$*\" in *\"${FAKE_SLOW_MATCH:-@none@}\"*) s=$FAKE_SLOW_SLEEP;; esac\n"
	"sleep \"$s\" & echo $! > \"$out/sleep.pid\"; wait $!\n"
	"kind=ok\n"
	"for mk in ${FAKE_KINDS:-}; do\n"
	"  case \"$*\" in *\"${mk%%:*}\"*) kind=${mk#*:}; break;; esac\n"
	"done\n"
	"code=0 complete=true checks= guest= reason= stages=\n"
	"case \"$*\" in *\"${FAKE_FAIL_MATCH:-@none@}\"*) code=$FAKE_FAIL_CODE;; esac\n"
	"case $kind in\n"
	"stall) code=3 ;;\n"
	"refused) code=1 complete=false guest='\"status\": \"error\", \"reason\": \"probe-failed\"'\n"
	"  reason='the guest reported status=error reason=probe-failed; kernel: genirq: "
	"Flags mismatch irq 21. 00002080 (irqstorm1) vs. 00210080 (irqstorm0)' ;;\n"
	"nostart) code=1 complete=false stages=none\n"
	"  reason=\"QEMU did not start: $out/qmp.sock: no reply to qmp_capabilities within "
	"200 ms; its output is in $out/qemu.log\" ;;\n"
	"checks) code=1 checks='\"guest handled 3 = device handled 2\"' ;;\n"
	"crash) echo 'fake: rig error' >&2; exit 1 ;;\n"
	"killed) kill -KILL $$ ;;\n"
	"esac\n"
	"if [ -n \"$reason\" ]; then echo \"$reason\" > \"$out/INCOMPLETE\"\n"
	"else rm \"$out/INCOMPLETE\"; fi\n"
	"{\n"
	"echo \"{\\\"complete\\\": $complete, \\\"return_code\\\": $code,\"\n"
	"[ -n \"$reason\" ] && echo \"\\\"incomplete_reason\\\": \\\"$reason\\\",\"\n"
	"echo \"\\\"failed_checks\\\": [$checks], \\\"counts\\\": {\\\"guest\\\": {$guest}}\"\n"
	"[ \"$stages\" = none ] || cat <<EOF\n"
	", \"stages\": {\n"
	" \"hardirq\": {\"cycles\": 10, \"min\": 1000, \"avg\": 1500, \"max\": 9000, \"p50\": 2000,"
	" \"p90\": 2000, \"p99\": 3000, \"p99_9\": 9000, \"p99_99\": 9000},\n"
	" \"done\": {\"cycles\": 10, \"min\": 1100, \"avg\": 1600, \"max\": 12345, \"p50\": 2000,"
	" \"p90\": 3000, \"p99\": 4000, \"p99_9\": 12345, \"p99_99\": 12345}}\n"
	"EOF\n"
	"echo '}'\n"
	"} > \"$out/summary.json\"\n"
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
	g_assert_cmpstr(json_object_get_string_member(cell, "ended"), ==, "passed");
	g_assert_true(json_object_get_boolean_member(cell, "outcome"));
	g_assert_true(json_object_get_null_member(cell, "reason"));
	stage = json_object_get_object_member(json_object_get_object_member(cell, "stages"), "done");
	g_assert_cmpint(json_object_get_int_member(stage, "p50"), ==, 2000);
	g_assert_cmpint(json_object_get_int_member(stage, "p99"), ==, 4000);
	g_assert_cmpint(json_object_get_int_member(stage, "max"), ==, 12345);

	/* The table: one row per cell, p99 and max of each stage in us. */
	g_assert_nonnull(strstr(out, "                                hardirq        done\n"
				     "rate  threading  exit  ended      p99    max     p99     max\n"
				     "1000  hardirq    0     passed   3.000  9.000   4.000  12.345\n"));
	g_assert_cmpuint(tu_count(out, "  0     passed   3.000  9.000   4.000  12.345\n"), ==, 4);
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

/* A cell's exit is the matrix's: 4 (a run that exits 1 without a reason
 * the guest gave is a tool failure) over 2 over 0; the others run. */
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
	g_assert_cmpint(matrix(f, args, env1, &out2, NULL), ==, 4);
	g_assert_cmpuint(fake_runs(f), ==, 6);
	g_assert_nonnull(strstr(out2, "[3/3] rate=3000: TOOL FAILURE in "));
	g_assert_nonnull(strstr(out2, ": exit status 1 from a complete run without "
				"a failed check (log: "));
	g_assert_nonnull(strstr(out2, "\n3000  1     tool failure   3.000"));
}

/* The ended and reason of cell i in matrix.json. */
static void check_cell_end(Fixture *f, guint i, const char *ended,
			   const char *reason)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonArray *cells = json_object_get_array_member(load_matrix_json(f, parser),
							"cells");
	JsonObject *cell = json_array_get_object_element(cells, i);
	const char *why = json_object_get_string_member(cell, "reason");

	g_assert_cmpstr(json_object_get_string_member(cell, "ended"), ==, ended);
	g_assert_true(json_object_get_boolean_member(cell, "outcome") ==
		      (strcmp(ended, "tool failure") != 0));
	if (!reason)
		g_assert_null(why);
	else if (!why || !strstr(why, reason))
		g_error("cell %u: reason '%s' lacks '%s'", i, why, reason);
}

/*
 * A refusal (the guest reported the kernel's "Flags mismatch") and a stall
 * are outcomes: the matrix exits 3, names no tool failure, and a resumed
 * matrix runs the refusal again (it is not complete) but not the stall.
 */
static void test_outcomes(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000,3000", NULL };
	const char *const env[] = { "FAKE_KINDS=rate=2000:refused rate=3000:stall", NULL };
	g_autofree char *out = NULL, *err = NULL;

	g_assert_cmpint(matrix(f, args, env, &out, &err), ==, 3);
	g_assert_nonnull(strstr(out, "[2/3] rate=2000: exit 1 in "));
	g_assert_nonnull(strstr(out, "refused by the guest: the guest reported "
				"status=error reason=probe-failed; kernel: genirq: Flags mismatch"));
	g_assert_nonnull(strstr(out, "[3/3] rate=3000: exit 3 (the guest stalled)"));
	g_assert_nonnull(strstr(out, "\n2000  1 INCOMPLETE  refused "));
	g_assert_nonnull(strstr(out, "\n3000  3             stall "));
	g_assert_null(strstr(out, "TOOL FAILURE"));
	g_assert_null(strstr(err, "tool failure"));
	check_cell_end(f, 0, "passed", NULL);
	check_cell_end(f, 1, "refused", "Flags mismatch irq 21");
	check_cell_end(f, 2, "stall", NULL);

	g_assert_cmpint(matrix(f, args, env, NULL, NULL), ==, 3);
	g_assert_cmpuint(fake_runs(f), ==, 4);
	check_cell_end(f, 1, "refused", "Flags mismatch irq 21");
	check_cell_end(f, 2, "stall", NULL);
}

/*
 * A sweep of stall cases (every cell exits 3, as nobody-cared's do) is a
 * matrix of outcomes: exit 3, not an error, no tool failure named.
 */
static void test_all_stall(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000", NULL };
	const char *const env[] = { "FAKE_KINDS=rate=:stall", NULL };
	g_autofree char *out = NULL, *err = NULL;

	g_assert_cmpint(matrix(f, args, env, &out, &err), ==, 3);
	g_assert_nonnull(strstr(out, "[2/2] rate=2000: exit 3 (the guest stalled)"));
	g_assert_null(strstr(out, "TOOL FAILURE"));
	g_assert_null(strstr(err, "tool failure"));
	check_cell_end(f, 0, "stall", NULL);
	check_cell_end(f, 1, "stall", NULL);
}

/*
 * Each cell's --set and --vary values are checked together, as `irqstorm
 * run` checks them: KVM with icount off is a valid cell even though KVM
 * alone (with the default icount) is not. A cell that is invalid as a
 * whole is named.
 */
static void test_checked_together(Fixture *f, gconstpointer data)
{
	const char *const ok[] = { "--set", "machine.accel=kvm", "--set", "machine.icount=off",
				   "--vary", "channel0.rate=1000,2000", NULL };
	const char *const bad[] = { "--set", "machine.accel=kvm",
				    "--vary", "machine.icount=off,3", NULL };
	g_autofree char *err = NULL;

	g_assert_cmpint(matrix(f, ok, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 2);
	tu_rmtree(f->out);
	g_assert_cmpint(matrix(f, bad, NULL, NULL, &err), ==, 1);
	g_assert_nonnull(strstr(err, "irqstorm: cell icount=3: --set: [machine] icount "
				"needs accel = tcg"));
	g_assert_cmpuint(fake_runs(f), ==, 2);
}

/*
 * Cells that end without an outcome are tool failures: QEMU did not start
 * (INCOMPLETE, a summary without stages), a failed cross-check, the rig
 * dying without a summary, a cell killed. The matrix runs every cell,
 * exits 4 and names each failed cell and why on stderr and in matrix.json;
 * resumed, it runs exactly those cells again.
 */
static void test_tool_failures(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000,3000,4000,5000",
				     "--jobs", "3", NULL };
	const char *const env[] = { "FAKE_KINDS=rate=2000:nostart rate=3000:checks "
				    "rate=4000:crash rate=5000:killed", NULL };
	g_autofree char *out = NULL, *err = NULL;

	g_assert_cmpint(matrix(f, args, env, &out, &err),
			==, IRQSTORM_MATRIX_EXIT_TOOL_FAILURE);
	g_assert_cmpuint(fake_runs(f), ==, 5);
	g_assert_nonnull(strstr(out, "[2/5] rate=2000: TOOL FAILURE in "));
	g_assert_nonnull(strstr(out, "\n2000  1 INCOMPLETE     tool failure       -      -"));
	g_assert_nonnull(strstr(err, "4 of 5 cells ended in a tool failure"));
	g_assert_nonnull(strstr(err, "\n  rate=2000: QEMU did not start: "));
	g_assert_nonnull(strstr(err, "no reply to qmp_capabilities within 200 ms"));
	g_assert_nonnull(strstr(err, "\n  rate=3000: 1 cross-check failed"));
	g_assert_nonnull(strstr(err, "\n  rate=4000: INCOMPLETE: run in progress "
				"(or the rig died during it)\n"));
	g_assert_nonnull(strstr(err, "\n  rate=5000: killed by signal 9"));
	g_assert_null(strstr(err, "rate=1000"));
	check_cell_end(f, 0, "passed", NULL);
	check_cell_end(f, 1, "tool failure", "QEMU did not start");
	check_cell_end(f, 2, "tool failure", "cross-check");
	check_cell_end(f, 3, "tool failure", "the rig died");
	check_cell_end(f, 4, "tool failure", "killed by signal 9");

	/* Resumed with the faults gone: only the failed cells run. */
	g_assert_cmpint(matrix(f, args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 9);
	check_cell_end(f, 2, "passed", NULL);
}

/* A cell that cannot even start is a tool failure. */
static void test_no_binary(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000", NULL };
	const char *const env[] = { "IRQSTORM_RUN_BINARY=/nonexistent/irqstorm", NULL };
	g_autofree char *out = NULL;

	g_assert_cmpint(matrix(f, args, env, &out, NULL), ==, 4);
	g_assert_nonnull(strstr(out, "[1/1] rate=1000: TOOL FAILURE: could not start: "));
	g_assert_nonnull(strstr(out, "\n1000  not started  tool failure\n"));
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
	g_test_add_func("/matrix/parse/ranges", test_parse_ranges);
	g_test_add_func("/matrix/parse/range-errors", test_parse_range_errors);
	g_test_add_func("/matrix/names", test_names);
	g_test_add_func("/matrix/cells", test_cells);
	g_test_add_func("/matrix/cells/safe", test_cells_safe);
	g_test_add_func("/matrix/cells/collision", test_cells_collision);
	g_test_add_func("/matrix/exit-code", test_exit_code);
	g_test_add_func("/matrix/classify", test_classify);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/matrix/cmd/cells", test_run_cells);
	ADD("/matrix/cmd/resume", test_resume);
	ADD("/matrix/cmd/resume-other", test_resume_other);
	ADD("/matrix/cmd/jobs", test_jobs);
	ADD("/matrix/cmd/exit-codes", test_exit_codes);
	ADD("/matrix/cmd/outcomes", test_outcomes);
	ADD("/matrix/cmd/all-stall", test_all_stall);
	ADD("/matrix/cmd/checked-together", test_checked_together);
	ADD("/matrix/cmd/tool-failures", test_tool_failures);
	ADD("/matrix/cmd/no-binary", test_no_binary);
	ADD("/matrix/cmd/bad-options", test_bad_options);
	ADD("/matrix/cmd/interrupt", test_interrupt);
#undef ADD
	return g_test_run();
}
