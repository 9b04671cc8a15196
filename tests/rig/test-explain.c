// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An event explained from a plugin trace (core/explain.h, core/symbols.h),
 * on a made-up kernel: blocks become spans of their functions, gaps become
 * [halted], a block cut short by the next counts only what ran, windows
 * add up to the stage, contexts follow interrupt entries and context
 * switches; addresses outside the text read as [user] or [unknown]; a
 * trace without its end line, and a record without the stage, are
 * refused.
 */
#include <glib.h>
#include <string.h>

#include "core/collect.h"
#include "core/explain.h"
#include "core/names.h"
#include "core/symbols.h"
#include "testutil.h"

#define MAP \
	"ffffffff81000000 T _stext\n" \
	"ffffffff81000100 T asm_common_interrupt\n" \
	"ffffffff81000200 T irqentry_exit\n" \
	"ffffffff81000300 T __switch_to\n" \
	"ffffffff81000400 T irq_thread\n" \
	"ffffffff81000500 T do_idle\n" \
	"ffffffff81000600 t helper\n" \
	"ffffffff81000700 T handle_softirqs\n" \
	"ffffffff81000800 T rcu_core\n" \
	"ffffffff81001000 T _etext\n" \
	"ffffffff82000000 D some_data\n"

/*
 * shift 3: 8 ns an instruction. Idle, halted until an interrupt at 1500;
 * its handler calls helper, leaves through irqentry_exit, and the block it
 * returns into is cut short at 1800 by a context switch to the IRQ thread,
 * which runs until the event's done at 5000.
 */
#define TRACE \
	"# irqstorm explain: start_ns vaddr insns\n" \
	"200 ffffffff81000510 10\n" \
	"1500 ffffffff81000100 5\n" \
	"1540 ffffffff81000600 20\n" \
	"1700 ffffffff81000200 10\n" \
	"1780 ffffffff81000120 100\n" \
	"1800 ffffffff81000300 25\n" \
	"2000 ffffffff81000400 250\n" \
	"4000 ffffffff81000608 125\n" \
	"5000 ffffffff81000400 1\n" \
	"# end 9 blocks\n"

/*
 * Two vCPUs in windows of virtual time: TRACE's blocks on vCPU 1, and
 * vCPU 0 in helper all along, its blocks at the same virtual times (each
 * vCPU's clock runs from the window's start), interleaved by window.
 */
#define TRACE_SMP \
	"# irqstorm explain: start_ns vaddr insns vcpu\n" \
	"0 ffffffff81000600 200 0\n" \
	"200 ffffffff81000510 10 1\n" \
	"1600 ffffffff81000600 200 0\n" \
	"1500 ffffffff81000100 5 1\n" \
	"1540 ffffffff81000600 20 1\n" \
	"1700 ffffffff81000200 10 1\n" \
	"1780 ffffffff81000120 100 1\n" \
	"1800 ffffffff81000300 25 1\n" \
	"3200 ffffffff81000600 300 0\n" \
	"2000 ffffffff81000400 250 1\n" \
	"4000 ffffffff81000608 125 1\n" \
	"5000 ffffffff81000400 1 1\n" \
	"# end 12 blocks\n"

/*
 * TRACE with the plugin's names (names=): idle's task from the window's
 * first block, the interrupt's IRQ at its handling (helper's block stands
 * for __handle_irq_event_percpu), the IRQ thread's task at the switch.
 */
#define TRACE_NAMES \
	"# irqstorm explain: start_ns vaddr insns vcpu\n" \
	"task 200 0 0 0 0 120 swapper/0\n" \
	"200 ffffffff81000510 10 0\n" \
	"1500 ffffffff81000100 5 0\n" \
	"irq 1540 0 24 irqstorm0\n" \
	"1540 ffffffff81000600 20 0\n" \
	"1700 ffffffff81000200 10 0\n" \
	"1780 ffffffff81000120 100 0\n" \
	"task 1800 0 57 1 50 120 irq/24-irqstorm0\n" \
	"1800 ffffffff81000300 25 0\n" \
	"2000 ffffffff81000400 250 0\n" \
	"4000 ffffffff81000608 125 0\n" \
	"5000 ffffffff81000400 1 0\n" \
	"# end 9 blocks\n"

