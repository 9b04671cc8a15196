// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of a run's results: see summary-keys.h.
 */
#include "summary-keys.h"

static const struct {
	const char *key;
	const char *title;
	double percentile;
	gboolean boundable;
} stats[IRQSTORM_STAT_COUNT] = {
	[IRQSTORM_STAT_MIN] = { "min", "min", 0, FALSE },
	[IRQSTORM_STAT_P50] = { "p50", "p50", 50.0, FALSE },
	[IRQSTORM_STAT_P90] = { "p90", "p90", 90.0, FALSE },
	[IRQSTORM_STAT_P99] = { "p99", "p99", 99.0, TRUE },
	[IRQSTORM_STAT_P99_9] = { "p99_9", "p99.9", 99.9, TRUE },
	[IRQSTORM_STAT_P99_99] = { "p99_99", "p99.99", 99.99, FALSE },
	[IRQSTORM_STAT_MAX] = { "max", "max", 0, TRUE },
	[IRQSTORM_STAT_AVG] = { "avg", "avg", 0, TRUE },
};

const char *irqstorm_stat_key(IrqstormStat s)
{
	g_return_val_if_fail(s < IRQSTORM_STAT_COUNT, NULL);
	return stats[s].key;
}

const char *irqstorm_stat_title(IrqstormStat s)
{
	g_return_val_if_fail(s < IRQSTORM_STAT_COUNT, NULL);
	return stats[s].title;
}

double irqstorm_stat_percentile(IrqstormStat s)
{
	g_return_val_if_fail(s < IRQSTORM_STAT_COUNT, 0);
	return stats[s].percentile;
}

gboolean irqstorm_stat_boundable(IrqstormStat s)
{
	g_return_val_if_fail(s < IRQSTORM_STAT_COUNT, FALSE);
	return stats[s].boundable;
}

guint64 irqstorm_stat_value(const IrqstormHist *h, IrqstormStat s)
{
	g_return_val_if_fail(s < IRQSTORM_STAT_COUNT, 0);
	switch (s) {
	case IRQSTORM_STAT_MIN:
		return irqstorm_hist_min(h);
	case IRQSTORM_STAT_MAX:
		return irqstorm_hist_max(h);
	case IRQSTORM_STAT_AVG:
		return (guint64)irqstorm_hist_avg(h);
	default:
		return irqstorm_hist_percentile(h, stats[s].percentile);
	}
}
