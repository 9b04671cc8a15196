// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rtla-hist.txt: see rtla.h. The formats below are rtla's own (Linux
 * 6.12, tools/tracing/rtla/src/timerlat_hist.c: timerlat_hist_header(),
 * timerlat_print_stats(), timerlat_print_summary(),
 * timerlat_print_stats_all()), trailing spaces included.
 */
#include "rtla.h"

#include "files.h"
#include "stages.h"

/* rtla's columns per CPU, in its order, and the stage each one shows. */
static const struct {
	const char *label;
	IrqstormStage stage;
} columns[] = {
	{ "IRQ", IRQSTORM_STAGE_HARDIRQ },
	{ "Thr", IRQSTORM_STAGE_THREAD },
	{ "Usr", IRQSTORM_STAGE_PROBE },
};
#define NCOLUMNS G_N_ELEMENTS(columns)

/* One column of one CPU, in whole us as rtla keeps it. */
typedef struct {
	guint64 *buckets;	/* entries + 1: the last one is "over" */
	guint64 count, min, sum, max;
} Column;

typedef struct {
	Column col[NCOLUMNS];
} Cpu;

struct IrqstormRtla {
	guint entries;
	Cpu *cpu[IRQSTORM_CPU_NONE + 1];	/* by vCPU, made on first use */
};

IrqstormRtla *irqstorm_rtla_new(guint entries)
{
	IrqstormRtla *t = g_new0(IrqstormRtla, 1);

	t->entries = MAX(entries, 1);
	return t;
}

void irqstorm_rtla_free(IrqstormRtla *t)
{
	if (!t)
		return;
	for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++) {
		for (guint k = 0; t->cpu[c] && k < NCOLUMNS; k++)
			g_free(t->cpu[c]->col[k].buckets);
		g_free(t->cpu[c]);
	}
	g_free(t);
}

static Cpu *cpu_get(IrqstormRtla *t, guint cpu)
{
	if (!t->cpu[cpu]) {
		t->cpu[cpu] = g_new0(Cpu, 1);
		for (guint k = 0; k < NCOLUMNS; k++) {
			t->cpu[cpu]->col[k].buckets = g_new0(guint64, t->entries + 1);
			t->cpu[cpu]->col[k].min = G_MAXUINT64;
		}
	}
	return t->cpu[cpu];
}

/* timerlat_hist_update(): the latency in whole us, then its bucket. */
void irqstorm_rtla_add(IrqstormRtla *t, const struct irqstorm_record *r)
{
	for (guint k = 0; k < NCOLUMNS; k++) {
		guint64 ns, us;
		Column *col;

		if (!irqstorm_stage_value(r, columns[k].stage, &ns))
			continue;
		us = ns / 1000;
		col = &cpu_get(t, irqstorm_stage_cpu(r, columns[k].stage))->col[k];
		col->count++;
		col->min = MIN(col->min, us);
		col->max = MAX(col->max, us);
		col->sum += us;
		col->buckets[MIN(us, (guint64)t->entries)]++;
	}
}

/* rtla prints the user threads' columns only when it measures them (-u):
 * Usr only when some probe sample is there; IRQ and Thr always. */
static gboolean column_shown(const IrqstormRtla *t, guint k)
{
	if (columns[k].stage != IRQSTORM_STAGE_PROBE)
		return TRUE;
	for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++)
		if (t->cpu[c] && t->cpu[c]->col[k].count)
			return TRUE;
	return FALSE;
}

/* rtla lists a CPU that has samples. */
static gboolean cpu_listed(const IrqstormRtla *t, guint c)
{
	for (guint k = 0; t->cpu[c] && k < NCOLUMNS; k++)
		if (t->cpu[c]->col[k].count)
			return TRUE;
	return FALSE;
}

static void append_header(GString *s, const IrqstormRtla *t, guint64 duration_s)
{
	g_string_append(s, "# RTLA timerlat histogram\n"
			"# Time unit is microseconds (us)\n");
	g_string_append_printf(s, "# Duration: %3u %02u:%02u:%02u\n",
			       (guint)(duration_s / 86400), (guint)(duration_s / 3600 % 24),
			       (guint)(duration_s / 60 % 60), (guint)(duration_s % 60));
	g_string_append(s, column_shown(t, NCOLUMNS - 1) ?
			"# irqstorm (QEMU virtual time): IRQ = the hardirq stage, Thr = the "
			"thread stage, Usr = the probe stage, per vCPU of the handler or probe\n" :
			"# irqstorm (QEMU virtual time): IRQ = the hardirq stage, Thr = the "
			"thread stage, per vCPU of the handler (no probe: no Usr columns)\n");
	g_string_append(s, "Index");
	for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++)
		for (guint k = 0; cpu_listed(t, c) && k < NCOLUMNS; k++)
			if (column_shown(t, k))
				g_string_append_printf(s, "   %s-%03u", columns[k].label, c);
	g_string_append_c(s, '\n');
}