typedef struct {
	char *dir;
	IrqstormSymbols *syms;
	GArray *trace;
} Fixture;

static void fixture_set_up(Fixture *f, gconstpointer data)
{
	g_autofree char *map = NULL, *trace = NULL;
	g_autoptr(GError) err = NULL;

	f->dir = tu_make_dir();
	map = g_build_filename(f->dir, "System.map", NULL);
	trace = g_build_filename(f->dir, "trace.txt", NULL);
	tu_write(map, MAP);
	tu_write(trace, data ? data : TRACE);
	f->syms = irqstorm_symbols_load(map, &err);
	g_assert_no_error(err);
	f->trace = irqstorm_explain_read_trace(trace, data ? NULL : &err);
	g_assert_no_error(err);
}

static void fixture_tear_down(Fixture *f, gconstpointer data)
{
	irqstorm_symbols_free(f->syms);
	if (f->trace)
		g_array_unref(f->trace);
	tu_rmtree(f->dir);
	g_free(f->dir);
}

static const struct irqstorm_record threaded = {
	.seq = 7, .t_raise = 1000, .t_hardirq = 2000, .t_thread = 4000, .t_done = 5000,
	.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD | IRQSTORM_REC_DONE,
};

static const IrqstormFunctionTime *function(const GArray *fns, const char *name)
{
	for (guint i = 0; i < fns->len; i++)
		if (!strcmp(g_array_index(fns, IrqstormFunctionTime, i).function, name))
			return &g_array_index(fns, IrqstormFunctionTime, i);
	g_assert_not_reached();
}

