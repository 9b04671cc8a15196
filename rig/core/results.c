// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results of a run: see results.h.
 */
#include "results.h"

#include "marker.h"
#include "output.h"
#include "stages.h"
#include "summary-keys.h"
#include "summary-write.h"

/* histogram.txt (all channels, with the probe), and histogram-chN.txt for
 * each channel when more than one stormed: its interrupt stages, which
 * come first. */
static gboolean write_histfiles(const IrqstormResults *res, GError **error)
{
	guint mask = irqstorm_scenario_channel_mask(res->set->scenario);
	g_autofree char *all = g_build_filename(res->set->out_dir, "histogram.txt", NULL);
	const char *names[IRQSTORM_STAGE_COUNT];

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		names[st] = irqstorm_stage_name(st);
	if (!irqstorm_write_histfile(all, res->outcome->data->all.hist, names,
				     IRQSTORM_STAGE_COUNT, error))
		return FALSE;
	if (!(mask & (mask - 1)))
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		g_autofree char *name = g_strdup_printf("histogram-ch%u.txt", n);
		g_autofree char *path = g_build_filename(res->set->out_dir, name, NULL);

		if ((mask & 1u << n) &&
		    !irqstorm_write_histfile(path, res->outcome->data->ch[n].hist, names,
					     IRQSTORM_STAGE_IRQ_COUNT, error))
			return FALSE;
	}
	return TRUE;
}

IrqstormResults *irqstorm_results_evaluate(const IrqstormRunSettings *set,
					   IrqstormRunOutcome *outcome)
{
	IrqstormResults *res = g_new0(IrqstormResults, 1);

	res->set = set;
	res->outcome = outcome;
	res->console = irqstorm_console_read(outcome->console_path);
	res->checks = irqstorm_checks_run(set->scenario, outcome, res->console);
	return res;
}

void irqstorm_results_free(IrqstormResults *res)
{
	if (!res)
		return;
	irqstorm_run_outcome_free(res->outcome);
	irqstorm_console_free(res->console);
	irqstorm_checks_free(res->checks);
	g_free(res);
}

gboolean irqstorm_results_write(const IrqstormResults *res, int return_code,
				GError **error)
{
	const char *dir = res->set->out_dir;
	g_autofree char *json_path = g_build_filename(dir, IRQSTORM_SUMMARY_FILE, NULL);
	g_autoptr(JsonNode) root = NULL;

	if (res->outcome->data && !write_histfiles(res, error))
		return FALSE;
	root = irqstorm_summary_build(res, return_code);
	if (!irqstorm_write_json_file(json_path, root, error))
		return FALSE;
	if (!res->checks->complete)
		return irqstorm_marker_set(dir, res->checks->incomplete_reason, error);
	return irqstorm_marker_clear(dir, error);
}
