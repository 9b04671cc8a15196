// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm compare: see compare.h.
 */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "compare-gate.h"
#include "core/json-build.h"

/* The statistics shown, in column order. */
static const IrqstormStat shown[] = {
	IRQSTORM_STAT_MIN, IRQSTORM_STAT_P50, IRQSTORM_STAT_P90,
	IRQSTORM_STAT_P99, IRQSTORM_STAT_P99_9, IRQSTORM_STAT_P99_99,
	IRQSTORM_STAT_MAX,
};

static const char *unit_name(IrqstormUnit unit)
{
	return unit == IRQSTORM_UNIT_NS ? "ns" : "us";
}

/* The stage of run r, or NULL; and its value of s, NAN when absent. */
static double stat_of(const IrqstormStageStats *st, IrqstormStat s)
{
	return st && st->cycles > 0 ? st->v[s] : NAN;
}

/* v / ref, or NAN when either is missing or ref is not positive. */
static double ratio(double v, double ref)
{
	if (isnan(v) || isnan(ref) || ref <= 0)
		return NAN;
	return v / ref;
}

static char *fmt_value(double ns, IrqstormUnit unit)
{
	if (isnan(ns))
		return g_strdup("-");
	if (unit == IRQSTORM_UNIT_NS)
		return g_strdup_printf("%.0f", ns);
	return g_strdup_printf("%.3f", ns / 1e3);
}

/* v - ref with its sign ("+2.500", "-0.016", "0"), "-" when one is missing. */
static char *fmt_diff(double v, double ref, IrqstormUnit unit)
{
	double d = v - ref;

	if (isnan(d))
		return g_strdup("-");
	if (d == 0)
		return g_strdup("0");
	if (unit == IRQSTORM_UNIT_NS)
		return g_strdup_printf("%+.0f", d);
	return g_strdup_printf("%+.3f", d / 1e3);
}

static char *fmt_ratio(double r)
{
	return isnan(r) ? g_strdup("-") : g_strdup_printf("x%.2f", r);
}

/* The label with its marks: what the reader must not miss. */
static char *row_label(const IrqstormSummary *run)
{
	return g_strdup_printf("%s%s%s", run->label,
			       run->complete ? "" : " [INCOMPLETE]",
			       run->failed_checks ? " [checks failed]" : "");
}

/* Stage names to show: the given ones, or every stage of any run. */
static GPtrArray *stage_list(IrqstormSummary *const *runs, guint n,
			     const char *const *stages)
{
	GPtrArray *names;

	if (!stages)
		return irqstorm_summaries_stage_names(runs, n);
	names = g_ptr_array_new_with_free_func(g_free);
	for (gsize i = 0; stages[i]; i++)
		g_ptr_array_add(names, g_strdup(stages[i]));
	return names;
}

static void block_free(gpointer p)
{
	CompareBlock *b = p;

	g_free(b->stage);
	g_free(b->title);
	g_free(b);
}

static void add_block(GPtrArray *blocks, IrqstormSummary *const *runs, guint n,
		      int channel, const char *stage, gboolean split)
{
	CompareBlock *b = g_new0(CompareBlock, 1);

	b->channel = channel;
	b->stage = g_strdup(stage);
	if (split && channel != IRQSTORM_CHANNELS_POOLED)
		b->title = irqstorm_summaries_channel_title(runs, n, channel);
	else if (split && strcmp(stage, irqstorm_stage_name(IRQSTORM_STAGE_PROBE)))
		b->title = g_strdup("all channels, pooled");
	g_ptr_array_add(blocks, b);
}

GPtrArray *irqstorm_compare_blocks(IrqstormSummary *const *runs, guint n,
				   const char *const *stages, const GArray *channels)
{
	const char *probe = irqstorm_stage_name(IRQSTORM_STAGE_PROBE);
	g_autoptr(GPtrArray) names = stage_list(runs, n, stages);
	GPtrArray *blocks = g_ptr_array_new_with_free_func(block_free);
	gboolean split = irqstorm_channels_split(channels);
	gboolean probe_shown = FALSE;

	for (guint k = 0; k < channels->len; k++) {
		int c = g_array_index(channels, int, k);
		g_autoptr(GPtrArray) own = stages ? NULL :
			irqstorm_summaries_channel_stage_names(runs, n, c);
		GPtrArray *list = own ? own : names;

		for (guint s = 0; s < list->len; s++) {
			const char *stage = list->pdata[s];
			gboolean is_probe = !strcmp(stage, probe);

			/* The probe is the run's: one block, whatever the channels. */
			if (split && is_probe)
				continue;
			probe_shown |= is_probe;
			add_block(blocks, runs, n, c, stage, split);
		}
	}
	if (split && !probe_shown && g_ptr_array_find_with_equal_func(names, probe, g_str_equal, NULL))
		add_block(blocks, runs, n, IRQSTORM_CHANNELS_POOLED, probe, split);
	return blocks;
}

