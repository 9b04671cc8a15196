/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm device interface for the host: the firing patterns, the
 * channel properties and the counters of the QEMU device, each declared
 * once, as a table. The device (qemu-device/) builds its QOM properties
 * from these tables; the rig (rig/) writes its -device options, reads the
 * counters back over QMP and names them in summary.json from the same
 * rows. docs/abi.md describes them for humans.
 *
 * Each table is an X-macro: IRQSTORM_FOO(X) expands X(...) once per row,
 * and a user defines X to pick the columns it needs.
 */
#ifndef IRQSTORM_DEVICE_H
#define IRQSTORM_DEVICE_H

#include "abi.h"

/*
 * ---- Patterns -----------------------------------------------------------
 * X(ID, "name", "how the channel fires"): QOM chN-pattern takes the name.
 */
#define IRQSTORM_PATTERNS(X)						\
	X(OFF, "off", "never")						\
	X(PERIODIC, "periodic", "every period-ns")			\
	X(POISSON, "poisson",						\
	  "exponential gaps of mean period-ns, from seed")		\
	X(BURST, "burst",						\
	  "burst firings period-ns apart, then gap-ns to the next")	\
	X(ONESHOT, "oneshot", "once, period-ns after the start")	\
	X(TRIGGERED, "triggered",					\
	  "once per guest trigger, the sweep's next offset after it")

#define IRQSTORM_PATTERN_ENUM(id, name, help)	IRQSTORM_PATTERN_##id,
enum irqstorm_pattern {
	IRQSTORM_PATTERNS(IRQSTORM_PATTERN_ENUM)
	IRQSTORM_PATTERN_COUNT
};

#undef IRQSTORM_PATTERN_ENUM

/* ---- Channel properties ---------------------------------------------- */

#define IRQSTORM_MIN_PERIOD_NS		100ULL	/* 10 MHz: beyond any guest */
#define IRQSTORM_MAX_NS			1000000000000ULL	/* 1000 s */
#define IRQSTORM_MAX_BURST		1000000ULL
#define IRQSTORM_MAX_PIO_WORDS		(1ULL << 24)
/* A trigger's offset fits the record's 32-bit offset field: at most 4 s. */
#define IRQSTORM_MAX_TRIGGER_NS		4000000000ULL

/*
 * QOM properties chN-<name> of each channel n, settable on -device and
 * at run time (qom-set), each refused outside [min, max]:
 *
 * X(ID, field, "name", type, min, max, default, timing, "meaning")
 *
 * field is the device's member for it; type is PATTERN (a pattern's name),
 * U64, U32, I32 or BOOL; default is an expression of the channel n; timing
 * says whether a change re-times the channel's schedule.
 */
#define IRQSTORM_CHANNEL_PROPS(X)					\
	X(PATTERN, pattern, "pattern", PATTERN, 0, IRQSTORM_PATTERN_COUNT - 1, \
	  IRQSTORM_PATTERN_OFF, 1,					\
	  "off, periodic, poisson, burst, oneshot or triggered")	\
	X(PERIOD_NS, period_ns, "period-ns", U64,			\
	  IRQSTORM_MIN_PERIOD_NS, IRQSTORM_MAX_NS, 1000000, 1,		\
	  "period; Poisson mean; burst spacing; one-shot delay")	\
	X(GAP_NS, gap_ns, "gap-ns", U64,				\
	  IRQSTORM_MIN_PERIOD_NS, IRQSTORM_MAX_NS, 1000000, 1,		\
	  "burst: from a burst's last firing to the next")		\
	X(BURST, burst, "burst", U32, 1, IRQSTORM_MAX_BURST, 1, 1,	\
	  "burst: firings per burst")					\
	X(SEED, seed, "seed", U64, 0, UINT64_MAX, (n) + 1, 1,		\
	  "poisson: the generator's seed")				\
	X(ENABLE, enable, "enable", BOOL, 0, 1, 1, 1,			\
	  "the host's start/stop of this channel")			\
	X(PIO_WORDS, pio_words, "pio-words", U32, 0, IRQSTORM_MAX_PIO_WORDS, \
	  0, 0, "PIO data words per event")				\
	X(READY_DELAY_NS, ready_delay_ns, "ready-delay-ns", U64, 0,	\
	  IRQSTORM_MAX_NS, 0, 0,					\
	  "busy-wait: READY this long after the raise")			\
	X(READY_CHANNEL, ready_channel, "ready-channel", I32, -1,	\
	  IRQSTORM_NUM_CHANNELS - 1, -1, 0,				\
	  "busy-wait: READY once that channel completed an event (-1: use ready-delay-ns)") \
	X(TRIGGER_START_NS, trigger_start_ns, "trigger-start-ns", U64, 0, \
	  IRQSTORM_MAX_TRIGGER_NS, 0, 0,				\
	  "triggered: the sweep's first offset from a trigger, ns")	\
	X(TRIGGER_STOP_NS, trigger_stop_ns, "trigger-stop-ns", U64, 0,	\
	  IRQSTORM_MAX_TRIGGER_NS, 0, 0,				\
	  "triggered: its last offset, ns (none below the first)")	\
	X(TRIGGER_STEP_NS, trigger_step_ns, "trigger-step-ns", U64, 1,	\
	  IRQSTORM_MAX_TRIGGER_NS, 8, 0,				\
	  "triggered: from one trigger's offset to the next's, ns")

