// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm compare --fail-if: see compare-gate.h.
 */
#include "compare-gate.h"

#include <math.h>
#include <string.h>

#include "core/stages.h"

void compare_gate_clear(CompareGate *g)
{
	g_free(g->text);
	g_free(g->stage);
}

/* The statistic named key ("p99_9") or title ("p99.9"). */
static gboolean stat_named(const char *name, IrqstormStat *s)
{
	for (int i = 0; i < IRQSTORM_STAT_COUNT; i++)
		if (!strcmp(name, irqstorm_stat_key(i)) || !strcmp(name, irqstorm_stat_title(i))) {
			*s = i;
			return TRUE;
		}
	return FALSE;
}

static gboolean gate_fail(GError **error, const char *text, const char *why)
{
	g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "--fail-if '%s': %s (the form: 'STAGE.STAT > RATIO', e.g. "
		    "'done.p99 > 1.10'; STAT: min, p50, p90, p99, p99_9, p99_99, max, avg)",
		    text, why);
	return FALSE;
}

const char *compare_stat_parse(const char *text, char **stage, IrqstormStat *stat)
{
	g_autofree char *s = g_strstrip(g_strdup(text));
	/* The stat follows the first dot: p99.9 keeps its own. */
	char *dot = strchr(s, '.');

	if (!dot || dot == s || !dot[1])
		return "not STAGE.STAT";
	*dot = '\0';
	if (!stat_named(dot + 1, stat))
		return "no such statistic";
	*stage = g_strdup(s);
	return NULL;
}

gboolean compare_gate_parse(const char *text, CompareGate *g, GError **error)
{
	g_auto(GStrv) sides = g_strsplit(text, ">", -1);
	const char *why;
	char *end;
	double ratio;

	if (g_strv_length(sides) != 2)
		return gate_fail(error, text, "needs exactly one '>'");
	why = compare_stat_parse(sides[0], &g->stage, &g->stat);
	if (why)
		return gate_fail(error, text, why);
	ratio = g_ascii_strtod(g_strstrip(sides[1]), &end);
	if (end == sides[1] || *end || !isfinite(ratio) || ratio <= 0)
		return gate_fail(error, text, "the ratio is not a positive number");
	g->text = g_strdup(text);
	g->ratio = ratio;
	return TRUE;
}

/* Run r's value of the gate's statistic in channel c, NAN when it has none. */
static double gate_value(const CompareGate *g, const IrqstormSummary *r, int c)
{
	const IrqstormStageStats *st = irqstorm_summary_channel_stage_sampled(r, c, g->stage);

	return st ? st->v[g->stat] : NAN;
}

/* One gate, one run against the baseline, in channel c (titled where, or
 * NULL): 1 tripped, 0 passed, -1 unjudged. */
static int judge_one(const CompareGate *g, const IrqstormSummary *base,
		     const IrqstormSummary *run, int c, const char *where, GString *report)
{
	double ref = gate_value(g, base, c), v = gate_value(g, run, c);
	double r = ref > 0 ? v / ref : (v > 0 ? INFINITY : 1);
	gboolean tripped = r > g->ratio;
	g_autofree char *in = where ? g_strdup_printf("%s: ", where) : g_strdup("");

	if (isnan(ref) || isnan(v)) {
		g_string_append_printf(report, "compare: cannot judge --fail-if '%s': %s%s has "
				       "no %s samples\n", g->text, in,
				       isnan(ref) ? base->label : run->label, g->stage);
		return -1;
	}
	g_string_append_printf(report, "compare: %s --fail-if '%s': %s%s's %s %s is %.3f us, "
			       "x%.4f of %s's %.3f us\n", tripped ? "FAILED" : "passed",
			       g->text, in, run->label, g->stage, irqstorm_stat_title(g->stat),
			       v / 1e3, r, base->label, ref / 1e3);
	return tripped;
}

/* One gate, every run after the first, in channel c: the tripped count,
 * -1 when one cannot be judged. */
static int judge_channel(const CompareGate *g, IrqstormSummary *const *runs, guint n,
			 int c, gboolean split, GString *report)
{
	g_autofree char *where = split ? irqstorm_summaries_channel_title(runs, n, c) : NULL;
	int tripped = 0;
	gboolean unjudged = FALSE;

	for (guint r = 1; r < n; r++) {
		int v = judge_one(g, runs[0], runs[r], c, where, report);

		unjudged |= v < 0;
		tripped += v > 0;
	}
	return unjudged ? -1 : tripped;
}

int compare_gates_judge(const GArray *gates, IrqstormSummary *const *runs,
			guint n, const GArray *channels, GString *report)
{
	const char *probe = irqstorm_stage_name(IRQSTORM_STAGE_PROBE);
	gboolean split = irqstorm_channels_split(channels);
	int tripped = 0;
	gboolean unjudged = FALSE;

	for (guint i = 0; i < gates->len; i++) {
		const CompareGate *g = &g_array_index(gates, CompareGate, i);
		/* The probe is the run's, not a channel's: judged once. */
		gboolean once = !strcmp(g->stage, probe);

		for (guint k = 0; k < (once ? 1 : channels->len); k++) {
			int v = judge_channel(g, runs, n, once ? IRQSTORM_CHANNELS_POOLED :
					      g_array_index(channels, int, k), split && !once,
					      report);

			unjudged |= v < 0;
			tripped += MAX(v, 0);
		}
	}
	return unjudged ? -1 : tripped;
}