/* A row of cells: a NULL-terminated array of strings (a GStrv). */
static void cell(GPtrArray *row, char *text)
{
	g_ptr_array_add(row, text);
}

static char **row_end(GPtrArray *row)
{
	g_ptr_array_add(row, NULL);
	return (char **)g_ptr_array_free(row, FALSE);
}

/*
 * The row of run i in a stage; with diff, a run after the first shows its
 * differences to the first's values.
 */
static char **table_row(IrqstormSummary *const *runs, guint n, guint i,
			const CompareBlock *blk, IrqstormUnit unit, gboolean diff)
{
	const IrqstormStageStats *st = irqstorm_summary_channel_stage(runs[i], blk->channel,
								      blk->stage);
	const IrqstormStageStats *ref = irqstorm_summary_channel_stage(runs[0], blk->channel,
								       blk->stage);
	GPtrArray *row = g_ptr_array_new();

	cell(row, row_label(runs[i]));
	cell(row, st ? g_strdup_printf("%" G_GUINT64_FORMAT, st->cycles) : g_strdup("-"));
	for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
		cell(row, diff && i ? fmt_diff(stat_of(st, shown[k]), stat_of(ref, shown[k]), unit) :
				      fmt_value(stat_of(st, shown[k]), unit));
	if (n > 1 && i == 0) {
		cell(row, g_strdup(""));
		cell(row, g_strdup(""));
	} else if (n > 1) {
		cell(row, fmt_ratio(ratio(stat_of(st, IRQSTORM_STAT_P99),
					  stat_of(ref, IRQSTORM_STAT_P99))));
		cell(row, fmt_ratio(ratio(stat_of(st, IRQSTORM_STAT_MAX),
					  stat_of(ref, IRQSTORM_STAT_MAX))));
	}
	return row_end(row);
}

static char **header_row(guint n)
{
	GPtrArray *row = g_ptr_array_new();

	cell(row, g_strdup("run"));
	cell(row, g_strdup("cycles"));
	for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
		cell(row, g_strdup(irqstorm_stat_title(shown[k])));
	if (n > 1) {
		cell(row, g_strdup("p99 ratio"));
		cell(row, g_strdup("max ratio"));
	}
	return row_end(row);
}

/* ---- warnings ---------------------------------------------------------- */

/* A run's histogram bin width: its stages' (they share one); 0 unknown. */
static guint64 run_bin_ns(const IrqstormSummary *run)
{
	for (guint i = 0; i < run->stages->len; i++) {
		const IrqstormStageStats *st = run->stages->pdata[i];

		if (st->bin_ns && !st->percentiles_exact)
			return st->bin_ns;
	}
	return 0;
}

/* Runs whose percentiles are bins' edges (summaries of an older irqstorm,
 * or sums of histogram files), of different bins: their percentiles, and
 * ratios, do not compare. Exact percentiles have no bins to differ. */
static char *bins_warning(IrqstormSummary *const *runs, guint n)
{
	g_autoptr(GString) s = g_string_new(NULL);
	guint64 first = 0;
	gboolean differ = FALSE;

	for (guint i = 0; i < n; i++) {
		guint64 b = run_bin_ns(runs[i]);

		if (!b)
			continue;
		differ = differ || (first && b != first);
		first = first ? first : b;
		g_string_append_printf(s, "%s%s %" G_GUINT64_FORMAT " ns", s->len ? ", " : "",
				       runs[i]->label, b);
	}
	if (!differ)
		return NULL;
	return g_strdup_printf("the runs have different histogram bins (%s): percentiles are "
			       "bin upper edges, so those of different runs, and their ratios, "
			       "differ by up to a bin of their own (min and max are exact)", s->str);
}

