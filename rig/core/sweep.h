/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A triggered sweep's results: the latency of each stage of the interrupt
 * aimed at each offset of a section (records raised by a trigger carry
 * their offset, include/irqstorm/abi.h), read back from a run's
 * records.csv, and the worst offset of each stage.
 */
#ifndef IRQSTORM_RIG_SWEEP_H
#define IRQSTORM_RIG_SWEEP_H

#include <glib.h>

#include "stages.h"

G_BEGIN_DECLS

#define IRQSTORM_SWEEP_NONE G_MAXUINT64	/* a stage the record lacks */

/* One offset: its event and the interrupt stages' latencies, ns. */
typedef struct {
	guint64 offset_ns;
	guint64 seq;
	guint64 raise_ns;		/* when it was raised, virtual time */
	guint64 stage_ns[IRQSTORM_STAGE_IRQ_COUNT];	/* or IRQSTORM_SWEEP_NONE */
} IrqstormSweepPoint;

/* A stage's worst offset: the first offset where its latency is largest. */
typedef struct {
	gboolean any;		/* some offset has the stage */
	guint64 offset_ns;
	guint64 latency_ns;
} IrqstormSweepWorst;

/*
 * The triggered records of channel ch in records.csv (columns found by
 * their header names), by offset; an error for a file that is not
 * records.csv, and for a triggered record without its offset.
 */
GArray *irqstorm_sweep_read(const char *records_csv, guint ch, GError **error);

/*
 * Every record of channel ch in records.csv, triggered or not (offset 0
 * where there is none), by seq: what a run without a sweep saw of it.
 */
GArray *irqstorm_sweep_read_channel(const char *records_csv, guint ch,
				    GError **error);

/* By offset, then seq: a GCompareFunc of IrqstormSweepPoint. */
gint irqstorm_sweep_point_compare(gconstpointer a, gconstpointer b);

/* From the first raise among points to the last, ns (0 for under two). */
guint64 irqstorm_sweep_span(const GArray *points);

/* Stage st's worst offset among points (of IrqstormSweepPoint). */
IrqstormSweepWorst irqstorm_sweep_worst(const GArray *points, IrqstormStage st);

/*
 * sweep.csv: "offset_ns,seq,<stage>_ns..." (every interrupt stage, in the
 * table's order), a line per point, a missing stage an empty field;
 * written atomically.
 */
gboolean irqstorm_sweep_write_csv(const char *path, const GArray *points,
				  GError **error);

G_END_DECLS

#endif /* IRQSTORM_RIG_SWEEP_H */
