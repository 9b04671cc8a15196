// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The INCOMPLETE marker: see marker.h.
 */
#include "marker.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "files.h"
#include "summary-keys.h"

/* What a run writes into its directory, or plot draws there. */
static const char *const stale_outputs[] = {
	"histogram.txt", "histogram-ch0.txt", "histogram-ch1.txt",
	"histogram-ch2.txt", "histogram-ch3.txt", IRQSTORM_RT_TESTS_FILE,
	IRQSTORM_RTLA_FILE, IRQSTORM_SUMMARY_FILE, "records.csv", "console.log", "qemu.log", "qemu-cmdline.txt",
	"scenario.ini", "histogram.png", "histogram.svg", "percentiles.png",
	"percentiles.svg", "timeline.png", "timeline.svg", "breakdown.png",
	"breakdown.svg",
};

gboolean irqstorm_marker_set(const char *out_dir, const char *why,
			     GError **error)
{
	g_autofree char *path = g_build_filename(out_dir, IRQSTORM_MARKER_FILE, NULL);
	g_autofree char *text = g_strconcat(why, "\n", NULL);

	return irqstorm_write_file(path, text, -1, error);
}

gboolean irqstorm_marker_clear(const char *out_dir, GError **error)
{
	g_autofree char *path = g_build_filename(out_dir, IRQSTORM_MARKER_FILE, NULL);

	if (g_unlink(path) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot remove %s: %s", path, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

gboolean irqstorm_marker_begin(const char *out_dir, const IrqstormScenario *sc,
			       GError **error)
{
	g_autofree char *ini = irqstorm_scenario_to_ini(sc);
	g_autofree char *ini_path = g_build_filename(out_dir, "scenario.ini", NULL);

	if (!irqstorm_marker_set(out_dir, "run in progress (or the rig died during it)",
				 error))
		return FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(stale_outputs); i++) {
		g_autofree char *p = g_build_filename(out_dir, stale_outputs[i], NULL);

		if (g_unlink(p) < 0 && errno != ENOENT) {
			g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
				    "cannot remove old %s: %s", p, g_strerror(errno));
			return FALSE;
		}
	}
	return irqstorm_write_file(ini_path, ini, -1, error);
}