static void test_windows(Fixture *f, gconstpointer data)
{
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) ev = irqstorm_explain_event_new(&threaded,
		IRQSTORM_STAGE_DONE, &why);
	const IrqstormExplainWindow *w;
	const IrqstormFunctionTime *fn;
	g_autofree char *line = NULL;
	guint64 from, to;

	g_assert_nonnull(ev);
	g_assert_cmpuint(ev->windows->len, ==, 3);
	irqstorm_explain_event_span(ev, &from, &to);
	g_assert_cmpuint(from, ==, 0);	/* the lead, clamped at 0 */
	g_assert_cmpuint(to, ==, 5000);
	irqstorm_explain_analyse(ev, f->trace, f->syms, 3);

	w = ev->windows->pdata[0];
	g_assert_cmpstr(w->name, ==, "raise->hardirq");
	g_assert_cmpuint(w->interrupts, ==, 1);
	g_assert_cmpuint(w->switches, ==, 1);
	fn = function(w->functions, IRQSTORM_SYM_HALTED);
	g_assert_cmpuint(fn->ns, ==, 500);
	g_assert_cmpuint(fn->insns, ==, 0);
	g_assert_cmpstr(fn->context, ==, "idle");
	fn = function(w->functions, "asm_common_interrupt");
	g_assert_cmpuint(fn->ns, ==, 40 + 20);	/* the cut block: 20 ns ran */
	g_assert_cmpuint(fn->insns, ==, 5 + 2);
	fn = function(w->functions, "helper");
	g_assert_cmpuint(fn->ns, ==, 160);
	g_assert_cmpstr(fn->context, ==, "hard interrupt over idle");
	g_assert_cmpstr(function(w->functions, "irqentry_exit")->context, ==,
			"hard interrupt over idle");
	g_assert_cmpstr(function(w->functions, "__switch_to")->context, ==, "IRQ thread");
	/* Largest first. */
	g_assert_cmpstr(g_array_index(w->functions, IrqstormFunctionTime, 0).function,
			==, IRQSTORM_SYM_HALTED);

	w = ev->windows->pdata[1];
	g_assert_cmpstr(w->name, ==, "hardirq->thread");
	g_assert_cmpuint(w->functions->len, ==, 1);
	fn = function(w->functions, "irq_thread");
	g_assert_cmpuint(fn->ns, ==, 2000);
	g_assert_cmpuint(fn->insns, ==, 250);
	g_assert_cmpstr(fn->context, ==, "IRQ thread");

	w = ev->windows->pdata[2];
	g_assert_cmpstr(w->name, ==, "thread->done");
	g_assert_cmpuint(function(w->functions, "helper")->ns, ==, 1000);

	/* The stage as a whole: helper mostly in the IRQ thread. */
	g_assert_cmpuint(ev->latency_ns, ==, 4000);
	fn = function(ev->functions, "helper");
	g_assert_cmpuint(fn->ns, ==, 1160);
	g_assert_cmpstr(fn->context, ==, "IRQ thread");
	line = irqstorm_explain_line(ev);
	/* The causes in words, in the order they ran, each its time; then the
	 * functions. */
	g_assert_cmpstr(line, ==, "#7 done +4.0 us: idle first: 0.5 us; then a device "
			"interrupt: 0.3 us in hard interrupt; then the IRQ thread: 3.0 us; "
			"1 context switch (functions: 50% irq_thread, 29% helper, 12% [halted])");
	/* __switch_to's 25 instructions are the scheduler's, in the IRQ
	 * thread (a crumb: under 5%, left out of the line). */
	g_assert_cmpuint(ev->causes->len, ==, 4);
	g_assert_cmpstr(g_array_index(ev->causes, IrqstormCause, 0).what, ==, "the IRQ thread");
	g_assert_cmpuint(g_array_index(ev->causes, IrqstormCause, 0).ns, ==, 3000);
	g_assert_cmpstr(g_array_index(ev->causes, IrqstormCause, 3).what, ==,
			"the IRQ thread in the scheduler");
	g_assert_cmpuint(g_array_index(ev->causes, IrqstormCause, 3).ns, ==, 200);
}

/*
 * Where the code ran, from the trace: the IRQ thread's handler with
 * interrupts disabled (IF 0: forced threading without PREEMPT_RT), then a
 * softirq run on its way out (handle_softirqs calling rcu_core), each said
 * in the cause line; a block of IF 1 is plain task code.
 */
#define TRACE_WHERE \
	"# irqstorm explain: start_ns vaddr insns vcpu if\n" \
	"200 ffffffff81000510 10 0 1\n" \
	"1500 ffffffff81000100 5 0 0\n" \
	"1540 ffffffff81000600 20 0 0\n" \
	"1700 ffffffff81000200 10 0 0\n" \
	"1780 ffffffff81000120 100 0 0\n" \
	"1800 ffffffff81000300 25 0 0\n" \
	"2000 ffffffff81000400 50 0 1\n" \
	"2400 ffffffff81000600 100 0 0\n" \
	"3200 ffffffff81000700 10 0 1\n" \
	"3280 ffffffff81000800 80 0 1\n" \
	"3920 ffffffff81000708 10 0 1\n" \
	"4000 ffffffff81000608 125 0 1\n" \
	"5000 ffffffff81000400 1 0 1\n" \
	"# end 13 blocks\n"

static void test_where(Fixture *f, gconstpointer data)
{
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) ev =
		irqstorm_explain_event_new(&threaded, IRQSTORM_STAGE_DONE, &why);
	g_autofree char *line = NULL;

	irqstorm_explain_analyse(ev, f->trace, f->syms, 3);
	line = irqstorm_explain_line(ev);
	g_test_message("%s", line);
	g_assert_cmpstr(line, ==, "#7 done +4.0 us: the IRQ thread first: 1.4 us; then the IRQ "
			"thread with interrupts disabled: 0.8 us; then the IRQ thread in softirq: "
			"rcu_core: 0.8 us; 1 context switch (functions: 49% helper, 16% rcu_core, "
			"12% [halted])");
}

