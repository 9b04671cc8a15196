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
#define KERNEL IRQSTORM_CELL_KERNEL
#define NOT_RUN IRQSTORM_CELL_NOT_RUN

/* Not run 1, over tool failure 4, over the kernel's fault 5, over stall or
 * refusal 3, over 2, 0. */
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
		{ { STALL, KERNEL, THRESHOLD }, 5 },
		{ { KERNEL, TOOL, PASSED }, 4 },
		{ { KERNEL, PASSED, REFUSED }, 5 },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
		if (irqstorm_matrix_exit_code(cases[i].ends, 3) != cases[i].code)
			g_error("case %zu: not %d", i, cases[i].code);
	g_assert_true(irqstorm_cell_end_is_outcome(REFUSED));
	g_assert_true(irqstorm_cell_end_is_outcome(STALL));
	g_assert_true(irqstorm_cell_end_is_outcome(KERNEL));
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
		/* The kernel failed the run: complete, or cut short by an oops. */
		{ 5, "{\"complete\": true, \"return_code\": 5, \"kernel_failures\": "
		  "[\"lockdep: WARNING: possible recursive locking detected\"], " STAGES "}",
		  KERNEL, "lockdep: WARNING" },
		{ 5, "{\"complete\": false, \"return_code\": 5, \"incomplete_reason\": "
		  "\"the guest never powered off\", \"kernel_failures\": [\"oops: BUG: "
		  "kernel NULL pointer dereference\"], " STAGES "}", KERNEL, "oops: BUG" },
		/* Exit 5 with no failure of the kernel's recorded: not the rig's word. */
		{ 5, "{\"complete\": true, \"return_code\": 5, " STAGES "}", TOOL,
		  "exit status 5 from a complete run" },
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
 * Called as: fake run SCENARIO --out DIR --replace --quiet [--set K=V]...
 * [options].
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
 * With $FAKE_HIST set, it also writes a histogram.txt of 4 bins of 1 us
 * (2 us when its arguments contain $FAKE_BIN_MATCH), for the seed S of its
 * arguments' last *.seed=S (else 1): stage hardirq, S samples in bin 1 and
 * one in bin 3 (min 1, avg 2, max 3.5 us); stage done, 2S in bin 1 and an
 * overflow of S + 10 us (min 1.2, avg 1.5).
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
	"[ -z \"${FAKE_CHANNELS:-}\" ] || cat <<EOF\n"
	", \"channels\": {\"0\": {\"name\": \"critical\", \"stages\": {\n"
	" \"done\": {\"cycles\": 5, \"min\": 1100, \"avg\": 1600, \"max\": 2000, \"p50\": 2000,"
	" \"p90\": 2000, \"p99\": 2000, \"p99_9\": 2000, \"p99_99\": 2000}}},\n"
	" \"1\": {\"stages\": {\"done\": {\"cycles\": 5, \"min\": 1100, \"avg\": 1600,"
	" \"max\": 12345, \"p50\": 3000, \"p90\": 4000, \"p99\": 12345, \"p99_9\": 12345,"
	" \"p99_99\": 12345}}}}\n"
	"EOF\n"
	"echo '}'\n"
	"} > \"$out/summary.json\"\n"
	"if [ -n \"${FAKE_HIST:-}\" ]; then\n"
	"  seed=1 bin=1\n"
	"  for a in \"$@\"; do case $a in *.seed=*) seed=${a#*=};; esac; done\n"
	"  case \"$*\" in *\"${FAKE_BIN_MATCH:-@none@}\"*) bin=2;; esac\n"
	"  printf '# Histogram\\n# Bin width is %d us\\n# Stages: hardirq done\\n"
	"000000 000000\\t000000\\n000001 %06d\\t%06d\\n000002 000000\\t000000\\n"
	"000003 000001\\t000000\\n# Total: %09d %09d\\n"
	"# Histogram Overflows: 00000 00001\\n# Exact min (us): 1.000 1.200\\n"
	"# Exact avg (us): 2.000 1.500\\n# Exact max (us): 3.500 %d.000\\n' "
	"$bin $seed $((seed * 2)) $((seed + 1)) $((seed * 2)) $((seed + 10)) "
	"> \"$out/histogram.txt\"\n"
	"fi\n"
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
	expected = g_strdup_printf("run\n%s\n--out\n%s/%s\n--replace\n--quiet\n--set\nrun.duration=0.5\n"
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

/* Cells of two channels: a column group per channel and stage, titled with
 * the channel; matrix.json has each channel's stages too. */
static void test_channels(Fixture *f, gconstpointer data)
{
	const char *const args[] = { "--vary", "channel0.rate=1000,2000", NULL };
	const char *const env[] = { "FAKE_CHANNELS=1", NULL };
	g_autofree char *out = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonObject *root, *cell, *ch0;

	g_assert_cmpint(matrix(f, args, env, &out, NULL), ==, 0);
	g_assert_nonnull(strstr(out, "channel 0 (critical) done"));
	g_assert_nonnull(strstr(out, "channel 1 done"));
	g_assert_null(strstr(out, "hardirq"));
	g_assert_cmpuint(tu_count(out, "2.000   12.345  12.345\n"), ==, 2);
	root = load_matrix_json(f, parser);
	cell = json_array_get_object_element(json_object_get_array_member(root, "cells"), 0);
	ch0 = json_object_get_object_member(json_object_get_object_member(cell, "channels"), "0");
	g_assert_cmpstr(json_object_get_string_member(ch0, "name"), ==, "critical");
	g_assert_cmpint(json_object_get_int_member(json_object_get_object_member(
		json_object_get_object_member(ch0, "stages"), "done"), "p99"), ==, 2000);
	{
		/* --channel narrows the table to one (the cells ran already:
		 * the same command shows them again). */
		const char *const narrow[] = { "--vary", "channel0.rate=1000,2000", "--channel",
					       "critical", NULL };
		g_autofree char *out2 = NULL;

		g_assert_cmpint(matrix(f, narrow, env, &out2, NULL), ==, 0);
		g_assert_nonnull(strstr(out2, "channel 0 (critical) done"));
		g_assert_null(strstr(out2, "channel 1 done"));
	}
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
		{ "--shard", "0/2", "--vary", "channel0.rate=1", "such as $SLURM_ARRAY_TASK_ID "
		  "needs +1" },
		{ "--shard", "2", "--vary", "channel0.rate=1", "--shard '2': expected I/N" },
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
	{
		JsonObject *root = load_matrix_json(f, parser);
		JsonArray *cells = json_object_get_array_member(root, "cells");

		g_assert_true(json_object_get_boolean_member(root, "interrupted"));
		/* The cell the ^C stopped is interrupted, not a tool failure. */
		g_assert_cmpstr(json_object_get_string_member(
			json_array_get_object_element(cells, 1), "ended"), ==, "interrupted");
		g_assert_false(json_object_get_boolean_member(
			json_array_get_object_element(cells, 1), "outcome"));
	}
	g_assert_cmpuint(fake_runs(f), ==, 2);

	/* Resume: only the two unfinished cells run. */
	g_assert_cmpint(matrix(f, resume_args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpuint(fake_runs(f), ==, 4);
}


/* ---- shards and merge ---------------------------------------------------- */

static void test_shard_parse(void)
{
	static const struct {
		const char *s;
		guint i, n;		/* 0: refused, with message */
		const char *message;
	} cases[] = {
		{ "1/1", 1, 1, NULL }, { "3/4", 3, 4, NULL }, { "100000/100000", 100000, 100000, NULL },
		{ "0/4", 0, 0, "shard 0 of 4 does not exist: shards are numbered from 1 to N "
		  "(a 0-based index such as $SLURM_ARRAY_TASK_ID needs +1)" },
		{ "5/4", 0, 0, "shard 5 of 4 does not exist" },
		{ "1/0", 0, 0, "expected I/N" }, { "1", 0, 0, "expected I/N" },
		{ "1/2/3", 0, 0, "expected I/N" }, { "a/2", 0, 0, "expected I/N" },
		{ "1/100001", 0, 0, "N <= 100000" }, { "", 0, 0, "expected I/N" },
		{ " 1/2", 0, 0, "expected I/N" },
	};

	for (gsize k = 0; k < G_N_ELEMENTS(cases); k++) {
		g_autoptr(GError) err = NULL;
		guint i = 0, n = 0;
		gboolean ok = irqstorm_matrix_parse_shard(cases[k].s, &i, &n, &err);

		if (ok != (cases[k].i != 0) || (ok && (i != cases[k].i || n != cases[k].n)) ||
		    (!ok && !strstr(err->message, cases[k].message)))
			g_error("case %zu '%s': %s", k, cases[k].s, ok ? "accepted" : err->message);
	}
	/* The rule: the cell's index modulo N, plus 1. */
	g_assert_cmpuint(irqstorm_matrix_shard_of(0, 3), ==, 1);
	g_assert_cmpuint(irqstorm_matrix_shard_of(4, 3), ==, 2);
	g_assert_cmpuint(irqstorm_matrix_shard_of(8, 3), ==, 3);
	g_assert_cmpuint(irqstorm_matrix_shard_of(5, 1), ==, 1);
}

/* irqstorm matrix into dir (not f->out); f->out is left as it was. */
static int matrix_into(Fixture *f, const char *dir, const char *const *args,
		       const char *const *env, char **out, char **err)
{
	char *saved = f->out;
	int code;

	f->out = g_build_filename(f->root, dir, NULL);
	code = matrix(f, args, env, out, err);
	g_free(f->out);
	f->out = saved;
	return code;
}

/* irqstorm merge root/OUT root/DIR..., with extra env. */
static int merge_dirs(Fixture *f, const char *out, const char *const *dirs,
		      char **stdout_text, char **stderr_text)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(argv, g_strdup("merge"));
	g_ptr_array_add(argv, g_build_filename(f->root, out, NULL));
	for (gsize i = 0; dirs[i]; i++)
		g_ptr_array_add(argv, g_build_filename(f->root, dirs[i], NULL));
	g_ptr_array_add(argv, NULL);
	return tu_run(NULL, (const char *const *)argv->pdata, NULL, stdout_text, stderr_text);
}

static JsonNode *load_json(Fixture *f, const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(f->root, dir, name, NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;

	json_parser_load_from_file(parser, path, &err);
	g_assert_no_error(err);
	return json_node_copy(json_parser_get_root(parser));
}

/*
 * For every N from 1 to the number of cells and one more, every shard
 * I/N, each alone in its OUT: the cells it runs are those the rule gives
 * it (index modulo N, plus 1), every cell runs in exactly one shard, and
 * each shard's matrix.json lists every cell, says which shard it is and
 * marks the others' cells "other shard".
 */
static void test_shards(Fixture *f, gconstpointer data)
{
	const guint ncells = 6;
	guint runs = 0;

	for (guint n = 1; n <= ncells + 1; n++) {
		g_autofree guint *times = g_new0(guint, ncells);

		for (guint i = 1; i <= n; i++) {
			g_autofree char *shard = g_strdup_printf("%u/%u", i, n);
			g_autofree char *dir = g_strdup_printf("s%u-%u", n, i);
			const char *const args[] = { "--vary", "channel0.rate=1,2,3",
				"--vary", "channel0.threading=hardirq,threaded",
				"--shard", shard, NULL };
			g_autoptr(JsonNode) root = NULL;
			JsonObject *o, *sh;
			JsonArray *cells;

			g_assert_cmpint(matrix_into(f, dir, args, NULL, NULL, NULL), ==, 0);
			root = load_json(f, dir, "matrix.json");
			o = json_node_get_object(root);
			sh = json_object_get_object_member(o, "shard");
			g_assert_cmpint(json_object_get_int_member(sh, "index"), ==, i);
			g_assert_cmpint(json_object_get_int_member(sh, "count"), ==, n);
			cells = json_object_get_array_member(o, "cells");
			g_assert_cmpuint(json_array_get_length(cells), ==, ncells);
			for (guint c = 0; c < ncells; c++) {
				JsonObject *cell = json_array_get_object_element(cells, c);
				const char *st = json_object_get_string_member(cell, "status");
				gboolean mine = c % n + 1 == i;

				g_assert_cmpstr(st, ==, mine ? "ran" : "other shard");
				times[c] += mine;
			}
		}
		for (guint c = 0; c < ncells; c++)
			g_assert_cmpuint(times[c], ==, 1);
		runs += ncells;
		g_assert_cmpuint(fake_runs(f), ==, runs);
	}
	/* Another shard in a shard's OUT is refused. */
	{
		const char *const args[] = { "--vary", "channel0.rate=1,2,3",
			"--vary", "channel0.threading=hardirq,threaded", "--shard", "2/2", NULL };
		g_autofree char *err = NULL;

		g_assert_cmpint(matrix_into(f, "s2-1", args, NULL, NULL, &err), ==, 1);
		g_assert_nonnull(strstr(err, "/s2-1 holds another shard of this matrix (or the "
					"whole of it): give each shard its own --out"));
	}
}

/* The table of a matrix's stdout: from its heading to the blank line. */
static char *table_of(const char *out)
{
	const char *start = strstr(out, "p99 and max in us");
	const char *end = start ? strstr(start, "\n\n") : NULL;

	g_assert_nonnull(end);
	return g_strndup(start, end - start);
}

/* Its exit status, stdout's table and matrix.json are the unsharded's. */
static void check_same_result(Fixture *f, const char *dir, int code, const char *out,
			      int whole_code, const char *whole_out)
{
	g_autoptr(JsonNode) a = load_json(f, "whole", "matrix.json");
	g_autoptr(JsonNode) b = load_json(f, dir, "matrix.json");
	g_autofree char *ta = table_of(whole_out), *tb = table_of(out);

	g_assert_cmpint(code, ==, whole_code);
	g_assert_cmpstr(tb, ==, ta);
	if (!json_node_equal(a, b)) {
		g_autofree char *ja = json_to_string(a, TRUE), *jb = json_to_string(b, TRUE);

		g_error("%s/matrix.json differs:\n%s\nagainst the unsharded\n%s", dir, jb, ja);
	}
}

/*
 * Three shards of a matrix whose cells end every way (passed, threshold,
 * stall, refused, a tool failure, killed), merged in every order, give
 * exactly what the matrix gave unsharded: its exit status, its table and
 * its matrix.json; every cell's directory is in OUT, its files linked.
 */
static void test_merge_equal(Fixture *f, gconstpointer data)
{
	static const char *const orders[][4] = {
		{ "s1", "s2", "s3", NULL }, { "s3", "s1", "s2", NULL }, { "s2", "s3", "s1", NULL },
		{ "s3", "s2", "s1", NULL },
	};
	const char *const env[] = { "FAKE_KINDS=rate=2,threading=threaded:stall "
				    "rate=3,threading=hardirq:killed rate=4,threading=hardirq:refused "
				    "rate=4,threading=threaded:checks",
				    "FAKE_FAIL_MATCH=rate=1,threading=threaded", "FAKE_FAIL_CODE=2",
				    NULL };
	g_autofree char *whole_out = NULL;
	int whole_code;

	{
		const char *const args[] = { "--vary", "channel0.rate=1,2,3,4",
			"--vary", "channel0.threading=hardirq,threaded", NULL };

		whole_code = matrix_into(f, "whole", args, env, &whole_out, NULL);
		g_assert_cmpint(whole_code, ==, 4);
		g_assert_nonnull(strstr(whole_out, "killed (Killed)"));
	}
	for (guint i = 1; i <= 3; i++) {
		g_autofree char *shard = g_strdup_printf("%u/3", i);
		g_autofree char *dir = g_strdup_printf("s%u", i);
		const char *const args[] = { "--vary", "channel0.rate=1,2,3,4",
			"--vary", "channel0.threading=hardirq,threaded", "--shard", shard, NULL };

		matrix_into(f, dir, args, env, NULL, NULL);
	}
	for (gsize k = 0; k < G_N_ELEMENTS(orders); k++) {
		g_autofree char *dir = g_strdup_printf("merged%zu", k);
		g_autofree char *out = NULL;
		g_autofree char *args = g_build_filename(f->root, dir, "rate=2,threading=hardirq",
							 "args", NULL);
		g_autofree char *orig = g_build_filename(f->root, "s3", "rate=2,threading=hardirq",
							 "args", NULL);
		int code = merge_dirs(f, dir, orders[k], &out, NULL);
		GStatBuf a, b;

		check_same_result(f, dir, code, out, whole_code, whole_out);
		g_assert_cmpint(g_stat(args, &a), ==, 0);
		g_assert_cmpint(g_stat(orig, &b), ==, 0);
		g_assert_cmpuint(a.st_ino, ==, b.st_ino);	/* hard-linked */
	}
}

/*
 * A seed sweep: OUT/merged/ has the cells' histogram.txt added up (the
 * sum of the columns, bin by bin; percentiles from the sum, exact, or
 * flagged where they fall among overflows) and merged.json; the merge of
 * two shards writes the same, byte for byte. Files whose bins differ are
 * not added up: an error.
 */
static void test_merge_seeds(Fixture *f, gconstpointer data)
{
	const char *const whole[] = { "--vary", "machine.seed=1..4", NULL };
	const char *const s1[] = { "--vary", "machine.seed=1..4", "--shard", "1/2", NULL };
	const char *const s2[] = { "--vary", "machine.seed=1..4", "--shard", "2/2", NULL };
	const char *const env[] = { "FAKE_HIST=1", NULL };
	const char *const bad_env[] = { "FAKE_HIST=1", "FAKE_BIN_MATCH=seed=3", NULL };
	const char *const dirs[] = { "s2", "s1", NULL };
	g_autofree char *out = NULL, *mout = NULL, *err = NULL;
	g_autofree char *hist = g_build_filename(f->root, "whole/merged/histogram.txt", NULL);
	g_autofree char *mhist = g_build_filename(f->root, "m/merged/histogram.txt", NULL);
	g_autofree char *s1_merged = g_build_filename(f->root, "s1/merged", NULL);
	g_autofree char *text = NULL, *mtext = NULL;
	g_autoptr(JsonNode) mj = NULL, mmj = NULL;
	JsonObject *hardirq, *done;
	int code;

	g_assert_cmpint(matrix_into(f, "whole", whole, env, &out, NULL), ==, 0);
	g_assert_nonnull(strstr(out, "the 4 cells as one distribution, in us of virtual time"));
	/* The files keep counts: p50 is its bin's edge, said to be a bound,
	 * with the precision; p99 is the last rank, the exact max. */
	g_assert_nonnull(strstr(out, "\nhardirq       14  1.000  <=2.000   3.500   3.500   3.500\n"
				"done          24  1.200  <=2.000  14.000  14.000  14.000\n"
				"  <= an upper bound: the cells' histogram files keep counts, not "
				"samples:\n  their sum's percentile is its bin's upper edge, at most "
				"1.000 us above the\n  sample ([run] bin_ns), or the max past the last "
				"bin; min and max are exact,\n  each cell's own summary.json exact\n"));
	text = tu_slurp(hist);
	g_assert_nonnull(strstr(text, "# Stages: hardirq done\n000000 000000\t000000\n"
				"000001 000010\t000020\n000002 000000\t000000\n"
				"000003 000004\t000000\n# Total: 000000014 000000020\n"));
	g_assert_nonnull(strstr(text, "# Histogram Overflows: 00000 00004\n"));
	g_assert_nonnull(strstr(text, "# Exact max (us): 3.500 14.000\n"));
	mj = load_json(f, "whole", "merged/merged.json");
	hardirq = json_object_get_object_member(json_object_get_object_member(
		json_object_get_object_member(json_node_get_object(mj), "files"),
		"histogram.txt"), "hardirq");
	done = json_object_get_object_member(json_object_get_object_member(
		json_object_get_object_member(json_node_get_object(mj), "files"),
		"histogram.txt"), "done");
	g_assert_cmpint(json_object_get_int_member(hardirq, "cycles"), ==, 14);
	g_assert_cmpint(json_object_get_int_member(hardirq, "p50"), ==, 2000);
	g_assert_cmpint(json_object_get_int_member(hardirq, "p90"), ==, 3500);
	g_assert_cmpint(json_object_get_int_member(hardirq, "max"), ==, 3500);
	g_assert_cmpuint(json_array_get_length(json_object_get_array_member(hardirq,
						"upper_bounds")), ==, 2);	/* p50, p90 */
	g_assert_cmpint(json_object_get_int_member(done, "p50"), ==, 2000);
	g_assert_cmpint(json_object_get_int_member(done, "cycles"), ==, 24);
	g_assert_cmpint(json_object_get_int_member(done, "p99"), ==, 14000);	/* the last */
	g_assert_cmpint(json_object_get_int_member(done, "p90"), ==, 14000);	/* a bound */
	g_assert_cmpstr(json_array_get_string_element(json_object_get_array_member(done,
					"upper_bounds"), 0), ==, "p50");	/* a bin's edge */
	g_assert_cmpstr(json_array_get_string_element(json_object_get_array_member(done,
					"upper_bounds"), 1), ==, "p90");	/* the max */

	g_assert_cmpint(matrix_into(f, "s1", s1, env, NULL, NULL), ==, 0);
	g_assert_cmpint(matrix_into(f, "s2", s2, env, NULL, NULL), ==, 0);
	g_assert_false(g_file_test(s1_merged, G_FILE_TEST_EXISTS));	/* a shard: none */
	code = merge_dirs(f, "m", dirs, &mout, NULL);
	check_same_result(f, "m", code, mout, 0, out);
	mtext = tu_slurp(mhist);
	g_assert_cmpstr(mtext, ==, text);
	mmj = load_json(f, "m", "merged/merged.json");
	g_assert_true(json_node_equal(mj, mmj));

	g_assert_cmpint(matrix_into(f, "bad", whole, bad_env, NULL, &err), ==, 1);
	g_assert_nonnull(strstr(err, "/seed=3/histogram.txt cannot be added up: "
				"4 bins of 1000 ns, stages hardirq done, against 4 bins of "
				"2000 ns"));
}

/* root/dir, a copy of root/from's matrix.json with one string replaced. */
static void edited_copy(Fixture *f, const char *from, const char *dir, const char *old,
			const char *new)
{
	g_autofree char *src = g_build_filename(f->root, from, "matrix.json", NULL);
	g_autofree char *dst_dir = g_build_filename(f->root, dir, NULL);
	g_autofree char *dst = g_build_filename(dst_dir, "matrix.json", NULL);
	g_autofree char *orig = tu_slurp(src);
	g_autoptr(GString) text = g_string_new(orig);

	g_assert_cmpuint(g_string_replace(text, old, new, 1), ==, 1);
	g_assert_cmpint(g_mkdir_with_parents(dst_dir, 0755), ==, 0);
	tu_write(dst, text->str);
}

/* Shard I/N of rate=1,2,3 into dir, with the build identity of root/id. */
static void shard_into(Fixture *f, const char *dir, const char *shard, const char *vary,
		       const char *set)
{
	g_autofree char *id = g_build_filename(f->root, "id", NULL);
	const char *const args[] = { "--vary", vary ? vary : "channel0.rate=1,2,3",
		"--shard", shard, "--set", set ? set : "run.duration=1",
		"--", "--qemu-dir", id, "--kernel-dir", id, NULL };

	g_assert_cmpint(matrix_into(f, dir, args, NULL, NULL, NULL), ==, 0);
}

/*
 * merge refuses, naming the shards and what differs, before it writes
 * anything: a shard given twice, missing cells (of a shard not given, or
 * not run), another N, scenario text, --vary, --set or build identity, an
 * interrupted shard, an OUT that is a shard or not empty.
 */
static void test_merge_refused(Fixture *f, gconstpointer data)
{
	static const struct {
		const char *dirs[3];
		const char *out;
		const char *message;
	} cases[] = {
		{ { "a1", "a1b" }, "m", "/a1b are both shard 1 of 2: give each shard once" },
		{ { "a1" }, "m", "1 of the matrix's 3 cells are missing:\n"
		  "  rate=2: shard 2 of 2, not given\n" },
		{ { "a1", "a2x" }, "m", "1 of the matrix's 3 cells are missing:\n"
		  "  rate=2: shard 2 of 2, not run in " },
		{ { "a2", "b2of3" }, "m", "/b2of3 shard 2 of 3: a different N" },
		{ { "a1", "c2" }, "m", "/c2 are not shards of one matrix: a different "
		  "scenario (its text's SHA-256)" },
		{ { "a1", "d2" }, "m", "/d2 are not shards of one matrix: a different --vary "
		  "([{\"key\":\"channel0.rate\",\"values\":[\"1\",\"2\",\"3\"]}] against "
		  "[{\"key\":\"channel0.rate\",\"values\":[\"1\",\"2\",\"4\"]}])" },
		{ { "a1", "f2" }, "m", "a different --set ([\"run.duration=1\"] against "
		  "[\"run.duration=2\"])" },
		{ { "a1", "e2" }, "m", "/e2 are not shards of one matrix: different builds, "
		  "their qemu-identity differ" },
		{ { "a1", "a2i" }, "m", "/a2i: shard 2 of 2 was interrupted: run its command "
		  "again to finish it" },
		{ { "a1", "a2" }, "a1", "is one of the shards: merge into a new directory" },
		{ { "a1", "a2" }, "id", "/id is not empty: merge into a new directory" },
	};
	g_autofree char *id = g_build_filename(f->root, "id", NULL);
	g_autofree char *qid = g_build_filename(id, "qemu-identity", NULL);
	g_autofree char *scenario = tu_slurp(f->scenario);
	g_autofree char *changed = g_strconcat(scenario, "# changed\n", NULL);

	g_assert_cmpint(g_mkdir(id, 0755), ==, 0);
	tu_write(qid, "version=7.2\n");
	shard_into(f, "a1", "1/2", NULL, NULL);
	shard_into(f, "a2", "2/2", NULL, NULL);
	shard_into(f, "a1b", "1/2", NULL, NULL);
	shard_into(f, "b2of3", "2/3", NULL, NULL);
	shard_into(f, "d2", "2/2", "channel0.rate=1,2,4", NULL);
	shard_into(f, "f2", "2/2", NULL, "run.duration=2");
	tu_write(f->scenario, changed);
	shard_into(f, "c2", "2/2", NULL, NULL);
	tu_write(f->scenario, scenario);
	tu_write(qid, "version=7.2.1\n");
	shard_into(f, "e2", "2/2", NULL, NULL);
	edited_copy(f, "a2", "a2x", "\"status\" : \"ran\"", "\"status\" : \"not run\"");
	edited_copy(f, "a2", "a2i", "\"interrupted\" : false", "\"interrupted\" : true");

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *err = NULL;
		g_autofree char *json = g_build_filename(f->root, "m", "matrix.json", NULL);

		g_assert_cmpint(merge_dirs(f, cases[i].out, cases[i].dirs, NULL, &err), ==, 1);
		if (!strstr(err, cases[i].message))
			g_error("case %zu: '%s' lacks '%s'", i, err, cases[i].message);
		g_assert_false(g_file_test(json, G_FILE_TEST_EXISTS));
	}
	{
		g_autoptr(JsonNode) a1 = load_json(f, "a1", "matrix.json");
		JsonObject *build = json_object_get_object_member(json_node_get_object(a1),
								  "build");

		g_assert_cmpstr(json_object_get_string_member(build, "qemu-identity"), ==,
				"version=7.2\n");
		g_assert_true(json_object_get_null_member(build, "kernel-rt-identity"));
	}
}

/*
 * Resuming an OUT whose cells ran on another build, or with another text
 * of the scenario file, is refused: its finished cells would be kept and
 * mixed with new ones. The same build and text resume.
 */
static void test_resume_refused(Fixture *f, gconstpointer data)
{
	g_autofree char *id = g_build_filename(f->root, "id", NULL);
	g_autofree char *qid = g_build_filename(id, "qemu-identity", NULL);
	g_autofree char *scenario = tu_slurp(f->scenario);
	g_autofree char *changed = g_strconcat(scenario, "# changed\n", NULL);
	const char *const args[] = { "--vary", "channel0.rate=1,2", "--",
		"--qemu-dir", id, "--kernel-dir", id, NULL };
	g_autofree char *e1 = NULL, *e2 = NULL;

	g_assert_cmpint(g_mkdir(id, 0755), ==, 0);
	tu_write(qid, "version=7.2\n");
	g_assert_cmpint(matrix_into(f, "r", args, NULL, NULL, NULL), ==, 0);
	g_assert_cmpint(matrix_into(f, "r", args, NULL, NULL, NULL), ==, 0);
	tu_write(qid, "version=7.2.1\n");
	g_assert_cmpint(matrix_into(f, "r", args, NULL, NULL, &e1), ==, 1);
	g_assert_nonnull(strstr(e1, "run before the build changed"));
	tu_write(qid, "version=7.2\n");
	tu_write(f->scenario, changed);
	g_assert_cmpint(matrix_into(f, "r", args, NULL, NULL, &e2), ==, 1);
	g_assert_nonnull(strstr(e2, "run before the scenario file's text changed"));
	tu_write(f->scenario, scenario);
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
	g_test_add_func("/matrix/shard/parse", test_shard_parse);
#define ADD(path, fn) g_test_add(path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
	ADD("/matrix/cmd/cells", test_run_cells);
	ADD("/matrix/cmd/resume", test_resume);
	ADD("/matrix/cmd/channels", test_channels);
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
	ADD("/matrix/cmd/shards", test_shards);
	ADD("/matrix/cmd/merge-equal", test_merge_equal);
	ADD("/matrix/cmd/merge-seeds", test_merge_seeds);
	ADD("/matrix/cmd/merge-refused", test_merge_refused);
	ADD("/matrix/cmd/resume-refused", test_resume_refused);
#undef ADD
	return g_test_run();
}
