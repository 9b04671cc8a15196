/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm guest protocol: what the rig tells the guest and what the guest
 * tells back, each declared once, as a table.
 *
 *   rig -> guest   guest.conf, key=value lines, through QEMU's fw_cfg
 *                  (opt/irqstorm/guest.conf), read by guest-init/init;
 *   guest -> rig   one line on the serial console at the end:
 *                  IRQSTORM-RESULT status=ok|error key=value ...
 *                  where the per-channel values come from the guest
 *                  driver's sysfs attributes of the same names.
 *
 * The rig (rig/) writes and parses these; the driver (kernel-series/)
 * builds its per-channel attributes from IRQSTORM_GUEST_CHANNEL_ATTRS; the
 * init, a shell script, sources what irqstorm-guest (guest-init/) prints
 * from these tables at build time. docs/abi.md describes the protocol.
 * Values are words of [A-Za-z0-9_.,:x-]; a per-channel value is one item
 * per channel, comma-separated ("-" for none).
 */
#ifndef IRQSTORM_GUEST_H
#define IRQSTORM_GUEST_H

#include "abi.h"

#define IRQSTORM_GUEST_CONF_FW_CFG	"opt/irqstorm/guest.conf"
#define IRQSTORM_GUEST_RESULT_TAG	"IRQSTORM-RESULT"

/*
 * guest.conf: X(key, "default", "meaning"). The init refuses a key not
 * here; an absent key takes its default (empty: the driver's own).
 */
#define IRQSTORM_GUEST_CONF(X)						\
	X(duration_ms, "", "the storm's length, ms of virtual time")	\
	X(irq_mode, "auto", "auto, intx, msi or msix: the driver's irq_mode") \
	X(channels, "1", "bit mask of the channels the driver services") \
	X(threading, "", "per channel: hardirq, threaded or forced")	\
	X(work, "", "per channel: none, pio, spin or ignore")		\
	X(work_context, "", "per channel: handler, tasklet, bh_workqueue, "	\
	  "workqueue or workqueue_highpri")				\
	X(resched, "", "per channel: cond_resched() every N PIO words") \
	X(bh_off_us, "", "per channel: in its IRQ thread, local_bh_disable() for N us per event") \
	X(spin_timeout_us, "10000", "bound of a spin work item, us")	\
	X(thread_prio, "", "per channel: SCHED_FIFO priority of its IRQ threads, or -") \
	X(thread_cpu, "", "per channel: CPU of its IRQ threads, or -")	\
	X(probe, "off", "on: run the real-time probe task")		\
	X(probe_prio, "80", "the probe's SCHED_FIFO priority")		\
	X(probe_period_us, "1000", "the probe's period, us")		\
	X(probe_cpu, "0", "the probe's CPU")				\
	X(i8042, "", "CHANNEL:TIMEOUT_US: run the i8042 region once")	\
	X(free_irq, "off", "on: free every channel's IRQ during the storm") \
	X(unload, "off", "on: rmmod the driver at the storm's end, not a stop") \
	X(stamps, "on", "off: the driver writes no stage stamps")	\
	X(handler_clock, "off", "on: the driver sums time in handlers")	\
	X(cyclictest, "off", "on: run Debian's cyclictest beside the probe") \
	X(cyclictest_prio, "79", "cyclictest's SCHED_FIFO priority")	\
	X(irq_cpu, "", "CPU every serviced channel's IRQ is routed to")	\
	X(channel_irq_cpu, "", "per channel: CPU its IRQ is routed to, or -") \
	X(hotplug_cpu, "", "CPU taken offline at 1/4 of the storm, online at 3/4") \
	X(irq_flip_us, "", "move the serviced IRQs to the next CPU every N us") \
	X(sync_irq, "", "CH:OTHER: CH's thread calls synchronize_irq() on OTHER's IRQ") \
	X(load_prio, "", "load the driver at this SCHED_FIFO priority")	\
	X(section, "", "KIND:US:CH: aim CH's triggered interrupt into KIND sections of US us") \
	X(section_cpu, "0", "the CPU the section and the i8042 region run on")			\
	X(section_pio_channel, "", "section pio: the channel whose PIO loop is the section") \
	X(plant, "", "per channel: a bug put in on purpose (IRQSTORM_PLANTS), or none")

