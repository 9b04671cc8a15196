// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Exact latency histogram for one stage: see hist.h for the bin layout and
 * the percentile definition.
 */
#include "hist.h"

#include <stdlib.h>
#include <string.h>

/* p is quantized to 1 / IRQSTORM_HIST_P_SCALE of a percent. */
#define IRQSTORM_HIST_P_SCALE	10000u

struct IrqstormHist {
	guint64 bin_ns;
	guint nbins;
	guint64 *bins;
	guint64 count;
	guint64 overflows;
	guint64 min;
	guint64 max;
	unsigned __int128 sum;
	/* Every in-range sample, in arrival order: guint32 when the bins end
	 * below 2^32 ns (4.3 s: always, in practice), else guint64. */
	GArray *values;
	GArray *overflow_values;	/* guint64, in arrival order */
	guint64 unknown_in_bins;	/* counted, values not kept (add_counts) */
	guint64 unknown_overflows;	/* the same, past the last bin */
};

/* Allocate an empty histogram of nbins bins, each bin_ns wide. */
IrqstormHist *irqstorm_hist_new(guint64 bin_ns, guint nbins)
{
	IrqstormHist *h;

	g_return_val_if_fail(bin_ns > 0, NULL);
	g_return_val_if_fail(nbins > 0, NULL);
	/* Every bin edge, up to nbins * bin_ns, must fit in 64 bits. */
	g_return_val_if_fail(nbins <= G_MAXUINT64 / bin_ns, NULL);

	h = g_new0(IrqstormHist, 1);
	h->bin_ns = bin_ns;
	h->nbins = nbins;
	h->bins = g_new0(guint64, nbins);
	h->values = g_array_new(FALSE, FALSE, (guint64)nbins * bin_ns <= G_MAXUINT32 ?
				sizeof(guint32) : sizeof(guint64));
	h->overflow_values = g_array_new(FALSE, FALSE, sizeof(guint64));
	return h;
}

/* Free a histogram; NULL is accepted. */
void irqstorm_hist_free(IrqstormHist *h)
{
	if (!h)
		return;
	g_array_unref(h->values);
	g_array_unref(h->overflow_values);
	g_free(h->bins);
	g_free(h);
}

