// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/hist.c: exact counters, bin edges, overflows, and the
 * percentile contract checked against brute force on sorted random data.
 */
#include <stdlib.h>

#include <glib.h>

#include "core/hist.h"

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

	/* Ranks 5 and 6 are the overflows: exact. Rank 4 is bin 3's edge. */
	g_assert_cmpuint(irqstorm_hist_percentile(h, 100), ==, 123456789);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 5.0 / 6 * 100), ==, 4000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 4.0 / 6 * 100 - 0.01), ==, 4000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 2000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 0), ==, 1000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, -5), ==, 1000);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 250), ==, 123456789);
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

/* The percentile is capped at the exact max. */
static void test_clamped_to_max(void)
{
	g_autoptr(IrqstormHist) h = irqstorm_hist_new(1000, 100);

	irqstorm_hist_add(h, 1234);
	irqstorm_hist_add(h, 1500);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 50), ==, 1500);
	g_assert_cmpuint(irqstorm_hist_percentile(h, 100), ==, 1500);
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

		if (got < want || got - want > bin_ns)
			g_error("n=%u p=%.4f: got %" G_GUINT64_FORMAT
				", true nearest-rank value %" G_GUINT64_FORMAT
				", bin %" G_GUINT64_FORMAT,
				n, p, got, want, bin_ns);
		if (want >= range)
			g_assert_cmpuint(got, ==, want);
		else
			g_assert_cmpuint(got, ==, MIN((want / bin_ns + 1) * bin_ns,
						      v[n - 1]));
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
int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/hist/empty", test_empty);
	g_test_add_func("/hist/bins-and-overflows", test_bins_and_overflows);
	g_test_add_func("/hist/nearest-rank-decimal", test_nearest_rank_decimal);
	g_test_add_func("/hist/clamped-to-max", test_clamped_to_max);
	g_test_add_func("/hist/exact-stats", test_exact_stats);
	g_test_add_func("/hist/percentile-random", test_percentile_random);
	return g_test_run();
}