/*
 * On two vCPUs each window shows the code of its end point's vCPU (here
 * CPU 1's, where the interrupt and its thread ran), not CPU 0's running
 * beside it, and says so.
 */
static void test_smp(Fixture *f, gconstpointer data)
{
	struct irqstorm_record r = threaded;
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) ev = NULL;
	g_autofree char *text = NULL;

	r.cpu_hardirq = r.cpu_thread = r.cpu_done = 1;
	r.cpu_bh = IRQSTORM_CPU_NONE;
	ev = irqstorm_explain_event_new(&r, IRQSTORM_STAGE_DONE, &why);
	ev->cpus = 2;
	irqstorm_explain_analyse(ev, f->trace, f->syms, 3);
	for (guint i = 0; i < ev->windows->len; i++)
		g_assert_cmpuint(((IrqstormExplainWindow *)ev->windows->pdata[i])->cpu, ==, 1);
	/* As on one vCPU (test_windows): vCPU 0's helper is not in it. */
	g_assert_cmpuint(function(ev->functions, "helper")->ns, ==, 1160);
	g_assert_cmpuint(function(ev->functions, "irq_thread")->ns, ==, 2000);
	text = irqstorm_explain_text(ev, "held");
	g_assert_nonnull(strstr(text, "\nraise->hardirq on CPU 1  +0.000 .. +1.000 us"));
	g_assert_nonnull(strstr(text, "\nthread->done on CPU 1  "));
}

/* With names: each context is the task by name, the interrupt by its IRQ. */
static void test_names(Fixture *f, gconstpointer data)
{
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) ev =
		irqstorm_explain_event_new(&threaded, IRQSTORM_STAGE_DONE, &why);
	g_autofree char *text = NULL;
	g_autofree char *line = NULL;

	irqstorm_explain_analyse(ev, f->trace, f->syms, 3);
	g_assert_true(ev->named);
	/* The same times as without names (test_windows) */
	g_assert_cmpuint(function(ev->functions, "helper")->ns, ==, 1160);
	g_assert_cmpstr(function(ev->functions, "irq_thread")->context, ==,
			"irq/24-irqstorm0 (pid 57, FIFO 50)");
	g_assert_cmpstr(function(ev->functions, "[halted]")->context, ==,
			"swapper/0 (idle, pid 0)");
	text = irqstorm_explain_text(ev, "held");
	g_assert_nonnull(strstr(text, "hard interrupt IRQ 24 (irqstorm0) over swapper/0 "
				"(idle, pid 0)"));
	g_assert_nonnull(strstr(text, "read in guest memory at each context switch"));
	line = irqstorm_explain_line(ev);
	g_assert_nonnull(strstr(line, "irq/24-irqstorm0 (pid 57, FIFO 50)"));
	g_assert_nonnull(strstr(line, "IRQ 24 (irqstorm0)"));
}

/* --top's events: the window the statistics cover, as collect.c has it. */
static void test_window(void)
{
	g_assert_true(irqstorm_in_window(1000, 1000, 0, 500));
	g_assert_true(irqstorm_in_window(1000, 1499, 0, 500));
	g_assert_false(irqstorm_in_window(1000, 1500, 0, 500));	/* the stop tail */
	g_assert_false(irqstorm_in_window(1000, 1099, 100, 500));	/* the warm-up */
	g_assert_true(irqstorm_in_window(1000, 1100, 100, 500));
	g_assert_true(irqstorm_in_window(1000, 900, 0, 500));	/* before the first */
}

