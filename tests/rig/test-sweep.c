// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A triggered sweep's results read back from records.csv (core/sweep.h):
 * the channel's triggered records only, by offset, each stage's worst
 * offset, sweep.csv, and refusals of what is not a sweep's records.csv.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

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
			"offset_ns,seq,hardirq_ns,thread_ns,bh_ns,done_ns,handler_ns\n"
			"8,1,900,,,1000,100\n"
			"16,2,500,,,600,100\n"
			"24,6,100,300,,400,100\n");
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
	return g_test_run();
}
