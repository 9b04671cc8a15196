/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's histogram file (histogram.txt, histogram-chN.txt: output.h's
 * histfile) read back, and several added up: the distribution of a seed
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
