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
 * Write hists[0..n) as one cyclictest --histfile: a "# Histogram" line, a
 * few more comment lines (time unit, bin width, "# Stages: <names>"), one
 * line per bin ("%06d " bin value, then the tab-separated "%06lu" count of
 * each stage), then cyclictest's footer: "# Total:" (in-range samples, like
 * cyclictest), "# Min Latencies:", "# Avg Latencies:", "# Max Latencies:",
 * "# Histogram Overflows:". The unit is microseconds when bin_ns is a
 * multiple of 1000, else nanoseconds; the bin value is the bin's lower edge
 * and min/avg/max are truncated to that unit. All hists must have the same
 * bin_ns and nbins; names must be non-empty and free of whitespace (else
 * G_FILE_ERROR_INVAL).
 *
 * The file is written to a temporary in the same directory and renamed over
 * path on success, so path is always either absent, old or complete.
 */
gboolean irqstorm_write_histfile(const char *path, IrqstormHist *const *hists,
				 const char *const *names, guint n,
				 GError **error);

/*
 * Raw CSV, one line per record:
 * seq,channel,flags,t_raise,t_hardirq,t_thread,t_done,coalesced
 * flags is decimal; a stamp whose flag is clear is an empty field.
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
