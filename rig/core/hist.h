/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Exact latency histogram for one stage.
 *
 * Bin i counts the samples v with i * bin_ns <= v < (i + 1) * bin_ns, for
 * 0 <= i < nbins. Samples >= nbins * bin_ns are overflows. Every sample is
 * also kept (4 bytes each in the bins' range, 8 past it), so that every
 * percentile is exact, not a bin's edge. count, min, max and the sum
 * (128-bit, so it cannot wrap) are exact as well.
 */
#ifndef IRQSTORM_RIG_HIST_H
#define IRQSTORM_RIG_HIST_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct IrqstormHist IrqstormHist;

IrqstormHist *irqstorm_hist_new(guint64 bin_ns, guint nbins);
void irqstorm_hist_free(IrqstormHist *h);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormHist, irqstorm_hist_free)

void irqstorm_hist_add(IrqstormHist *h, guint64 ns);

guint64 irqstorm_hist_bin_ns(const IrqstormHist *h);
guint irqstorm_hist_nbins(const IrqstormHist *h);
guint64 irqstorm_hist_bin_count(const IrqstormHist *h, guint i);

guint64 irqstorm_hist_count(const IrqstormHist *h);
guint64 irqstorm_hist_overflows(const IrqstormHist *h);
guint64 irqstorm_hist_min(const IrqstormHist *h);
guint64 irqstorm_hist_max(const IrqstormHist *h);
double irqstorm_hist_avg(const IrqstormHist *h);
guint64 irqstorm_hist_avg_floor(const IrqstormHist *h);

/*
 * Nearest-rank percentile, p in percent (0..100; out-of-range p is clamped).
 * With N samples the rank is k = ceil(p / 100 * N), at least 1, where p is
 * first rounded to the nearest 0.0001 percent so that decimal inputs such as
 * 99.9 are not disturbed by binary rounding. The true value is the k-th
 * smallest sample v_k.
 *
 * The value returned is v_k itself, exactly, whenever the samples were
 * added one by one (irqstorm_hist_add). A histogram that was given counts
 * without their values (irqstorm_hist_add_counts: histogram files summed)
 * cannot: where v_k lies within the bins, the value returned is the
 * smallest bin upper edge (i + 1) * bin_ns such that at least p% of the
 * samples are <= it, clamped to the exact max (v_k <= result <= v_k +
 * bin_ns); where it is an overflow, the max. irqstorm_hist_percentile_exact()
 * tells those upper bounds. p = 100 is always the exact max. Returns 0 when
 * the histogram is empty.
 */
guint64 irqstorm_hist_percentile(const IrqstormHist *h, double p);

/*
 * What a histogram file keeps of a histogram (output.h's histfile), for
 * summing runs: the counts of its bins, how many samples overflowed (not
 * their values), the exact min and max, and the mean truncated to the ns.
 */
typedef struct {
	const guint64 *bins;	/* one count per bin of the histogram */
	guint64 overflows;
	guint64 min, max;	/* ignored when there is no sample */
	guint64 avg_floor;
} IrqstormHistCounts;

/*
 * Add c, a histogram of h's bins, to h: bin by bin and its overflows, its
 * min and max; its sum as avg_floor * its count, so that the mean of a sum
 * of such histograms is less than 1 ns below the exact one. Its samples'
 * values are not known: percentiles become upper bounds, within one bin
 * where the rank falls in the bins, the max among overflows
 * (irqstorm_hist_percentile_exact() says which).
 */
void irqstorm_hist_add_counts(IrqstormHist *h, const IrqstormHistCounts *c);

/* Is irqstorm_hist_percentile(h, p) the exact k-th sample, or an upper
 * bound (a bin's edge, or the max) where values were not kept? */
gboolean irqstorm_hist_percentile_exact(const IrqstormHist *h, double p);

/* Are all its percentiles exact: was every sample added with its value? */
gboolean irqstorm_hist_values_kept(const IrqstormHist *h);

G_END_DECLS

#endif /* IRQSTORM_RIG_HIST_H */