/*
 * The offsets a triggered channel sweeps in one storm: start, start +
 * step, ... up to stop; none when stop is below start (step >= 1).
 */
static inline uint64_t irqstorm_trigger_offsets(uint64_t start, uint64_t stop,
						uint64_t step)
{
	return stop < start ? 0 : (stop - start) / step + 1;
}

#define IRQSTORM_CHANNEL_PROP_ENUM(id, f, name, type, min, max, dflt, t, h) \
	IRQSTORM_CHANNEL_PROP_##id,
enum irqstorm_channel_prop {
	IRQSTORM_CHANNEL_PROPS(IRQSTORM_CHANNEL_PROP_ENUM)
	IRQSTORM_CHANNEL_PROP_COUNT
};

#undef IRQSTORM_CHANNEL_PROP_ENUM

/*
 * Device-wide properties, on -device only (not settable at run time).
 * stamps (bool, default on): off takes no stamps and logs nothing, for
 * what the instrumentation costs; storm-ns (uint64, default 0: none): a
 * storm's bound, ns of virtual time after the guest set RUN; pause-ns
 * (uint64, default 0: never): pause the VM when QEMU_CLOCK_VIRTUAL reaches
 * it, between two guest instructions, for a debugger (irqstorm explain
 * --gdb).
 */
#define IRQSTORM_PROP_STAMPS		"stamps"
#define IRQSTORM_PROP_STORM_NS		"storm-ns"
#define IRQSTORM_PROP_PAUSE_NS		"pause-ns"

/* ---- Counters ---------------------------------------------------------- */

/*
 * Read-only QOM counters (uint64), qom-get by the rig after the run: per
 * channel chN-<name>, and device-wide <name>. The device keeps them in
 * arrays indexed by these enums; the rig names them in summary.json by
 * their field.
 *
 * X(ID, field, "name", [total,] "meaning"): a channel counter's total over
 * the channels is their SUM, or for a high-water mark their PEAK.
 */
#define IRQSTORM_CHANNEL_COUNTERS(X)					\
	X(RAISED, raised, "raised", SUM, "pattern firings")		\
	X(COALESCED, coalesced, "coalesced", SUM,			\
	  "level: firings merged into a queued event")			\
	X(OVERLAPPED, overlapped, "overlapped", SUM,			\
	  "edge: events raised with others queued")			\
	X(DROPPED, dropped, "dropped", SUM,				\
	  "firings that found the queue full")				\
	X(QUEUE_MAX, queue_max, "queue-max", PEAK,			\
	  "the most events the queue ever held")			\
	X(HANDLED, handled, "handled", SUM,				\
	  "done stamps (acks with stamps off)")				\
	X(INCOMPLETE, incomplete, "incomplete", SUM,			\
	  "events published without a done stamp")			\
	X(IN_FLIGHT, in_flight, "in-flight", SUM,			\
	  "queued events not handled yet")				\
	X(PIO_READS, pio_reads, "pio-reads", SUM, "PIO data words read") \
	X(READY_POLLS, ready_polls, "ready-polls", SUM,			\
	  "busy-wait status polls")					\
	X(TRIGGERS, triggers, "triggers", SUM,				\
	  "triggered: guest triggers that armed a firing")

#define IRQSTORM_DEVICE_COUNTERS(X)					\
	X(PUBLISHED, published, "log-published",			\
	  "records published into the log")				\
	X(LOST, lost, "log-lost", "records dropped: the log was full")	\
	X(GUEST_ERRORS, guest_errors, "guest-errors",			\
	  "guest misuse of the registers")				\
	X(PROBES, probes, "probes", "probe records")			\
	X(STORMS, storms, "storms", "storms begun: RUN set")		\
	X(STORM_START_NS, storm_start_ns, "storm-start-ns",		\
	  "the last storm's start, ns of virtual time")			\
	X(STORM_END_NS, storm_end_ns, "storm-end-ns",			\
	  "its end, by either side")					\
	X(GUEST_STOP_NS, guest_stop_ns, "guest-stop-ns",		\
	  "the guest's own stop of it, or 0")				\
	X(STORM_DEVICE_END, storm_device_end, "storm-device-end",	\
	  "1: its bound ended it")					\
	X(STORM_BACKLOG, storm_backlog, "storm-backlog",		\
	  "events in flight at its end")

#define IRQSTORM_CHANNEL_COUNTER_ENUM(id, field, name, total, help) \
	IRQSTORM_CHANNEL_COUNTER_##id,
enum irqstorm_channel_counter {
	IRQSTORM_CHANNEL_COUNTERS(IRQSTORM_CHANNEL_COUNTER_ENUM)
	IRQSTORM_CHANNEL_COUNTER_COUNT
};

#undef IRQSTORM_CHANNEL_COUNTER_ENUM

#define IRQSTORM_DEVICE_COUNTER_ENUM(id, field, name, help)	IRQSTORM_DEVICE_COUNTER_##id,
enum irqstorm_device_counter {
	IRQSTORM_DEVICE_COUNTERS(IRQSTORM_DEVICE_COUNTER_ENUM)
	IRQSTORM_DEVICE_COUNTER_COUNT
};

#undef IRQSTORM_DEVICE_COUNTER_ENUM

#endif /* IRQSTORM_DEVICE_H */
