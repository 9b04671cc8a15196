// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/core/rtla.c (rtla-hist.txt): exact bytes against the
 * formats of rtla's timerlat_hist.c (Linux 6.12), and rteval's reader of
 * rtla timerlat hist (rteval/modules/measurement/timerlat.py),
 * re-implemented, on a file of several vCPUs.
 */
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "core/rtla.h"
#include "core/stages.h"

#define R_HARDIRQ IRQSTORM_REC_HARDIRQ
#define R_THREAD IRQSTORM_REC_THREAD
#define R_DONE IRQSTORM_REC_DONE

/* An interrupt: hardirq after h ns on vCPU hc, its thread (t ns, vCPU tc)
 * when t is not 0. */
static struct irqstorm_record irq(guint64 h, guint hc, guint64 t, guint tc)
{
	struct irqstorm_record r = {
		.t_raise = 1000000, .t_hardirq = 1000000 + h, .cpu_hardirq = hc,
		.t_done = 1000000 + MAX(h, t) + 500, .cpu_done = t ? tc : hc,
		.cpu_thread = IRQSTORM_CPU_NONE, .cpu_bh = IRQSTORM_CPU_NONE,
		.flags = R_HARDIRQ | R_DONE,
	};

	if (t) {
		r.t_thread = 1000000 + t;
		r.cpu_thread = tc;
		r.flags |= R_THREAD;
	}
	return r;
}

/* A probe record: p ns late on vCPU c. */
static struct irqstorm_record probe(guint64 p, guint c)
{
	struct irqstorm_record r = {
		.t_raise = 2000000, .t_done = 2000000 + p, .cpu_done = c,
		.channel = IRQSTORM_PROBE_CHANNEL,
		.cpu_hardirq = IRQSTORM_CPU_NONE, .cpu_thread = IRQSTORM_CPU_NONE,
		.cpu_bh = IRQSTORM_CPU_NONE,
		.flags = IRQSTORM_REC_PROBE | R_DONE,
	};

	return r;
}

static void add(IrqstormRtla *t, struct irqstorm_record r)
{
	irqstorm_rtla_add(t, &r);
}

/* Each stage's vCPU is the one of the stamp it ends at. */
static void test_stage_cpu(void)
{
	struct irqstorm_record r = irq(2500, 1, 16900, 0);
	struct irqstorm_record p = probe(27400, 1);

	g_assert_cmpuint(irqstorm_stage_cpu(&r, IRQSTORM_STAGE_HARDIRQ), ==, 1);
	g_assert_cmpuint(irqstorm_stage_cpu(&r, IRQSTORM_STAGE_THREAD), ==, 0);
	g_assert_cmpuint(irqstorm_stage_cpu(&r, IRQSTORM_STAGE_BH), ==, IRQSTORM_CPU_NONE);
	g_assert_cmpuint(irqstorm_stage_cpu(&p, IRQSTORM_STAGE_PROBE), ==, 1);
	r.flags &= ~R_THREAD;
	g_assert_cmpuint(irqstorm_stage_cpu(&r, IRQSTORM_STAGE_THREAD), ==, IRQSTORM_CPU_NONE);
}

/*
 * The bytes rtla prints for the same samples (timerlat_hist.c of 6.12,
 * with -u, without --with-zeros): "%-6d" and "%9d " per row, "over: ",
 * "count:" and "%9llu ", "min:  "/"avg:  "/"max:  " with "%9c " '-' for a
 * column without samples, then "ALL:" over every CPU. Values are truncated
 * to whole us (2999 ns is 2 us), avg is the truncated sum over the count,
 * and 300 us with 256 buckets is counted in over: and still is the max.
 */
