// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/hist.c: exact counters, bin edges, overflows, and the
 * percentile contract checked against brute force on sorted random data.
 */
#include <stdlib.h>

#include <glib.h>

#include "core/hist.h"
#include "core/histfile.h"
#include "core/output.h"
#include "testutil.h"

/* qsort comparator for guint64. */
static int cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return (x > y) - (x < y);
}

/*
 * Brute-force nearest rank for p = pq / 10000 percent among n samples:
 * the smallest k >= 1 with k / n >= p / 100, found by counting up.
 */
static guint64 brute_rank(guint64 pq, guint64 n)
{
	guint64 k = 1;

	while (k < n && k * 1000000u < pq * n)
		k++;
	return k;
}

/* An empty histogram reports zeros. */
static void test_empty(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 10);

	g_assert_cmpuint(irqstorm_hist_count(h), ==, 0);
	g_assert_cmpuint(irqstorm_hist_overflows(h), ==, 0);
	g_assert_cmpuint(irqstorm_hist_min(h), ==, 0);
	g_assert_cmpuint(irqstorm_hist_max(h), ==, 0);
	g_assert_cmpfloat(irqstorm_hist_avg(h), ==, 0.0);
	g_assert_cmpuint(irqstorm_hist_avg_floor(h), ==, 0);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 0);
	g_assert_cmpuint(irqstorm_hist_bin_ns(h), ==, 1000);
	g_assert_cmpuint(irqstorm_hist_nbins(h), ==, 10);
}

/* Samples land in [i * bin, (i + 1) * bin); >= nbins * bin overflow. */
static void test_bins_and_overflows(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 4);

	irqstorm_hist_add(h, 0);
	irqstorm_hist_add(h, 999);
	irqstorm_hist_add(h, 1000);
	irqstorm_hist_add(h, 3999);
	irqstorm_hist_add(h, 4000);	/* first overflow value */
	irqstorm_hist_add(h, 123456789);

	g_assert_cmpuint(irqstorm_hist_bin_count(h, 0), ==, 2);
	g_assert_cmpuint(irqstorm_hist_bin_count(h, 1), ==, 1);
	g_assert_cmpuint(irqstorm_hist_bin_count(h, 2), ==, 0);
	g_assert_cmpuint(irqstorm_hist_bin_count(h, 3), ==, 1);
	g_assert_cmpuint(irqstorm_hist_overflows(h), ==, 2);
	g_assert_cmpuint(irqstorm_hist_count(h), ==, 6);
	g_assert_cmpuint(irqstorm_hist_min(h), ==, 0);
	g_assert_cmpuint(irqstorm_hist_max(h), ==, 123456789);

	/* Every rank is its sample, in the bins and past them alike. */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 100), ==, 123456789);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 5.0 / 6 * 100), ==, 4000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 4.0 / 6 * 100 - 0.01), ==, 3999);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 1000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 2.0 / 6 * 100), ==, 999);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 0), ==, 0);
	g_assert_cmpuint(irqstorm_hist_percentile(h, -5), ==, 0);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 250), ==, 123456789);
	g_assert_true(irqstorm_hist_percentile_exact(h, 50));
}

/* Nearest rank of decimal percentiles is not disturbed by rounding. */
static void test_nearest_rank_decimal(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1, 10);
	guint i;

	/* 1000 samples 1000..1999, all overflows, so results are exact. */
	for (i = 0; i < 1000; i++)
		irqstorm_hist_add(h, 1000 + i);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 99.9), ==, 1998);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 99.0), ==, 1989);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 0.1), ==, 1000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 0.1001), ==, 1001);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 1499);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 100), ==, 1999);
}

/* Two samples in one bin: each its own rank, not the bin's edge. */
static void test_within_a_bin(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 100);

	irqstorm_hist_add(h, 1500);
	irqstorm_hist_add(h, 1234);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 1234);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 100), ==, 1500);
}