/* timerlat_print_stats(): the rows with a sample, then "over:". */
static void append_rows(GString *s, const IrqstormRtla *t)
{
	for (guint b = 0; b <= t->entries; b++) {
		gsize start = s->len;
		guint64 total = 0;

		g_string_append_printf(s, b < t->entries ? "%-6u" : "over: ", b);
		for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++) {
			for (guint k = 0; cpu_listed(t, c) && k < NCOLUMNS; k++) {
				if (!column_shown(t, k))
					continue;
				total += t->cpu[c]->col[k].buckets[b];
				g_string_append_printf(s, "%9" G_GUINT64_FORMAT " ",
						       t->cpu[c]->col[k].buckets[b]);
			}
		}
		if (!total && b < t->entries)
			g_string_truncate(s, start);
		else
			g_string_append_c(s, '\n');
	}
}

enum { STAT_COUNT, STAT_MIN, STAT_AVG, STAT_MAX };
static const char *const stat_labels[] = { "count:", "min:  ", "avg:  ", "max:  " };

/* format_summary_value(), and count's plain "%9llu ". */
static void append_stat(GString *s, const Column *col, int stat)
{
	guint64 v = stat == STAT_MIN ? col->min : stat == STAT_MAX ? col->max :
		    stat == STAT_AVG && col->count ? col->sum / col->count : col->count;

	if (stat != STAT_COUNT && !col->count)
		g_string_append_printf(s, "%9c ", '-');
	else
		g_string_append_printf(s, "%9" G_GUINT64_FORMAT " ", v);
}

/* timerlat_print_summary(), then timerlat_print_stats_all(). */
static void append_summary(GString *s, const IrqstormRtla *t)
{
	Column all[NCOLUMNS] = { 0 };

	for (guint k = 0; k < NCOLUMNS; k++)
		all[k].min = G_MAXUINT64;
	for (int stat = STAT_COUNT; stat <= STAT_MAX; stat++) {
		g_string_append(s, stat_labels[stat]);
		for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++)
			for (guint k = 0; cpu_listed(t, c) && k < NCOLUMNS; k++)
				if (column_shown(t, k))
					append_stat(s, &t->cpu[c]->col[k], stat);
		g_string_append_c(s, '\n');
	}
	for (guint c = 0; c < G_N_ELEMENTS(t->cpu); c++) {
		for (guint k = 0; cpu_listed(t, c) && k < NCOLUMNS; k++) {
			const Column *col = &t->cpu[c]->col[k];

			all[k].count += col->count;
			all[k].sum += col->sum;
			all[k].min = MIN(all[k].min, col->min);
			all[k].max = MAX(all[k].max, col->max);
		}
	}
	g_string_append(s, "ALL:  ");
	for (guint k = 0; k < NCOLUMNS; k++)
		if (column_shown(t, k))
			g_string_append_printf(s, "%*s", k ? 10 : 9, columns[k].label);
	g_string_append_c(s, '\n');
	for (int stat = STAT_COUNT; stat <= STAT_MAX; stat++) {
		g_string_append(s, stat_labels[stat]);
		for (guint k = 0; k < NCOLUMNS; k++)
			if (column_shown(t, k))
				append_stat(s, &all[k], stat);
		g_string_append_c(s, '\n');
	}
}

char *irqstorm_rtla_format(const IrqstormRtla *t, guint64 duration_s)
{
	GString *s = g_string_sized_new(4096);

	append_header(s, t, duration_s);
	append_rows(s, t);
	append_summary(s, t);
	return g_string_free(s, FALSE);
}

gboolean irqstorm_rtla_write(const char *path, const IrqstormRtla *t,
			     guint64 duration_s, GError **error)
{
	g_autofree char *text = irqstorm_rtla_format(t, duration_s);

	return irqstorm_write_file(path, text, -1, error);
}