/*
 * The driver's per-channel sysfs attributes (/sys/bus/pci/devices/D/
 * irqstorm/<name>, one value per channel, space-separated), each reported
 * as <name>=v0,v1,... in the result line: X(name, "meaning").
 */
#define IRQSTORM_GUEST_CHANNEL_ATTRS(X)					\
	X(irq, "the channel's Linux IRQ; -1: not serviced")		\
	X(threading, "hardirq, threaded or forced; -: not serviced")	\
	X(work, "none, pio, spin or ignore; -: not serviced")		\
	X(work_context, "where its work ran: handler, tasklet, "	\
	  "bh_workqueue, workqueue or workqueue_highpri; -: not serviced") \
	X(handled, "events its handlers completed")			\
	X(unclaimed, "hard interrupts with nothing to claim")		\
	X(spin_timeouts, "spin work items that timed out")		\
	X(handler_ns, "time in handlers, claim to ack (handler_clock)") \
	X(thread_pid, "the thread that ran its work; 0: none")		\
	X(primary_pid, "its primary handler's forced thread; 0: none")	\
	X(first_sched, "policy:priority of the first task to take or work an event") \
	X(overlaps, "handler entries while the same handler was running") \
	X(contexts, "the contexts its handlers ran in (IRQSTORM_GUEST_CONTEXT_ITEM)")

/*
 * The rest of the result line: X(key, "meaning"). reason, key and ch only
 * with status=error; probe_* only with the probe; cyclictest_* only with
 * cyclictest.
 */
#define IRQSTORM_GUEST_RESULTS(X)					\
	X(status, "ok, or error")					\
	X(reason, "error: what failed, one word")			\
	X(key, "error: the guest.conf key at fault")			\
	X(ch, "error: the channel at fault")				\
	X(irq_mode, "intx, msi or msix: what the driver got")		\
	X(irq_threads, "IRQ threads of the driver's actions (irq/N-, irq/N-s-)") \
	X(load_sched, "load_prio: its IRQ threads' policy:priority at load") \
	X(hotplug, "hotplug_cpu: ms the offline and online took, OFF:ON") \
	X(hotplug_handled, "hotplug_cpu: events handled while it was offline") \
	X(irq_flips, "irq_flip_us: affinity moves made")		\
	X(freed, "yes: free_irq ran during the storm")			\
	X(unloaded, "yes: the driver removed at the storm's end, read before") \
	X(thread_sched, "per channel: its IRQ thread's policy:priority") \
	X(i8042, "the i8042 region: completed:NS, timeout:NS or none")	\
	X(section, "the section sweep: done:N, ended:N, timeout:N or none (N sections run)") \
	X(probe_samples, "the probe's wake-ups during the storm")	\
	X(probe_max_ns, "their worst lateness, ns")			\
	X(probe_avg_ns, "their average lateness, ns")			\
	X(cyclictest_cycles, "cyclictest's cycles")			\
	X(cyclictest_min_us, "its minimum latency, us")			\
	X(cyclictest_avg_us, "its average latency, us")			\
	X(cyclictest_max_us, "its maximum latency, us")			\
	X(softirqs, "per softirq with any during the storm: NAME:N0:N1..., raised on each CPU") \
	X(ksoftirqd, "per CPU: ksoftirqd/N's context switches during the storm (it ran)")

/*
 * A channel's contexts value: the distinct contexts its handlers ran in,
 * ':'-separated, each ROLE.FLAGS.CPU.POLICY.PRIO.COUNT.FIRST, where ROLE
 * is IRQSTORM_CONTEXT_ROLES' name, FLAGS the IRQSTORM_CONTEXT_FLAGS bits
 * (decimal), POLICY and PRIO the task's (SCHED_* and rt_priority; "-" out
 * of task context), COUNT how many of the role's runs ran so, FIRST the
 * event of the first. Contexts past IRQSTORM_CONTEXT_SLOTS are counted in
 * a last item, more.N. Each is noted after the stamps of its handler; a
 * primary's before its thread is woken, so the thread stage includes it.
 */
#define IRQSTORM_GUEST_CONTEXT_ITEM	"ROLE.FLAGS.CPU.POLICY.PRIO.COUNT.FIRST"
#define IRQSTORM_CONTEXT_SLOTS	6

