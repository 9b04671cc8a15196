/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device's counters, read over QMP once the guest has powered off:
 * each channel's, the shared log's and the guest's, and how the last storm
 * ended. One table (counters.c) names every counter as QOM knows it and as
 * summary.json writes it.
 */
#ifndef IRQSTORM_COUNTERS_H
#define IRQSTORM_COUNTERS_H

#include <glib.h>

#include "irqstorm/abi.h"
#include "qmp.h"

/* One channel's counters as the device keeps them (QOM chN-*). */
typedef struct {
	guint64 raised, coalesced, overlapped, dropped, handled, incomplete;
	guint64 in_flight, queue_max, pio_reads, ready_polls;
} IrqstormDeviceCounters;

/* The last storm as the device saw it: ns of virtual time (QOM storm-*). */
typedef struct {
	guint64 storms;			/* storms begun: 0, none of the rest */
	guint64 start_ns, end_ns;
	guint64 guest_stop_ns;		/* the guest cleared RUN, or 0: never */
	guint64 device_end;		/* 1: the device ended it at its bound */
	guint64 backlog;		/* events in flight at its end */
} IrqstormDeviceStorm;

/* Everything the device counted. */
typedef struct {
	IrqstormDeviceCounters ch[IRQSTORM_NUM_CHANNELS];
	guint64 published, lost;	/* records of the shared log */
	guint64 guest_errors, probes;
	IrqstormDeviceStorm storm;
} IrqstormDeviceState;

/* A counter: its QOM property ("chN-" + qom for a channel's), its key in
 * summary.json (NULL: not written as a count) and where it is kept. */
typedef struct {
	const char *qom;
	const char *key;
	gsize offset;	/* in IrqstormDeviceCounters, or IrqstormDeviceState */
	gboolean peak;	/* a high-water mark: over channels, the max, not the sum */
} IrqstormCounter;

/* The tables: a channel's counters, then the device's own. */
const IrqstormCounter *irqstorm_channel_counters(guint *n);
const IrqstormCounter *irqstorm_device_counters(guint *n);

/* The value of counter c in base (the struct its offset is into). */
static inline guint64 irqstorm_counter_get(const IrqstormCounter *c,
					   const void *base)
{
	return G_STRUCT_MEMBER(guint64, base, c->offset);
}

/* Seconds of virtual time between two device times. */
static inline double irqstorm_storm_seconds(guint64 from_ns, guint64 to_ns)
{
	return ((double)to_ns - (double)from_ns) / 1e9;
}

/* Read every counter of the device at qom_path; the first that cannot be
 * read is the error. */
gboolean irqstorm_counters_read(IrqstormQmp *qmp, const char *qom_path,
				guint timeout_ms, IrqstormDeviceState *dev,
				GError **error);

/* The channels' counters together: sums, and the max of a peak. */
void irqstorm_counters_total(const IrqstormDeviceState *dev,
			     IrqstormDeviceCounters *total);

#endif /* IRQSTORM_COUNTERS_H */
