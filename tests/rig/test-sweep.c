// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A triggered sweep's results read back from records.csv (core/sweep.h):
 * the channel's triggered records only, by offset, each stage's worst
 * offset, sweep.csv, and refusals of what is not a sweep's records.csv.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "core/irqentry.h"
#include "core/sweep.h"
#include "testutil.h"

static char *write_csv(const char *dir, const char *text)
{
	char *path = g_build_filename(dir, "records.csv", NULL);

	g_assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

#define HEADER "seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced," \
	"work,cpu_hardirq,cpu_thread,cpu_done,offset\n"

/* Offsets out of order, another channel, a probe and an untriggered one. */
static void test_read(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *csv = write_csv(dir, HEADER
		"2,0,1093,2000,2500,,2600,0,0,0,,0,16\n"
		"1,0,1093,1000,1900,,2000,0,0,0,,0,8\n"
		"3,1,1093,3000,9000,,9100,0,0,0,,0,8\n"
		"4,255,516,100,,,200,0,0,,,0,\n"
		"5,0,69,5000,5100,,5200,0,0,0,,0,\n"
		"6,0,1095,6000,6100,6300,6400,0,0,0,0,0,24\n");
	g_autofree char *out = g_build_filename(dir, "sweep.csv", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) p = irqstorm_sweep_read(csv, 0, &err);
	IrqstormSweepWorst w;

	g_assert_no_error(err);
	g_assert_cmpuint(p->len, ==, 3);
	g_assert_cmpuint(g_array_index(p, IrqstormSweepPoint, 0).offset_ns, ==, 8);
	g_assert_cmpuint(g_array_index(p, IrqstormSweepPoint, 0).stage_ns[IRQSTORM_STAGE_HARDIRQ],
			 ==, 900);
	g_assert_cmpuint(g_array_index(p, IrqstormSweepPoint, 1).offset_ns, ==, 16);
	/* Raised at 1000, 2000 and 6000 ns: the span is 5000 ns. */
	g_assert_cmpuint(irqstorm_sweep_span(p), ==, 5000);
	w = irqstorm_sweep_worst(p, IRQSTORM_STAGE_HARDIRQ);
	g_assert_true(w.any);
	g_assert_cmpuint(w.offset_ns, ==, 8);
	g_assert_cmpuint(w.latency_ns, ==, 900);
	w = irqstorm_sweep_worst(p, IRQSTORM_STAGE_THREAD);
	g_assert_true(w.any);
	g_assert_cmpuint(w.offset_ns, ==, 24);
	g_assert_cmpuint(w.latency_ns, ==, 300);

	g_assert_true(irqstorm_sweep_write_csv(out, p, &err));
	g_assert_true(g_file_get_contents(out, &text, NULL, NULL));
	g_assert_cmpstr(text, ==,
			"offset_ns,seq,hardirq_ns,thread_ns,bh_ns,done_ns,handler_ns,"
			"hardirq_others,thread_others,bh_others,done_others,handler_others\n"
			"8,1,900,,,1000,100,,,,,\n"
			"16,2,500,,,600,100,,,,,\n"
			"24,6,100,300,,400,100,,,,,\n");
	g_assert_false(irqstorm_sweep_interference_known(p));
	tu_rmtree(dir);
}

/*
 * Interference: the interrupts taken (a System.map's entry points, the
 * plugin's trace) counted in each stage's window, the event's own device
 * interrupt left out of the windows from the raise, on the stage's vCPU;
 * the worst alone and with; sweep.csv's <stage>_others.
 */
static void test_interference(void)
{
	g_autofree char *dir = tu_make_dir();
	/* Raised at 1000 (offset 8: hardirq at 1900) and 2000 (offset 16:
	 * hardirq at 2500, thread at 2800, done at 2900). */
	g_autofree char *csv = write_csv(dir, HEADER
		"1,0,1093,1000,1900,,2000,0,0,0,,0,8\n"
		"2,0,1095,2000,2500,2800,2900,0,0,0,0,0,16\n");
	g_autofree char *map = g_build_filename(dir, "System.map", NULL);
	g_autofree char *trace = g_build_filename(dir, "irq-trace.txt", NULL);
	g_autofree char *out = g_build_filename(dir, "sweep.csv", NULL);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) p = irqstorm_sweep_read(csv, 0, &err);
	g_autoptr(GArray) pts = NULL, taken = NULL;
	const IrqstormSweepPoint *a, *b;
	IrqstormSweepWorst w;

	g_assert_true(g_file_set_contents(map,
		"ffffffff81000000 T _stext\n"
		"ffffffff81400b40 T asm_common_interrupt\n"
		"ffffffff81400bf0 T asm_sysvec_apic_timer_interrupt\n"
		"ffffffff81400cd0 T asm_sysvec_irq_work\n"
		"ffffffff81400d00 T irqentry_exit\n"
		"ffffffff81600000 T _etext\n", -1, NULL));
	pts = irqstorm_irqentry_points(map, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(pts->len, ==, 4);
	/* Event 1: the timer (1100-1700) then its own interrupt (1800);
	 * event 2: a timer taken before the raise and still running at it
	 * (1990-2050), its own (2100), a timer on vCPU 1 (2200, not ours),
	 * irq_work between its hardirq and its thread (2600), nested in it
	 * a timer (2610-2620), an exception's exit (2700). Exits are at
	 * d00, in the order the vCPUs ran. */
	g_assert_true(g_file_set_contents(trace,
		"# irqstorm interrupts: start_ns vaddr vcpu\n"
		"500 ffffffff81400bf0 0\n"
		"600 ffffffff81400d00 0\n"
		"1100 ffffffff81400bf0 0\n"
		"1700 ffffffff81400d00 0\n"
		"1800 ffffffff81400b40 0\n"
		"1890 ffffffff81400d00 0\n"
		"1990 ffffffff81400bf0 0\n"
		"2050 ffffffff81400d00 0\n"
		"2100 ffffffff81400b40 0\n"
		"2200 ffffffff81400bf0 1\n"
		"2300 ffffffff81400d00 0\n"
		"2350 ffffffff81400d00 1\n"
		"2600 ffffffff81400cd0 0\n"
		"2610 ffffffff81400bf0 0\n"
		"2620 ffffffff81400d00 0\n"
		"2650 ffffffff81400d00 0\n"
		"2700 ffffffff81400d00 0\n"
		"# end 17 blocks\n", -1, NULL));
	taken = irqstorm_irqentry_read(trace, pts, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(taken->len, ==, 8);
	g_assert_cmpuint(g_array_index(taken, IrqstormIrqEntry, 5).t_ns, ==, 2200);
	g_assert_cmpuint(g_array_index(taken, IrqstormIrqEntry, 5).end_ns, ==, 2350);
	g_assert_cmpuint(g_array_index(taken, IrqstormIrqEntry, 6).end_ns, ==, 2650);
	g_assert_cmpuint(g_array_index(taken, IrqstormIrqEntry, 7).end_ns, ==, 2620);
	/* The timer running at the raise counts; the one that ended before
	 * does not; neither does vCPU 1's, or the exception's exit. */
	g_assert_cmpuint(irqstorm_irqentry_others(taken, 2000, 2090, 0, G_MAXUINT64, G_MAXUINT64, NULL), ==, 1);
	g_assert_cmpuint(irqstorm_irqentry_others(taken, 2060, 2090, 0, G_MAXUINT64, G_MAXUINT64, NULL), ==, 0);
	g_assert_cmpuint(irqstorm_irqentry_others(taken, 2615, 2616, 0, G_MAXUINT64, G_MAXUINT64, NULL), ==, 2);
	g_assert_cmpuint(irqstorm_irqentry_others(taken, 2615, 2616, G_MAXUINT, G_MAXUINT64, G_MAXUINT64, NULL),
			 ==, 2);
	/* The irq_work interrupt (2600-2650) armed the trigger at 2605: the
	 * section's own, not counted; the timer nested in it is. */
	g_assert_cmpuint(irqstorm_irqentry_others(taken, 2615, 2616, 0, G_MAXUINT64, 2605, NULL),
			 ==, 1);
	irqstorm_sweep_interference(p, taken);
	g_assert_true(irqstorm_sweep_interference_known(p));
	a = &g_array_index(p, IrqstormSweepPoint, 0);
	b = &g_array_index(p, IrqstormSweepPoint, 1);
	g_assert_cmpuint(a->others[IRQSTORM_STAGE_HARDIRQ], ==, 1);
	g_assert_cmpstr(a->other[IRQSTORM_STAGE_HARDIRQ], ==, "the timer interrupt");
	g_assert_cmpuint(b->others[IRQSTORM_STAGE_HARDIRQ], ==, 1);
	g_assert_cmpstr(b->other[IRQSTORM_STAGE_HARDIRQ], ==, "the timer interrupt");
	g_assert_cmpuint(b->others[IRQSTORM_STAGE_THREAD], ==, 3);
	g_assert_cmpstr(b->other[IRQSTORM_STAGE_THREAD], ==, "the timer interrupt");
	/* handler: from the thread (2800) to done: nothing in it. */
	g_assert_cmpuint(b->others[IRQSTORM_STAGE_HANDLER], ==, 0);
	/* Event 1's handler (1900-2000) met the timer running at 1990. */
	w = irqstorm_sweep_worst_of(p, IRQSTORM_STAGE_HANDLER, IRQSTORM_SWEEP_ALONE);
	g_assert_true(w.any);
	g_assert_cmpuint(w.offset_ns, ==, 16);
	g_assert_cmpuint(w.count, ==, 1);
	g_assert_false(irqstorm_sweep_worst_of(p, IRQSTORM_STAGE_HARDIRQ,
					       IRQSTORM_SWEEP_ALONE).any);
	w = irqstorm_sweep_worst_of(p, IRQSTORM_STAGE_HARDIRQ, IRQSTORM_SWEEP_INTERFERED);
	g_assert_cmpuint(w.count, ==, 2);
	w = irqstorm_sweep_worst(p, IRQSTORM_STAGE_HARDIRQ);
	g_assert_cmpuint(w.offset_ns, ==, 8);
	g_assert_cmpuint(w.others, ==, 1);
	g_assert_true(irqstorm_sweep_write_csv(out, p, &err));
	g_assert_true(g_file_get_contents(out, &text, NULL, NULL));
	g_assert_true(g_str_has_suffix(text,
		"8,1,900,,,1000,100,1,,,2,1\n"
		"16,2,500,800,,900,100,1,3,,3,0\n"));

	/* No end line: QEMU did not exit; an address that is no entry point. */
	g_assert_true(g_file_set_contents(trace, "# irqstorm interrupts\n"
					  "500 ffffffff81400bf0 0\n", -1, NULL));
	g_assert_null(irqstorm_irqentry_read(trace, pts, &err));
	g_assert_nonnull(strstr(err->message, "no end line"));
	g_clear_error(&err);
	g_assert_true(g_file_set_contents(trace, "500 ffffffff81400e00 0\n# end 1\n",
					  -1, NULL));
	g_assert_null(irqstorm_irqentry_read(trace, pts, &err));
	g_assert_nonnull(strstr(err->message, ":1: not a line"));
	tu_rmtree(dir);
}

/* Not a records.csv of ABI 4, a bad line, a triggered record without offset. */
static void test_refusals(void)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced,work,"
		  "cpu_hardirq,cpu_thread,cpu_done\n1,0,7,1,2,3,4,0,0,0,0,0\n",
		  "no column 'offset'" },
		{ HEADER "1,0,1093,x,,,,0,0,,,,8\n", ":2: not a records.csv line" },
		{ HEADER "1,0,1093,1,,,,0,0,,,\n", ":2: not a records.csv line" },
		{ HEADER "\n1,0,1093,1,2,,3,0,0,0,,0,\n", ":3: a triggered record without" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *dir = tu_make_dir();
		g_autofree char *csv = write_csv(dir, cases[i].text);
		g_autoptr(GError) err = NULL;
		g_autoptr(GArray) p = irqstorm_sweep_read(csv, 0, &err);

		g_assert_null(p);
		g_assert_nonnull(err);
		g_test_message("case %zu: %s", i, err->message);
		g_assert_nonnull(strstr(err->message, cases[i].message));
		tu_rmtree(dir);
	}
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sweep/read", test_read);
	g_test_add_func("/sweep/refusals", test_refusals);
	g_test_add_func("/sweep/interference", test_interference);
	return g_test_run();
}