/* X(ID, bit, "name", "what"): the kernel's own tests (linux/preempt.h). */
#define IRQSTORM_CONTEXT_FLAGS(X)					\
	X(HARDIRQ, 0, "hardirq", "in_hardirq()")			\
	X(SOFTIRQ, 1, "softirq", "in_serving_softirq()")		\
	X(BH_OFF, 2, "bhoff", "softirq_count(): bottom halves disabled")	\
	X(IRQS_OFF, 3, "irqsoff", "irqs_disabled()")

#define IRQSTORM_CONTEXT_FLAG_ENUM(id, bit, name, help)	IRQSTORM_CTX_##id = 1u << (bit),
enum irqstorm_context_flag {
	IRQSTORM_CONTEXT_FLAGS(IRQSTORM_CONTEXT_FLAG_ENUM)
};

#undef IRQSTORM_CONTEXT_FLAG_ENUM

/*
 * The handlers whose context is noted, X(ID, "name", "which"): the primary
 * handler of a threaded channel (per run that claimed), and the handler
 * that takes each event (hardirq or forced handler, or the thread).
 */
#define IRQSTORM_CONTEXT_ROLES(X)					\
	X(PRIMARY, "primary", "a threaded channel's primary handler")	\
	X(HANDLER, "handler", "the handler or thread function that took the event")

#define IRQSTORM_CONTEXT_ROLE_ENUM(id, name, help)	IRQSTORM_ROLE_##id,
enum irqstorm_context_role {
	IRQSTORM_CONTEXT_ROLES(IRQSTORM_CONTEXT_ROLE_ENUM)
	IRQSTORM_ROLE_COUNT
};

#undef IRQSTORM_CONTEXT_ROLE_ENUM

/*
 * Bugs the driver plants on purpose (guest.conf's plant, the module
 * parameter plant=), to show that a check catches them: X(ID, "name",
 * "what it does", "what catches it").
 */
#define IRQSTORM_PLANTS(X)						\
	X(NONE, "none", "nothing", "-")					\
	X(IRQS_ON, "irqs_on", "a hard handler enables interrupts",	\
	  "genirq's WARN (kernel/irq/handle.c) and the context promise")	\
	X(SLEEP_ATOMIC, "sleep_atomic", "an IRQ thread sleeps with preemption off, once", \
	  "the scheduler: BUG: scheduling while atomic (kernel/sched/core.c)") \
	X(LOCK_ORDER, "lock_order", "an IRQ thread takes two locks in both orders, once", \
	  "lockdep, on a debug kernel: possible circular locking dependency")

#define IRQSTORM_PLANT_ENUM(id, name, what, caught)	IRQSTORM_PLANT_##id,
enum irqstorm_plant {
	IRQSTORM_PLANTS(IRQSTORM_PLANT_ENUM)
};

#define IRQSTORM_PLANT_ONE(id, name, what, caught)	+ 1
enum { IRQSTORM_PLANT_COUNT = 0 IRQSTORM_PLANTS(IRQSTORM_PLANT_ONE) };

#undef IRQSTORM_PLANT_ENUM
#undef IRQSTORM_PLANT_ONE

/*
 * The kinds of section a triggered sweep aims its interrupt into
 * (guest.conf's section): X(ID, "name", "what the section holds"). The
 * driver's "section" sysfs file runs them, but for "user", which
 * irqstorm-guest runs in user space, and "pio", which is another
 * channel's handler: its PIO work arms the trigger (pio_trigger).
 */
#define IRQSTORM_GUEST_SECTIONS(X)					\
	X(IRQS_OFF, "irqs_off", "local_irq_save(): hard interrupts off")	\
	X(PREEMPT_OFF, "preempt_off", "preempt_disable()")		\
	X(BH_OFF, "bh_off", "local_bh_disable(): on PREEMPT_RT a per-CPU lock") \
	X(SPINLOCK, "spinlock", "spin_lock(): on PREEMPT_RT a sleeping lock") \
	X(RAW_SPINLOCK, "raw_spinlock", "raw_spin_lock(): preemption off on every kernel") \
	X(USER, "user", "a busy loop in user space (irqstorm-guest section), SCHED_OTHER") \
	X(PIO, "pio", "the PIO loop of section_pio_channel's handler: inside another handler")

