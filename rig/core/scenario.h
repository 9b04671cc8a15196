/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenario files: INI (GKeyFile) describing one run. Every key is validated;
 * unknown groups and keys are errors. See docs/scenarios.md.
 */
#ifndef IRQSTORM_SCENARIO_H
#define IRQSTORM_SCENARIO_H

#include <glib.h>

#include "irqstorm/abi.h"
#include "irqstorm/device.h"
#include "irqstorm/guest.h"
#include "summary-keys.h"

#define IRQSTORM_SCENARIO_ERROR (irqstorm_scenario_error_quark())
GQuark irqstorm_scenario_error_quark(void);

typedef enum {
	IRQSTORM_SCENARIO_ERROR_PARSE,		/* not an INI file */
	IRQSTORM_SCENARIO_ERROR_UNKNOWN,	/* unknown group or key */
	IRQSTORM_SCENARIO_ERROR_VALUE,		/* bad value */
	IRQSTORM_SCENARIO_ERROR_CONFLICT,	/* values that exclude each other */
} IrqstormScenarioError;

typedef enum {
	IRQSTORM_ACCEL_TCG,
	IRQSTORM_ACCEL_KVM,
	IRQSTORM_ACCEL_AUTO,	/* KVM when it initialises, else TCG */
} IrqstormAccel;

/* The device's firing patterns (QOM chN-pattern): irqstorm/device.h. */
typedef enum irqstorm_pattern IrqstormPattern;

/* The driver's threading modes, work kinds and work contexts (guest.conf's
 * threading, work, work_context): irqstorm/guest.h. */
typedef enum irqstorm_threading IrqstormThreading;
typedef enum irqstorm_work IrqstormWork;
typedef enum irqstorm_work_context IrqstormWorkContext;
/* Bugs the driver plants on purpose (guest.conf's plant): irqstorm/guest.h. */
typedef enum irqstorm_plant IrqstormPlant;

/* How the driver asks for interrupts (guest.conf's irq_mode): "auto", then
 * the device's modes (irqstorm/guest.h's IRQSTORM_IRQ_MODES), in order. */
#define IRQSTORM_IRQS_ENUM(id, name, help)	IRQSTORM_IRQS_##id,
typedef enum {
	IRQSTORM_IRQS_AUTO,
	IRQSTORM_IRQ_MODES(IRQSTORM_IRQS_ENUM)
} IrqstormIrqMode;
#undef IRQSTORM_IRQS_ENUM

/* [thresholds] <stage>_<stat>_us = limit: exceeding it makes exit status 2. */
typedef struct {
	char *stage;		/* a stage name: hardirq, thread, done, ... */
	IrqstormStat stat;	/* one that irqstorm_stat_boundable() */
	guint64 limit_ns;
} IrqstormThreshold;

/* [changes] SECONDS = group.key=value; ...: a device parameter changed over
 * QMP while the storm runs, once the storm's virtual time passes SECONDS. */
typedef struct {
	guint64 at_ns;		/* virtual time since the storm's first raise */
	guint channel;
	char *assignment;	/* "channel0.rate=5000", as written */
	char *qom_property;	/* "ch0-period-ns" */
	char *qom_json;		/* its new value as JSON: 200000, "burst", false */
} IrqstormChange;

#define IRQSTORM_ICOUNT_OFF (-1)
#define IRQSTORM_NONE (-1)	/* an unset optional integer */

/* [channelN]: the device's side, then the driver's, then the guest's. */
typedef struct {
	char *name;			/* how tables and figures call it
					 * ("critical"), or "" */
	IrqstormPattern pattern;
	gboolean enable;		/* the host's start/stop of the channel */
	guint64 period_ns;		/* from rate = Hz */
	guint burst;
	guint64 gap_ns;			/* from gap_us */
	guint64 seed;
	guint pio_words;
	guint64 ready_delay_ns;		/* from ready_delay_us */
	int ready_channel;		/* IRQSTORM_NONE or a channel */
	IrqstormThreading threading;
	IrqstormWork work;
	IrqstormWorkContext work_context;
	guint resched_every;		/* PIO words between cond_resched() */
	guint bh_off_us;		/* its thread's BH-disabled section */
	IrqstormPlant plant;		/* a bug put in on purpose */
	int thread_prio;		/* SCHED_FIFO priority, or IRQSTORM_NONE */
	int thread_cpu;			/* CPU, or IRQSTORM_NONE */
	int irq_cpu;			/* CPU its IRQ goes to, or IRQSTORM_NONE */
	guint64 trigger_start_ns;	/* triggered: the sweep's offsets */
	guint64 trigger_stop_ns;
	guint64 trigger_step_ns;
} IrqstormChannelSpec;