/* The words of the plugin's reads, and the names file of a kernel. */
static void test_names_file(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *map = g_build_filename(dir, "System.map", NULL);
	g_autofree char *path = g_build_filename(dir, "names.txt", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	const char *layout = "task_pid:1120,task_comm:1592,task_comm_len:16,"
			     "task_policy:704,task_rt_priority:120,task_static_prio:112,"
			     "desc_irq:44,desc_action:112,action_name:80";

	g_assert_cmpstr(irqstorm_names_task("1 0 0 120 sh"), ==, "sh (pid 1, OTHER nice 0)");
	g_assert_cmpstr(irqstorm_names_task("99 2 10 120 rr"), ==, "rr (pid 99, RR 10)");
	g_assert_cmpstr(irqstorm_names_task("-1 0 0 0 ?"), ==, "a task (unreadable)");
	g_assert_null(irqstorm_names_task("1 0 0"));
	g_assert_cmpstr(irqstorm_names_irq("11 ahci"), ==, "IRQ 11 (ahci)");
	g_assert_null(irqstorm_names_irq("x"));
	tu_write(map, MAP "ffffffff81000700 T __handle_irq_event_percpu\n");
	g_assert_true(irqstorm_names_write(map, layout, path, &err));
	g_assert_no_error(err);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	g_assert_nonnull(strstr(text, "switch_to 0xffffffff81000300\nhandle_irq "
				"0xffffffff81000700\ntask_pid 1120\n"));
	g_assert_nonnull(strstr(text, "action_name 80\n"));
	/* An offset the layout lacks, a function the map lacks: named */
	g_assert_false(irqstorm_names_write(map, "task_pid:1", path, &err));
	g_assert_nonnull(strstr(err->message, "task_comm"));
	g_clear_error(&err);
	tu_write(map, MAP);
	g_assert_false(irqstorm_names_write(map, layout, path, &err));
	g_assert_nonnull(strstr(err->message, "__handle_irq_event_percpu"));
	tu_rmtree(dir);
}

static void test_sequence(Fixture *f, gconstpointer data)
{
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) ev = irqstorm_explain_event_new(&threaded,
		IRQSTORM_STAGE_HARDIRQ, &why);
	const IrqstormExplainWindow *w;
	static const struct {
		guint64 from;
		const char *function;
		gboolean entered;
	} want[] = {
		{ 1000, IRQSTORM_SYM_HALTED, FALSE },	/* halted since 280 */
		{ 1500, "asm_common_interrupt", TRUE },
		{ 1540, "helper", TRUE },
		{ 1700, "irqentry_exit", TRUE },
		{ 1780, "asm_common_interrupt", FALSE },
		{ 1800, "__switch_to", TRUE },
	};
	guint64 sum = 0;

	irqstorm_explain_analyse(ev, f->trace, f->syms, 3);
	g_assert_cmpuint(ev->windows->len, ==, 1);
	w = ev->windows->pdata[0];
	g_assert_cmpuint(w->spans->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < w->spans->len; i++) {
		const IrqstormSpan *s = &g_array_index(w->spans, IrqstormSpan, i);

		g_assert_cmpuint(s->from_ns, ==, want[i].from);
		g_assert_cmpstr(s->function, ==, want[i].function);
		g_assert_cmpint(s->entered, ==, want[i].entered);
		sum += s->to_ns - s->from_ns;
	}
	g_assert_cmpuint(sum, ==, 1000);
}

static void test_symbols(Fixture *f, gconstpointer data)
{
	guint64 start;

	g_assert_cmpstr(irqstorm_symbols_lookup(f->syms, 0x401000, &start), ==,
			IRQSTORM_SYM_USER);
	g_assert_cmpuint(start, ==, 0x401000);
	g_assert_cmpstr(irqstorm_symbols_lookup(f->syms, 0xffffffff81000650ull, &start),
			==, "helper");
	g_assert_cmpuint(start, ==, 0xffffffff81000600ull);
	g_assert_cmpstr(irqstorm_symbols_lookup(f->syms, 0xffffffff81001000ull, NULL), ==,
			IRQSTORM_SYM_UNKNOWN);	/* at _etext: past the text */
	g_assert_cmpstr(irqstorm_symbols_lookup(f->syms, 0xffffffffa0001000ull, NULL), ==,
			IRQSTORM_SYM_UNKNOWN);	/* a module, not placed */
	g_assert_cmpuint(irqstorm_symbols_module_base(f->syms), ==, 0);
}

