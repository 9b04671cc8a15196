/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Result writers: rt-tests.json (cyclictest --json's layout) and the JSON
 * summary's statistics; histogram files are histfile.h's, records.csv
 * records.h's.
 */
#ifndef IRQSTORM_RIG_OUTPUT_H
#define IRQSTORM_RIG_OUTPUT_H

#include <stdio.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "irqstorm/abi.h"
#include "hist.h"

G_BEGIN_DECLS


/* The rt-tests release whose cyclictest --json layout rt-tests.json has. */
#define IRQSTORM_RT_TESTS_LAYOUT	"2.40"

/*
 * What rt-tests.json says besides the stages, in rt-tests' terms: the
 * command line, the start and end (written as rt-tests does, "Thu, 03 Dec
 * 2026 20:21:43 +0000"), the exit status, and the measured system (the
 * guest): uname's fields and whether its kernel is PREEMPT_RT; cpu, the CPU
 * the stages ran on (-1: several).
 */
typedef struct {
	const char *cmdline;
	GDateTime *start, *end;
	int return_code;
	const char *sysname, *nodename, *release, *version, *machine;
	gboolean realtime;
	int cpu;
} IrqstormRtTestsInfo;

/*
 * hists[0..n) as rt-tests' JSON, byte for byte the layout of cyclictest
 * --json (rt-tests 2.4): "file_version", "cmdline:", "rt_test_version:",
 * "start_time", "end_time", "return_code", "sysinfo", "num_threads" (n),
 * "resolution_in_ns" (0: values in us), and "thread", keyed "0".."n-1" in
 * the order of hists, each { "histogram": { "<us>": count }, "cycles",
 * "min", "max" (whole us, truncated as cyclictest's), "avg" (us, two
 * decimals), "cpu", "node", and "name" (names[i], irqstorm's own member) }.
 * The histogram has 1 us buckets keyed by whole us, like cyclictest's:
 * each bin counts in the bucket of its lower edge (exact when bin_ns is a
 * multiple of 1000 or divides it), overflows in none. A stage without
 * samples has cycles 0 and min, max and avg 0.
 */
char *irqstorm_rt_tests_json(IrqstormHist *const *hists, const char *const *names,
			     guint n, const IrqstormRtTestsInfo *info);

/* Write it to path, atomically (temporary + rename). */
gboolean irqstorm_write_rt_tests_json(const char *path, IrqstormHist *const *hists,
				      const char *const *names, guint n,
				      const IrqstormRtTestsInfo *info, GError **error);

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