/*
 * A stage whose percentiles are bins' edges and whose median lies in the
 * first bin (a sub-microsecond stage at the default 1 us): its percentiles
 * there are the bin's upper edge clamped to the max (so p50 = p99 = max),
 * not measurements.
 */
static char *sub_bin_warning(IrqstormSummary *const *runs, guint n, const char *stage)
{
	g_autoptr(GString) who = g_string_new(NULL);
	IrqstormStat top = IRQSTORM_STAT_P50;
	guint64 bin = 0;

	for (guint i = 0; i < n; i++) {
		const IrqstormStageStats *st = irqstorm_summary_stage_sampled(runs[i], stage);

		if (!st || st->percentiles_exact || !st->bin_ns ||
		    st->v[IRQSTORM_STAT_P50] > (double)st->bin_ns)
			continue;
		for (IrqstormStat k = IRQSTORM_STAT_P50; k <= IRQSTORM_STAT_P99_99; k++)
			if (st->v[k] <= (double)st->bin_ns)
				top = MAX(top, k);
		bin = bin ? MIN(bin, st->bin_ns) : st->bin_ns;
		g_string_append_printf(who, "%s%s", who->len ? ", " : "", runs[i]->label);
	}
	if (!who->len)
		return NULL;
	return g_strdup_printf("%s: the median is within the first bin (%" G_GUINT64_FORMAT
			       " ns) in %s: p50%s%s there are that bin's upper edge clamped to "
			       "the max, not measurements (max is exact); for finer bins run with "
			       "--set run.bin_ns=%" G_GUINT64_FORMAT " ([run] bin_ns)", stage, bin,
			       who->str, top != IRQSTORM_STAT_P50 ? " to " : "",
			       top != IRQSTORM_STAT_P50 ? irqstorm_stat_title(top) : "",
			       MAX(bin / 10, 1));
}

/* What the reader must know before trusting the table. */
static GPtrArray *compare_warnings(IrqstormSummary *const *runs, guint n, GPtrArray *names)
{
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *m = bins_warning(runs, n);

	if (m)
		g_ptr_array_add(w, m);
	for (guint s = 0; s < names->len; s++)
		if ((m = sub_bin_warning(runs, n, names->pdata[s])))
			g_ptr_array_add(w, m);
	return w;
}

/*
 * Each run's kernel, when the runs' kernels differ: the comparison is of
 * them; and when every run was deterministic, that the differences are
 * exact (nothing else moves the numbers).
 */
static void append_kernels(GString *out, IrqstormSummary *const *runs, guint n)
{
	gboolean differ = FALSE, exact = TRUE;

	for (guint i = 0; i < n; i++) {
		differ |= g_strcmp0(runs[i]->kernel, runs[0]->kernel) != 0;
		exact &= runs[i]->deterministic;
	}
	if (!differ)
		return;
	g_string_append(out, "kernels:\n");
	for (guint i = 0; i < n; i++)
		g_string_append_printf(out, "  %s: %s\n", runs[i]->label,
				       runs[i]->kernel ? runs[i]->kernel : "not recorded");
	if (exact)
		g_string_append(out, "every run deterministic: the differences are exact, "
			"the kernels' (and the scenarios', if they differ), not noise\n");
}

/*
 * Runs on several vCPUs in windows of virtual time: exact, but a latency
 * across CPUs has the quantum's resolution. Each such run, once.
 */
static void append_quantum(GString *out, IrqstormSummary *const *runs, guint n)
{
	for (guint i = 0; i < n; i++) {
		if (runs[i]->cpus < 2 || runs[i]->quantum_ns <= 0)
			continue;
		g_string_append_printf(out, "%s: %" G_GINT64_FORMAT " vCPUs in windows of %"
				       G_GINT64_FORMAT " ns of virtual time: a latency on one "
				       "CPU is exact; one across CPUs (a wake-up or IPI sent "
				       "from another) is late by at most %" G_GINT64_FORMAT
				       " ns, its resolution\n", runs[i]->label, runs[i]->cpus,
				       runs[i]->quantum_ns, runs[i]->quantum_ns);
	}
}

