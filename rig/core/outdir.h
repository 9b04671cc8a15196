/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A result directory is never silently written over. A directory that
 * holds a complete result (its summary.json says complete, no INCOMPLETE
 * marker) is refused, unless asked to replace it; then the new result is
 * written beside it (TARGET.partial) and takes its place only when it is
 * complete itself: an interrupted or failed replacement leaves the old
 * result as it was. Any other directory (new, empty, an incomplete run's)
 * is written in place, as always.
 */
#ifndef IRQSTORM_OUTDIR_H
#define IRQSTORM_OUTDIR_H

#include <glib.h>

#define IRQSTORM_OUTDIR_ERROR (irqstorm_outdir_error_quark())
GQuark irqstorm_outdir_error_quark(void);

typedef enum {
	IRQSTORM_OUTDIR_ERROR_COMPLETE,	/* a complete result, not to be replaced */
	IRQSTORM_OUTDIR_ERROR_IO,	/* the replacement could not be put in place */
} IrqstormOutDirError;

typedef struct {
	char *target;	/* where the result belongs */
	char *write;	/* where it is written: target, or target.partial */
} IrqstormOutDir;

/* Does dir hold a complete result of kind (a summary.json or a
 * sweep.json beside no INCOMPLETE marker; for a run, one that says
 * "complete": true)? */
gboolean irqstorm_outdir_holds_complete(const char *dir, const char *kind);

/* Where to write the result that belongs in target; NULL with an error
 * when target holds a complete result of kind and replace is not set. */
IrqstormOutDir *irqstorm_outdir_open(const char *target, const char *kind,
				     gboolean replace, GError **error);

/* The result written is complete: put it in place of the one it replaces
 * (nothing to do when it was written in place). An incomplete one stays
 * where it was written. */
gboolean irqstorm_outdir_commit(IrqstormOutDir *o, gboolean complete, GError **error);

void irqstorm_outdir_free(IrqstormOutDir *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormOutDir, irqstorm_outdir_free)

#endif /* IRQSTORM_OUTDIR_H */