typedef struct {
	char *path;			/* the file it came from */

	/* [machine] */
	IrqstormAccel accel;
	guint cpus;
	guint memory_mb;
	int icount_shift;		/* IRQSTORM_ICOUNT_OFF or 0..10 */
	gboolean allow_smp_icount;	/* results then flagged as artifacts */
	guint quantum_ns;		/* -icount quantum with cpus > 1; 0: none */
	guint64 seed;			/* QEMU -seed: the guest's RDRAND */

	/* [kernel] */
	char *flavour;			/* "rt" or "dyn" */
	char *source;			/* "debian-6.12", "debian-6.1" or a
					 * tree's absolute path */
	char *patches;			/* "default", "ours", "none" */
	char *bh_lock;			/* "default", "on", "off": PREEMPT_RT's BH lock */
	gboolean debug;			/* the kernel's own detectors: KERNEL-debug */
	char *cmdline;			/* extra kernel boot options */

	/* [channel0] .. [channel3] */
	IrqstormChannelSpec ch[IRQSTORM_NUM_CHANNELS];

	/* [guest] */
	IrqstormIrqMode irq_mode;
	guint spin_timeout_us;
	gboolean probe;			/* run the real-time probe task */
	guint probe_prio;
	guint probe_period_us;
	guint probe_cpu;
	int i8042_channel;		/* run the i8042 region on it, or NONE */
	guint i8042_timeout_us;
	gboolean free_irq;		/* free_irq() every channel mid-storm */
	gboolean unload;		/* rmmod at the storm's end, not a stop */
	gboolean handler_clock;		/* guest sums time in handlers */
	gboolean cyclictest;		/* Debian's cyclictest beside the probe */
	guint cyclictest_prio;
	int irq_cpu;			/* every serviced IRQ's CPU, or NONE */
	int hotplug_cpu;		/* offline during the storm, or NONE */
	guint irq_flip_us;		/* move the IRQs every N us; 0: never */
	char *sync_irq;			/* "CH:OTHER", or empty */
	int load_prio;			/* load the driver at FIFO prio, or NONE */
	int section;			/* 0: none, else 1 + IRQSTORM_SECTION_* */
	guint section_us;		/* its length */
	int section_channel;		/* the triggered channel it arms, or NONE:
					 * untriggered, while the storm runs */
	guint section_cpu;		/* the CPU it runs on */
	int section_pio_channel;	/* section pio: the channel whose PIO
					 * work is the section, or NONE */

	/* [thresholds] */
	GArray *thresholds;		/* of IrqstormThreshold */

	/* [changes] */
	GArray *changes;		/* of IrqstormChange, by time */

	/* [profile.NAME] groups of group.key = value, chosen by [run] profile */
	GHashTable *profiles;		/* name -> GPtrArray of "group.key=value" */
	char *profile;			/* the one applied, or NULL */

	/* "group.key=value" given after the file (--set, run's options), in
	 * the order applied */
	GPtrArray *overrides;		/* of char * */

	/* [run] */
	guint64 duration_ms;		/* virtual time the storm runs */
	guint64 warmup_ms;		/* first records left out of the stages */
	guint64 grace_ms;		/* past duration, the device ends the storm */
	guint timeout_s;		/* wall-clock bound for the whole run */
	guint boot_timeout_s;		/* for the kernel's first console output */
	guint64 bin_ns;			/* histogram bin width */
	guint bins;			/* histogram bins before overflow */
	guint log_mb;			/* shared log size, power of two */
	gboolean stamps;		/* off: no stage stamps, no records */
	char *kernel_expect;		/* the kernel reports the run expects:
					 * kinds of kreports.h, ","-separated */
} IrqstormScenario;

