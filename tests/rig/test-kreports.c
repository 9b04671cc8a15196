// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's reports read from its log (rig/core/kreports.c): the kinds
 * by the words the kernel prints, the trace's first frames, and frames
 * named from a System.map. The nobody-cared log is a real one (the rt
 * 6.12 kernel, scenarios/nobody-cared.ini); the others are laid out as the
 * functions kreports.c names print them.
 */
#include <string.h>

#include "core/kreports.h"
#include "testutil.h"

static GPtrArray *parse_fixture(const char *name)
{
	const char *dir = g_getenv("IRQSTORM_TEST_FIXTURES");
	g_autofree char *path = NULL, *text = NULL;

	if (!dir)
		g_error("IRQSTORM_TEST_FIXTURES is not set (run the tests with meson test)");
	path = g_build_filename(dir, name, NULL);
	text = tu_slurp(path);
	return irqstorm_kreports_parse(text);
}

static IrqstormKreport *report(GPtrArray *a, guint i)
{
	g_assert_cmpuint(i, <, a->len);
	return a->pdata[i];
}

/* One report, its "Disabling IRQ" line after it, its 8 first frames. */
static void test_nobody_cared(void)
{
	g_autoptr(GPtrArray) a = parse_fixture("console-nobody-cared-6.12.log");
	IrqstormKreport *r = report(a, 0);

	g_assert_cmpuint(a->len, ==, 1);
	g_assert_cmpstr(r->kind, ==, "nobody-cared");
	g_assert_true(r->fault);
	g_assert_false(r->expected);
	g_assert_cmpstr(r->title, ==,
			"irq 21: nobody cared (try booting with the \"irqpoll\" option)");
	g_assert_cmpuint(r->then->len, ==, 1);
	g_assert_cmpstr(r->then->pdata[0], ==, "Disabling IRQ #21");
	g_assert_cmpuint(r->trace->len, ==, IRQSTORM_KREPORT_FRAMES);
	g_assert_cmpstr(r->trace->pdata[0], ==, "? 0xffffffff812632d1");
	g_assert_cmpstr(r->trace->pdata[7], ==, "? 0xffffffff81279a59");
}

/* Those frames named from the kernel's System.map (its lines for them). */
static void test_named_frames(void)
{
	g_autoptr(GPtrArray) a = parse_fixture("console-nobody-cared-6.12.log");
	g_autofree char *dir = tu_make_dir();
	g_autofree char *map = g_build_filename(dir, "System.map", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormSymbols) syms = NULL;
	IrqstormKreport *r;

	tu_write(map, "ffffffff81000000 T _stext\n"
		 "ffffffff8101c8d7 t __common_interrupt\n"
		 "ffffffff8107f5ee T handle_irq_event_percpu\n"
		 "ffffffff8107f617 T handle_irq_event\n"
		 "ffffffff8108197c t __report_bad_irq\n"
		 "ffffffff81081b97 T note_interrupt\n"
		 "ffffffff81082bdf T handle_fasteoi_irq\n"
		 "ffffffff8126327f T dump_stack_lvl\n"
		 "ffffffff812799f4 T common_interrupt\n"
		 "ffffffff81279b00 T asm_common_interrupt\n"
		 "ffffffff81400000 T _etext\n");
	syms = irqstorm_symbols_load(map, &err);
	g_assert_no_error(err);
	irqstorm_kreports_name_frames(a, syms);
	r = report(a, 0);
	g_assert_cmpstr(r->trace->pdata[0], ==, "? dump_stack_lvl+0x52");
	g_assert_cmpstr(r->trace->pdata[1], ==, "? __report_bad_irq+0x30");
	g_assert_cmpstr(r->trace->pdata[2], ==, "? note_interrupt+0x1f4");
	g_assert_cmpstr(r->trace->pdata[7], ==, "? common_interrupt+0x65");
	tu_rmtree(dir);
}

/*
 * A lockdep report: its trace after both chains; a WARN() of 7.3's layout
 * and of 6.12's; an oops of two titles; a hung task of 7.3; a notice.
 */