/* Under the table: what the reader must know, and why runs are marked. */
static void append_notes(GString *out, IrqstormSummary *const *runs, guint n,
			 GPtrArray *names)
{
	g_autoptr(GPtrArray) warnings = compare_warnings(runs, n, names);

	for (guint i = 0; i < warnings->len; i++)
		g_string_append_printf(out, "%swarning: %s\n", i ? "" : "\n",
				       (char *)warnings->pdata[i]);
	if (n > 1)
		g_string_append_printf(out, "\nratios: p99 and max over those of the first run, %s\n",
				       runs[0]->label);
	append_kernels(out, runs, n);
	append_quantum(out, runs, n);
	for (guint i = 0; i < n; i++) {
		if (!runs[i]->complete)
			g_string_append_printf(out, "%s [INCOMPLETE]: %s: %s\n",
					       runs[i]->label, runs[i]->path,
					       runs[i]->incomplete_reason);
		if (runs[i]->failed_checks)
			g_string_append_printf(out, "%s [checks failed]: %u failed cross-check%s, "
					       "see failed_checks in %s\n", runs[i]->label,
					       runs[i]->failed_checks,
					       runs[i]->failed_checks == 1 ? "" : "s",
					       runs[i]->path);
	}
}

GString *irqstorm_compare_table(IrqstormSummary *const *runs, guint n,
				const char *const *stages, const GArray *channels,
				IrqstormUnit unit, gboolean diff)
{
	g_autoptr(GPtrArray) names = stage_list(runs, n, stages);
	g_autoptr(GPtrArray) blocks = irqstorm_compare_blocks(runs, n, stages, channels);
	g_autoptr(IrqstormTable) table = NULL;
	GString *out = g_string_new(NULL);
	char **head;

	g_return_val_if_fail(n > 0, out);

	/* Every row of every block in one table, so that all blocks share
	 * column widths; each block repeats the header. */
	head = header_row(n);
	table = irqstorm_table_new(g_strv_length(head));
	irqstorm_table_align_right(table, 1);
	irqstorm_table_add_row(table, head);
	for (guint b = 0; b < blocks->len; b++)
		for (guint i = 0; i < n; i++)
			irqstorm_table_add_row(table, table_row(runs, n, i, blocks->pdata[b],
								unit, diff));
	for (guint b = 0; b < blocks->len; b++) {
		const CompareBlock *blk = blocks->pdata[b];

		if (b)
			g_string_append_c(out, '\n');
		if (blk->title)
			g_string_append_printf(out, "%s: ", blk->title);
		g_string_append_printf(out, "%s (%s%s)\n", blk->stage, unit_name(unit),
				       diff && n > 1 ? "; after the first run: the difference to it" : "");
		irqstorm_table_render_row(table, 0, out);
		for (guint i = 0; i < n; i++)
			irqstorm_table_render_row(table, 1 + b * n + i, out);
	}
	append_notes(out, runs, n, names);
	return out;
}

/* A value in the unit: us with ns precision, or ns as an integer. */
static void add_value(JsonBuilder *b, const char *name, double ns, IrqstormUnit unit)
{
	if (unit == IRQSTORM_UNIT_NS)
		irqstorm_json_add_rounded(b, name, ns);
	else
		irqstorm_json_add_double(b, name, ns / 1e3);
}

static void add_run(JsonBuilder *b, const IrqstormSummary *run)
{
	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "label", run->label);
	irqstorm_json_add_string(b, "dir", run->dir);
	irqstorm_json_add_bool(b, "complete", run->complete);
	irqstorm_json_add_string(b, "incomplete_reason", run->incomplete_reason);
	irqstorm_json_add_int(b, "return_code", run->return_code);
	irqstorm_json_add_int(b, "failed_checks", run->failed_checks);
	irqstorm_json_add_string(b, "kernel", run->kernel);
	irqstorm_json_add_bool(b, "deterministic", run->deterministic);
	json_builder_end_object(b);
}