IrqstormScenario *irqstorm_scenario_load(const char *path, GError **error);
IrqstormScenario *irqstorm_scenario_load_data(const char *name,
					      const char *data,
					      GError **error);
/*
 * One override "group.key=value" of the loaded scenario, given by where
 * (the option, "--set" or "--duration", that messages name); noted in
 * sc->overrides. A kernel.source that is not one of the names is a path
 * here, whatever it looks like ("."), against the current directory. The keys' values are checked, not how they go together:
 * after the last override, irqstorm_scenario_check() does that.
 */
gboolean irqstorm_scenario_override(IrqstormScenario *sc, const char *assignment,
				    const char *where, GError **error);
gboolean irqstorm_scenario_check(const IrqstormScenario *sc, const char *where,
				 GError **error);
/* One override from --set, then the check of the whole. */
gboolean irqstorm_scenario_set(IrqstormScenario *sc, const char *assignment,
			       GError **error);
void irqstorm_scenario_free(IrqstormScenario *sc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormScenario, irqstorm_scenario_free)

/*
 * The name the build gives the kernel a scenario boots, and its driver,
 * initramfs and identity: the flavour ("rt", "dyn"), with "-6.1" for
 * [kernel] source = debian-6.1 ("dyn-6.1"), "-tree-KEY" for a tree (KEY:
 * 8 hex digits of the SHA-256 of its absolute path), "-patches-none"
 * or "-patches-ours" when [kernel] patches is not the source's default, and
 * "-bh-lock" when [kernel] bh_lock = on builds PREEMPT_RT_NEEDS_BH_LOCK in
 * ("rt-7.3-bh-lock"); "-debug" last when [kernel] debug = true builds the
 * kernel's own detectors in (kernel-series/config/debug.config).
 */
char *irqstorm_scenario_kernel_name(const IrqstormScenario *sc);
/*
 * [machine] quantum_ns's default: 10 us windows of virtual time with several
 * vCPUs under icount. A cross-CPU interrupt then waits less than 10 us (the
 * resolution of a cross-CPU latency), below the latencies the cases measure,
 * at a wall cost bench/quantum.sh measures (docs/determinism.md).
 */
#define IRQSTORM_QUANTUM_NS_DEFAULT 10000u

/*
 * Icount on several vCPUs in windows of virtual time ([machine] quantum_ns,
 * QEMU's -icount quantum): the one way several vCPUs under icount are exact.
 */
gboolean irqstorm_scenario_smp_windows(const IrqstormScenario *sc);
/* The user's kernel tree ([kernel] source is a path), or NULL. */
const char *irqstorm_scenario_kernel_tree(const IrqstormScenario *sc);
/* "ours" or "none": [kernel] patches, its default resolved by the source
 * (ours for debian-6.12, none for the others). */
const char *irqstorm_scenario_patches(const IrqstormScenario *sc);

guint irqstorm_scenario_channel_mask(const IrqstormScenario *sc);
/* Does [kernel] cmdline have option opt, as a word OPT or OPT=VALUE? */
gboolean irqstorm_scenario_cmdline_has(const IrqstormScenario *sc, const char *opt);
guint64 irqstorm_scenario_cyclictest_min_cycles(const IrqstormScenario *sc);
const char *irqstorm_pattern_name(IrqstormPattern p);
const char *irqstorm_threading_name(IrqstormThreading t);
const char *irqstorm_work_name(IrqstormWork w);
const char *irqstorm_work_context_name(IrqstormWorkContext x);
const char *irqstorm_plant_name(IrqstormPlant p);
const char *irqstorm_irq_mode_name(IrqstormIrqMode m);
const char *irqstorm_accel_name(IrqstormAccel a);
/* sc->section's name: a kind of irqstorm/guest.h, or "none". */
const char *irqstorm_section_name(int section);
/* The offsets a triggered channel sweeps: 0 if none. */
guint64 irqstorm_scenario_offsets(const IrqstormChannelSpec *c);
char *irqstorm_scenario_to_ini(const IrqstormScenario *sc);

#endif /* IRQSTORM_SCENARIO_H */