static void test_kinds(void)
{
	g_autoptr(GPtrArray) a = irqstorm_kreports_parse(
		"[    3.1] ======================================================\n"
		"[    3.1] WARNING: possible circular locking dependency detected\n"
		"[    3.1] 6.12.118 #1 Tainted: G           O\n"
		"[    3.1] ------------------------------------------------------\n"
		"[    3.1] irq/21-irqstorm/48 is trying to acquire lock:\n"
		"[    3.1] ffff888003a1c0a8 (&d->lock_b){+.+.}-{3:3}, at: irqstorm_thread+0x2a/0x90 [irqstorm]\n"
		"[    3.1] \n"
		"[    3.1] -> #1 (&d->lock_a){+.+.}-{3:3}:\n"
		"[    3.1]        lock_acquire+0xc8/0x2c0\n"
		"[    3.1] stack backtrace:\n"
		"[    3.1] CPU: 0 UID: 0 PID: 48 Comm: irq/21-irqstorm Tainted: G           O       6.12.118 #1\n"
		"[    3.1] Call Trace:\n"
		"[    3.1]  <TASK>\n"
		"[    3.1]  dump_stack_lvl+0x5d/0x80\n"
		"[    3.1]  print_circular_bug+0x26b/0x340\n"
		"[    3.1]  </TASK>\n"
		"[    3.2] irqstorm: channel 0 freed\n"
		"[    4.0] ------------[ cut here ]------------\n"
		"[    4.0] WARNING: kernel/irq/manage.c:2015 at free_irq+0x2f/0x60, CPU#0: init/1\n"
		"[    4.0] Modules linked in: irqstorm(O)\n"
		"[    4.0] Call Trace:\n"
		"[    4.0]  ? 0xffffffff8107f612\n"
		"[    4.0] ---[ end trace 0000000000000000 ]---\n"
		"[    4.1] WARNING: CPU: 0 PID: 1 at kernel/irq/manage.c:1914 free_irq+0x2f/0x60\n"
		"[    5.0] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[    5.0] #PF: supervisor read access in kernel mode\n"
		"[    5.0] Oops: Oops: 0000 [#1] PREEMPT_RT SMP NOPTI\n"
		"[    5.0] Call Trace:\n"
		"[    5.0]  irqstorm_isr+0x10/0x40 [irqstorm]\n"
		"[    6.0] INFO: task kworker/0:1:33 blocked for more than 122 seconds.\n"
		"[    7.0] genirq: Flags mismatch irq 21. 00002080 (irqstorm1) vs. 00210080 (irqstorm0)\n"
		"[    8.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [irq/21-irqstorm:48]\n"
		"[    9.0] rcu: INFO: rcu_preempt self-detected stall on CPU\n"
		"[    9.5] BUG: MAX_LOCKDEP_KEYS too low!\n"
		"[    9.9] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\n");
	static const char *const kinds[] = {
		"lockdep", "warning", "warning", "oops", "hung-task", "flags-mismatch",
		"soft-lockup", "rcu-stall", "bug", "init-died",
	};

	g_assert_cmpuint(a->len, ==, G_N_ELEMENTS(kinds));
	for (guint i = 0; i < G_N_ELEMENTS(kinds); i++)
		g_assert_cmpstr(report(a, i)->kind, ==, kinds[i]);
	g_assert_cmpuint(report(a, 0)->trace->len, ==, 2);
	g_assert_cmpstr(report(a, 0)->trace->pdata[1], ==, "print_circular_bug+0x26b/0x340");
	g_assert_cmpuint(report(a, 1)->trace->len, ==, 1);
	g_assert_cmpuint(report(a, 2)->trace->len, ==, 0);
	/* The oops: its first line the title, "Oops:" what became of it. */
	g_assert_cmpstr(report(a, 3)->title, ==,
			"BUG: kernel NULL pointer dereference, address: 0000000000000008");
	g_assert_cmpuint(report(a, 3)->then->len, ==, 1);
	g_assert_cmpstr(report(a, 3)->trace->pdata[0], ==, "irqstorm_isr+0x10/0x40 [irqstorm]");
	g_assert_false(report(a, 5)->fault);
	g_assert_false(report(a, 9)->fault);
	for (guint i = 0; i < a->len; i++)
		g_assert_true(i == 5 || i == 9 || report(a, i)->fault);
}

/* A report the guest's init shows again is one; nothing else is one. */
static void test_again_and_none(void)
{
	g_autoptr(GPtrArray) a = irqstorm_kreports_parse(
		"[    2.5] irq 21: nobody cared (try booting with the \"irqpoll\" option)\n"
		"[    2.6] Disabling IRQ #21\n"
		"[    2.7] WARNING: CPU: 0 PID: 1 at x.c:1 f+0x1/0x2\n"
		"[    2.5] irq 21: nobody cared (try booting with the \"irqpoll\" option)\n"
		"[    2.6] Disabling IRQ #21\n");
	g_autoptr(GPtrArray) none = irqstorm_kreports_parse(
		"[    1.0] Booting the kernel\n"
		"init: storm for 2000 ms, intx\n"
		"[    1.1] workqueue: irqstorm_work hogged CPU for >10000us 4 times\n"
		"IRQSTORM-RESULT status=ok\n");

	g_assert_cmpuint(a->len, ==, 2);
	g_assert_cmpuint(report(a, 0)->then->len, ==, 1);
	g_assert_cmpuint(none->len, ==, 0);
}

/* What [run] kernel_expect may name: the fault kinds, not the notices. */
static void test_kind_names(void)
{
	g_autofree char *all = irqstorm_kreport_kinds();

	g_assert_true(irqstorm_kreport_kind_known("nobody-cared"));
	g_assert_true(irqstorm_kreport_kind_known("lockdep"));
	g_assert_false(irqstorm_kreport_kind_known("flags-mismatch"));
	g_assert_false(irqstorm_kreport_kind_known("nobody"));
	g_assert_false(irqstorm_kreport_kind_known("init-died"));
	g_assert_true(g_str_has_prefix(all, "nobody-cared, sleeping-in-atomic, "));
	g_assert_cmpuint(tu_count(all, "rcu-stall"), ==, 1);
	g_assert_cmpuint(tu_count(all, "flags-mismatch"), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/kreports/nobody-cared", test_nobody_cared);
	g_test_add_func("/kreports/named-frames", test_named_frames);
	g_test_add_func("/kreports/kinds", test_kinds);
	g_test_add_func("/kreports/again-and-none", test_again_and_none);
	g_test_add_func("/kreports/kind-names", test_kind_names);
	return g_test_run();
}
