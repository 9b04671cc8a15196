/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The device's counters, read over QMP once the guest has powered off:
 * each channel's, the shared log's and the guest's, and how the last storm
 * ended: the tables of include/irqstorm/device.h, whose names QOM knows
 * them by and whose fields summary.json writes them as.
 */
#ifndef IRQSTORM_COUNTERS_H
#define IRQSTORM_COUNTERS_H

#include <glib.h>

#include "irqstorm/abi.h"
#include "irqstorm/device.h"
#include "qmp.h"

#define IRQSTORM_COUNTER_FIELD(id, field, name, ...) guint64 field;

/* One channel's counters as the device keeps them (QOM chN-*): raised,
 * handled, in_flight, ... (IRQSTORM_CHANNEL_COUNTERS). */
typedef struct {
	IRQSTORM_CHANNEL_COUNTERS(IRQSTORM_COUNTER_FIELD)
} IrqstormDeviceCounters;

/* Everything the device counted: each channel's, and its own: the shared
 * log's records, guest errors, probes, and how the last storm went (ns of
 * virtual time; storms == 0: none of the rest) (IRQSTORM_DEVICE_COUNTERS). */
typedef struct {
	IrqstormDeviceCounters ch[IRQSTORM_NUM_CHANNELS];
	IRQSTORM_DEVICE_COUNTERS(IRQSTORM_COUNTER_FIELD)
} IrqstormDeviceState;

#undef IRQSTORM_COUNTER_FIELD

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
