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
#define IRQSTORM_SWEEP_UNKNOWN G_MAXUINT	/* interference not looked at */

/*
 * One offset: its event, the interrupt stages' latencies, ns, and for
 * each stage whether other interrupts ran in its window (on the vCPU that
 * ended it): how many, and the first's kind.
 */
typedef struct {
	guint64 offset_ns;
	guint64 seq;
	guint64 raise_ns;		/* when it was raised, virtual time */
	guint64 stage_ns[IRQSTORM_STAGE_IRQ_COUNT];	/* or IRQSTORM_SWEEP_NONE */
	guint64 from_ns[IRQSTORM_STAGE_IRQ_COUNT];	/* the window's start */
	guint cpu[IRQSTORM_STAGE_IRQ_COUNT];		/* the vCPU ending it */
	guint others[IRQSTORM_STAGE_IRQ_COUNT];		/* or IRQSTORM_SWEEP_UNKNOWN */
	const char *other[IRQSTORM_STAGE_IRQ_COUNT];	/* static, or NULL */
} IrqstormSweepPoint;

/* Which offsets a worst case is taken over. */
typedef enum {
	IRQSTORM_SWEEP_ALL,
	IRQSTORM_SWEEP_ALONE,		/* no other interrupt in the window */
	IRQSTORM_SWEEP_INTERFERED,	/* another interrupt in it */
} IrqstormSweepWhich;

/* A stage's worst offset: the first offset where its latency is largest. */
typedef struct {
	gboolean any;		/* some offset has the stage */
	guint64 offset_ns;
	guint64 latency_ns;
	guint others;		/* other interrupts in that window */
	const char *other;	/* the first's kind, or NULL */
	guint count;		/* offsets taken over (with the stage) */
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

/* The same among the points which (ALONE, INTERFERED: only where known). */
IrqstormSweepWorst irqstorm_sweep_worst_of(const GArray *points, IrqstormStage st,
					   IrqstormSweepWhich which);

/* Is interference known for the points (all of them)? */
gboolean irqstorm_sweep_interference_known(const GArray *points);

/*
 * Fill in each point's others and other from the interrupts the vCPUs
 * took (of IrqstormIrqEntry, by time: irqentry.h), the event's own
 * interrupt not counted, nor the section's when it is an interrupt's
 * handler (one running when the trigger was written, offset_ns before
 * the raise).
 */
void irqstorm_sweep_interference(GArray *points, const GArray *taken);

/*
 * sweep.csv: "offset_ns,seq,<stage>_ns...,<stage>_others..." (every
 * interrupt stage, in the table's order), a line per point, a missing
 * stage an empty field, as is <stage>_others where not known; written
 * atomically.
 */
gboolean irqstorm_sweep_write_csv(const char *path, const GArray *points,
				  GError **error);

G_END_DECLS

#endif /* IRQSTORM_RIG_SWEEP_H */