/*
 * Known records, as a run's records.csv gives them: the default scenario's
 * hardirq latencies of its first events (ns), whose exact nearest-rank
 * percentiles a sort gives; with 1 us bins the bin edge was 4000 for all.
 */
static void test_known_records(void)
{
	static const guint64 rec[] = {
		3096, 3088, 3088, 3112, 3088, 3088, 2840, 3088, 3088, 3104,
		3088, 3088, 3088, 3112, 3088, 3088, 3088, 3088, 3096, 3088,
	};
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 1000);

	for (gsize i = 0; i < G_N_ELEMENTS(rec); i++)
		irqstorm_hist_add(h, rec[i]);
	/* Sorted: 2840, 3088 x 14, 3096 x 2, 3104, 3112 x 2. */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 5), ==, 2840);	/* rank 1 */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 3088);	/* rank 10 */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 80), ==, 3096);	/* rank 16 */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 85), ==, 3096);	/* rank 17 */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 90), ==, 3104);	/* rank 18 */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 99), ==, 3112);	/* rank 20 */
}

/* min, max and avg are exact, even when the sum exceeds 64 bits. */
static void test_exact_stats(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 10);
	g_autoptr(IrqstormHist) big = irqstorm_hist_new(1000, 10);
	guint i;

	irqstorm_hist_add(h, 7);
	irqstorm_hist_add(h, 8);
	irqstorm_hist_add(h, 10);
	g_assert_cmpuint(irqstorm_hist_min(h), ==, 7);
	g_assert_cmpuint(irqstorm_hist_max(h), ==, 10);
	g_assert_cmpfloat(irqstorm_hist_avg(h), ==, 25.0 / 3.0);
	g_assert_cmpuint(irqstorm_hist_avg_floor(h), ==, 8);

	/* 4 * 2^62 = 2^64 wraps a 64-bit sum. */
	for (i = 0; i < 4; i++)
		irqstorm_hist_add(big, G_GUINT64_CONSTANT(1) << 62);
	irqstorm_hist_add(big, 5);
	/* floor((2^64 + 5) / 5) = (2^64 - 1) / 5 + 1, as 2^64 = 1 (mod 5) */
	g_assert_cmpuint(irqstorm_hist_avg_floor(big), ==, G_MAXUINT64 / 5 + 1);
	g_assert_cmpfloat(irqstorm_hist_avg(big), ==,
			  (double)(((long double)4 * (1ull << 62) + 5) / 5));
	g_assert_cmpuint(irqstorm_hist_max(big), ==, G_GUINT64_CONSTANT(1) << 62);
	g_assert_cmpuint(irqstorm_hist_min(big), ==, 5);
	g_assert_cmpuint(irqstorm_hist_overflows(big), ==, 4);
}

