// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm check: short storms aimed at the kernel, not at a latency. Each
 * case is a run (its results in OUT/CASE), judged by the run's own verdict
 * (complete, cross-checks, the kernel's reports, stalls) and by genirq's
 * promises to a handler (core/promises.h); the output is TAP 13, what
 * kselftest and KernelCI read.
 */
#include "cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "core/machine.h"
#include "core/promises.h"
#include "core/records.h"
#include "core/runfiles.h"

/* The cases: what each proves, and the scenario that does (over BASE). */
typedef struct {
	const char *name;
	const char *proves;
	const char *ini;
	const char *run;	/* more of [run], or NULL */
} CheckCase;

/* rmmod and a CPU's way back online take the guest's init past the
 * default grace of its stop (0.14 s measured): not a livelock. */
#define SLOW_STOP "grace = 1\n"

#define BASE "[channel0]\nrate = 2000\nwork = pio\npio_words = 256\n"
#define SECOND "[channel1]\npattern = periodic\nrate = 1500\nwork = pio\npio_words = 256\n"
#define ONE(t, m) BASE "threading = " t "\n[guest]\nirq_mode = " m "\n"
#define SHARED(a, b) BASE "threading = " a "\n" SECOND "threading = " b "\n" \
	"[guest]\nirq_mode = intx\n"
#define TWO_CPUS(t, m, guest) "[machine]\ncpus = 2\n" BASE "threading = " t "\n" \
	"[guest]\nirq_mode = " m "\n" guest

static const CheckCase cases[] = {
	{ "hardirq-intx", "a hard handler on a level line (IRQF_NO_THREAD)", ONE("hardirq", "intx") },
	{ "hardirq-msi", "a hard handler on MSI", ONE("hardirq", "msi") },
	{ "hardirq-msix", "a hard handler on MSI-X", ONE("hardirq", "msix") },
	{ "threaded-intx", "a threaded handler on a level line: IRQF_ONESHOT keeps it masked "
	  "until the thread has run", ONE("threaded", "intx") },
	{ "threaded-msi", "a threaded handler on MSI (no ONESHOT: forced primaries get a "
	  "secondary thread)", ONE("threaded", "msi") },
	{ "threaded-msix", "a threaded handler on MSI-X", ONE("threaded", "msix") },
	{ "forced-intx", "request_irq() forced into a thread (PREEMPT_RT, threadirqs) on a "
	  "level line", ONE("forced", "intx") },
	{ "forced-msi", "request_irq() forced into a thread on MSI", ONE("forced", "msi") },
	{ "forced-msix", "request_irq() forced into a thread on MSI-X", ONE("forced", "msix") },
	{ "shared-threaded+threaded", "two threaded handlers on one level line: both called, "
	  "the line masked until both threads ran", SHARED("threaded", "threaded") },
	{ "shared-hardirq+hardirq", "two hard handlers on one level line: both called",
	  SHARED("hardirq", "hardirq") },
	{ "shared-threaded+forced", "a threaded and a forced handler on one level line",
	  SHARED("threaded", "forced") },
	{ "free-under-storm-msi", "free_irq() halfway through a storm on MSI",
	  ONE("threaded", "msi") "free_irq = true\n" },
	{ "unload-under-storm", "rmmod while the device storms: the removal stops the "
	  "storm and leaves nothing queued", ONE("threaded", "msi") "unload = true\n", SLOW_STOP },
	{ "affinity-2cpu", "on two vCPUs, the interrupt routed to CPU 1: it and its thread "
	  "run there", TWO_CPUS("threaded", "msi", "irq_cpu = 1\n") },
	{ "affinity-moves-2cpu", "on two vCPUs, the interrupt moved between the CPUs every "
	  "millisecond under the storm", TWO_CPUS("threaded", "msi", "irq_flip_us = 1000\n") },
	{ "hotplug-2cpu", "on two vCPUs, CPU 1 taken offline and back under the storm",
	  TWO_CPUS("threaded", "msi", "hotplug_cpu = 1\n"), SLOW_STOP },
};

static const char check_description[] =
	"Short storms aimed at the kernel, not at a latency: every threading mode\n"
	"on INTx, MSI and MSI-X, shared lines, free_irq() and rmmod under a storm,\n"
	"affinity changes and CPU hotplug on two vCPUs (--list names them and\n"
	"what each proves). Each case is a run (0.2 s of storm unless --duration;\n"
	"results in OUT/CASE), and it passes when the run passes (complete, its\n"
	"witnesses agree, no stall, and no kernel report: BUG:, WARNING:, lockdep,\n"
	"an oops, a lockup, an RCU stall, nobody cared) and genirq kept its\n"
	"promises to the handler:\n"
	"  one-at-a-time    no handler entered while it already ran\n"
	"  handlers-called  every handler of the line was called\n"
	"  oneshot          a ONESHOT line stays masked until its threads returned\n"
	"  thread-priority  IRQ threads at FIFO 50 (a secondary at 49 where the\n"
	"                   kernel has sched_set_fifo_secondary())\n"
	"  affinity         the interrupt and its thread on the CPU it is routed to\n"
	"(docs/analysis.md, \"irqstorm check\", names the kernel code of each).\n"
	"\n"
	"The output is TAP 13 (one line per case, a YAML block on a failure),\n"
	"also written to OUT/check.tap. The kernel: --source and --flavour, or\n"
	"any --set; --set also plants a bug in every case (e.g.\n"
	"channel0.work=ignore: a handler that claims nothing).\n"
	"\n"
	"A case that does not apply to the kernel is skipped (TAP's # SKIP, with\n"
	"why): a threaded and a forced handler on one line, where the kernel\n"
	"does not force threading.\n"
	"\n"
	"Exit status: 0 every case passed or was skipped; 5 the kernel failed\n"
	"a case (a report, a broken promise, a stall); 4 a case's run could not\n"
	"be judged (it did not complete for another reason, or its witnesses\n"
	"disagree); 1 a bad option, or OUT exists.\n"
	"\n"
	"Examples:\n"
	"  irqstorm check\n"
	"  irqstorm check --source debian-7.3 --flavour dyn --out /tmp/check-7.3-dyn\n"
	"  irqstorm check --cases threaded-intx,shared-threaded+threaded \\\n"
	"      --set channel0.work=ignore\n";

/* What the command runs on: the options every case gets. */
typedef struct {
	char **sets;		/* "kernel.source=...", then --set's */
	const char *out;
	double duration;
	FILE *tap;		/* OUT/check.tap */
} CheckRun;

/* The scenario of case c with the run's settings, checked. */
static IrqstormScenario *case_scenario(const CheckRun *cr, const CheckCase *c,
				       GError **error)
{
	g_autofree char *ini = g_strdup_printf("%s[run]\nduration = %g\n%s", c->ini,
					       cr->duration, c->run ?: "");
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data(c->name, ini, error);

	if (!sc)
		return NULL;
	for (gsize i = 0; cr->sets[i]; i++)
		if (!irqstorm_scenario_override(sc, cr->sets[i], "--set", error))
			return NULL;
	if (!irqstorm_scenario_check(sc, "--set", error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* Both outputs: stdout and OUT/check.tap. */
G_GNUC_PRINTF(2, 3)
static void tap(const CheckRun *cr, const char *fmt, ...)
{
	va_list ap;
	g_autofree char *s = NULL;

	va_start(ap, fmt);
	s = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fputs(s, stdout);
	fflush(stdout);
	if (cr->tap)
		fputs(s, cr->tap);
}

/* Does the kernel sc boots have sched_set_fifo_secondary() (System.map)? */
static gboolean has_fifo_secondary(const IrqstormScenario *sc)
{
	g_autofree char *name = irqstorm_machine_kernel_file(sc, "System.map");
	g_autofree char *map = g_build_filename(IRQSTORM_KERNEL_DIR, name, NULL);
	g_autofree char *text = NULL;

	return g_file_get_contents(map, &text, NULL, NULL) &&
	       strstr(text, " sched_set_fifo_secondary\n");
}

/* A case's verdict: its failures (char *), and whether the kernel's. */
typedef struct {
	GPtrArray *failed;
	GPtrArray *held;	/* every promise judged, held or not (char *) */
	gboolean tool;		/* the run could not be judged */
	const char *skip;	/* why the case does not apply here, or NULL */
	int code;
} CaseVerdict;

/*
 * A kernel that does not force threading (no threadirqs, no PREEMPT_RT)
 * runs a "forced" handler as a hard one without IRQF_ONESHOT, and genirq
 * refuses to share a line between it and a ONESHOT one (__setup_irq():
 * "Flags mismatch"): that pair does not apply there.
 */
#define NOT_FORCED "this kernel does not force threading: the forced handler is a hard " \
	"one without IRQF_ONESHOT, which genirq refuses to share a line with a ONESHOT " \
	"one (kernel/irq/manage.c __setup_irq(): Flags mismatch)"

/* The run's own verdict, from its summary.json, as failures. */
static void run_verdict(CaseVerdict *v, const CheckCase *c, const char *dir)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormSummary) s = irqstorm_summary_load(dir, &err);

	if (!s) {
		v->tool = TRUE;
		g_ptr_array_add(v->failed, g_strdup(err->message));
		return;
	}
	if (strstr(c->name, "+forced") && !s->complete && s->guest_status &&
	    !strcmp(s->guest_status, "error") && s->incomplete_reason &&
	    strstr(s->incomplete_reason, "Flags mismatch")) {
		v->skip = NOT_FORCED;
		return;
	}
	if (v->code == IRQSTORM_EXIT_KERNEL && s->kernel_failure) {
		/* A broken promise is promises_verdict()'s to name, with its source. */
		if (!g_str_has_prefix(s->kernel_failure, IRQSTORM_PROMISE_FAILURE))
			g_ptr_array_add(v->failed, g_strdup_printf("the kernel: %s",
								   s->kernel_failure));
	} else if (!s->complete || s->failed_checks) {
		v->tool = TRUE;
		g_ptr_array_add(v->failed, s->complete ? g_strdup_printf(
			"%u cross-checks failed (summary.json failed_checks)", s->failed_checks) :
			g_strdup_printf("incomplete: %s", s->incomplete_reason));
	} else if (v->code)
		g_ptr_array_add(v->failed, s->stall ? g_strdup_printf("stall: %s", s->stall) :
				g_strdup_printf("exit status %d (summary.json)", v->code));
}

/* genirq's promises, from the run's console and records. */
static void promises_verdict(CaseVerdict *v, const IrqstormScenario *sc, const char *dir)
{
	g_autofree char *console = g_build_filename(dir, irqstorm_run_file(
		IRQSTORM_FILE_CONSOLE), NULL);
	g_autofree char *csv = g_build_filename(dir, irqstorm_run_file(
		IRQSTORM_FILE_RECORDS), NULL);
	g_autoptr(IrqstormConsole) con = irqstorm_console_read(console);
	g_autoptr(GArray) records = irqstorm_records_read(csv, FALSE, NULL);
	g_autoptr(GArray) p = irqstorm_promises_judge(sc, con, records,
						      has_fifo_secondary(sc));

	for (guint i = 0; i < p->len; i++) {
		IrqstormPromise *q = &g_array_index(p, IrqstormPromise, i);

		g_ptr_array_add(v->held, g_strdup_printf("%s (channel %d: %s)", q->promise,
							 q->channel, q->detail));
		if (!q->held)
			g_ptr_array_add(v->failed, g_strdup_printf(
				"promise %s, channel %d: %s (%s)", q->promise, q->channel,
				q->detail, irqstorm_promise_source(q->promise)));
		g_free(q->detail);
	}
}

/* A YAML-safe line: in double quotes, its quotes and backslashes escaped. */
static char *yaml_quoted(const char *s)
{
	GString *q = g_string_new("\"");

	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_c(q, '\\');
		g_string_append_c(q, *s);
	}
	g_string_append_c(q, '"');
	return g_string_free(q, FALSE);
}

/* Run case n (1-based), print its TAP line; 0 passed, else the status. */
static int check_case(const CheckRun *cr, const CheckCase *c, guint n,
		      const IrqstormGuestBuilder *builder)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = case_scenario(cr, c, &err);
	g_autofree char *dir = g_build_filename(cr->out, c->name, NULL);
	IrqstormRunSettings set = {
		.qemu_dir = IRQSTORM_QEMU_DIR, .kernel_dir = IRQSTORM_KERNEL_DIR,
		.initrd_dir = IRQSTORM_INITRD_DIR, .quiet = TRUE, .csv = TRUE,
	};
	CaseVerdict v = { g_ptr_array_new_with_free_func(g_free),
			  g_ptr_array_new_with_free_func(g_free), FALSE, NULL, 0 };
	int status;

	if (!sc) {
		v.tool = TRUE;
		g_ptr_array_add(v.failed, g_strdup(err->message));
	} else {
		set.scenario = sc;
		v.code = irqstorm_cmd_run_into(&set, builder, dir, FALSE);
		run_verdict(&v, c, dir);
		if (!v.tool && !v.skip)
			promises_verdict(&v, sc, dir);
	}
	if (v.skip)
		tap(cr, "ok %u - %s: %s # SKIP %s\n", n, c->name, c->proves, v.skip);
	else
		tap(cr, "%sok %u - %s: %s\n", v.failed->len ? "not " : "", n, c->name,
		    c->proves);
	for (guint i = 0; i < v.held->len; i++)
		tap(cr, "# %s: %s\n", c->name, (char *)v.held->pdata[i]);
	if (v.failed->len) {
		tap(cr, "  ---\n  failed:\n");
		for (guint i = 0; i < v.failed->len; i++) {
			g_autofree char *q = yaml_quoted(v.failed->pdata[i]);

			tap(cr, "    - %s\n", q);
		}
		tap(cr, "  exit: %d\n  results: %s\n  ...\n", v.code, dir);
	}
	status = !v.failed->len ? 0 : v.tool ? IRQSTORM_EXIT_TOOL_FAILURE : IRQSTORM_EXIT_KERNEL;
	g_ptr_array_unref(v.failed);
	g_ptr_array_unref(v.held);
	return status;
}