static void test_exact(void)
{
	g_autoptr(IrqstormRtla) t = irqstorm_rtla_new(256);
	g_autofree char *text = NULL;
	static const char expected[] =
		"# RTLA timerlat histogram\n"
		"# Time unit is microseconds (us)\n"
		"# Duration:   1 01:01:01\n"
		"# irqstorm (QEMU virtual time): IRQ = the hardirq stage, Thr = the thread stage,"
		" Usr = the probe stage, per vCPU of the handler or probe\n"
		"Index   IRQ-000   Thr-000   Usr-000   IRQ-001   Thr-001   Usr-001\n"
		"2             2         0         0         0         0         0 \n"
		"3             0         0         0         1         0         0 \n"
		"16            0         1         0         0         0         0 \n"
		"17            0         1         0         0         0         0 \n"
		"27            0         0         0         0         0         1 \n"
		"over:         0         0         0         0         0         1 \n"
		"count:        2         2         0         1         0         2 \n"
		"min:          2        16         -         3         -        27 \n"
		"avg:          2        16         -         3         -       163 \n"
		"max:          2        17         -         3         -       300 \n"
		"ALL:        IRQ       Thr       Usr\n"
		"count:        3         2         2 \n"
		"min:          2        16        27 \n"
		"avg:          2        16       163 \n"
		"max:          3        17       300 \n";

	add(t, irq(2500, 0, 16900, 0));
	add(t, irq(3999, 1, 17000, 0));
	add(t, irq(2999, 0, 0, 0));
	add(t, probe(27400, 1));
	add(t, probe(300000, 1));
	text = irqstorm_rtla_format(t, 86400 + 3661);
	g_assert_cmpstr(text, ==, expected);
}

/* No sample: rtla's empty table (no CPU, its summaries of nothing), and
 * no user-thread column (rtla has them only when it measures them). */
static void test_empty(void)
{
	g_autoptr(IrqstormRtla) t = irqstorm_rtla_new(256);
	g_autofree char *text = irqstorm_rtla_format(t, 2);

	g_assert_nonnull(g_strrstr(text, "\nIndex\nover: \ncount:\nmin:  \navg:  \nmax:  \n"
				   "ALL:        IRQ       Thr\n"
				   "count:        0         0 \n"
				   "min:          -         - \n"));
}

/* No probe: no Usr column anywhere (a parser of rtla's output meets no
 * '-' in a column rtla would not print); IRQ and Thr as ever. */
static void test_no_probe(void)
{
	g_autoptr(IrqstormRtla) t = irqstorm_rtla_new(256);
	g_autofree char *text = NULL;

	add(t, irq(2500, 0, 16900, 0));
	text = irqstorm_rtla_format(t, 2);
	g_assert_null(strstr(text, "Usr-"));
	g_assert_null(strstr(text, "Thr       Usr"));
	g_assert_nonnull(strstr(text, "Index   IRQ-000   Thr-000\n2             1         0 \n"
				"16            0         1 \n"));
	g_assert_nonnull(strstr(text, "ALL:        IRQ       Thr\ncount:        1         1 \n"));
}

/* What rteval's timerlat module keeps of a core (TLRunData): its samples
 * per bucket, their count, the lowest and highest bucket with samples. */
typedef struct {
	GHashTable *samples;	/* bucket -> count */
	guint64 n, min, max;
	double sum;
} Core;

static void core_bucket(Core *c, gint64 index, guint64 v1, guint64 v2, guint64 v3)
{
	guint64 v = v1 + v2 + v3;
	gpointer old = g_hash_table_lookup(c->samples, GINT_TO_POINTER(index));

	g_hash_table_insert(c->samples, GINT_TO_POINTER(index),
			    GSIZE_TO_POINTER(GPOINTER_TO_SIZE(old) + v));
	if (v) {
		c->max = MAX(c->max, (guint64)index);
		c->min = MIN(c->min, (guint64)index);
	}
	c->n += v;
	c->sum += (double)index * v;
}

/*
 * rteval's parse of rtla timerlat hist -u's output, line for line: '#'
 * lines skipped but "# Duration:" (its 3rd and 4th words kept), the
 * Index, over:, count:, min:, avg:, max: and ALL: lines skipped, any
 * other line split in words, the first an int (else skipped), at least
 * 1 + cores * 3 words (else skipped), and three counts per core in the
 * order of its cpulist, given to that core and to "system".
 */
static void rteval_parse(const char *text, guint ncores, Core *cores, Core *system,
			 char **duration)
{
	static const char *const skipped[] = {
		"Index", "over:", "count:", "min:", "avg:", "max:", "ALL:",
	};
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (char **l = lines; *l; l++) {
		g_auto(GStrv) vals = NULL;
		gboolean skip = FALSE;
		char *end;
		gint64 index;

		vals = g_regex_split_simple("\\s+", g_strstrip(*l), 0, 0);
		if (g_str_has_prefix(*l, "#")) {
			if (g_str_has_prefix(*l, "# Duration:")) {
				g_assert_cmpuint(g_strv_length(vals), >=, 4);
				*duration = g_strconcat(vals[2], vals[3], NULL);
			}
			continue;
		}
		for (gsize k = 0; k < G_N_ELEMENTS(skipped); k++)
			skip |= g_str_has_prefix(*l, skipped[k]);
		if (skip || !vals[0] || !*vals[0])
			continue;
		index = g_ascii_strtoll(vals[0], &end, 10);
		if (*end || g_strv_length(vals) < 1 + ncores * 3)
			continue;
		for (guint i = 0; i < ncores; i++) {
			guint64 v[3];

			for (int k = 0; k < 3; k++)
				v[k] = g_ascii_strtoull(vals[i * 3 + 1 + k], NULL, 10);
			core_bucket(&cores[i], index, v[0], v[1], v[2]);
			core_bucket(system, index, v[0], v[1], v[2]);
		}
	}
}

