/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm sweep --jobs: a sweep's offsets cut into contiguous parts on
 * the same grid, each swept by its own boot, side by side (sweep-parts.c).
 */
#ifndef IRQSTORM_SWEEP_PARTS_H
#define IRQSTORM_SWEEP_PARTS_H

#include <glib.h>

typedef struct {
	const char *binary;		/* this executable, to run the parts */
	const char *scenario;		/* the file, and as given: */
	char **sets;			/* --set */
	const char *duration;		/* --duration, or NULL */
	guint64 start, step, count;	/* the offsets: start + i * step, i < count */
	guint parts;			/* at most count */
	const char *out;		/* the parts go to out/part-K (from 1) */
	gboolean no_interference;	/* --no-interference */
} IrqstormSweepParts;

/*
 * Run the parts and wait for all of them; *dirs gets their directories
 * (NULL-terminated). The exit status: IRQSTORM_EXIT_ERROR if a part could
 * not start, was killed or failed, else the worst of theirs.
 */
int irqstorm_sweep_parts_run(const IrqstormSweepParts *p, char ***dirs);

#endif /* IRQSTORM_SWEEP_PARTS_H */
