// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result directories, never silently written over: see outdir.h.
 */
#define _XOPEN_SOURCE 700
#include "outdir.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <glib/gstdio.h>

#include "summary.h"
#include "runfiles.h"

G_DEFINE_QUARK(irqstorm-outdir-error-quark, irqstorm_outdir_error)

gboolean irqstorm_outdir_holds_complete(const char *dir, const char *kind)
{
	g_autofree char *marker = irqstorm_run_path(dir, IRQSTORM_FILE_MARKER);
	g_autofree char *path = g_build_filename(dir, kind, NULL);
	g_autoptr(IrqstormSummary) s = NULL;

	if (g_file_test(marker, G_FILE_TEST_EXISTS) ||
	    !g_file_test(path, G_FILE_TEST_IS_REGULAR))
		return FALSE;
	if (g_strcmp0(kind, irqstorm_run_file(IRQSTORM_FILE_SUMMARY)))
		return TRUE;
	/* A run's: complete as summary.c reads it (compare, plot, matrix). */
	s = irqstorm_summary_load(dir, NULL);
	return s && s->complete;
}

static int remove_entry(const char *path, const struct stat *st G_GNUC_UNUSED,
			int flag G_GNUC_UNUSED, struct FTW *f G_GNUC_UNUSED)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Remove the tree at path, if there is one. */
static gboolean remove_tree(const char *path, GError **error)
{
	if (nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0 && errno != ENOENT) {
		g_set_error(error, IRQSTORM_OUTDIR_ERROR, IRQSTORM_OUTDIR_ERROR_IO,
			    "cannot remove %s: %s", path, g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

IrqstormOutDir *irqstorm_outdir_open(const char *target, const char *kind,
				     gboolean replace, GError **error)
{
	g_autoptr(IrqstormOutDir) o = g_new0(IrqstormOutDir, 1);

	o->target = g_strdup(target);
	if (!irqstorm_outdir_holds_complete(target, kind)) {
		o->write = g_strdup(target);
		return g_steal_pointer(&o);
	}
	if (!replace) {
		g_set_error(error, IRQSTORM_OUTDIR_ERROR, IRQSTORM_OUTDIR_ERROR_COMPLETE,
			    "%s holds a complete result (its %s), which irqstorm never writes "
			    "over: give another --out, or --replace to replace it once the new "
			    "one is complete (until then it stays as it is)", target, kind);
		return NULL;
	}
	o->write = g_strconcat(target, ".partial", NULL);
	if (!remove_tree(o->write, error))
		return NULL;
	return g_steal_pointer(&o);
}

gboolean irqstorm_outdir_commit(IrqstormOutDir *o, gboolean complete, GError **error)
{
	g_autofree char *old = NULL;

	if (!g_strcmp0(o->write, o->target) || !complete)
		return TRUE;
	old = g_strconcat(o->target, ".replaced", NULL);
	if (!remove_tree(old, error))
		return FALSE;
	if (g_rename(o->target, old) < 0 && errno != ENOENT) {
		g_set_error(error, IRQSTORM_OUTDIR_ERROR, IRQSTORM_OUTDIR_ERROR_IO,
			    "cannot move %s aside: %s; the new result is in %s", o->target,
			    g_strerror(errno), o->write);
		return FALSE;
	}
	if (g_rename(o->write, o->target) < 0) {
		int e = errno;

		g_rename(old, o->target);
		g_set_error(error, IRQSTORM_OUTDIR_ERROR, IRQSTORM_OUTDIR_ERROR_IO,
			    "cannot move %s to %s: %s; %s is as it was", o->write,
			    o->target, g_strerror(e), o->target);
		return FALSE;
	}
	g_free(o->write);
	o->write = g_strdup(o->target);
	return remove_tree(old, error);
}

void irqstorm_outdir_free(IrqstormOutDir *o)
{
	if (!o)
		return;
	g_free(o->target);
	g_free(o->write);
	g_free(o);
}
