// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A scenario's cross-checks: the combinations of keys that cannot give a
 * trustworthy run, refused with what to do instead (scenario.h).
 */
#include "scenario.h"

#include <stdio.h>
#include <string.h>

#include "fail.h"
#include "kreports.h"
#include "scenario-names.h"

#define NCH IRQSTORM_NUM_CHANNELS

/* Keys that cannot go together: the message, FALSE. */
#define conflict(error, ...)						\
	irqstorm_fail(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT, \
		      __VA_ARGS__)

/* A channel's name: a word that is not a number (--channel takes either),
 * another active channel's not. */
static gboolean name_check(const IrqstormScenario *sc, guint n, const char *where,
			   GError **error)
{
	const char *name = sc->ch[n].name;

	if (!*name)
		return TRUE;
	if (strlen(name) > 32 || g_ascii_isdigit(name[0]) ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
	    strlen(name))
		return conflict(error, "%s: [channel%u] name = %s: a name is a word of letters, "
				"digits, '_' and '-' (at most 32), not starting with a digit, "
				"e.g. critical", where, n, name);
	for (guint m = 0; m < n; m++)
		if (sc->ch[m].pattern != IRQSTORM_PATTERN_OFF && !strcmp(sc->ch[m].name, name))
			return conflict(error, "%s: [channel%u] name = %s is [channel%u]'s "
					"name too", where, n, name, m);
	return TRUE;
}

/* A channel's settings must make sense together and with the others. */
static gboolean channel_check(const IrqstormScenario *sc, guint n,
			      const char *where, GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[n];
	guint active = irqstorm_scenario_channel_mask(sc);

	if (c->pattern == IRQSTORM_PATTERN_OFF)
		return TRUE;
	if (!name_check(sc, n, where, error))
		return FALSE;
	if (!sc->stamps && (c->work == IRQSTORM_WORK_PIO || c->work == IRQSTORM_WORK_SPIN))
		return conflict(error, "%s: [channel%u] work = %s needs [run] stamps = "
				"true: the device hands out work per tracked event",
				where, n, irqstorm_work_name(c->work));
	if (c->work == IRQSTORM_WORK_PIO && !c->pio_words)
		return conflict(error, "%s: [channel%u] work = pio needs pio_words > 0",
				where, n);
	if (c->ready_channel != IRQSTORM_NONE &&
	    (c->ready_channel == (int)n || !(active & 1u << c->ready_channel)))
		return conflict(error, "%s: [channel%u] ready_channel = %d must be "
				"another active channel", where, n, c->ready_channel);
	if (c->threading == IRQSTORM_THREADING_HARDIRQ &&
	    (c->thread_prio != IRQSTORM_NONE || c->thread_cpu != IRQSTORM_NONE))
		return conflict(error, "%s: [channel%u] threading = hardirq has no "
				"IRQ thread for thread_prio/thread_cpu", where, n);
	if (c->threading == IRQSTORM_THREADING_HARDIRQ && c->bh_off_us)
		return conflict(error, "%s: [channel%u] bh_off_us is a section of the "
				"IRQ thread, and threading = hardirq has none", where, n);
	if (c->thread_cpu != IRQSTORM_NONE && (guint)c->thread_cpu >= sc->cpus)
		return conflict(error, "%s: [channel%u] thread_cpu = %d, but the "
				"machine has %u CPUs", where, n, c->thread_cpu, sc->cpus);
	if (c->irq_cpu != IRQSTORM_NONE && (guint)c->irq_cpu >= sc->cpus)
		return conflict(error, "%s: [channel%u] irq_cpu = %d, but the "
				"machine has %u CPUs", where, n, c->irq_cpu, sc->cpus);
	if (c->irq_cpu != IRQSTORM_NONE && sc->irq_cpu != IRQSTORM_NONE)
		return conflict(error, "%s: [channel%u] irq_cpu routes this channel's "
				"IRQ, [guest] irq_cpu every channel's: not both", where, n);
	return TRUE;
}