/* The probe's window, and a stage the record lacks. */
static void test_events(void)
{
	const struct irqstorm_record probe = {
		.seq = 9, .channel = IRQSTORM_PROBE_CHANNEL, .t_raise = 100, .t_done = 350,
		.flags = IRQSTORM_REC_PROBE | IRQSTORM_REC_DONE,
	};
	const struct irqstorm_record hard = {
		.seq = 3, .t_raise = 100, .t_hardirq = 200, .t_done = 300,
		.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE,
	};
	const char *why = NULL;
	g_autoptr(IrqstormExplainEvent) p = irqstorm_explain_event_new(&probe,
		IRQSTORM_STAGE_PROBE, &why);
	g_autoptr(IrqstormExplainEvent) h = irqstorm_explain_event_new(&hard,
		IRQSTORM_STAGE_DONE, &why);
	IrqstormExplainEvent *none;

	g_assert_nonnull(p);
	g_assert_cmpuint(p->windows->len, ==, 1);
	g_assert_cmpstr(((IrqstormExplainWindow *)p->windows->pdata[0])->name, ==,
			"expected->wake-up");
	g_assert_nonnull(h);
	g_assert_cmpuint(h->windows->len, ==, 2);
	g_assert_cmpstr(((IrqstormExplainWindow *)h->windows->pdata[1])->name, ==,
			"hardirq->done");
	none = irqstorm_explain_event_new(&hard, IRQSTORM_STAGE_THREAD, &why);
	g_assert_null(none);
	g_assert_nonnull(strstr(why, "lacks"));
	none = irqstorm_explain_event_new(&probe, IRQSTORM_STAGE_DONE, &why);
	g_assert_null(none);
	g_assert_nonnull(strstr(why, "probe"));
}

static void test_unfinished(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *path = g_build_filename(dir, "trace.txt", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) t = NULL;

	tu_write(path, "# irqstorm explain: start_ns vaddr insns\n200 ffffffff81000510 10\n");
	t = irqstorm_explain_read_trace(path, &err);
	g_assert_null(t);
	g_assert_nonnull(strstr(err->message, "no end line"));
	g_clear_error(&err);
	tu_write(path, "200 zz 10\n# end 1 blocks\n");
	t = irqstorm_explain_read_trace(path, &err);
	g_assert_null(t);
	g_assert_nonnull(strstr(err->message, ":1: not a line"));
	tu_rmtree(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/explain/windows", Fixture, NULL, fixture_set_up, test_windows,
		   fixture_tear_down);
	g_test_add("/explain/smp", Fixture, TRACE_SMP, fixture_set_up, test_smp,
		   fixture_tear_down);
	g_test_add("/explain/sequence", Fixture, NULL, fixture_set_up, test_sequence,
		   fixture_tear_down);
	g_test_add("/explain/symbols", Fixture, NULL, fixture_set_up, test_symbols,
		   fixture_tear_down);
	g_test_add("/explain/names", Fixture, TRACE_NAMES, fixture_set_up, test_names,
		   fixture_tear_down);
	g_test_add("/explain/where", Fixture, TRACE_WHERE, fixture_set_up, test_where,
		   fixture_tear_down);
	g_test_add_func("/explain/names-file", test_names_file);
	g_test_add_func("/explain/window", test_window);
	g_test_add_func("/explain/events", test_events);
	g_test_add_func("/explain/unfinished", test_unfinished);
	return g_test_run();
}