/* The cases named (comma-separated), or all; NULL after saying why. */
static GPtrArray *chosen_cases(const char *names)
{
	g_autoptr(GPtrArray) out = g_ptr_array_new();
	g_auto(GStrv) want = names ? g_strsplit(names, ",", -1) : NULL;

	for (gsize k = 0; k < G_N_ELEMENTS(cases); k++)
		if (!want)
			g_ptr_array_add(out, (gpointer)&cases[k]);
	for (gsize i = 0; want && want[i]; i++) {
		gsize k = 0;

		while (k < G_N_ELEMENTS(cases) && strcmp(cases[k].name, g_strstrip(want[i])))
			k++;
		if (k == G_N_ELEMENTS(cases)) {
			irqstorm_cmd_fail("--cases: no case '%s' (irqstorm check --list)", want[i]);
			return NULL;
		}
		g_ptr_array_add(out, (gpointer)&cases[k]);
	}
	return g_steal_pointer(&out);
}

/* Run every chosen case; the worst status (4 over 5 over 0). */
static int check_all(CheckRun *cr, const GPtrArray *chosen)
{
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	guint passed = 0;
	int worst = 0;

	tap(cr, "TAP version 13\n1..%u\n", chosen->len);
	for (guint i = 0; i < chosen->len; i++) {
		int s = check_case(cr, chosen->pdata[i], i + 1, &builder);

		passed += !s;
		if (s == IRQSTORM_EXIT_TOOL_FAILURE || !worst)
			worst = s ? s : worst;
	}
	tap(cr, "# %u of %u cases passed or skipped; results in %s\n", passed, chosen->len, cr->out);
	return worst;
}

