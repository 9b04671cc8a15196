/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's histogram file (histogram.txt, histogram-chN.txt), written in
 * cyclictest's --histfile layout, read back, and several added up: the distribution of a seed
 * sweep, each bin the sum of the runs' bins. The reader takes what the
 * writer writes: "# Bin width is W us", "# Stages: A B ...", a row per
 * bin (its lower edge, then a count per stage), and the footers
 * "# Histogram Overflows:" and "# Exact min/avg/max (us):". The sum is
 * exact in its bins, count, overflows, min and max (hist.h's
 * irqstorm_hist_add_counts() for the mean and the percentiles).
 */
#ifndef IRQSTORM_HISTFILE_H
#define IRQSTORM_HISTFILE_H

#include <glib.h>

#include "hist.h"

G_BEGIN_DECLS

/*
 * Write hists[0..n) as one cyclictest --histfile, in the layout of rt-tests
 * up to 2.6 (Debian 12's 2.4): comment lines ("# Histogram", what the file
 * is, "# Time unit is microseconds", the bin width, "# Stages: <names>"),
 * one line per bin, empty bins too ("%06d " bin value, then the
 * tab-separated "%06lu" count of each stage), then cyclictest's footer:
 * "# Total:" (in-range samples, like cyclictest), "# Min Latencies:",
 * "# Avg Latencies:", "# Max Latencies:" (whole us, truncated like
 * cyclictest's), "# Histogram Overflows:"; then the exact min, avg and max
 * of each stage in us with three decimals ("# Exact max (us): 27.616 -",
 * "-" for a stage without samples). The unit is always microseconds: the
 * bin value is the bin's lower edge, in whole us when bin_ns is a multiple
 * of 1000, else with three decimals ("000000.250"). All hists must have
 * the same bin_ns and nbins; names must be non-empty and free of
 * whitespace (else G_FILE_ERROR_INVAL).
 *
 * The file is written to a temporary in the same directory and renamed over
 * path on success, so path is always either absent, old or complete.
 */
gboolean irqstorm_write_histfile(const char *path, IrqstormHist *const *hists,
				 const char *const *names, guint n,
				 GError **error);

typedef struct {
	char *path;		/* the first file read, for messages */
	guint files;		/* how many were added up */
	guint64 bin_ns;
	guint nbins;
	char **names;		/* the stages, in the file's order (GStrv) */
	GPtrArray *hists;	/* an IrqstormHist per stage */
} IrqstormHistfile;

/* Read a histogram file; an error names the file and the line. */
IrqstormHistfile *irqstorm_histfile_load(const char *path, GError **error);

void irqstorm_histfile_free(IrqstormHistfile *f);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormHistfile, irqstorm_histfile_free)

/*
 * Add from to into, bin by bin and stage by stage. Both must have the
 * same bin width, number of bins and stages (in the same order): else an
 * error that names both files and what differs, and into is unchanged.
 */
gboolean irqstorm_histfile_add(IrqstormHistfile *into, const IrqstormHistfile *from,
			       GError **error);

G_END_DECLS

#endif /* IRQSTORM_HISTFILE_H */