/* Check every percentile of a random data set against brute force. */
static void check_random(GRand *rand, guint n, guint64 bin_ns, guint nbins,
			 gint32 overflow_per_mille)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(bin_ns, nbins);
	g_autofree guint64 *v = g_new(guint64, n);
	const guint64 range = bin_ns * nbins;
	static const double fixed[] = {
		0, 0.0001, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 99.999,
		99.9999, 100,
	};
	guint64 sum = 0, overflows = 0;
	guint i;

	for (i = 0; i < n; i++) {
		if (g_rand_int_range(rand, 0, 1000) < overflow_per_mille) {
			v[i] = range + (guint64)g_rand_int_range(rand, 0, 5000000);
			overflows++;
		} else {
			/* Skewed towards small values, like latencies. */
			guint64 r = (guint64)g_rand_int_range(rand, 0, (gint32)range);

			v[i] = r * r / range;
		}
		sum += v[i];
		irqstorm_hist_add(h, v[i]);
	}
	qsort(v, n, sizeof(*v), cmp_u64);

	g_assert_cmpuint(irqstorm_hist_count(h), ==, n);
	g_assert_cmpuint(irqstorm_hist_overflows(h), ==, overflows);
	g_assert_cmpuint(irqstorm_hist_min(h), ==, v[0]);
	g_assert_cmpuint(irqstorm_hist_max(h), ==, v[n - 1]);
	g_assert_cmpuint(irqstorm_hist_avg_floor(h), ==, sum / n);
	g_assert_cmpfloat_with_epsilon(irqstorm_hist_avg(h), (double)sum / n,
				       1e-9 * ((double)sum / n) + 1e-9);

	for (i = 0; i < G_N_ELEMENTS(fixed) + 100; i++) {
		guint64 pq, want, got;
		double p;

		if (i < G_N_ELEMENTS(fixed))
			pq = (guint64)(fixed[i] * 10000 + 0.5);
		else
			pq = (guint64)g_rand_int_range(rand, 0, 1000001);
		p = (double)pq / 10000;
		want = v[brute_rank(pq, n) - 1];
		got = irqstorm_hist_percentile(h, p);

		if (got != want)
			g_error("n=%u p=%.4f: got %" G_GUINT64_FORMAT
				", true nearest-rank value %" G_GUINT64_FORMAT
				", bin %" G_GUINT64_FORMAT,
				n, p, got, want, bin_ns);
		g_assert_true(irqstorm_hist_percentile_exact(h, p));
	}
}

/* Percentiles of seeded random data sets of various shapes. */
static void test_percentile_random(void)
{
	g_autoptr(GRand) rand = g_rand_new_with_seed(20260101);
	static const guint sizes[] = { 1, 2, 3, 10, 999, 1000, 12345, 100000 };
	guint i;

	for (i = 0; i < G_N_ELEMENTS(sizes); i++) {
		check_random(rand, sizes[i], 1000, 200, 0);
		check_random(rand, sizes[i], 1000, 200, 5);
		check_random(rand, sizes[i], 250, 50, 200);
		check_random(rand, sizes[i], 1, 1000, 900);
	}
}

/* Register and run the tests. */
/* ---- histogram files added up ----------------------------------------- */

#define SEEDS 7
#define STAGES 2

/* A run's histograms of random samples, a few past the last bin; the
 * same samples also go into all[], the histograms of every run at once. */
static void fill_run(GRand *rand, IrqstormHist **run, IrqstormHist **all, guint empty)
{
	for (guint j = 0; j < STAGES; j++) {
		guint n = j == empty ? 0 : g_rand_int_range(rand, 50, 400);

		for (guint k = 0; k < n; k++) {
			guint64 v = g_rand_int_range(rand, 0, 10) ?
				    g_rand_int_range(rand, 200, 60000) :	/* the bins */
				    g_rand_int_range(rand, 64000, 90000);	/* overflows */

			irqstorm_hist_add(run[j], v);
			irqstorm_hist_add(all[j], v);
		}
	}
}