/*
 * [channelN] plant: a bug where the driver plants it, and that what would
 * catch it is there: irqs_on in a hard handler; sleep_atomic and
 * lock_order in an IRQ thread with interrupts on; lock_order seen by
 * lockdep only, on a debug kernel.
 */
static gboolean plant_check(const IrqstormScenario *sc, guint n, const char *where,
			    GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[n];
	IrqstormThreading want = c->plant == IRQSTORM_PLANT_IRQS_ON ?
		IRQSTORM_THREADING_HARDIRQ : IRQSTORM_THREADING_THREADED;

	if (c->plant == IRQSTORM_PLANT_NONE)
		return TRUE;
	if (c->threading != want)
		return conflict(error, "%s: [channel%u] plant = %s is planted in %s, "
				"which needs threading = %s", where, n,
				irqstorm_plant_name(c->plant), want ==
				IRQSTORM_THREADING_HARDIRQ ? "a hard handler" : "an IRQ thread",
				irqstorm_threading_name(want));
	if (c->plant == IRQSTORM_PLANT_LOCK_ORDER && !sc->debug)
		return conflict(error, "%s: [channel%u] plant = lock_order is seen by "
				"lockdep only: it needs [kernel] debug = true", where, n);
	return TRUE;
}

/* [run] kernel_expect: fault kinds of kreports.h, each once. */
static gboolean kernel_expect_check(const IrqstormScenario *sc, const char *where,
				    GError **error)
{
	g_auto(GStrv) kinds = irqstorm_kreport_kinds_split(sc->kernel_expect);
	g_autofree char *known = irqstorm_kreport_kinds();

	for (guint i = 0; kinds[i]; i++) {
		if (!irqstorm_kreport_kind_known(kinds[i]))
			return conflict(error, "%s: [run] kernel_expect = '%s': '%s' is no "
					"kind of kernel report; the kinds: %s", where,
					sc->kernel_expect, kinds[i], known);
		for (guint k = 0; k < i; k++)
			if (!strcmp(kinds[k], kinds[i]))
				return conflict(error, "%s: [run] kernel_expect = '%s': "
						"'%s' twice", where, sc->kernel_expect,
						kinds[i]);
	}
	return TRUE;
}

/* [guest] sync_irq = "CH:OTHER": two distinct active channels, CH threaded. */
static gboolean sync_irq_check(const IrqstormScenario *sc, const char *where,
			       GError **error)
{
	guint active = irqstorm_scenario_channel_mask(sc);
	unsigned ch, other;
	char end;

	if (!*sc->sync_irq)
		return TRUE;
	if (sscanf(sc->sync_irq, "%u:%u%c", &ch, &other, &end) != 2 ||
	    ch >= NCH || other >= NCH || ch == other)
		return conflict(error, "%s: [guest] sync_irq = '%s': expected CH:OTHER, "
				"two different channels 0..%u", where, sc->sync_irq,
				NCH - 1);
	if (!(active & 1u << ch) || !(active & 1u << other) ||
	    sc->ch[ch].threading != IRQSTORM_THREADING_THREADED)
		return conflict(error, "%s: [guest] sync_irq = '%s': both channels "
				"must storm, and channel %u be threaded", where,
				sc->sync_irq, ch);
	return TRUE;
}

guint64 irqstorm_scenario_offsets(const IrqstormChannelSpec *c)
{
	if (c->pattern != IRQSTORM_PATTERN_TRIGGERED)
		return 0;
	return irqstorm_trigger_offsets(c->trigger_start_ns, c->trigger_stop_ns,
					c->trigger_step_ns);
}

