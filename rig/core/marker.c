// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The INCOMPLETE marker: see marker.h.
 */
#include "marker.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "files.h"
#include "runfiles.h"

gboolean irqstorm_marker_set(const char *out_dir, const char *why,
			     GError **error)
{
	g_autofree char *path = irqstorm_run_path(out_dir, IRQSTORM_FILE_MARKER);
	g_autofree char *text = g_strconcat(why, "\n", NULL);

	return irqstorm_write_file(path, text, -1, error);
}

gboolean irqstorm_marker_clear(const char *out_dir, GError **error)
{
	g_autofree char *path = irqstorm_run_path(out_dir, IRQSTORM_FILE_MARKER);

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
	g_autofree char *ini_path = irqstorm_run_path(out_dir, IRQSTORM_FILE_SCENARIO);

	if (!irqstorm_marker_set(out_dir, "run in progress (or the rig died during it)",
				 error))
		return FALSE;
	return irqstorm_run_files_remove_stale(out_dir, error) &&
	       irqstorm_write_file(ini_path, ini, -1, error);
}