/* Account one sample of ns nanoseconds. */
void irqstorm_hist_add(IrqstormHist *h, guint64 ns)
{
	guint64 idx = ns / h->bin_ns;

	if (idx < h->nbins) {
		h->bins[idx]++;
		if (g_array_get_element_size(h->values) == sizeof(guint32)) {
			guint32 v = (guint32)ns;

			g_array_append_val(h->values, v);
		} else {
			g_array_append_val(h->values, ns);
		}
	} else {
		h->overflows++;
		g_array_append_val(h->overflow_values, ns);
	}
	if (h->count == 0 || ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
	h->sum += ns;
	h->count++;
}

/* Width of one bin in ns. */
guint64 irqstorm_hist_bin_ns(const IrqstormHist *h)
{
	return h->bin_ns;
}

/* Number of bins, not counting the overflow. */
guint irqstorm_hist_nbins(const IrqstormHist *h)
{
	return h->nbins;
}

/* Samples in bin i; 0 for i out of range. */
guint64 irqstorm_hist_bin_count(const IrqstormHist *h, guint i)
{
	g_return_val_if_fail(i < h->nbins, 0);
	return h->bins[i];
}

/* All samples, in range or not. */
guint64 irqstorm_hist_count(const IrqstormHist *h)
{
	return h->count;
}

/* Samples >= nbins * bin_ns. */
guint64 irqstorm_hist_overflows(const IrqstormHist *h)
{
	return h->overflows;
}

/* Exact smallest sample; 0 when empty. */
guint64 irqstorm_hist_min(const IrqstormHist *h)
{
	return h->min;
}

/* Exact largest sample; 0 when empty. */
guint64 irqstorm_hist_max(const IrqstormHist *h)
{
	return h->max;
}

/* Mean of the samples, from the exact 128-bit sum; 0 when empty. */
double irqstorm_hist_avg(const IrqstormHist *h)
{
	if (h->count == 0)
		return 0.0;
	return (double)((long double)h->sum / (long double)h->count);
}

/* Mean of the samples rounded down to a whole ns, exactly; 0 when empty. */
guint64 irqstorm_hist_avg_floor(const IrqstormHist *h)
{
	if (h->count == 0)
		return 0;
	return (guint64)(h->sum / h->count);
}

/* qsort comparator for guint64. */
static int cmp_u64(const void *a, const void *b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return (x > y) - (x < y);
}

/* 1-based nearest rank of percentile p among n samples (n > 0). */
static guint64 nearest_rank(guint64 n, double p)
{
	const guint64 scale = 100u * IRQSTORM_HIST_P_SCALE;
	guint64 pq;
	unsigned __int128 k;

	if (!(p > 0.0))		/* also catches NaN */
		return 1;
	if (p >= 100.0)
		return n;
	pq = (guint64)(p * IRQSTORM_HIST_P_SCALE + 0.5);	/* 0 < p < 100 */
	k = ((unsigned __int128)pq * n + scale - 1) / scale;
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return (guint64)k;
}

/* The m-th smallest (1-based) of the kept in-range samples in
 * [lo, hi), of which there are n. */
static guint64 nth_in_range(const IrqstormHist *h, guint64 lo, guint64 hi,
			    guint64 n, guint64 m)
{
	g_autofree guint64 *in = g_new(guint64, n);
	gboolean narrow = g_array_get_element_size(h->values) == sizeof(guint32);
	guint64 got = 0;

	for (guint i = 0; i < h->values->len && got < n; i++) {
		guint64 v = narrow ? g_array_index(h->values, guint32, i) :
				     g_array_index(h->values, guint64, i);

		if (v >= lo && v < hi)
			in[got++] = v;
	}
	g_assert(got == n);
	qsort(in, n, sizeof(*in), cmp_u64);
	return in[m - 1];
}

/* The m-th smallest (1-based) of the kept overflows. */
static guint64 nth_overflow(const IrqstormHist *h, guint64 m)
{
	g_autofree guint64 *sorted = g_new(guint64, h->overflow_values->len);

	g_assert(m <= h->overflow_values->len);
	memcpy(sorted, h->overflow_values->data,
	       (gsize)h->overflow_values->len * sizeof(guint64));
	qsort(sorted, h->overflow_values->len, sizeof(guint64), cmp_u64);
	return sorted[m - 1];
}

/* Nearest-rank percentile p (percent); see hist.h for the exact contract. */
guint64 irqstorm_hist_percentile(const IrqstormHist *h, double p)
{
	guint64 k, seen = 0;
	guint i;

	if (h->count == 0)
		return 0;
	k = nearest_rank(h->count, p);
	if (k == h->count)
		return h->max;
	for (i = 0; i < h->nbins; i++) {
		if (seen + h->bins[i] >= k) {
			guint64 lo = (guint64)i * h->bin_ns;

			/* The samples of the bin are kept: the k-th exactly. */
			if (!h->unknown_in_bins)
				return nth_in_range(h, lo, lo + h->bin_ns, h->bins[i],
						    k - seen);
			return MIN(lo + h->bin_ns, h->max);
		}
		seen += h->bins[i];
	}
	/* The k-th sample is an overflow: report it exactly, if it was kept. */
	if (h->unknown_overflows)
		return h->max;
	return nth_overflow(h, k - seen);
}

/* Add the counts a histogram file keeps; see hist.h. */
void irqstorm_hist_add_counts(IrqstormHist *h, const IrqstormHistCounts *c)
{
	guint64 n = c->overflows;

	for (guint i = 0; i < h->nbins; i++) {
		h->bins[i] += c->bins[i];
		n += c->bins[i];
	}
	if (!n)
		return;
	if (h->count == 0 || c->min < h->min)
		h->min = c->min;
	if (c->max > h->max)
		h->max = c->max;
	h->overflows += c->overflows;
	h->unknown_in_bins += n - c->overflows;
	h->unknown_overflows += c->overflows;
	h->sum += (unsigned __int128)c->avg_floor * n;
	h->count += n;
}

/* Is percentile p exact, or an upper bound (a bin's edge, or the max
 * among overflows) where a histogram file kept no values? */
gboolean irqstorm_hist_percentile_exact(const IrqstormHist *h, double p)
{
	guint64 k, in_bins;

	if (h->count == 0)
		return TRUE;
	k = nearest_rank(h->count, p);
	in_bins = h->count - h->overflows;
	if (k == h->count)
		return TRUE;
	return k <= in_bins ? !h->unknown_in_bins : !h->unknown_overflows;
}

/* Every sample added with its value (none through add_counts)? */
gboolean irqstorm_hist_values_kept(const IrqstormHist *h)
{
	return !h->unknown_in_bins && !h->unknown_overflows;
}