/* A triggered channel's sweep: where it is aimed, and that it can be. */
static gboolean trigger_check(const IrqstormScenario *sc, guint n,
			      const char *where, GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[n];

	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF)
		return conflict(error, "%s: [channel%u] pattern = triggered needs "
				"[machine] icount: an offset in virtual time means "
				"an instruction only when virtual time counts them",
				where, n);
	if (c->trigger_stop_ns < c->trigger_start_ns)
		return conflict(error, "%s: [channel%u] trigger_stop_ns = %" G_GUINT64_FORMAT
				" is before trigger_start_ns = %" G_GUINT64_FORMAT
				": the sweep would be empty", where, n,
				c->trigger_stop_ns, c->trigger_start_ns);
	if (sc->section == 0 || sc->section_channel != (int)n)
		return conflict(error, "%s: [channel%u] pattern = triggered fires only "
				"when a section arms it: set [guest] section (e.g. "
				"irqs_off) and section_channel = %u", where, n, n);
	if (c->trigger_stop_ns > (guint64)sc->section_us * 1000)
		return conflict(error, "%s: [channel%u] trigger_stop_ns = %" G_GUINT64_FORMAT
				" is beyond the section: [guest] section_us = %u "
				"ends at %u000 ns", where, n, c->trigger_stop_ns,
				sc->section_us, sc->section_us);
	return TRUE;
}

/*
 * section = pio: the section is another channel's PIO loop, which arms
 * the trigger each time it starts: a periodic pio channel whose period
 * outlasts the offsets (a trigger must fire before the next one).
 */
static gboolean pio_section_check(const IrqstormScenario *sc, const char *where,
				  GError **error)
{
	int p = sc->section_pio_channel;
	const IrqstormChannelSpec *c;

	if (sc->section != 1 + IRQSTORM_SECTION_PIO)
		return p == IRQSTORM_NONE ? TRUE :
		       conflict(error, "%s: [guest] section_pio_channel is for section = pio",
				where);
	if (p == IRQSTORM_NONE || p == sc->section_channel)
		return conflict(error, "%s: [guest] section = pio needs section_pio_channel: "
				"the channel whose handler's PIO loop is the section, "
				"another than section_channel", where);
	c = &sc->ch[p];
	if (c->pattern != IRQSTORM_PATTERN_PERIODIC || c->work != IRQSTORM_WORK_PIO ||
	    !c->pio_words)
		return conflict(error, "%s: [channel%d] must be periodic with work = pio "
				"for section = pio", where, p);
	if (sc->section_channel != IRQSTORM_NONE &&
	    sc->ch[sc->section_channel].trigger_stop_ns >= c->period_ns)
		return conflict(error, "%s: [channel%d] trigger_stop_ns = %" G_GUINT64_FORMAT
				" must be shorter than [channel%d]'s period (%" G_GUINT64_FORMAT
				" ns): each PIO loop triggers once, after the last firing",
				where, sc->section_channel,
				sc->ch[sc->section_channel].trigger_stop_ns, p, c->period_ns);
	return TRUE;
}

/* [guest] section: a section sweeps a triggered channel, on a CPU there is. */
static gboolean section_check(const IrqstormScenario *sc, const char *where,
			      GError **error)
{
	for (guint n = 0; n < NCH; n++)
		if (sc->ch[n].pattern == IRQSTORM_PATTERN_TRIGGERED &&
		    !trigger_check(sc, n, where, error))
			return FALSE;
	if (sc->section == 0)
		return TRUE;
	if (sc->section_channel != IRQSTORM_NONE &&
	    sc->ch[sc->section_channel].pattern != IRQSTORM_PATTERN_TRIGGERED)
		return conflict(error, "%s: [guest] section = %s arms channel %d's "
				"trigger, but [channel%d] pattern is not triggered "
				"(section_channel = none: sections with no trigger)",
				where, irqstorm_section_names[sc->section], sc->section_channel,
				sc->section_channel);
	if (sc->section_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] section_cpu = %u, but the machine "
				"has %u CPUs", where, sc->section_cpu, sc->cpus);
	if (!pio_section_check(sc, where, error))
		return FALSE;
	if (sc->i8042_channel != IRQSTORM_NONE || sc->hotplug_cpu != IRQSTORM_NONE)
		return conflict(error, "%s: [guest] section takes the storm's place: "
				"no i8042 region or hotplug_cpu beside it", where);
	return TRUE;
}