/* sum, read back from files, against all, which saw every sample. */
static void check_sum(const IrqstormHistfile *sum, IrqstormHist *const *all, double avg_err)
{
	static const double ps[] = { 0, 1, 50, 90, 99, 99.9, 99.99, 100 };

	for (guint j = 0; j < STAGES; j++) {
		const IrqstormHist *h = sum->hists->pdata[j], *a = all[j];
		double avg_diff = irqstorm_hist_avg(a) - irqstorm_hist_avg(h);

		g_assert_cmpuint(irqstorm_hist_count(h), ==, irqstorm_hist_count(a));
		g_assert_cmpuint(irqstorm_hist_overflows(h), ==, irqstorm_hist_overflows(a));
		g_assert_cmpuint(irqstorm_hist_min(h), ==, irqstorm_hist_min(a));
		g_assert_cmpuint(irqstorm_hist_max(h), ==, irqstorm_hist_max(a));
		for (guint i = 0; i < irqstorm_hist_nbins(a); i++)
			g_assert_cmpuint(irqstorm_hist_bin_count(h, i), ==,
					 irqstorm_hist_bin_count(a, i));
		g_assert_cmpfloat(avg_diff, >=, 0);
		g_assert_cmpfloat(avg_diff, <, avg_err);
		for (gsize k = 0; k < G_N_ELEMENTS(ps); k++) {
			guint64 got = irqstorm_hist_percentile(h, ps[k]);
			guint64 want = irqstorm_hist_percentile(a, ps[k]);

			guint64 bin = irqstorm_hist_bin_ns(a), range = bin * irqstorm_hist_nbins(a);

			/* The files keep no values: a bound, within one bin in the
			 * bins, the max past them; exact only at 100 (the max). */
			g_assert_true(irqstorm_hist_percentile_exact(a, ps[k]));
			if (irqstorm_hist_percentile_exact(h, ps[k]))
				g_assert_cmpuint(got, ==, want);
			else if (want < range)
				g_assert_cmpuint(got, ==, MIN((want / bin + 1) * bin,
							      irqstorm_hist_max(a)));
			else
				g_assert_cmpuint(got, ==, irqstorm_hist_max(a));
			g_assert_cmpuint(got, >=, want);
		}
	}
	/* The top 10 % are overflows: p99 and p50 are bounds, p100 exact. */
	g_assert_false(irqstorm_hist_percentile_exact(sum->hists->pdata[0], 99));
	g_assert_false(irqstorm_hist_percentile_exact(sum->hists->pdata[0], 50));
	g_assert_true(irqstorm_hist_percentile_exact(sum->hists->pdata[0], 100));
}

/*
 * Seven runs' histogram files (one with a stage without samples), each
 * written as `irqstorm run` writes it, read back and added up: the sum's
 * bins, count, overflows, min and max are those of one histogram of every
 * sample, its percentiles too (but where they fall among the overflows,
 * whose values no file keeps: then the max, flagged), its mean less than
 * 1 ns below. The sum written again reads back the same (its mean
 * truncated once more).
 */
static void test_histfile_sum(void)
{
	const char *const names[STAGES] = { "hardirq", "done" };
	g_autoptr(GRand) rand = g_rand_new_with_seed(18);
	g_autofree char *dir = tu_make_dir();
	g_autofree char *again = g_build_filename(dir, "sum.txt", NULL);
	IrqstormHist *all[STAGES] = { irqstorm_hist_new(1000, 64), irqstorm_hist_new(1000, 64) };
	g_autoptr(IrqstormHistfile) sum = NULL, reread = NULL;
	g_autoptr(GError) err = NULL;

	for (guint s = 0; s < SEEDS; s++) {
		IrqstormHist *run[STAGES] = { irqstorm_hist_new(1000, 64),
					      irqstorm_hist_new(1000, 64) };
		g_autofree char *path = g_strdup_printf("%s/histogram-%u.txt", dir, s);
		g_autoptr(IrqstormHistfile) f = NULL;

		fill_run(rand, run, all, s == 3 ? 1 : STAGES);
		g_assert_true(irqstorm_write_histfile(path, run, names, STAGES, &err));
		f = irqstorm_histfile_load(path, &err);
		g_assert_no_error(err);
		if (!sum)
			sum = g_steal_pointer(&f);
		else
			g_assert_true(irqstorm_histfile_add(sum, f, &err));
		g_assert_no_error(err);
		for (guint j = 0; j < STAGES; j++)
			irqstorm_hist_free(run[j]);
	}
	g_assert_cmpuint(sum->files, ==, SEEDS);
	g_assert_cmpstr(sum->names[1], ==, "done");
	check_sum(sum, all, 1);
	g_assert_true(irqstorm_write_histfile(again, (IrqstormHist *const *)sum->hists->pdata,
					      (const char *const *)sum->names, STAGES, &err));
	reread = irqstorm_histfile_load(again, &err);
	g_assert_no_error(err);
	check_sum(reread, all, 2);	/* its mean truncated once more */
	for (guint j = 0; j < STAGES; j++)
		irqstorm_hist_free(all[j]);
	tu_rmtree(dir);
}

