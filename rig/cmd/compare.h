/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm compare: finished runs side by side, stage by stage. The table
 * and its JSON twin are built from parsed summaries, so that they can be
 * tested without runs; irqstorm_cmd_compare() (cmd.h) is the command.
 */
#ifndef IRQSTORM_COMPARE_H
#define IRQSTORM_COMPARE_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "core/summary.h"

G_BEGIN_DECLS

typedef enum {
	IRQSTORM_UNIT_US,
	IRQSTORM_UNIT_NS,
} IrqstormUnit;

/*
 * A block of the table: one stage of one channel (channels of
 * irqstorm_summaries_channels(); IRQSTORM_CHANNELS_POOLED: the pooled
 * stages, or the run's probe), titled with the channel when the table is
 * per channel.
 */
typedef struct {
	int channel;
	char *stage;
	char *title;		/* "channel 0 (critical)"; NULL: none */
} CompareBlock;

/*
 * The blocks, in order: per channel (each in channels), its stages (the
 * given ones, or every stage of that channel in any run); the probe, the
 * run's and not a channel's, once at the end. Runs of one channel: the
 * pooled stages, untitled, as before channels had their own.
 */
GPtrArray *irqstorm_compare_blocks(IrqstormSummary *const *runs, guint n,
				   const char *const *stages, const GArray *channels);

/*
 * The table: for each block (irqstorm_compare_blocks()), titled with its
 * channel when there are several ("channel 0 (critical): done (us)"), and
 * for each of stages (NULL: every stage of any run, in order of
 * first appearance), a block with a title line ("hardirq (us)") and one row
 * per run: label (with " [INCOMPLETE]" or " [checks failed]"), cycles, min,
 * p50, p90, p99, p99.9, p99.99, max, and for every run after the first the
 * ratio of its p99 and max to the first run's ("x1.83"). Values are "%.3f"
 * in us (exact to the ns) or integers in ns; "-" where the run has no
 * sample of the stage (or no such stage at all: then cycles is "-" too).
 * After the blocks, warnings ("warning: ..."): runs whose histograms have
 * different bin_ns, and for each stage the runs whose median lies in the
 * first bin (percentiles there are that bin's edge clamped to the max),
 * with the [run] bin_ns that would resolve it; then one line per
 * incomplete run or run with failed checks says why.
 */
GString *irqstorm_compare_table(IrqstormSummary *const *runs, guint n,
				const char *const *stages, const GArray *channels,
				IrqstormUnit unit, gboolean diff);

/*
 * The same as JSON:
 * { "unit": "us", "reference": "<first label>",
 *   "runs": [ { "label", "dir", "complete", "incomplete_reason",
 *               "return_code", "failed_checks" } ],
 *   "warnings": [ the table's warnings, as strings ],
 *   "stages": [ { "name", "channel" (null: pooled), "channel_title",
 *                 "rows": [ { "label", "present", "cycles", "min",
 *       "p50", "p90", "p99", "p99_9", "p99_99", "max", "p99_ratio",
 *       "max_ratio" } ] } ] }
 * Values in the unit (us as numbers with ns precision, ns as integers),
 * null where the table shows "-"; the ratios are null for the first run.
 */
JsonNode *irqstorm_compare_json(IrqstormSummary *const *runs, guint n,
				const char *const *stages, const GArray *channels,
				IrqstormUnit unit);

G_END_DECLS

#endif /* IRQSTORM_COMPARE_H */