/* INTx: one line for every channel, routed to one CPU. */
static gboolean intx_irq_cpu_check(const IrqstormScenario *sc, const char *where,
				   GError **error)
{
	int first = IRQSTORM_NONE;

	if (sc->irq_mode != IRQSTORM_IRQS_INTX)
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		int cpu = sc->ch[n].irq_cpu;

		if (sc->ch[n].pattern == IRQSTORM_PATTERN_OFF || cpu == IRQSTORM_NONE)
			continue;
		if (first != IRQSTORM_NONE && cpu != first)
			return conflict(error, "%s: [channel%u] irq_cpu = %d, but irq_mode = "
					"intx gives every channel one line, routed to CPU %d "
					"for another channel", where, n, cpu, first);
		first = cpu;
	}
	return TRUE;
}

/* The [guest] keys of tests beyond one vCPU: CPUs the machine has. */
static gboolean guest_check(const IrqstormScenario *sc, const char *where,
			    GError **error)
{
	if (sc->irq_cpu != IRQSTORM_NONE && (guint)sc->irq_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] irq_cpu = %d, but the machine "
				"has %u CPUs", where, sc->irq_cpu, sc->cpus);
	if (sc->hotplug_cpu != IRQSTORM_NONE && (guint)sc->hotplug_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] hotplug_cpu = %d, but the machine "
				"has %u CPUs (CPU 0 cannot go offline)", where,
				sc->hotplug_cpu, sc->cpus);
	if (sc->irq_flip_us && sc->cpus < 2)
		return conflict(error, "%s: [guest] irq_flip_us moves interrupts "
				"between CPUs: it needs [machine] cpus >= 2", where);
	if (sc->probe && sc->probe_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] probe_cpu = %u, but the machine "
				"has %u CPUs", where, sc->probe_cpu, sc->cpus);
	if (sc->unload && (sc->section || sc->i8042_channel != IRQSTORM_NONE ||
			   sc->irq_flip_us))
		return conflict(error, "%s: [guest] unload removes the driver while "
				"the device storms: no section, i8042 region or "
				"irq_flip_us beside it (they need the driver to the end)",
				where);
	return sync_irq_check(sc, where, error) && section_check(sc, where, error) &&
	       intx_irq_cpu_check(sc, where, error) && kernel_expect_check(sc, where, error);
}

/* The [kernel] group's combinations that cannot be built or would mislead. */
/*
 * [kernel] bh_lock: PREEMPT_RT's per-CPU BH lock, where the source makes it
 * a choice (7.x: PREEMPT_RT_NEEDS_BH_LOCK, off by default; a tree: tried).
 * 6.12's PREEMPT_RT always takes it: on is its own kernel, off cannot be.
 */
static gboolean bh_lock_check(const IrqstormScenario *sc, const char *where,
			      GError **error)
{
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);

	if (!strcmp(sc->bh_lock, "default"))
		return TRUE;
	if (strcmp(sc->flavour, "rt"))
		return conflict(error, "%s: [kernel] bh_lock = %s with flavour = %s: the "
				"BH lock is PREEMPT_RT's (flavour = rt); without it "
				"local_bh_disable() keeps softirqs off the CPU, no lock",
				where, sc->bh_lock, sc->flavour);
	if (d && !d->bh_lock_choice &&
	    !strcmp(sc->bh_lock, "off"))
		return conflict(error, "%s: [kernel] bh_lock = off with source = %s: its "
				"PREEMPT_RT always serialises a CPU's bottom halves with the "
				"per-CPU BH lock (PREEMPT_RT_NEEDS_BH_LOCK, which makes it a "
				"choice, came in 7.x: source = debian-7.3)", where, sc->source);
	return TRUE;
}

