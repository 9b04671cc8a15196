/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results of one run: what was collected, how the run ended, the checks
 * that say whether the numbers can be trusted, and the files they go to.
 */
#ifndef IRQSTORM_RESULTS_H
#define IRQSTORM_RESULTS_H

#include <stdio.h>
#include <glib.h>

#include "collect.h"
#include "run.h"

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

/* A scenario change as it was applied over QMP during the run. */
typedef struct {
	const IrqstormChange *change;
	double applied_at_s;		/* storm's virtual time when sent, or -1 */
	char *error;			/* QEMU's refusal, or NULL */
} IrqstormAppliedChange;

/* A scenario threshold against what was measured. */
typedef struct {
	const IrqstormThreshold *threshold;
	gboolean measured;		/* the stage had samples */
	guint64 value_ns;
	gboolean exceeded;
} IrqstormLimitResult;

typedef struct {
	const IrqstormRunSettings *set;
	IrqstormCollected *data;	/* NULL if collection never started */

	/* device counters, read over QMP after the guest powered off */
	gboolean have_counters;
	char *counters_error;
	IrqstormDeviceCounters dev_ch[IRQSTORM_NUM_CHANNELS];
	guint64 dev_published, dev_lost, dev_guest_errors, dev_probes;
	IrqstormDeviceStorm dev_storm;

	/* how it ended */
	gboolean guest_shutdown;
	char *shutdown_reason;		/* QMP SHUTDOWN "reason" */
	char *stop_reason;		/* what ended the run otherwise */
	GHashTable *guest;		/* the IRQSTORM-RESULT line's key=value */
	GArray *changes;		/* of IrqstormAppliedChange, as applied */
	double guest_uptime_s;		/* last kernel log time stamp, or -1 */
	GPtrArray *kernel_events;	/* notable kernel log lines (char *) */
	double wall_seconds;
	double qemu_cpu_seconds;	/* QEMU's user + system CPU time */

	/* filled by irqstorm_results_finish() */
	gboolean complete;
	char *incomplete_reason;
	GPtrArray *failed_checks;	/* of char *, human-readable */
	GArray *limits;			/* of IrqstormLimitResult, one per threshold */
	GPtrArray *stalls;		/* why the guest stalled (char *), if it did */
} IrqstormResults;

IrqstormResults *irqstorm_results_new(const IrqstormRunSettings *set);
void irqstorm_results_free(IrqstormResults *res);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormResults, irqstorm_results_free)

gboolean irqstorm_results_begin(IrqstormResults *res, GError **error);
void irqstorm_results_read_console(IrqstormResults *res, const char *path);
GHashTable *irqstorm_parse_result_line(const char *console_text);
double irqstorm_last_printk_time(const char *console_text);
GPtrArray *irqstorm_kernel_events(const char *console_text);
int irqstorm_results_finish(IrqstormResults *res, GError **error);
void irqstorm_results_print(const IrqstormResults *res, FILE *out);

#endif /* IRQSTORM_RESULTS_H */