static void core_init(Core *c)
{
	memset(c, 0, sizeof(*c));
	c->samples = g_hash_table_new(NULL, NULL);
	c->min = G_MAXUINT64;
}

/*
 * Random samples on three vCPUs, all under the buckets' range: rteval
 * finds, per core and for the system, the samples' count, lowest and
 * highest whole us and their mean, as counted here from the samples; the
 * file's avg: is that mean truncated.
 */
static void test_rteval_consumer(void)
{
	g_autoptr(IrqstormRtla) t = irqstorm_rtla_new(1000);
	g_autofree char *text = NULL, *duration = NULL;
	Core cores[3], system, want[3];

	for (int i = 0; i < 3; i++) {
		core_init(&cores[i]);
		core_init(&want[i]);
	}
	core_init(&system);
	for (int i = 0; i < 2000; i++) {
		guint hc = g_test_rand_int_range(0, 3), tc = g_test_rand_int_range(0, 3);
		guint64 h = g_test_rand_int_range(500, 40000);
		guint64 th = h + g_test_rand_int_range(0, 400000);
		guint64 p = g_test_rand_int_range(0, 900000);

		add(t, irq(h, hc, th, tc));
		add(t, probe(p, tc));
		core_bucket(&want[hc], h / 1000, 1, 0, 0);
		core_bucket(&want[tc], th / 1000, 0, 1, 0);
		core_bucket(&want[tc], p / 1000, 0, 0, 1);
	}
	text = irqstorm_rtla_format(t, 125);
	rteval_parse(text, 3, cores, &system, &duration);
	g_assert_cmpstr(duration, ==, "000:02:05");
	g_assert_cmpuint(system.n, ==, 6000);
	for (int i = 0; i < 3; i++) {
		g_autofree char *cpu = g_strdup_printf("IRQ-%03d", i);

		g_assert_nonnull(strstr(text, cpu));
		g_assert_cmpuint(cores[i].n, ==, want[i].n);
		g_assert_cmpuint(cores[i].min, ==, want[i].min);
		g_assert_cmpuint(cores[i].max, ==, want[i].max);
		g_assert_cmpfloat_with_epsilon(cores[i].sum, want[i].sum, 0.5);
		g_hash_table_unref(cores[i].samples);
		g_hash_table_unref(want[i].samples);
	}
	g_hash_table_unref(system.samples);
}

/* The file is written whole, or not at all. */
static void test_write(void)
{
	g_autoptr(IrqstormRtla) t = irqstorm_rtla_new(10);
	g_autoptr(GError) error = NULL;
	g_autofree char *dir = g_dir_make_tmp("irqstorm-rtla-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "rtla-hist.txt", NULL);
	g_autofree char *bad = g_build_filename(dir, "no", "such", NULL);
	g_autofree char *text = NULL, *want = NULL;

	add(t, irq(2500, 0, 0, 0));
	g_assert_true(irqstorm_rtla_write(path, t, 2, &error));
	g_assert_no_error(error);
	g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
	want = irqstorm_rtla_format(t, 2);
	g_assert_cmpstr(text, ==, want);
	g_assert_false(irqstorm_rtla_write(bad, t, 2, &error));
	g_assert_nonnull(error);
	g_assert_cmpint(g_unlink(path), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/rtla/stage-cpu", test_stage_cpu);
	g_test_add_func("/rtla/exact", test_exact);
	g_test_add_func("/rtla/empty", test_empty);
	g_test_add_func("/rtla/no-probe", test_no_probe);
	g_test_add_func("/rtla/rteval-consumer", test_rteval_consumer);
	g_test_add_func("/rtla/write", test_write);
	return g_test_run();
}