/* The row of run i in a stage: the table's row as numbers. */
static void add_row(JsonBuilder *b, IrqstormSummary *const *runs, guint i,
		    const CompareBlock *blk, IrqstormUnit unit)
{
	const IrqstormStageStats *st = irqstorm_summary_channel_stage(runs[i], blk->channel,
								      blk->stage);
	const IrqstormStageStats *ref = irqstorm_summary_channel_stage(runs[0], blk->channel,
								       blk->stage);

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "label", runs[i]->label);
	irqstorm_json_add_bool(b, "present", st != NULL);
	irqstorm_json_add_rounded(b, "cycles", st ? (double)st->cycles : NAN);
	for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
		add_value(b, irqstorm_stat_key(shown[k]), stat_of(st, shown[k]), unit);
	irqstorm_json_add_double(b, "p99_ratio", i == 0 ? NAN :
				 ratio(stat_of(st, IRQSTORM_STAT_P99),
				       stat_of(ref, IRQSTORM_STAT_P99)));
	irqstorm_json_add_double(b, "max_ratio", i == 0 ? NAN :
				 ratio(stat_of(st, IRQSTORM_STAT_MAX),
				       stat_of(ref, IRQSTORM_STAT_MAX)));
	if (i) {
		/* The exact differences to the first run (deterministic runs:
		 * what differs between them, nothing else). */
		json_builder_set_member_name(b, "diff");
		json_builder_begin_object(b);
		for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
			add_value(b, irqstorm_stat_key(shown[k]),
				  stat_of(st, shown[k]) - stat_of(ref, shown[k]), unit);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

JsonNode *irqstorm_compare_json(IrqstormSummary *const *runs, guint n,
				const char *const *stages, const GArray *channels,
				IrqstormUnit unit)
{
	g_autoptr(GPtrArray) names = stage_list(runs, n, stages);
	g_autoptr(GPtrArray) blocks = irqstorm_compare_blocks(runs, n, stages, channels);
	g_autoptr(GPtrArray) warnings = compare_warnings(runs, n, names);
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "unit", unit_name(unit));
	irqstorm_json_add_string(b, "reference", n ? runs[0]->label : "");
	json_builder_set_member_name(b, "runs");
	json_builder_begin_array(b);
	for (guint i = 0; i < n; i++)
		add_run(b, runs[i]);
	json_builder_end_array(b);
	irqstorm_json_add_strings(b, "warnings", warnings);
	json_builder_set_member_name(b, "stages");
	json_builder_begin_array(b);
	for (guint k = 0; k < blocks->len; k++) {
		const CompareBlock *blk = blocks->pdata[k];

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "name", blk->stage);
		json_builder_set_member_name(b, "channel");
		if (blk->channel == IRQSTORM_CHANNELS_POOLED)
			json_builder_add_null_value(b);
		else
			json_builder_add_int_value(b, blk->channel);
		irqstorm_json_add_string(b, "channel_title", blk->title);
		json_builder_set_member_name(b, "rows");
		json_builder_begin_array(b);
		for (guint i = 0; i < n; i++)
			add_row(b, runs, i, blk, unit);
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* ---- the command ------------------------------------------------------ */

static const char compare_description[] =
	"Reads DIR/summary.json of each run and prints, for each stage, one\n"
	"row per run: how many events had the stage (cycles), then min, the\n"
	"percentiles and max of their latency from the device's raise.\n"
	"\n"
	"How to read it:\n"
	"  p99      99% of the events were at most this slow; p99.9 and\n"
	"           p99.99 are the tail, max the single slowest event\n"
	"  ratios   each run's p99 and max over the first run's: put the\n"
	"           baseline first (x2.00 = twice as slow, x0.50 = half)\n"
	"  --diff   after the first run, each value as its difference to\n"
	"           the first's (+2.500: 2.5 us slower; --json always has them,\n"
	"           per row, in \"diff\")\n"
	"  -        the run has no sample of the stage (a hardirq-only\n"
	"           handler has no thread stage)\n"
	"Every value is exact: percentiles are nearest-rank, the sample of that\n"
	"rank (summary.json's percentiles_exact), as are min, avg and max.\n"
	"Runs that did not finish are shown, marked [INCOMPLETE], and the\n"
	"reason is printed under the table; so are failed cross-checks, and\n"
	"warnings for summaries whose percentiles are bins' upper edges (written\n"
	"by irqstorm before it kept every sample): runs whose bins differ, and\n"
	"stages whose median is within the first bin (p50 = p99 = max).\n"
	"Deterministic runs (the default) give the same numbers on any machine,\n"
	"so a ratio is the effect of what differs between the scenarios.\n"
	"\n"
	"Runs of several channels (the 2004 cases priority, irqd-vs-threads,\n"
	"bh-lock: a latency-critical channel 0 beside a long channel 1) are\n"
	"compared channel by channel, each block titled with its channel and\n"
	"name ([channelN] name): a pooled number would hide one channel's\n"
	"regression under the other's events. --channel narrows to one (its\n"
	"number or name); --pooled adds every channel's events pooled, titled\n"
	"so. The probe is the run's, not a channel's: one block.\n"
	"\n"
	"--fail-if 'STAGE.STAT > RATIO' (repeatable) makes it a CI gate: every\n"
	"run after the first is judged against the first, and the gate trips\n"
	"when its STAT of STAGE is more than RATIO times the first's (STAT: min,\n"
	"p50, p90, p99, p99_9, p99_99, max, avg), in any channel shown: each\n"
	"channel against the first run's same channel. One line per gate, run\n"
	"and channel on stderr says passed or FAILED, the channel, both values\n"
	"and their ratio.\n"
	"\n"
	"Exit status: 0 printed (and every gate passed), 1 error (a DIR without\n"
	"a readable summary; a gate that cannot be judged: a run without samples\n"
	"of its stage), 2 a --fail-if gate tripped.\n"
	"\n"
	"Examples:\n"
	"  irqstorm compare results/hardirq results/threaded results/forced\n"
	"  irqstorm compare results/a results/b --stage done --stage thread\n"
	"  irqstorm compare results/a results/b --label before --label after --unit ns\n"
	"  irqstorm compare results/*/ --json > comparison.json\n"
	"  irqstorm compare results/v6.12 results/patched --fail-if 'done.p99 > 1.10'\n"
	"  irqstorm compare results/prio-high results/prio-low --channel critical\n";

/* Each DIR's summary; NULL after saying which could not be read. */
static GPtrArray *load_runs(char **dirs, guint n, char **labels)
{
	g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_summary_free);
	gboolean failed = FALSE;

	for (guint i = 0; i < n; i++) {
		g_autoptr(GError) e = NULL;
		IrqstormSummary *s = irqstorm_summary_load(dirs[i], &e);

		if (!s) {
			irqstorm_cmd_fail("%s", e->message);
			failed = TRUE;
			continue;
		}
		g_ptr_array_add(runs, s);
	}
	if (failed)
		return NULL;
	irqstorm_summaries_label((IrqstormSummary *const *)runs->pdata, runs->len,
				 (const char *const *)labels);
	return g_steal_pointer(&runs);
}