static void list_cases(void)
{
	for (gsize k = 0; k < G_N_ELEMENTS(cases); k++)
		printf("%-26s %s\n", cases[k].name, cases[k].proves);
}

/* irqstorm check [--source S] [--flavour F] [--set K=V]... [--cases A,B] */
int irqstorm_cmd_check(int argc, char **argv)
{
	g_autofree char *source = NULL, *flavour = NULL, *out = NULL, *names = NULL;
	g_auto(GStrv) sets = NULL;
	gboolean list = FALSE;
	double duration = 0.2;
	const GOptionEntry entries[] = {
		{ "source", 0, 0, G_OPTION_ARG_STRING, &source,
		  "The kernel's source: debian-6.12 (the default), debian-6.1, "
		  "debian-7.3, or a tree's path", "SOURCE" },
		{ "flavour", 0, 0, G_OPTION_ARG_STRING, &flavour,
		  "rt (the default) or dyn", "FLAVOUR" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Override a scenario key in every case (repeatable)", "GROUP.KEY=VALUE" },
		{ "cases", 'c', 0, G_OPTION_ARG_STRING, &names,
		  "Only these cases, comma-separated (--list)", "CASE,..." },
		{ "duration", 'd', 0, G_OPTION_ARG_DOUBLE, &duration,
		  "Seconds of storm per case (default 0.2)", "SECONDS" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "A new directory for the results (default: the build directory's "
		  "check/KERNEL-TIME)", "OUT" },
		{ "list", 0, 0, G_OPTION_ARG_NONE, &list, "List the cases and exit", NULL },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"- short storms aimed at the kernel: a verdict per case, in TAP", entries,
		check_description);
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) chosen = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) probe = NULL;
	CheckRun cr = { 0 };
	int code;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc != 1)
		return irqstorm_usage_error(ctx, "check takes no SCENARIO: its cases are its own "
					    "(--list)");
	if (list) {
		list_cases();
		return IRQSTORM_EXIT_PASSED;
	}
	if (source)
		g_ptr_array_add(all, g_strconcat("kernel.source=", source, NULL));
	if (flavour)
		g_ptr_array_add(all, g_strconcat("kernel.flavour=", flavour, NULL));
	for (gsize i = 0; sets && sets[i]; i++)
		g_ptr_array_add(all, g_strdup(sets[i]));
	g_ptr_array_add(all, NULL);
	cr.sets = (char **)all->pdata;
	cr.duration = duration;
	if (!(chosen = chosen_cases(names)))
		return IRQSTORM_EXIT_ERROR;
	/* The first case's scenario names the kernel, and catches a bad --set. */
	if (!(probe = case_scenario(&cr, chosen->pdata[0], &err)))
		return irqstorm_cmd_fail("%s", err->message);
	if (!out) {
		g_autoptr(GDateTime) now = g_date_time_new_now_utc();
		g_autofree char *when = g_date_time_format(now, "%Y%m%dT%H%M%S");
		g_autofree char *kernel = irqstorm_machine_kernel_name(probe);

		out = g_strdup_printf("%s/check/%s-%s", IRQSTORM_BUILD_DIR, kernel, when);
	}
	if (g_file_test(out, G_FILE_TEST_EXISTS))
		return irqstorm_cmd_fail("%s exists: give check a new --out directory", out);
	if (g_mkdir_with_parents(out, 0755) < 0)
		return irqstorm_cmd_fail("%s: %s", out, g_strerror(errno));
	cr.out = out;
	{
		g_autofree char *path = g_build_filename(out, "check.tap", NULL);

		if (!(cr.tap = fopen(path, "w")))
			return irqstorm_cmd_fail("%s: %s", path, g_strerror(errno));
	}
	code = check_all(&cr, chosen);
	if (fclose(cr.tap))
		return irqstorm_cmd_fail("%s/check.tap: %s", out, g_strerror(errno));
	return code;
}
