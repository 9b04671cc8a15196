// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results of a run: see results.h.
 */
#include "results.h"

#include <string.h>

#include "identity.h"
#include "machine.h"
#include "marker.h"
#include "output.h"
#include "rtla.h"
#include "stages.h"
#include "summary-keys.h"
#include "summary-write.h"
#include "runfiles.h"
#include "histfile.h"

/* histogram.txt (all channels, with the probe), and histogram-chN.txt for
 * each channel when more than one stormed: its interrupt stages, which
 * come first. */
static gboolean write_histfiles(const IrqstormResults *res, GError **error)
{
	guint mask = irqstorm_scenario_channel_mask(res->set->scenario);
	g_autofree char *all = irqstorm_run_path(res->set->out_dir, IRQSTORM_FILE_HISTOGRAM);
	const char *names[IRQSTORM_STAGE_COUNT];

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		names[st] = irqstorm_stage_name(st);
	if (!irqstorm_write_histfile(all, res->outcome->data->all.hist, names,
				     IRQSTORM_STAGE_COUNT, error))
		return FALSE;
	if (!(mask & (mask - 1)))
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		g_autofree char *path = irqstorm_run_channel_path(res->set->out_dir,
								  IRQSTORM_FILE_HISTOGRAM_CH, n);

		if ((mask & 1u << n) &&
		    !irqstorm_write_histfile(path, res->outcome->data->ch[n].hist, names,
					     IRQSTORM_STAGE_IRQ_COUNT, error))
			return FALSE;
	}
	return TRUE;
}

/* rtla-hist.txt: the interrupts' and the probe's latencies per vCPU, as
 * rtla timerlat hist shows its own; the duration is the storm's. */
static gboolean write_rtla(const IrqstormResults *res, GError **error)
{
	g_autofree char *path = irqstorm_run_path(res->set->out_dir, IRQSTORM_FILE_RTLA);

	return irqstorm_rtla_write(path, res->outcome->data->rtla,
				   res->set->scenario->duration_ms / 1000, error);
}

/* This process's command line, its arguments joined by spaces (as rt-tests
 * records its own), or NULL. */
static char *own_cmdline(void)
{
	g_autofree char *text = NULL;
	gsize len = 0;

	if (!g_file_get_contents("/proc/self/cmdline", &text, &len, NULL) || !len)
		return NULL;
	for (gsize i = 0; i + 1 < len; i++)
		if (text[i] == '\0')
			text[i] = ' ';
	return g_steal_pointer(&text);
}

/* rt-tests.json: the stages of all channels, as cyclictest's threads; the
 * system it describes is the guest. */
static gboolean write_rt_tests(const IrqstormResults *res, int return_code,
			       GError **error)
{
	const IrqstormScenario *sc = res->set->scenario;
	g_autofree char *path = irqstorm_run_path(res->set->out_dir, IRQSTORM_FILE_RT_TESTS);
	g_autofree char *kid = irqstorm_machine_kernel_file(sc, "identity");
	g_auto(GStrv) id = irqstorm_identity_read(res->set->kernel_dir, kid);
	const char *release = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_RELEASE);
	g_autofree char *source = irqstorm_identity_kernel_source(id);
	g_autofree char *version = g_strdup_printf("irqstorm guest, %s kernel, %s", sc->flavour,
						   source ? source : "unknown source");
	g_autofree char *cmdline = own_cmdline();
	g_autoptr(GDateTime) end = g_date_time_new_now_local();
	g_autoptr(GDateTime) start = g_date_time_add_seconds(end, -res->outcome->wall_seconds);
	const char *names[IRQSTORM_STAGE_COUNT];
	IrqstormRtTestsInfo info = {
		.cmdline = cmdline ? cmdline : "irqstorm run",
		.start = start, .end = end, .return_code = return_code,
		.sysname = "Linux", .nodename = "(none)",
		.release = release ? release : "unknown", .version = version,
		.machine = "x86_64", .realtime = !g_strcmp0(sc->flavour, "rt"),
		.cpu = sc->cpus == 1 ? 0 : -1,
	};

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		names[st] = irqstorm_stage_name(st);
	return irqstorm_write_rt_tests_json(path, res->outcome->data->all.hist, names,
					    IRQSTORM_STAGE_COUNT, &info, error);
}

/*
 * The kernel's reports' frames named from its System.map, where the kernel
 * printed bare addresses. Without one (a kernel directory of the user's),
 * they stay addresses.
 */
static void name_report_frames(const IrqstormRunSettings *set, GPtrArray *reports)
{
	g_autofree char *name = NULL, *map = NULL;
	g_autoptr(IrqstormSymbols) syms = NULL;
	gboolean traced = FALSE;

	for (guint i = 0; i < reports->len; i++)
		traced |= ((IrqstormKreport *)reports->pdata[i])->trace->len > 0;
	if (!traced || !set->kernel_dir)
		return;
	name = irqstorm_machine_kernel_file(set->scenario, "System.map");
	map = g_build_filename(set->kernel_dir, name, NULL);
	syms = g_file_test(map, G_FILE_TEST_IS_REGULAR) ?
	       irqstorm_symbols_load(map, NULL) : NULL;
	if (syms)
		irqstorm_kreports_name_frames(reports, syms);
}

IrqstormResults *irqstorm_results_evaluate(const IrqstormRunSettings *set,
					   IrqstormRunOutcome *outcome)
{
	IrqstormResults *res = g_new0(IrqstormResults, 1);

	res->set = set;
	res->outcome = outcome;
	res->console = irqstorm_console_read(outcome->console_path);
	name_report_frames(set, res->console->reports);
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
	g_autofree char *json_path = irqstorm_run_path(dir, IRQSTORM_FILE_SUMMARY);
	g_autoptr(JsonNode) root = NULL;

	if (res->outcome->data && (!write_histfiles(res, error) ||
				   !write_rtla(res, error) ||
				   !write_rt_tests(res, return_code, error)))
		return FALSE;
	root = irqstorm_summary_build(res, return_code);
	if (!irqstorm_write_json_file(json_path, root, error))
		return FALSE;
	if (!res->checks->complete)
		return irqstorm_marker_set(dir, res->checks->incomplete_reason, error);
	return irqstorm_marker_clear(dir, error);
}
