/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The collector: a thread that follows the shared log while QEMU runs and
 * turns records into per-stage histograms, for all channels together and
 * for each channel (and optionally a CSV of every record).
 */
#ifndef IRQSTORM_COLLECT_H
#define IRQSTORM_COLLECT_H

#include <stdio.h>
#include <glib.h>

#include "hist.h"
#include "logreader.h"
#include "rtla.h"
#include "stages.h"

/* Counts and histograms of a set of interrupt records. */
typedef struct {
	IrqstormHist *hist[IRQSTORM_STAGE_COUNT];
	guint64 records;
	guint64 done_records;		/* with a done stamp */
	guint64 incomplete_records;	/* published without done */
	guint64 coalesced_events;	/* level: records flagged COALESCED */
	guint64 coalesced_raises;	/* level: the firings merged into them */
	guint64 overlap_events;		/* edge: records flagged OVERLAP */
	guint64 work;			/* PIO words read + READY polls */
} IrqstormTally;

/* The start-up reported apart: the storm's first 10 ms of virtual time. */
#define IRQSTORM_STARTUP_NS	10000000ull

/* Records of a part of the storm, and per stage how many have it and
 * their worst value. */
typedef struct {
	guint64 records;
	guint64 cycles[IRQSTORM_STAGE_COUNT];
	guint64 max_ns[IRQSTORM_STAGE_COUNT];
} IrqstormWindow;

/* What the collector gathered. Owned by the collector thread until it is
 * joined; the progress fields may be read at any time (atomics). */
typedef struct {
	IrqstormTally all;		/* every channel; its probe stage: probes */
	IrqstormTally ch[IRQSTORM_NUM_CHANNELS];
	IrqstormRtla *rtla;		/* every channel and the probe, per vCPU */
	guint64 records;		/* every record read from the ring */
	/*
	 * The measurement window: the stages (histograms, every statistic and
	 * output) hold the records raised in [first raise + warmup, first
	 * raise + duration). Before it, [run] warmup; after it, the stop tail:
	 * raised while the guest was stopping the storm it asked for. Both are
	 * counted and kept out; the start-up (its first IRQSTORM_STARTUP_NS)
	 * is reported apart, and kept in unless the warm-up covers it.
	 */
	IrqstormWindow warmup;
	IrqstormWindow tail;
	IrqstormWindow startup;
	guint64 probe_records;
	guint64 foreign_records;	/* channel out of range: counted, ignored */
	guint64 first_raise_ns;
	guint64 last_raise_ns;
	guint64 lost;			/* device's count, from the header */
	GError *error;			/* why reading stopped early, if it did */

	/* progress, atomic */
	guint64 progress_records;
	guint64 progress_max_ns[IRQSTORM_STAGE_COUNT];	/* per stage, all channels */
	guint64 progress_virtual_ns;	/* last raise - first raise */
	guint64 progress_lost;
} IrqstormCollected;

typedef struct IrqstormCollector IrqstormCollector;

IrqstormCollector *irqstorm_collector_start(IrqstormLog *log, guint64 bin_ns,
					    guint bins, guint64 warmup_ns,
					    guint64 duration_ns, FILE *csv);

/*
 * Is a record raised at t_raise in the measurement window, start_ns being
 * the raise of the run's first record (records.csv's first line): from
 * warmup_ns to duration_ns into the storm? The statistics cover these
 * records; the others are the warm-up and the stop tail.
 */
gboolean irqstorm_in_window(guint64 start_ns, guint64 t_raise, guint64 warmup_ns,
			    guint64 duration_ns);
IrqstormCollected *irqstorm_collector_finish(IrqstormCollector *c);
const IrqstormCollected *irqstorm_collector_peek(IrqstormCollector *c);
void irqstorm_collected_free(IrqstormCollected *d);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormCollected, irqstorm_collected_free)

#endif /* IRQSTORM_COLLECT_H */
