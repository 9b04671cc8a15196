// SPDX-License-Identifier: GPL-2.0-or-later
/* The files of a run's directory: runfiles.h. */
#include "runfiles.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "irqstorm/abi.h"

typedef enum { RUN, CHANNEL, FIGURE, CHANNEL_FIGURE, KEPT } Kind;

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
	g_return_val_if_fail(f < IRQSTORM_FILE_COUNT && files[f].kind != CHANNEL &&
			     files[f].kind != CHANNEL_FIGURE, NULL);
	return g_build_filename(dir, files[f].name, NULL);
}

char *irqstorm_run_channel_path(const char *dir, IrqstormRunFile f, guint ch)
{
	g_autofree char *name = NULL;

	g_return_val_if_fail(f < IRQSTORM_FILE_COUNT && (files[f].kind == CHANNEL ||
						       files[f].kind == CHANNEL_FIGURE), NULL);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	name = g_strdup_printf(files[f].name, ch);	/* the table's own format */
#pragma GCC diagnostic pop
	return g_build_filename(dir, name, NULL);
}

static gboolean remove_path(const char *p, GError **error)
{
	if (g_unlink(p) < 0 && errno != ENOENT) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot remove old %s: %s", p, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

/* base.png and base.svg. */
static gboolean remove_figure(const char *base, GError **error)
{
	for (guint i = 0; i < 2; i++) {
		g_autofree char *p = g_strconcat(base, i ? ".svg" : ".png", NULL);

		if (!remove_path(p, error))
			return FALSE;
	}
	return TRUE;
}

/* dir's file f, of every channel or in every format its kind has. */
static gboolean remove_file(const char *dir, IrqstormRunFile f, GError **error)
{
	g_autofree char *base = NULL;

	switch (files[f].kind) {
	case KEPT:
		return TRUE;
	case CHANNEL:
		for (guint ch = 0; ch < IRQSTORM_NUM_CHANNELS; ch++) {
			g_autofree char *p = irqstorm_run_channel_path(dir, f, ch);

			if (!remove_path(p, error))
				return FALSE;
		}
		return TRUE;
	case FIGURE:
		base = irqstorm_run_path(dir, f);
		return remove_figure(base, error);
	case CHANNEL_FIGURE:
		for (guint ch = 0; ch < IRQSTORM_NUM_CHANNELS; ch++) {
			g_autofree char *p = irqstorm_run_channel_path(dir, f, ch);

			if (!remove_figure(p, error))
				return FALSE;
		}
		return TRUE;
	case RUN:
		base = irqstorm_run_path(dir, f);
		return remove_path(base, error);
	}
	g_assert_not_reached();
}

gboolean irqstorm_run_files_remove_stale(const char *dir, GError **error)
{
	for (guint f = 0; f < IRQSTORM_FILE_COUNT; f++)
		if (!remove_file(dir, f, error))
			return FALSE;
	return TRUE;
}