/* The --fail-if gates, parsed; NULL after saying what is wrong. */
static GArray *parse_gates(GOptionContext *ctx, char **texts, int nruns)
{
	g_autoptr(GArray) gates = g_array_new(FALSE, TRUE, sizeof(CompareGate));
	g_autoptr(GError) err = NULL;

	g_array_set_clear_func(gates, (GDestroyNotify)compare_gate_clear);
	for (gsize i = 0; texts && texts[i]; i++) {
		CompareGate g = { 0 };

		if (!compare_gate_parse(texts[i], &g, &err)) {
			irqstorm_usage_error(ctx, "%s", err->message);
			return NULL;
		}
		g_array_append_val(gates, g);
	}
	if (gates->len && nruns < 2) {
		irqstorm_usage_error(ctx, "--fail-if judges runs against the first: give two "
				     "DIRs or more");
		return NULL;
	}
	return g_steal_pointer(&gates);
}

/* The gates judged, said on stderr: the exit status. */
static int judge_gates(const GArray *gates, GPtrArray *runs, const GArray *channels)
{
	g_autoptr(GString) report = g_string_new(NULL);
	int tripped;

	if (!gates->len)
		return IRQSTORM_EXIT_PASSED;
	tripped = compare_gates_judge(gates, (IrqstormSummary *const *)runs->pdata,
				      runs->len, channels, report);
	fputs(report->str, stderr);
	if (tripped < 0)
		return IRQSTORM_EXIT_ERROR;
	return tripped ? IRQSTORM_EXIT_THRESHOLD : IRQSTORM_EXIT_PASSED;
}