#define IRQSTORM_GUEST_SECTION_ENUM(id, name, help)	IRQSTORM_SECTION_##id,
enum irqstorm_guest_section {
	IRQSTORM_GUEST_SECTIONS(IRQSTORM_GUEST_SECTION_ENUM)
	IRQSTORM_SECTION_COUNT
};

#undef IRQSTORM_GUEST_SECTION_ENUM

/*
 * Where the driver runs an event's work (guest.conf's work_context):
 * X(ID, "name", "what runs it"). Deferred, the work's start is the bh stamp.
 */
#define IRQSTORM_WORK_CONTEXTS(X)					\
	X(HANDLER, "handler", "the handler that took the event: hardirq or thread") \
	X(TASKLET, "tasklet", "a tasklet: the TASKLET softirq")		\
	X(BH_WORKQUEUE, "bh_workqueue", "system_bh_wq: softirq context (WQ_BH, Linux 6.9+)") \
	X(WORKQUEUE, "workqueue", "system_wq: a kworker thread")	\
	X(WORKQUEUE_HIGHPRI, "workqueue_highpri", "system_highpri_wq: a high-priority kworker")

#define IRQSTORM_WORK_CONTEXT_ENUM(id, name, help)	IRQSTORM_CONTEXT_##id,
enum irqstorm_work_context {
	IRQSTORM_WORK_CONTEXTS(IRQSTORM_WORK_CONTEXT_ENUM)
	IRQSTORM_CONTEXT_COUNT
};

#undef IRQSTORM_WORK_CONTEXT_ENUM

/* One more row, for counting a table's rows. */
#define IRQSTORM_GUEST_ONE(id, name, help)	+ 1

/*
 * How the driver requests a channel's interrupt (guest.conf's threading,
 * the module parameter threading=): X(ID, "name", "how").
 */
#define IRQSTORM_THREADINGS(X)						\
	X(HARDIRQ, "hardirq", "request_irq() with IRQF_NO_THREAD: hard interrupt context always") \
	X(THREADED, "threaded", "request_threaded_irq(): a primary handler and an IRQ thread") \
	X(FORCED, "forced", "request_irq(): an IRQ thread only where the kernel forces threading")

#define IRQSTORM_THREADING_ENUM(id, name, help)	IRQSTORM_THREADING_##id,
enum irqstorm_threading {
	IRQSTORM_THREADINGS(IRQSTORM_THREADING_ENUM)
};

/* How many: apart, so that a switch over the enum need not name it. */
enum { IRQSTORM_THREADING_COUNT = 0 IRQSTORM_THREADINGS(IRQSTORM_GUEST_ONE) };

#undef IRQSTORM_THREADING_ENUM

/*
 * What the driver's handler does for an event (guest.conf's work, the
 * module parameter work=): X(ID, "name", "what").
 */
#define IRQSTORM_WORKS(X)						\
	X(NONE, "none", "claim the event and stamp it")		\
	X(PIO, "pio", "read pio_words 16-bit words from the data port, IDE-like") \
	X(SPIN, "spin", "poll the READY bit until the device sets it, i8042-like") \
	X(IGNORE, "ignore", "return IRQ_NONE: nobody cared")

#define IRQSTORM_WORK_ENUM(id, name, help)	IRQSTORM_WORK_##id,
enum irqstorm_work {
	IRQSTORM_WORKS(IRQSTORM_WORK_ENUM)
};

/* How many: apart, so that a switch over the enum need not name it. */
enum { IRQSTORM_WORK_COUNT = 0 IRQSTORM_WORKS(IRQSTORM_GUEST_ONE) };

#undef IRQSTORM_WORK_ENUM

/*
 * The device's interrupt modes by name, in the order of its register
 * (IRQSTORM_REG_IRQ_MODE, IRQSTORM_IRQ_MODE_ID of irqstorm/abi.h): what
 * guest.conf's irq_mode and the module parameter irq_mode= take, besides
 * IRQSTORM_IRQ_MODE_AUTO (MSI-X, else MSI, else INTx). X(ID, "name", "what").
 */
#define IRQSTORM_IRQ_MODE_AUTO	"auto"
#define IRQSTORM_IRQ_MODES(X)						\
	X(INTX, "intx", "the legacy pin: level-triggered, shared")	\
	X(MSI, "msi", "message-signalled: edge")			\
	X(MSIX, "msix", "MSI-X: edge, a vector per channel")

#endif /* IRQSTORM_GUEST_H */
