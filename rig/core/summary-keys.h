/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names a run's results are written with and read back by, in one
 * place: the writer (summary-write.c, output.c, marker.c), the reader
 * (summary.c) and [thresholds] (scenario.c) take them from here.
 */
#ifndef IRQSTORM_SUMMARY_KEYS_H
#define IRQSTORM_SUMMARY_KEYS_H

#include <glib.h>

#include "hist.h"

G_BEGIN_DECLS

/* The run files themselves are named in runfiles.h. */

/* summary.json's "format": what the file is, so that its "file_version"
 * is not taken for rt-tests' (rt-tests.json is the rt-tests file). */
#define IRQSTORM_KEY_FORMAT		"format"
#define IRQSTORM_SUMMARY_FORMAT		"irqstorm-summary"

/* Members of summary.json that the reader uses too. */
#define IRQSTORM_KEY_COMPLETE		"complete"
#define IRQSTORM_KEY_INCOMPLETE_REASON	"incomplete_reason"
#define IRQSTORM_KEY_RETURN_CODE	"return_code"	/* the run's exit status */
#define IRQSTORM_KEY_FAILED_CHECKS	"failed_checks"
/* why the kernel failed the run (kreports.h, checks.h) */
#define IRQSTORM_KEY_KERNEL_FAILURES	"kernel_failures"
#define IRQSTORM_KEY_STALLS		"stalls"	/* why the guest stalled */
#define IRQSTORM_KEY_COUNTS		"counts"
#define IRQSTORM_KEY_GUEST		"guest"		/* counts.guest: its result line */
#define IRQSTORM_KEY_HOST		"host"		/* counts.host: what the rig read */
#define IRQSTORM_KEY_ALL_RECORDS	"all_records"	/* counts.host: every record */
#define IRQSTORM_KEY_STAGES		"stages"
/* channels.<N>: each active channel's settings, counts and stages */
#define IRQSTORM_KEY_CHANNELS		"channels"
#define IRQSTORM_KEY_CHANNEL_NAME	"name"		/* [channelN] name, if any */
#define IRQSTORM_KEY_CYCLES		"cycles"	/* a stage's count of samples */
#define IRQSTORM_KEY_BIN_NS		"bin_ns"	/* a stage's histogram bin width */
/* a stage's percentiles are its samples' (true), or bins' edges (false or,
 * in files written before they were exact, absent) */
#define IRQSTORM_KEY_PERCENTILES_EXACT	"percentiles_exact"

/* The statistics of a stage, in the order the compare table shows them. */
typedef enum {
	IRQSTORM_STAT_MIN,
	IRQSTORM_STAT_P50,
	IRQSTORM_STAT_P90,
	IRQSTORM_STAT_P99,
	IRQSTORM_STAT_P99_9,
	IRQSTORM_STAT_P99_99,
	IRQSTORM_STAT_MAX,
	IRQSTORM_STAT_AVG,
	IRQSTORM_STAT_COUNT
} IrqstormStat;

/* Its member name in a stage object, and in [thresholds] ("p99_9"). */
const char *irqstorm_stat_key(IrqstormStat s);

/* Its name in tables ("p99.9"). */
const char *irqstorm_stat_title(IrqstormStat s);

/* The percentile it is (99.9), or 0 when it is none. */
double irqstorm_stat_percentile(IrqstormStat s);

/* Whether a [thresholds] key may bound it (max, p99, p99_9, avg). */
gboolean irqstorm_stat_boundable(IrqstormStat s);

/* Its value in ns from a histogram with samples: min, max and the
 * percentiles as hist.h computes them, the average truncated. */
guint64 irqstorm_stat_value(const IrqstormHist *h, IrqstormStat s);

G_END_DECLS

#endif /* IRQSTORM_SUMMARY_KEYS_H */
