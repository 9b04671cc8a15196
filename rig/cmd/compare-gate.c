// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm compare --fail-if: see compare-gate.h.
 */
#include "compare-gate.h"

#include <math.h>
#include <string.h>

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

/* Run r's value of the gate's statistic, NAN when it has none. */
static double gate_value(const CompareGate *g, const IrqstormSummary *r)
{
	const IrqstormStageStats *st = irqstorm_summary_stage_sampled(r, g->stage);

	return st ? st->v[g->stat] : NAN;
}

/* One gate, one run against the baseline: 1 tripped, 0 passed, -1 unjudged. */
static int judge_one(const CompareGate *g, const IrqstormSummary *base,
		     const IrqstormSummary *run, GString *report)
{
	double ref = gate_value(g, base), v = gate_value(g, run);
	double r = ref > 0 ? v / ref : (v > 0 ? INFINITY : 1);
	gboolean tripped = r > g->ratio;

	if (isnan(ref) || isnan(v)) {
		g_string_append_printf(report, "compare: cannot judge --fail-if '%s': %s has "
				       "no %s samples\n", g->text,
				       isnan(ref) ? base->label : run->label, g->stage);
		return -1;
	}
	g_string_append_printf(report, "compare: %s --fail-if '%s': %s's %s %s is %.3f us, "
			       "x%.4f of %s's %.3f us\n", tripped ? "FAILED" : "passed",
			       g->text, run->label, g->stage, irqstorm_stat_title(g->stat),
			       v / 1e3, r, base->label, ref / 1e3);
	return tripped;
}

int compare_gates_judge(const GArray *gates, IrqstormSummary *const *runs,
			guint n, GString *report)
{
	int tripped = 0;
	gboolean unjudged = FALSE;

	for (guint i = 0; i < gates->len; i++)
		for (guint k = 1; k < n; k++) {
			int r = judge_one(&g_array_index(gates, CompareGate, i), runs[0],
					  runs[k], report);

			unjudged |= r < 0;
			tripped += r > 0;
		}
	return unjudged ? -1 : tripped;
}