static gboolean kernel_check(const IrqstormScenario *sc, const char *where,
			     GError **error)
{
	const char *patches = irqstorm_scenario_patches(sc);
	static const char *const needs_series[] = { "irqthread.prio=", "threadirqs=single" };
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);

	if (d && !d->rt && strcmp(sc->flavour, "dyn"))
		return conflict(error, "%s: [kernel] source = %s with flavour = %s: "
				"Debian's linux-source-%s has no PREEMPT_RT (merged in "
				"6.12); use flavour = dyn", where, sc->source, sc->flavour,
				sc->source + strlen("debian-"));
	if (d && !d->series && !strcmp(patches, "ours"))
		return conflict(error, "%s: [kernel] source = %s with patches = ours: "
				"kernel-series/ is made for linux-source-6.12 and 7.3 and is "
				"not applied to %s; use patches = none (its default)", where,
				sc->source, sc->source + strlen("debian-"));
	for (guint n = 0; d && !d->bh_workqueue && n < NCH; n++)
		if (sc->ch[n].pattern != IRQSTORM_PATTERN_OFF &&
		    sc->ch[n].work_context == IRQSTORM_CONTEXT_BH_WORKQUEUE)
			return conflict(error, "%s: [channel%u] work_context = bh_workqueue with "
					"[kernel] source = %s: BH workqueues (WQ_BH) came "
					"in Linux 6.9; use tasklet, the softirq they replace",
					where, n, sc->source);
	if (!bh_lock_check(sc, where, error))
		return FALSE;
	for (gsize i = 0; !strcmp(patches, "none") && i < G_N_ELEMENTS(needs_series); i++)
		if (strstr(sc->cmdline, needs_series[i]))
			return conflict(error, "%s: [kernel] cmdline has %s, which only "
					"kernel-series/ gives the kernel, but the kernel is built "
					"with patches = none (set [kernel] patches = ours, on "
					"debian-6.12, debian-7.3 or a tree they apply to)",
					where, needs_series[i]);
	return TRUE;
}

/* Cross-key rules: combinations that cannot give trustworthy results. */
gboolean irqstorm_scenario_check(const IrqstormScenario *sc, const char *where,
				 GError **error)
{
	guint active = irqstorm_scenario_channel_mask(sc);

	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->accel == IRQSTORM_ACCEL_KVM)
		return conflict(error, "%s: [machine] icount needs accel = tcg: KVM runs "
				"the guest on the host CPU and cannot count "
				"instructions (set icount = off for KVM)", where);
	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->cpus > 1 &&
	    !irqstorm_scenario_smp_windows(sc) && !sc->allow_smp_icount)
		return conflict(error, "%s: [machine] icount with cpus = %u and quantum_ns = 0: "
				"all vCPUs then share one virtual clock round-robin, so a "
				"busy vCPU delays the others in virtual time and "
				"cross-CPU latencies become artifacts "
				"(docs/determinism.md). Leave quantum_ns at its default or set "
				"it (windows of virtual time, every vCPU at full speed, "
				"exact), or use cpus = 1, "
				"or icount = off, or set allow_smp_icount = true to accept "
				"flagged results", where, sc->cpus);
	if (!kernel_check(sc, where, error))
		return FALSE;
	if (sc->log_mb & (sc->log_mb - 1)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [run] log_mb = %u: must be a power of two", where,
			    sc->log_mb);
		return FALSE;
	}
	if (!active)
		return conflict(error, "%s: every channel has pattern = off: nothing "
				"would storm", where);
	if (sc->warmup_ms >= sc->duration_ms)
		return conflict(error, "%s: [run] warmup (%.3f s) must be shorter than "
				"duration (%.3f s)", where, sc->warmup_ms / 1e3,
				sc->duration_ms / 1e3);
	for (guint n = 0; n < NCH; n++)
		if (!channel_check(sc, n, where, error) || !plant_check(sc, n, where, error))
			return FALSE;
	for (guint i = 0; i < sc->changes->len; i++) {
		const IrqstormChange *c = &g_array_index(sc->changes, IrqstormChange, i);

		if (!(active & 1u << c->channel))
			return conflict(error, "%s: [changes] '%s': channel %u does not "
					"storm from the start, so the guest does not "
					"service it", where, c->assignment, c->channel);
	}
	if (sc->i8042_channel != IRQSTORM_NONE && !(active & 1u << sc->i8042_channel))
		return conflict(error, "%s: [guest] i8042_channel = %d is not an "
				"active channel", where, sc->i8042_channel);
	if (!sc->stamps && (sc->probe || sc->thresholds->len))
		return conflict(error, "%s: [run] stamps = false records no latencies: "
				"no probe, no thresholds", where);
	return guest_check(sc, where, error);
}