/* Files of other bins or stages are not added up; bad files are named. */
static void test_histfile_refused(void)
{
	static const struct {
		guint64 bin_ns;
		guint nbins;
		const char *names[2];
		const char *message;
	} other[] = {
		{ 500, 64, { "hardirq", "done" }, "64 bins of 1000 ns, stages hardirq done, "
		  "against 64 bins of 500 ns, stages hardirq done" },
		{ 1000, 63, { "hardirq", "done" }, "against 63 bins of 1000 ns" },
		{ 1000, 64, { "done", "hardirq" }, "stages done hardirq (the runs'" },
	};
	g_autofree char *dir = tu_make_dir();
	g_autofree char *a = g_build_filename(dir, "a.txt", NULL);
	g_autofree char *b = g_build_filename(dir, "b.txt", NULL);
	IrqstormHist *h[2] = { irqstorm_hist_new(1000, 64), irqstorm_hist_new(1000, 64) };
	const char *const names[2] = { "hardirq", "done" };
	g_autoptr(IrqstormHistfile) fa = NULL;

	irqstorm_hist_add(h[0], 1500);
	g_assert_true(irqstorm_write_histfile(a, h, names, 2, NULL));
	fa = irqstorm_histfile_load(a, NULL);
	g_assert_nonnull(fa);
	for (gsize i = 0; i < G_N_ELEMENTS(other); i++) {
		IrqstormHist *o[2] = { irqstorm_hist_new(other[i].bin_ns, other[i].nbins),
				       irqstorm_hist_new(other[i].bin_ns, other[i].nbins) };
		g_autoptr(IrqstormHistfile) fb = NULL;
		g_autoptr(GError) err = NULL;

		g_assert_true(irqstorm_write_histfile(b, o, other[i].names, 2, NULL));
		fb = irqstorm_histfile_load(b, NULL);
		g_assert_false(irqstorm_histfile_add(fa, fb, &err));
		if (!strstr(err->message, other[i].message) || !strstr(err->message, a))
			g_error("case %zu: '%s' lacks '%s'", i, err->message, other[i].message);
		irqstorm_hist_free(o[0]);
		irqstorm_hist_free(o[1]);
	}
	g_assert_cmpuint(irqstorm_hist_count(fa->hists->pdata[0]), ==, 1);
	tu_write(b, "# Bin width is 1 us\n# Stages: a\n000000 000001\n");
	{
		g_autoptr(GError) err = NULL;

		g_assert_null(irqstorm_histfile_load(b, &err));
		g_assert_nonnull(strstr(err->message, "b.txt:4: no \"# Histogram Overflows:\""));
	}
	tu_write(b, "# Bin width is 1 us\n# Stages: a\n000000 000001 7\n");
	{
		g_autoptr(GError) err = NULL;

		g_assert_null(irqstorm_histfile_load(b, &err));
		g_assert_nonnull(strstr(err->message, "b.txt:3: a row without a count per stage"));
	}
	irqstorm_hist_free(h[0]);
	irqstorm_hist_free(h[1]);
	tu_rmtree(dir);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/hist/empty", test_empty);
	g_test_add_func("/hist/bins-and-overflows", test_bins_and_overflows);
	g_test_add_func("/hist/nearest-rank-decimal", test_nearest_rank_decimal);
	g_test_add_func("/hist/within-a-bin", test_within_a_bin);
	g_test_add_func("/hist/known-records", test_known_records);
	g_test_add_func("/hist/exact-stats", test_exact_stats);
	g_test_add_func("/hist/percentile-random", test_percentile_random);
	g_test_add_func("/hist/file-sum", test_histfile_sum);
	g_test_add_func("/hist/file-refused", test_histfile_refused);
	return g_test_run();
}