/* Every --stage must be a stage of some run. */
static gboolean check_stages(GPtrArray *runs, char **stages)
{
	g_autoptr(GPtrArray) known = irqstorm_summaries_stage_names(
		(IrqstormSummary *const *)runs->pdata, runs->len);
	g_autofree char *list = NULL;

	for (gsize i = 0; stages && stages[i]; i++) {
		if (g_ptr_array_find_with_equal_func(known, stages[i], g_str_equal, NULL))
			continue;
		g_ptr_array_add(known, NULL);
		list = g_strjoinv(", ", (char **)known->pdata);
		irqstorm_cmd_fail("no run has a stage '%s' (stages: %s)", stages[i],
				  *list ? list : "none");
		return FALSE;
	}
	return TRUE;
}

/* Every gate's stage must be a stage of some run. */
static gboolean check_gate_stages(GPtrArray *runs, const GArray *gates)
{
	for (guint i = 0; i < gates->len; i++) {
		char *one[] = { g_array_index(gates, CompareGate, i).stage, NULL };

		if (!check_stages(runs, one))
			return FALSE;
	}
	return TRUE;
}

int irqstorm_cmd_compare(int argc, char **argv)
{
	g_auto(GStrv) labels = NULL;
	g_auto(GStrv) stages = NULL;
	g_auto(GStrv) fail_if = NULL;
	g_auto(GStrv) channel_args = NULL;
	g_autofree char *unit_arg = NULL;
	gboolean json = FALSE, diff = FALSE, pooled = FALSE;
	const GOptionEntry entries[] = {
		{ "stage", 's', 0, G_OPTION_ARG_STRING_ARRAY, &stages,
		  "Show only this stage (repeatable; default: every stage)", "NAME" },
		IRQSTORM_CMD_OPTION_CHANNEL(&channel_args),
		IRQSTORM_CMD_OPTION_POOLED(&pooled),
		IRQSTORM_CMD_OPTION_LABEL(&labels),
		{ "unit", 'u', 0, G_OPTION_ARG_STRING, &unit_arg,
		  "Unit of the values: us (default) or ns", "us|ns" },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json,
		  "Print the comparison as JSON instead of a table", NULL },
		{ "diff", 'd', 0, G_OPTION_ARG_NONE, &diff,
		  "After the first run, show each value's difference to the first's", NULL },
		{ "fail-if", 0, 0, G_OPTION_ARG_STRING_ARRAY, &fail_if,
		  "Exit 2 if a run's STAT of STAGE is more than RATIO times the first "
		  "run's (repeatable)", "'STAGE.STAT > RATIO'" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"DIR... - compare finished runs", entries, compare_description);
	g_autoptr(GPtrArray) runs = NULL;
	g_autoptr(GArray) gates = NULL;
	g_autoptr(GArray) channels = NULL;
	IrqstormSummary *const *r;
	IrqstormUnit unit = IRQSTORM_UNIT_US;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc < 2)
		return irqstorm_usage_error(ctx, "compare needs at least one result DIR");
	if (unit_arg && !strcmp(unit_arg, "ns"))
		unit = IRQSTORM_UNIT_NS;
	else if (unit_arg && strcmp(unit_arg, "us"))
		return irqstorm_usage_error(ctx, "--unit must be us or ns");
	if (!irqstorm_cmd_check_labels(ctx, labels, argc - 1) ||
	    !(gates = parse_gates(ctx, fail_if, argc - 1)))
		return IRQSTORM_EXIT_ERROR;
	runs = load_runs(argv + 1, argc - 1, labels);
	if (!runs || !check_stages(runs, stages) || !check_gate_stages(runs, gates))
		return IRQSTORM_EXIT_ERROR;
	r = (IrqstormSummary *const *)runs->pdata;
	if (!(channels = irqstorm_cmd_channels(r, runs->len, channel_args, pooled)))
		return IRQSTORM_EXIT_ERROR;
	if (json) {
		g_autoptr(JsonNode) root = irqstorm_compare_json(
			r, runs->len, (const char *const *)stages, channels, unit);

		irqstorm_cmd_print_json(root);
	} else {
		g_autoptr(GString) table = irqstorm_compare_table(
			r, runs->len, (const char *const *)stages, channels, unit, diff);

		fputs(table->str, stdout);
	}
	if (fflush(stdout) != 0)
		return IRQSTORM_EXIT_ERROR;
	return judge_gates(gates, runs, channels);
}
