// SPDX-License-Identifier: GPL-2.0-or-later
/* The files of a run's directory: runfiles.h. */
#include "runfiles.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "irqstorm/abi.h"

typedef enum { RUN, CHANNEL, FIGURE, KEPT } Kind;

#define IRQSTORM_RUN_FILE_ROW(id, name, writer, kind)	{ name, kind },
static const struct {
	const char *name;
	Kind kind;
} files[] = {
	IRQSTORM_RUN_FILES(IRQSTORM_RUN_FILE_ROW)
};
#undef IRQSTORM_RUN_FILE_ROW

const char *irqstorm_run_file(IrqstormRunFile f)
{
	g_return_val_if_fail(f < IRQSTORM_FILE_COUNT, NULL);
	return files[f].name;
}

char *irqstorm_run_path(const char *dir, IrqstormRunFile f)
{
	g_return_val_if_fail(f < IRQSTORM_FILE_COUNT && files[f].kind != CHANNEL, NULL);
	return g_build_filename(dir, files[f].name, NULL);
}

char *irqstorm_run_channel_path(const char *dir, IrqstormRunFile f, guint ch)
{
	g_autofree char *name = NULL;

	g_return_val_if_fail(f < IRQSTORM_FILE_COUNT && files[f].kind == CHANNEL, NULL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	name = g_strdup_printf(files[f].name, ch);	/* the table's own format */
#pragma GCC diagnostic pop
	return g_build_filename(dir, name, NULL);
}

static gboolean remove_one(const char *dir, const char *name, GError **error)
{
	g_autofree char *p = g_build_filename(dir, name, NULL);

	if (g_unlink(p) < 0 && errno != ENOENT) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot remove old %s: %s", p, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

gboolean irqstorm_run_files_remove_stale(const char *dir, GError **error)
{
	for (guint f = 0; f < IRQSTORM_FILE_COUNT; f++) {
		gboolean ok = TRUE;

		for (guint ch = 0; ok && files[f].kind == CHANNEL && ch < IRQSTORM_NUM_CHANNELS;
		     ch++) {
			g_autofree char *p = irqstorm_run_channel_path(dir, f, ch);
			g_autofree char *name = g_path_get_basename(p);

			ok = remove_one(dir, name, error);
		}
		if (files[f].kind == RUN)
			ok = remove_one(dir, files[f].name, error);
		for (guint i = 0; ok && files[f].kind == FIGURE && i < 2; i++) {
			g_autofree char *name = g_strconcat(files[f].name, i ? ".svg" : ".png",
							    NULL);

			ok = remove_one(dir, name, error);
		}
		if (!ok)
			return FALSE;
	}
	return TRUE;
}
