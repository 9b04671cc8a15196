/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result writers: cyclictest-compatible histogram files, raw CSV of the
 * records, and the JSON summary.
 */
#ifndef IRQSTORM_RIG_OUTPUT_H
#define IRQSTORM_RIG_OUTPUT_H

#include <stdio.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "irqstorm/abi.h"
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

/*
 * Raw CSV, one line per record:
 * seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced,work,
 * cpu_hardirq,cpu_thread,cpu_done
 * flags is decimal; a stamp (and its cpu) whose flag is clear is an empty
 * field. Probe records are among them, channel IRQSTORM_PROBE_CHANNEL and
 * flags with IRQSTORM_REC_PROBE.
 * Both return FALSE, with errno set by stdio, when writing fails.
 */
gboolean irqstorm_write_csv_header(FILE *f);
gboolean irqstorm_write_csv_record(FILE *f, const struct irqstorm_record *r);

/*
 * JSON object summarizing one stage, all values in ns:
 * { "cycles", "min", "avg", "max", "p50", "p90", "p99", "p99_9", "p99_99",
 *   "overflows", "bin_ns", "histogram": { "<bin lower edge>": count, ... } }
 * The histogram lists non-zero bins only; overflowed samples are counted in
 * "overflows" alone. With no samples, min/avg/max and the percentiles are
 * null. Percentiles follow irqstorm_hist_percentile().
 */
JsonNode *irqstorm_summary_stage_json(const IrqstormHist *h);

/* Write root pretty-printed to path, atomically (temporary + rename). */
gboolean irqstorm_write_json_file(const char *path, JsonNode *root,
				  GError **error);

G_END_DECLS

#endif /* IRQSTORM_RIG_OUTPUT_H */
