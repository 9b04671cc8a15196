// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm guest driver: services the irqstorm QEMU device's interrupts and
 * stamps each stage (hardirq, thread, done) through its registers.
 *
 * Each channel of the device gets its own irqaction, with its own threading
 * mode (module parameter "threading", one word per channel):
 *
 *   hardirq   IRQF_NO_THREAD: the whole handler in hard interrupt context,
 *             even under threadirqs or PREEMPT_RT (2004's SA_NOTHREAD).
 *   threaded  request_threaded_irq(): the primary handler claims the events
 *             and stamps hardirq, the thread stamps thread and does the work;
 *             IRQF_ONESHOT on INTx keeps the level line masked meanwhile.
 *   forced    plain request_irq(): threaded only when the kernel forces it
 *             (threadirqs, PREEMPT_RT).
 *
 * and its own work ("work"): none; pio, reading the device's PIO data port
 * word by word like a non-DMA IDE completion (optionally with cond_resched()
 * every "resched" words, the 2004 preemptible IDE completion); or spin,
 * polling the device's busy-wait status with a bound ("spin_timeout_us");
 * or ignore, a handler that never recognises its device's interrupt and
 * returns IRQ_NONE (the kernel's "nobody cared" detection then disables a
 * level line that stays asserted).
 *
 * Interrupts are INTx (one shared line), MSI or MSI-X ("irq_mode"), one
 * vector per channel where the vectors allow; channels that end up on the
 * same vector (x86 without interrupt remapping grants one MSI vector) share
 * it with IRQF_SHARED, as on INTx.
 *
 * Each channel counts the times one of its handlers was entered while it
 * was already running ("overlaps"): genirq runs a hard interrupt handler,
 * and an interrupt thread's function, on one CPU at a time, and the FIFO
 * between primary handler and thread relies on it.
 *
 * Sweeps: "pio_trigger" makes a channel's PIO work arm another channel's
 * trigger at its start, so a triggered sweep aims that channel's
 * interrupt into the PIO loop of this one's handler.
 *
 * Each channel notes the contexts its handlers ran in ("contexts": hard
 * or soft interrupt, bottom halves and interrupts disabled, CPU, policy
 * and priority), for the rig to hold against what genirq promises the
 * channel's threading mode.
 *
 * Planted bugs ("plant", per channel; irqstorm/guest.h IRQSTORM_PLANTS):
 * put in on purpose, to show that the checks catching them are checks.
 *
 * Test hook: "sync_irq" makes a channel's thread function call
 * synchronize_irq() on another channel's interrupt, as drivers whose
 * threaded handler waits for another interrupt (regmap-irq on a slow bus)
 * do.
 *
 * The "i8042" sysfs file runs the 2004 i8042 pattern on demand: with
 * preemption disabled, spin until a channel's interrupt has been handled.
 * The "section" file runs a triggered sweep: a section of code of a chosen
 * kind, again and again, each time arming the device to raise a channel's
 * interrupt a sweep's next offset into it.
 *
 * Register map: include/irqstorm/abi.h (docs/abi.md).
 */
#include <linux/atomic.h>
#include <linux/bottom_half.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/kfifo.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include <irqstorm/abi.h>
#include <irqstorm/guest.h>

/*
 * Older kernels, down to Debian's linux-source-6.1: INTx was PCI_IRQ_LEGACY
 * before 6.8, and a BAR was mapped through the table of pcim_iomap_regions()
 * before 6.11 added pcim_iomap_region() (Kbuild tells which the tree has).
 * Nothing else differs.
 */
#ifndef PCI_IRQ_INTX
#define PCI_IRQ_INTX PCI_IRQ_LEGACY
#endif

#ifdef IRQSTORM_NO_PCIM_IOMAP_REGION
static void __iomem *pcim_iomap_region(struct pci_dev *pdev, int bar,
				       const char *name)
{
	int ret = pcim_iomap_regions(pdev, BIT(bar), name);

	return ret ? IOMEM_ERR_PTR(ret) : pcim_iomap_table(pdev)[bar];
}
#endif

#define DRV_NAME	"irqstorm"
#define NCH		IRQSTORM_NUM_CHANNELS
/* Claimed events awaiting a thread: room for every event the device queues. */
#define FIFO_SIZE	IRQSTORM_QUEUE_DEPTH
/* How long a stop waits for a channel's deferred events: a hang detector. */
#define IRQSTORM_DRAIN_TIMEOUT	(10 * HZ)
/* The per-CPU system workqueue: system_wq is deprecated where it exists. */
#ifdef IRQSTORM_NO_PERCPU_WQ
#define irqstorm_percpu_wq	system_wq
#else
#define irqstorm_percpu_wq	system_percpu_wq
#endif

/*
 * The names of the threading modes, work kinds and work contexts, by
 * their enums: irqstorm/guest.h.
 */
#define IRQSTORM_THREADING_NAME(id, name, ...)	\
	[IRQSTORM_THREADING_##id] = name,
static const char * const threading_names[] = {
	IRQSTORM_THREADINGS(IRQSTORM_THREADING_NAME)
};

#undef IRQSTORM_THREADING_NAME

#define IRQSTORM_WORK_NAME(id, name, ...)	\
	[IRQSTORM_WORK_##id] = name,
static const char * const work_names[] = {
	IRQSTORM_WORKS(IRQSTORM_WORK_NAME)
};

#undef IRQSTORM_WORK_NAME

#define IRQSTORM_CONTEXT_NAME(id, name, ...)	\
	[IRQSTORM_CONTEXT_##id] = name,
static const char * const context_names[] = {
	IRQSTORM_WORK_CONTEXTS(IRQSTORM_CONTEXT_NAME)
};

#undef IRQSTORM_CONTEXT_NAME

#define IRQSTORM_ROLE_NAME(id, name, ...)	\
	[IRQSTORM_ROLE_##id] = name,
static const char * const role_names[] = {
	IRQSTORM_CONTEXT_ROLES(IRQSTORM_ROLE_NAME)
};

#undef IRQSTORM_ROLE_NAME

#define IRQSTORM_PLANT_NAME(id, name, ...)	\
	[IRQSTORM_PLANT_##id] = name,
static const char * const plant_names[] = {
	IRQSTORM_PLANTS(IRQSTORM_PLANT_NAME)
};

#undef IRQSTORM_PLANT_NAME

/* The device's modes, by its register's value (IRQSTORM_REG_IRQ_MODE). */
#define IRQSTORM_MODE_NAME(id, name, ...)	\
	[IRQSTORM_IRQ_MODE_##id] = name,
static const char * const irq_mode_names[] = {
	IRQSTORM_IRQ_MODES(IRQSTORM_MODE_NAME)
};

#undef IRQSTORM_MODE_NAME

static char *irq_mode = "auto";
module_param(irq_mode, charp, 0444);
MODULE_PARM_DESC(irq_mode, "auto (MSI-X, else MSI, else INTx), intx, msi or msix");

static uint channels = 0x1;
module_param(channels, uint, 0444);
MODULE_PARM_DESC(channels, "Bit mask of the channels to service (default 0x1)");

static char *threading[NCH];
static int n_threading;
module_param_array(threading, charp, &n_threading, 0444);
MODULE_PARM_DESC(threading, "Per channel: hardirq, threaded (default) or forced");

static char *work[NCH];
static int n_work;
module_param_array(work, charp, &n_work, 0444);
MODULE_PARM_DESC(work, "Per channel: none (default), pio, spin or ignore");

static uint resched[NCH];
static int n_resched;
module_param_array(resched, uint, &n_resched, 0444);
MODULE_PARM_DESC(resched, "Per channel: cond_resched() every N PIO words in thread context (0: never)");

static char *work_context[NCH];
static int n_work_context;
module_param_array(work_context, charp, &n_work_context, 0444);
MODULE_PARM_DESC(work_context, "Per channel: where the work runs: handler (default), tasklet, bh_workqueue, workqueue or workqueue_highpri");

static uint bh_off_us[NCH];
static int n_bh_off_us;
module_param_array(bh_off_us, uint, &n_bh_off_us, 0444);
MODULE_PARM_DESC(bh_off_us, "Per channel: in its IRQ thread, hold local_bh_disable() this long before each event's work (on PREEMPT_RT the per-CPU BH lock)");

static bool stamps = true;
module_param(stamps, bool, 0444);
MODULE_PARM_DESC(stamps, "Write the stage stamps (default on; off only to measure their cost)");

static bool handler_clock;
module_param(handler_clock, bool, 0444);
MODULE_PARM_DESC(handler_clock, "Sum each channel's time in handlers into handler_ns (costs two clock reads per event)");

static uint spin_timeout_us = 10000;
module_param(spin_timeout_us, uint, 0444);
MODULE_PARM_DESC(spin_timeout_us, "Bound of a spin work item, us (default 10000)");

static char *name_suffix = "";
module_param(name_suffix, charp, 0444);
MODULE_PARM_DESC(name_suffix, "Appended to each channel's IRQ action name irqstormN (default none; e.g. :card0, for names with ':')");

static int sync_irq[NCH] = { [0 ... NCH - 1] = -1 };
static int n_sync_irq;
module_param_array(sync_irq, int, &n_sync_irq, 0444);
MODULE_PARM_DESC(sync_irq, "Per channel: the channel whose IRQ its thread function synchronize_irq()s after each run (-1: none; threaded channels only)");

static char *plant[NCH];
static int n_plant;
module_param_array(plant, charp, &n_plant, 0444);
MODULE_PARM_DESC(plant, "Per channel: a bug put in on purpose, to prove a check (none, irqs_on, sleep_atomic, lock_order)");

static int pio_trigger[NCH] = { [0 ... NCH - 1] = -1 };
static int n_pio_trigger;
module_param_array(pio_trigger, int, &n_pio_trigger, 0444);
MODULE_PARM_DESC(pio_trigger, "Per channel: the channel whose trigger its PIO work arms at its start while that channel's sweep lasts (-1: none; pio channels only)");

struct irqstorm;

/* A context a channel's handler ran in (irqstorm_context_sig()). */
struct irqstorm_context {
	u32 sig;
	u32 first;		/* the event of the first run so */
	u64 count;
};

struct irqstorm_chan {
	struct irqstorm *st;
	unsigned int index;
	/* IRQ requested and not freed: st->lock; cleared under mask_lock too */
	bool active;
	bool shared;		/* its IRQ is shared with other channels */
	int irq;
	enum irqstorm_threading threading;
	enum irqstorm_work work;
	enum irqstorm_work_context context;
	unsigned int resched;
	unsigned int bh_off_us;	/* in its thread: a BH-disabled section */
	struct irqstorm_chan *sync;	/* sync_irq: the channel to wait for */
	struct irqstorm_chan *pio_trigger; /* the channel its PIO work triggers */
	char name[32];
	/*
	 * Events claimed by the primary handler, for the thread. No lock:
	 * one producer (the primary handler, never concurrent with itself
	 * for one irqaction) and one consumer (the irq thread, likewise).
	 */
	DECLARE_KFIFO(seqs, u32, FIFO_SIZE);
	/*
	 * Events whose work is deferred, for the bottom half: one producer
	 * (the handler or thread that took them) and one consumer (the
	 * tasklet or work item, neither ever concurrent with itself).
	 */
	DECLARE_KFIFO(bh_seqs, u32, FIFO_SIZE);
	/*
	 * On INTx: the handler's mask and put, and the bottom half's check
	 * for nothing left and unmask, each as one step (else an unmask
	 * could undo the mask of an event put just after the check).
	 */
	raw_spinlock_t mask_lock;
	struct tasklet_struct tasklet;
	struct work_struct bh_work;
	/* Statistics: handlers may run on any CPU, sysfs reads them anywhere. */
	atomic64_t handled;
	atomic64_t unclaimed;
	atomic64_t spin_timeouts;
	atomic64_t handler_ns;	/* with handler_clock: in handlers, claim to ack */
	atomic64_t overlaps;	/* a handler entered while it was running */
	/* Handlers running now: the primary, and the handler or thread. */
	atomic_t in_primary;
	atomic_t in_handler;
	pid_t thread_pid;	/* the thread that runs the work, if any */
	pid_t primary_pid;	/* threaded mode's primary, if forced into a thread */
	/*
	 * Policy and priority of the thread when it took its first event,
	 * written once by the thread that wins first_claim, then published
	 * by first_seen (release; sysfs reads it with acquire).
	 */
	int first_policy;
	int first_prio;
	atomic_t first_claim;
	bool first_seen;
	/* The contexts its handlers ran in, in the order first seen. */
	raw_spinlock_t ctx_lock;
	struct irqstorm_context ctx[IRQSTORM_CONTEXT_SLOTS];
	unsigned int n_ctx;	/* slots used: ctx_lock */
	u64 ctx_more;		/* runs in contexts past the slots: ctx_lock */
	enum irqstorm_plant plant;
	atomic_t planted;	/* events the plant has acted on */
};

struct irqstorm {
	struct pci_dev *pdev;
	void __iomem *regs;
	void __iomem *pio;
	u32 irq_mode;
	struct irqstorm_chan ch[NCH];
	/* Serialises freeing a channel's IRQ (the free attribute). */
	struct mutex lock;
	/* Serialises runs of the regions (i8042, section), guards results. */
	struct mutex region_lock;
	char i8042_result[48];
	char section_result[48];
	/* What the spinlock and raw_spinlock sections hold. */
	spinlock_t section_lock;
	raw_spinlock_t section_raw_lock;
	/* The two locks plant=lock_order takes in both orders: two classes. */
	spinlock_t plant_a;	/* taken first by the first planted run */
	spinlock_t plant_b;	/* taken first by the second */
};

static u32 irqstorm_read(struct irqstorm *st, unsigned int reg)
{
	return readl(st->regs + reg);
}

static void irqstorm_write(struct irqstorm *st, unsigned int reg, u32 val)
{
	writel(val, st->regs + reg);
}

/* A stage stamp, unless stamps are off (to measure what they cost). */
static void irqstorm_stamp(struct irqstorm *st, unsigned int reg, u32 seq)
{
	if (stamps)
		irqstorm_write(st, reg, seq);
}

static u32 irqstorm_ch_read(struct irqstorm_chan *c, unsigned int reg)
{
	return irqstorm_read(c->st, IRQSTORM_REG_CH(c->index, reg));
}

/* A handler of c starts, with its own running count: one at a time. */
static void irqstorm_enter(struct irqstorm_chan *c, atomic_t *running)
{
	if (atomic_inc_return(running) > 1)
		atomic64_inc(&c->overlaps);
}

static void irqstorm_leave(atomic_t *running)
{
	atomic_dec(running);
}

/*
 * The context the caller runs in, as the kernel itself tests it, packed:
 * IRQSTORM_CTX_* flags, CPU, and in a task its policy and priority.
 */
static u32 irqstorm_context_sig(void)
{
	u32 flags = 0, policy = 0xff, prio = 0xff;

	if (in_hardirq())
		flags |= IRQSTORM_CTX_HARDIRQ;
	if (in_serving_softirq())
		flags |= IRQSTORM_CTX_SOFTIRQ;
	if (softirq_count())
		flags |= IRQSTORM_CTX_BH_OFF;
	if (irqs_disabled())
		flags |= IRQSTORM_CTX_IRQS_OFF;
	if (in_task()) {
		policy = current->policy & 0xff;
		prio = current->rt_priority & 0xff;
	}
	return flags | (raw_smp_processor_id() & 0xff) << 8 | policy << 16 | prio << 24;
}

/*
 * Note that c's handler of role ran in sig's context for event seq. The
 * lock, not the promise of one run at a time, guards the slots: the
 * primary and the thread run side by side, and a broken promise is what
 * this is here to see.
 */
static void irqstorm_note_context(struct irqstorm_chan *c, unsigned int role, u32 sig,
				  u32 seq)
{
	unsigned long flags;
	unsigned int i;

	sig = (sig & ~0xf0u) | role << 4;
	raw_spin_lock_irqsave(&c->ctx_lock, flags);
	for (i = 0; i < c->n_ctx && c->ctx[i].sig != sig; i++)
		;
	if (i == c->n_ctx && i < IRQSTORM_CONTEXT_SLOTS) {
		c->ctx[i].sig = sig;
		c->ctx[i].first = seq;
		c->n_ctx++;
	}
	if (i < c->n_ctx)
		c->ctx[i].count++;
	else
		c->ctx_more++;
	raw_spin_unlock_irqrestore(&c->ctx_lock, flags);
}

/*
 * plant=sleep_atomic: sleep once with preemption disabled. The scheduler
 * reports it and resets the count (schedule_debug()); re-enable only if
 * it did not, so that the count stays balanced either way.
 */
static void irqstorm_plant_sleep_atomic(void)
{
	preempt_disable();
	usleep_range(1000, 2000);
	if (preempt_count() & PREEMPT_MASK)
		preempt_enable();
}

/* plant=lock_order: the two locks, a then b, or b then a. */
static void irqstorm_plant_lock_order(struct irqstorm *st, bool reverse)
{
	spinlock_t *a = reverse ? &st->plant_b : &st->plant_a;
	spinlock_t *b = reverse ? &st->plant_a : &st->plant_b;

	spin_lock(a);
	spin_lock(b);
	spin_unlock(b);
	spin_unlock(a);
}

/*
 * The bug c plants, in the handler that takes an event: in hard interrupt
 * context for irqs_on, in a task for the others (the first two events).
 */
static void irqstorm_plant(struct irqstorm_chan *c)
{
	switch (c->plant) {
	case IRQSTORM_PLANT_NONE:
		break;
	case IRQSTORM_PLANT_IRQS_ON:
		if (in_hardirq())
			local_irq_enable();
		break;
	case IRQSTORM_PLANT_SLEEP_ATOMIC:
		if (in_task() && !irqs_disabled() && !atomic_fetch_inc(&c->planted))
			irqstorm_plant_sleep_atomic();
		break;
	case IRQSTORM_PLANT_LOCK_ORDER:
		if (in_task() && atomic_read(&c->planted) < 2)
			irqstorm_plant_lock_order(c->st, atomic_fetch_inc(&c->planted));
		break;
	}
}

/*
 * PIO work: every data word through the I/O port, as a non-DMA IDE does,
 * with cond_resched() every resched words where the caller may sleep.
 * With pio_trigger, the loop is a sweep's section: it first arms the other
 * channel's trigger, while that channel has offsets left.
 */
static void irqstorm_work_pio(struct irqstorm_chan *c, bool may_sleep)
{
	u32 words = irqstorm_ch_read(c, IRQSTORM_CH_PIO_LEFT);
	struct irqstorm_chan *t = c->pio_trigger;
	u32 i;

	if (t && irqstorm_ch_read(t, IRQSTORM_CH_TRIGGERS_LEFT))
		irqstorm_write(c->st, IRQSTORM_REG_TRIGGER, BIT(t->index));
	for (i = 1; i <= words; i++) {
		ioread16(c->st->pio + IRQSTORM_PIO_DATA(c->index));
		if (may_sleep && c->resched && i % c->resched == 0)
			cond_resched();
	}
}

/* Spin work: poll the busy-wait status, bounded by spin_timeout_us. */
static void irqstorm_work_spin(struct irqstorm_chan *c)
{
	ktime_t end = ktime_add_us(ktime_get(), spin_timeout_us);

	while (!(irqstorm_ch_read(c, IRQSTORM_CH_READY) & IRQSTORM_READY)) {
		if (ktime_after(ktime_get(), end)) {
			atomic64_inc(&c->spin_timeouts);
			return;
		}
		cpu_relax();
	}
}

/*
 * An event taken: the stamp of its stage (stage_reg). The first task that
 * takes one (an IRQ thread; a kworker) notes its policy and priority.
 */
static void irqstorm_take(struct irqstorm_chan *c, u32 seq, unsigned int stage_reg)
{
	irqstorm_stamp(c->st, stage_reg, seq);
	if (in_task() && !atomic_cmpxchg(&c->first_claim, 0, 1)) {
		c->first_policy = current->policy;
		c->first_prio = current->rt_priority;
		/* Pairs with the acquire in sysfs: the two above, then this. */
		smp_store_release(&c->first_seen, true);
	}
}

/*
 * A taken event's work, then its done stamp and ack. may_sleep: the caller
 * runs in a task that may sleep (an IRQ thread function, a kworker), not
 * in hard or soft interrupt context nor in a forced thread, whose handler
 * runs with BHs off (irq_forced_thread_fn(): on PREEMPT_RT an RCU read
 * section, where cond_resched() must not be called).
 */
static void irqstorm_process(struct irqstorm_chan *c, u32 seq, bool may_sleep)
{
	ktime_t start = handler_clock ? ktime_get() : 0;

	switch (c->work) {
	case IRQSTORM_WORK_PIO:
		irqstorm_work_pio(c, may_sleep);
		break;
	case IRQSTORM_WORK_SPIN:
		irqstorm_work_spin(c);
		break;
	case IRQSTORM_WORK_NONE:
	case IRQSTORM_WORK_IGNORE:
		break;
	}
	irqstorm_stamp(c->st, IRQSTORM_REG_STAMP_DONE, seq);
	irqstorm_write(c->st, IRQSTORM_REG_ACK, BIT(c->index));
	if (handler_clock)
		atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), start)), &c->handler_ns);
	atomic64_inc(&c->handled);
}

static u32 irqstorm_claim(struct irqstorm_chan *c)
{
	return irqstorm_ch_read(c, IRQSTORM_CH_CLAIM);
}

/*
 * The BH-disabled section of a thread. A forced thread (!may_sleep)
 * already runs with BHs off: the section is then only the delay
 * (local_bh_enable() with interrupts off, as without PREEMPT_RT, would
 * warn).
 */
static void irqstorm_bh_off(struct irqstorm_chan *c, bool may_sleep)
{
	if (may_sleep)
		local_bh_disable();
	udelay(c->bh_off_us);
	if (may_sleep)
		local_bh_enable();
}

/*
 * A claimed event, taken in stage_reg's stage (stamped first, so that the
 * stage's latency is the wake-up's alone), then, in a thread, the BH-disabled
 * section; its work done there or handed to the bottom half. On a level
 * line the channel is masked first, until the bottom half has acked its
 * events: its line would fire again on return.
 */
static void irqstorm_handle(struct irqstorm_chan *c, u32 seq, unsigned int stage_reg,
			    bool may_sleep)
{
	unsigned long flags;

	irqstorm_take(c, seq, stage_reg);
	irqstorm_plant(c);
	if (c->bh_off_us && in_task())
		irqstorm_bh_off(c, may_sleep);
	if (c->context == IRQSTORM_CONTEXT_HANDLER) {
		irqstorm_process(c, seq, may_sleep);
	} else {
		raw_spin_lock_irqsave(&c->mask_lock, flags);
		if (c->st->irq_mode == IRQSTORM_IRQ_MODE_INTX)
			irqstorm_write(c->st, IRQSTORM_REG_MASK_SET, BIT(c->index));
		/* Never full: it holds no more events than the device queues. */
		WARN_ON_ONCE(!kfifo_put(&c->bh_seqs, seq));
		raw_spin_unlock_irqrestore(&c->mask_lock, flags);
	}
	irqstorm_note_context(c, IRQSTORM_ROLE_HANDLER, irqstorm_context_sig(), seq);
}

/* Run the bottom half of the events irqstorm_handle() deferred. */
static void irqstorm_defer(struct irqstorm_chan *c)
{
	switch (c->context) {
	case IRQSTORM_CONTEXT_HANDLER:
	case IRQSTORM_CONTEXT_COUNT:
		break;
	case IRQSTORM_CONTEXT_TASKLET:
		tasklet_schedule(&c->tasklet);
		break;
	case IRQSTORM_CONTEXT_BH_WORKQUEUE:
#ifndef IRQSTORM_NO_BH_WORKQUEUE
		queue_work(system_bh_wq, &c->bh_work);
#endif
		break;
	case IRQSTORM_CONTEXT_WORKQUEUE:
		queue_work(irqstorm_percpu_wq, &c->bh_work);
		break;
	case IRQSTORM_CONTEXT_WORKQUEUE_HIGHPRI:
		queue_work(system_highpri_wq, &c->bh_work);
		break;
	}
}

/*
 * The bottom half: one deferred event's work per run, as NAPI polls with a
 * budget, then queued again while events wait, so that the kernel's own
 * limits (__do_softirq()'s restarts and 2 ms, a worker's rescheduling)
 * decide how long deferred work holds the CPU; once none is left, the
 * channel is unmasked (unless its IRQ was freed meanwhile: its line, maybe
 * shared, would fire for nobody) and irqstorm_drain_bottom_half() woken. A
 * handler that queues more queues the bottom half itself.
 */
static void irqstorm_bottom_half(struct irqstorm_chan *c)
{
	unsigned long flags;
	bool more;
	u32 seq;

	if (kfifo_get(&c->bh_seqs, &seq)) {
		irqstorm_take(c, seq, IRQSTORM_REG_STAMP_BH);
		irqstorm_process(c, seq, c->context == IRQSTORM_CONTEXT_WORKQUEUE ||
				 c->context == IRQSTORM_CONTEXT_WORKQUEUE_HIGHPRI);
	}
	raw_spin_lock_irqsave(&c->mask_lock, flags);
	more = !kfifo_is_empty(&c->bh_seqs);
	if (!more && c->st->irq_mode == IRQSTORM_IRQ_MODE_INTX && c->active)
		irqstorm_write(c->st, IRQSTORM_REG_MASK_CLEAR, BIT(c->index));
	raw_spin_unlock_irqrestore(&c->mask_lock, flags);
	if (more) {
		irqstorm_defer(c);
		return;
	}
	/* The empty fifo before the waiter's check: pairs with wait_var_event(). */
	smp_mb();
	wake_up_var(&c->bh_seqs);
}

static void irqstorm_tasklet(struct tasklet_struct *t)
{
	struct irqstorm_chan *c = from_tasklet(c, t, tasklet);

	irqstorm_bottom_half(c);
}

static void irqstorm_bh_work(struct work_struct *w)
{
	irqstorm_bottom_half(container_of(w, struct irqstorm_chan, bh_work));
}

/*
 * hardirq and forced modes: one handler does everything. Whether it runs
 * in hard interrupt context or in a (forced) thread is known only at run
 * time, so the first stamp says which. Woken with nothing to claim, a
 * thread still tells its pid (see irqstorm_find_thread()).
 */
static irqreturn_t irqstorm_handler(int irq, void *data)
{
	struct irqstorm_chan *c = data;
	bool hard = in_hardirq();
	irqreturn_t ret = IRQ_NONE;
	u32 seq;

	irqstorm_enter(c, &c->in_handler);
	if (!hard)
		WRITE_ONCE(c->thread_pid, task_pid_nr(current));
	while (c->work != IRQSTORM_WORK_IGNORE && (seq = irqstorm_claim(c))) {
		irqstorm_handle(c, seq, hard ? IRQSTORM_REG_STAMP_HARDIRQ :
				IRQSTORM_REG_STAMP_THREAD, false);
		ret = IRQ_HANDLED;
	}
	if (ret == IRQ_HANDLED)
		irqstorm_defer(c);
	if (ret == IRQ_NONE && hard)
		atomic64_inc(&c->unclaimed);
	irqstorm_leave(&c->in_handler);
	return ret;
}

/*
 * threaded mode, primary handler: claim every event, stamp, wake the
 * thread. It runs in hard interrupt context, except where the kernel forces
 * even primary handlers into a thread (PREEMPT_RT or threadirqs, for
 * requests without IRQF_ONESHOT: MSI here); then it stamps nothing, since
 * no hard interrupt handler of ours ever ran, and woken with nothing to
 * claim it passes the wake on so the second thread tells its pid too.
 */
static irqreturn_t irqstorm_primary(int irq, void *data)
{
	struct irqstorm_chan *c = data;
	bool hard = in_hardirq();
	u32 seq, first = 0;

	irqstorm_enter(c, &c->in_primary);
	if (!hard)
		WRITE_ONCE(c->primary_pid, task_pid_nr(current));
	while (c->work != IRQSTORM_WORK_IGNORE && !kfifo_is_full(&c->seqs) &&
	       (seq = irqstorm_claim(c))) {
		if (hard)
			irqstorm_stamp(c->st, IRQSTORM_REG_STAMP_HARDIRQ, seq);
		kfifo_put(&c->seqs, seq);
		first = first ?: seq;
	}
	if (first)
		irqstorm_note_context(c, IRQSTORM_ROLE_PRIMARY, irqstorm_context_sig(),
				      first);
	irqstorm_leave(&c->in_primary);
	if (!first && hard) {
		atomic64_inc(&c->unclaimed);
		return IRQ_NONE;
	}
	return IRQ_WAKE_THREAD;
}

/*
 * threaded mode, thread function: the events in the order claimed. With
 * sync_irq, it then waits for another channel's handlers to finish, which
 * can only end if they run elsewhere than this thread.
 */
static irqreturn_t irqstorm_thread(int irq, void *data)
{
	struct irqstorm_chan *c = data;
	u32 seq;

	irqstorm_enter(c, &c->in_handler);
	WRITE_ONCE(c->thread_pid, task_pid_nr(current));
	while (kfifo_get(&c->seqs, &seq))
		irqstorm_handle(c, seq, IRQSTORM_REG_STAMP_THREAD, true);
	irqstorm_defer(c);
	irqstorm_leave(&c->in_handler);
	if (c->sync)
		synchronize_irq(c->sync->irq);
	return IRQ_HANDLED;
}

static int irqstorm_request(struct device *dev, struct irqstorm_chan *c)
{
	/*
	 * Level INTx is one line for all channels; an MSI vector is shared
	 * only when there are fewer vectors than channels. ONESHOT keeps a
	 * level line masked until the thread ran; edge vectors need not.
	 */
	bool intx = c->st->irq_mode == IRQSTORM_IRQ_MODE_INTX;
	unsigned long shared = c->shared ? IRQF_SHARED : 0;

	switch (c->threading) {
	case IRQSTORM_THREADING_HARDIRQ:
		return devm_request_irq(dev, c->irq, irqstorm_handler,
					shared | IRQF_NO_THREAD, c->name, c);
	case IRQSTORM_THREADING_THREADED:
		return devm_request_threaded_irq(dev, c->irq, irqstorm_primary,
						 irqstorm_thread,
						 shared | (intx ? IRQF_ONESHOT : 0),
						 c->name, c);
	case IRQSTORM_THREADING_FORCED:
		return devm_request_irq(dev, c->irq, irqstorm_handler, shared,
					c->name, c);
	}
	return -EINVAL;
}

/*
 * Make a threaded channel's irq thread run once, with nothing to claim, so
 * that it records its pid for sysfs: user space can then set the thread's
 * priority and affinity before the storm starts. A channel with no thread
 * (hardirq, or forced without forced threading) is left alone by the wake;
 * a forced primary thread passes it on to the second thread.
 */
static void irqstorm_find_thread(struct irqstorm_chan *c)
{
	if (c->threading != IRQSTORM_THREADING_HARDIRQ)
		irq_wake_thread(c->irq, c);
}

/*
 * Once no handler defers more: wait until the channel's bottom half has
 * taken every deferred event and its last run has returned. A run that
 * finds events left queues the next itself, so flush_work() alone would
 * wait for one run; and on SMP, tasklet_kill() makes the reschedule of a
 * run on another CPU a no-op, stranding the rest (an INTx channel masked).
 */
static void irqstorm_drain_bottom_half(struct irqstorm_chan *c)
{
	if (!wait_var_event_timeout(&c->bh_seqs, kfifo_is_empty(&c->bh_seqs),
				    IRQSTORM_DRAIN_TIMEOUT))
		dev_err(&c->st->pdev->dev,
			"channel %u: %u deferred events not run within %u s\n",
			c->index, kfifo_len(&c->bh_seqs),
			IRQSTORM_DRAIN_TIMEOUT / HZ);
	tasklet_unlock_wait(&c->tasklet);
	flush_work(&c->bh_work);
}

/*
 * Stop the storm and wait until no handler, thread or bottom half is still
 * running; a bottom half's unmask may let a queued event in once more.
 */
static void irqstorm_stop(struct irqstorm *st)
{
	unsigned int i, round;

	irqstorm_write(st, IRQSTORM_REG_CTRL, 0);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < NCH; i++)
			if (READ_ONCE(st->ch[i].active))
				synchronize_irq(st->ch[i].irq);
		for (i = 0; i < NCH; i++)
			irqstorm_drain_bottom_half(&st->ch[i]);
	}
}

static void irqstorm_stop_action(void *data)
{
	irqstorm_stop(data);
}

/*
 * After the IRQs are freed (and the storm stopped, its bottom halves
 * drained): none is queued or running when the module goes. Only a bottom
 * half queues itself now, and both calls stop one that does.
 */
static void irqstorm_kill_bottom_halves(void *data)
{
	struct irqstorm *st = data;
	unsigned int i;

	for (i = 0; i < NCH; i++) {
		tasklet_kill(&st->ch[i].tasklet);
		cancel_work_sync(&st->ch[i].bh_work);
	}
}

/* ---- sysfs ----------------------------------------------------------- */

typedef void (*irqstorm_show_fn)(struct irqstorm_chan *c, char *buf, int *len);

/* One value per channel, space-separated: an array of one type. */
static ssize_t irqstorm_show_channels(struct device *dev, char *buf,
				      irqstorm_show_fn fn)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	int len = 0;
	unsigned int i;

	for (i = 0; i < NCH; i++) {
		if (i)
			len += sysfs_emit_at(buf, len, " ");
		fn(&st->ch[i], buf, &len);
	}
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}

#define IRQSTORM_CH_ATTR(_name, _fmt, _expr)				\
static void irqstorm_show_##_name(struct irqstorm_chan *c, char *buf, int *len) \
{									\
	*len += sysfs_emit_at(buf, *len, _fmt, _expr);			\
}									\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return irqstorm_show_channels(dev, buf, irqstorm_show_##_name);		\
}									\
static DEVICE_ATTR_RO(_name)

IRQSTORM_CH_ATTR(irq, "%d", READ_ONCE(c->active) ? c->irq : -1);
IRQSTORM_CH_ATTR(threading, "%s", READ_ONCE(c->active) ? threading_names[c->threading] : "-");
IRQSTORM_CH_ATTR(work, "%s", READ_ONCE(c->active) ? work_names[c->work] : "-");
IRQSTORM_CH_ATTR(work_context, "%s",
		 READ_ONCE(c->active) ? context_names[c->context] : "-");
IRQSTORM_CH_ATTR(handled, "%lld", atomic64_read(&c->handled));
IRQSTORM_CH_ATTR(unclaimed, "%lld", atomic64_read(&c->unclaimed));
IRQSTORM_CH_ATTR(spin_timeouts, "%lld", atomic64_read(&c->spin_timeouts));
IRQSTORM_CH_ATTR(handler_ns, "%lld", atomic64_read(&c->handler_ns));
IRQSTORM_CH_ATTR(overlaps, "%lld", atomic64_read(&c->overlaps));
IRQSTORM_CH_ATTR(thread_pid, "%d", READ_ONCE(c->thread_pid));
IRQSTORM_CH_ATTR(primary_pid, "%d", READ_ONCE(c->primary_pid));

static void irqstorm_show_first_sched(struct irqstorm_chan *c, char *buf, int *len)
{
	/* Pairs with the release in irqstorm_take(). */
	if (smp_load_acquire(&c->first_seen))
		*len += sysfs_emit_at(buf, *len, "%d:%d", c->first_policy, c->first_prio);
	else
		*len += sysfs_emit_at(buf, *len, "-");
}

/* Each context noted (irqstorm/guest.h IRQSTORM_GUEST_CONTEXT_ITEM). */
static void irqstorm_show_contexts(struct irqstorm_chan *c, char *buf, int *len)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&c->ctx_lock, flags);
	for (i = 0; i < c->n_ctx; i++) {
		u32 sig = c->ctx[i].sig, policy = sig >> 16 & 0xff, prio = sig >> 24;

		*len += sysfs_emit_at(buf, *len, "%s%s.%u.%u.", i ? ":" : "",
				      role_names[sig >> 4 & 0xf], sig & 0xf, sig >> 8 & 0xff);
		if (policy == 0xff)
			*len += sysfs_emit_at(buf, *len, "-.-.");
		else
			*len += sysfs_emit_at(buf, *len, "%u.%u.", policy, prio);
		*len += sysfs_emit_at(buf, *len, "%llu.%u", c->ctx[i].count, c->ctx[i].first);
	}
	if (c->ctx_more)
		*len += sysfs_emit_at(buf, *len, ":more.%llu", c->ctx_more);
	if (!c->n_ctx && !c->ctx_more)
		*len += sysfs_emit_at(buf, *len, "-");
	raw_spin_unlock_irqrestore(&c->ctx_lock, flags);
}

static ssize_t contexts_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return irqstorm_show_channels(dev, buf, irqstorm_show_contexts);
}
static DEVICE_ATTR_RO(contexts);

/* The policy and priority an IRQ thread had when it took its first event. */
static ssize_t first_sched_show(struct device *dev, struct device_attribute *attr,
				char *buf)
{
	return irqstorm_show_channels(dev, buf, irqstorm_show_first_sched);
}
static DEVICE_ATTR_RO(first_sched);

/*
 * Write a channel's number: free its IRQ now, storm or not. The device
 * keeps raising; free_irq() must still return once the handler (or its
 * thread, or a queued run of it) is done. The events it deferred are then
 * run by its bottom half, which leaves an INTx channel masked.
 */
static ssize_t free_store(struct device *dev, struct device_attribute *attr,
			  const char *buf, size_t count)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	struct irqstorm_chan *c;
	unsigned long flags;
	unsigned int ch;
	int ret;

	ret = kstrtouint(buf, 10, &ch);
	if (ret)
		return ret;
	if (ch >= NCH)
		return -EINVAL;
	c = &st->ch[ch];
	mutex_lock(&st->lock);
	if (!c->active) {
		mutex_unlock(&st->lock);
		return -EINVAL;
	}
	raw_spin_lock_irqsave(&c->mask_lock, flags);
	WRITE_ONCE(c->active, false);
	raw_spin_unlock_irqrestore(&c->mask_lock, flags);
	devm_free_irq(dev, c->irq, c);
	irqstorm_drain_bottom_half(c);
	mutex_unlock(&st->lock);
	return count;
}
static DEVICE_ATTR_WO(free);

static ssize_t running_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n",
			  !!(irqstorm_read(st, IRQSTORM_REG_CTRL) &
			     IRQSTORM_CTRL_RUN));
}

static ssize_t running_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	bool run;
	int ret;

	ret = kstrtobool(buf, &run);
	if (ret)
		return ret;
	if (run)
		irqstorm_write(st, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
	else
		irqstorm_stop(st);
	return count;
}
static DEVICE_ATTR_RW(running);

static ssize_t irq_mode_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%s\n", irq_mode_names[st->irq_mode]);
}
static DEVICE_ATTR_RO(irq_mode);

/*
 * The i8042 pattern of 2004: code that, with preemption disabled, spins
 * until an interrupt has been handled. Write "CHANNEL TIMEOUT_US"; read
 * "completed NS" or "timeout NS". It completes when the channel's handler
 * runs in hard interrupt context; when the handler is a thread on this CPU,
 * the thread cannot run until the spinner gives up: the reason i8042 was
 * marked SA_NOTHREAD.
 */
static ssize_t i8042_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	struct irqstorm_chan *c;
	unsigned int ch, timeout_us;
	ktime_t start, end;
	bool done;
	u64 before;

	if (sscanf(buf, "%u %u", &ch, &timeout_us) != 2 || ch >= NCH ||
	    !timeout_us || timeout_us > USEC_PER_SEC)
		return -EINVAL;
	c = &st->ch[ch];
	if (!READ_ONCE(c->active))
		return -ENODEV;

	mutex_lock(&st->region_lock);
	preempt_disable();
	before = atomic64_read(&c->handled);
	start = ktime_get();
	end = ktime_add_us(start, timeout_us);
	while (!(done = atomic64_read(&c->handled) != before) &&
	       !ktime_after(ktime_get(), end))
		cpu_relax();
	end = ktime_get();
	preempt_enable();
	snprintf(st->i8042_result, sizeof(st->i8042_result), "%s %lld",
		 done ? "completed" : "timeout", ktime_to_ns(ktime_sub(end, start)));
	mutex_unlock(&st->region_lock);
	return count;
}

/* A region's last result, which its run writes under region_lock. */
static ssize_t irqstorm_show_region(struct irqstorm *st, const char *result,
				    char *buf)
{
	ssize_t len;

	mutex_lock(&st->region_lock);
	len = sysfs_emit(buf, "%s\n", result);
	mutex_unlock(&st->region_lock);
	return len;
}

static ssize_t i8042_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return irqstorm_show_region(st, st->i8042_result, buf);
}
static DEVICE_ATTR_RW(i8042);

#define IRQSTORM_SECTION_NAME(id, name, ...)	\
	[IRQSTORM_SECTION_##id] = name,
static const char * const section_names[] = {
	IRQSTORM_GUEST_SECTIONS(IRQSTORM_SECTION_NAME)
};

#undef IRQSTORM_SECTION_NAME

/* A section's body: arm c's trigger (if any), then run for us microseconds. */
static void irqstorm_section_body(struct irqstorm *st, struct irqstorm_chan *c,
				  unsigned int us)
{
	u64 end;

	if (c)
		irqstorm_write(st, IRQSTORM_REG_TRIGGER, BIT(c->index));
	end = ktime_get_ns() + (u64)us * NSEC_PER_USEC;
	while (ktime_get_ns() < end)
		cpu_relax();
}

/* One section of the kind asked, c's trigger (if any) armed at its start. */
static void irqstorm_section(struct irqstorm *st, struct irqstorm_chan *c,
			     int kind, unsigned int us)
{
	unsigned long flags;

	switch (kind) {
	case IRQSTORM_SECTION_IRQS_OFF:
		local_irq_save(flags);
		irqstorm_section_body(st, c, us);
		local_irq_restore(flags);
		break;
	case IRQSTORM_SECTION_PREEMPT_OFF:
		preempt_disable();
		irqstorm_section_body(st, c, us);
		preempt_enable();
		break;
	case IRQSTORM_SECTION_BH_OFF:
		local_bh_disable();
		irqstorm_section_body(st, c, us);
		local_bh_enable();
		break;
	case IRQSTORM_SECTION_SPINLOCK:
		spin_lock(&st->section_lock);
		irqstorm_section_body(st, c, us);
		spin_unlock(&st->section_lock);
		break;
	case IRQSTORM_SECTION_RAW_SPINLOCK:
		raw_spin_lock(&st->section_raw_lock);
		irqstorm_section_body(st, c, us);
		raw_spin_unlock(&st->section_raw_lock);
		break;
	case IRQSTORM_SECTION_USER:
	case IRQSTORM_SECTION_PIO:
		break;	/* refused by section_store() */
	}
}

/* Sleep until c handled an event after before; false after a second. */
static bool irqstorm_wait_handled(struct irqstorm_chan *c, s64 before)
{
	ktime_t end = ktime_add_ms(ktime_get(), MSEC_PER_SEC);

	while (atomic64_read(&c->handled) == before) {
		if (ktime_after(ktime_get(), end))
			return false;
		usleep_range(10, 20);
	}
	return true;
}

static bool irqstorm_storming(struct irqstorm *st)
{
	return irqstorm_read(st, IRQSTORM_REG_CTRL) & IRQSTORM_CTRL_RUN;
}

/*
 * The same sections with no trigger, spaced like a sweep's, while the
 * storm runs: where the storm's own arrivals land in them is chance.
 */
static const char *irqstorm_sections_random(struct irqstorm *st, int kind,
					    unsigned int us, u64 *runs)
{
	while (irqstorm_storming(st)) {
		irqstorm_section(st, NULL, kind, us);
		(*runs)++;
		usleep_range(10, 20);
	}
	return "stopped";
}

/* Sections until c's sweep is over, each waiting for its interrupt. */
static const char *irqstorm_sections_sweep(struct irqstorm *st,
					   struct irqstorm_chan *c, int kind,
					   unsigned int us, u64 *runs)
{
	s64 before;

	while (irqstorm_ch_read(c, IRQSTORM_CH_TRIGGERS_LEFT)) {
		if (!irqstorm_storming(st))
			return "ended";
		before = atomic64_read(&c->handled);
		irqstorm_section(st, c, kind, us);
		if (!irqstorm_wait_handled(c, before))
			return "timeout";
		(*runs)++;
	}
	return "done";
}

/*
 * The triggered sweep: write "KIND US CHANNEL" (KIND one of
 * section_names) to run sections until the channel's sweep is over, each
 * waiting for its interrupt to be handled before the next; read "done N",
 * "ended N" (the storm ended first) or "timeout N" (an interrupt was not
 * handled within a second), N the sections run. "KIND US -" runs them
 * untriggered until the storm stops: "stopped N". It runs in the writer's
 * context: on its CPU, at its priority.
 */
static ssize_t section_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct irqstorm *st = dev_get_drvdata(dev);
	struct irqstorm_chan *c = NULL;
	char name[16], chan[4];
	unsigned int ch, us;
	const char *why;
	u64 runs = 0;
	int kind;

	if (sscanf(buf, "%15s %u %3s", name, &us, chan) != 3 || !us ||
	    us > USEC_PER_SEC)
		return -EINVAL;
	kind = match_string(section_names, ARRAY_SIZE(section_names), name);
	if (kind < 0)
		return kind;
	/* User space runs its own (irqstorm-guest section); pio is a handler. */
	if (kind == IRQSTORM_SECTION_USER || kind == IRQSTORM_SECTION_PIO)
		return -EINVAL;
	if (strcmp(chan, "-")) {
		if (kstrtouint(chan, 10, &ch) || ch >= NCH)
			return -EINVAL;
		c = &st->ch[ch];
		if (!READ_ONCE(c->active))
			return -ENODEV;
	}

	mutex_lock(&st->region_lock);
	why = c ? irqstorm_sections_sweep(st, c, kind, us, &runs) :
		  irqstorm_sections_random(st, kind, us, &runs);
	snprintf(st->section_result, sizeof(st->section_result), "%s %llu",
		 why, runs);
	mutex_unlock(&st->region_lock);
	return count;
}

static ssize_t section_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct irqstorm *st = dev_get_drvdata(dev);

	return irqstorm_show_region(st, st->section_result, buf);
}
static DEVICE_ATTR_RW(section);

/* The per-channel attributes are the guest protocol's (irqstorm/guest.h). */
#define IRQSTORM_CH_ATTR_PTR(_name, ...)	(&dev_attr_##_name.attr),

static struct attribute *irqstorm_attrs[] = {
	&dev_attr_running.attr,
	&dev_attr_irq_mode.attr,
	&dev_attr_free.attr,
	&dev_attr_i8042.attr,
	&dev_attr_section.attr,
	IRQSTORM_GUEST_CHANNEL_ATTRS(IRQSTORM_CH_ATTR_PTR)
	NULL
};

static const struct attribute_group irqstorm_group = {
	.name = DRV_NAME,
	.attrs = irqstorm_attrs,
};

static const struct attribute_group *irqstorm_groups[] = {
	&irqstorm_group,
	NULL
};

/* ---- probe ----------------------------------------------------------- */

/* Index of name in names, defaulting when the parameter was not given. */
static int irqstorm_choice(struct device *dev, const char *what,
			   const char * const *names, size_t n,
			   const char *name, int dflt)
{
	int i;

	if (!name)
		return dflt;
	i = __sysfs_match_string(names, n, name);
	if (i < 0)
		dev_err(dev, "unknown %s '%s'\n", what, name);
	return i;
}

/* Channel settings from the module parameters. */
static int irqstorm_parse_params(struct device *dev, struct irqstorm *st)
{
	unsigned int i;
	int t, w, x, p;

	if (!channels || channels >= BIT(NCH))
		return dev_err_probe(dev, -EINVAL, "channels=0x%x: expected a mask of 1..0x%lx\n",
				     channels, BIT(NCH) - 1);
	for (i = 0; i < NCH; i++) {
		struct irqstorm_chan *c = &st->ch[i];

		c->st = st;
		c->index = i;
		c->active = channels & BIT(i);
		INIT_KFIFO(c->seqs);
		INIT_KFIFO(c->bh_seqs);
		raw_spin_lock_init(&c->mask_lock);
		raw_spin_lock_init(&c->ctx_lock);
		tasklet_setup(&c->tasklet, irqstorm_tasklet);
		INIT_WORK(&c->bh_work, irqstorm_bh_work);
		if (snprintf(c->name, sizeof(c->name), DRV_NAME "%u%s", i,
			     name_suffix) >= sizeof(c->name))
			return dev_err_probe(dev, -EINVAL, "name_suffix '%s' too long\n",
					     name_suffix);
		t = irqstorm_choice(dev, "threading", threading_names,
				    ARRAY_SIZE(threading_names),
				    i < n_threading ? threading[i] : NULL,
				    IRQSTORM_THREADING_THREADED);
		w = irqstorm_choice(dev, "work", work_names, ARRAY_SIZE(work_names),
				    i < n_work ? work[i] : NULL, IRQSTORM_WORK_NONE);
		x = irqstorm_choice(dev, "work_context", context_names,
				    ARRAY_SIZE(context_names),
				    i < n_work_context ? work_context[i] : NULL,
				    IRQSTORM_CONTEXT_HANDLER);
		p = irqstorm_choice(dev, "plant", plant_names, ARRAY_SIZE(plant_names),
				    i < n_plant ? plant[i] : NULL, IRQSTORM_PLANT_NONE);
		if (t < 0 || w < 0 || x < 0 || p < 0)
			return -EINVAL;
#ifdef IRQSTORM_NO_BH_WORKQUEUE
		if (x == IRQSTORM_CONTEXT_BH_WORKQUEUE)
			return dev_err_probe(dev, -EOPNOTSUPP,
					     "work_context bh_workqueue: this kernel has no BH workqueue (WQ_BH came in Linux 6.9)\n");
#endif
		c->threading = t;
		c->work = w;
		c->context = x;
		c->plant = p;
		c->resched = i < n_resched ? resched[i] : 0;
		c->bh_off_us = i < n_bh_off_us ? bh_off_us[i] : 0;
	}
	return 0;
}

/*
 * The links between channels. sync_irq: a threaded channel's thread
 * function waits for another serviced channel's interrupt, never for its
 * own (it would wait for itself). pio_trigger: a pio channel's work arms
 * another serviced channel's trigger.
 */
static int irqstorm_parse_links(struct device *dev, struct irqstorm *st)
{
	unsigned int i;

	for (i = 0; i < n_sync_irq; i++) {
		struct irqstorm_chan *c = &st->ch[i];
		int other = sync_irq[i];

		if (other < 0 || !c->active)
			continue;
		if (other >= NCH || !st->ch[other].active ||
		    c->threading != IRQSTORM_THREADING_THREADED || st->ch[other].irq == c->irq)
			return dev_err_probe(dev, -EINVAL,
					     "sync_irq: channel %u cannot wait for channel %d's IRQ\n",
					     i, other);
		c->sync = &st->ch[other];
	}
	for (i = 0; i < n_pio_trigger; i++) {
		struct irqstorm_chan *c = &st->ch[i];
		int other = pio_trigger[i];

		if (other < 0 || !c->active)
			continue;
		if (other >= NCH || other == (int)i || !st->ch[other].active ||
		    c->work != IRQSTORM_WORK_PIO)
			return dev_err_probe(dev, -EINVAL,
					     "pio_trigger: channel %u's work cannot trigger channel %d\n",
					     i, other);
		c->pio_trigger = &st->ch[other];
	}
	return 0;
}

/* Vectors: up to one per channel; every channel maps to one of them. */
static int irqstorm_setup_vectors(struct device *dev, struct irqstorm *st)
{
	/* "auto", then each mode, as the module parameter names them */
	static const unsigned int types[] = {
		PCI_IRQ_ALL_TYPES, PCI_IRQ_INTX, PCI_IRQ_MSI, PCI_IRQ_MSIX,
	};
#define IRQSTORM_MODE_NAME(id, name, ...)	\
	[1 + IRQSTORM_IRQ_MODE_##id] = name,
	static const char * const modes[] = {
		IRQSTORM_IRQ_MODE_AUTO, IRQSTORM_IRQ_MODES(IRQSTORM_MODE_NAME)
	};
#undef IRQSTORM_MODE_NAME
	struct pci_dev *pdev = st->pdev;
	unsigned int i;
	int m, nvec;

	m = __sysfs_match_string(modes, ARRAY_SIZE(modes), irq_mode);
	if (m < 0)
		return dev_err_probe(dev, -EINVAL, "unknown irq_mode '%s'\n", irq_mode);
	nvec = pci_alloc_irq_vectors(pdev, 1, NCH, types[m]);
	if (nvec < 0)
		return dev_err_probe(dev, nvec, "no interrupt vectors (irq_mode=%s)\n",
				     irq_mode);
	st->irq_mode = irqstorm_read(st, IRQSTORM_REG_IRQ_MODE);
	if (st->irq_mode >= ARRAY_SIZE(irq_mode_names))
		return dev_err_probe(dev, -EIO, "device reports irq mode %u\n",
				     st->irq_mode);
	/* The device sends channel n on vector n % vectors, like this. */
	for (i = 0; i < NCH; i++)
		st->ch[i].irq = pci_irq_vector(pdev, i % nvec);
	/* Channels serviced on one vector share it. */
	for (i = 0; i < NCH; i++) {
		struct irqstorm_chan *c = &st->ch[i];
		unsigned int j;

		for (j = 0; j < NCH; j++)
			if (j != i && st->ch[j].active && st->ch[j].irq == c->irq)
				c->shared = true;
	}
	if (st->irq_mode != IRQSTORM_IRQ_MODE_INTX && nvec < hweight32(channels))
		dev_info(dev, "%d %s vector(s) for channels 0x%x: shared\n", nvec,
			 irq_mode_names[st->irq_mode], channels);
	return 0;
}

static int irqstorm_check_device(struct device *dev, struct irqstorm *st)
{
	u32 version;

	if (irqstorm_read(st, IRQSTORM_REG_ID) != IRQSTORM_ID_MAGIC)
		return dev_err_probe(dev, -ENODEV, "bad ID register\n");
	version = irqstorm_read(st, IRQSTORM_REG_VERSION);
	if (version != IRQSTORM_ABI_VERSION)
		return dev_err_probe(dev, -ENODEV, "device ABI %u, driver ABI %u\n",
				     version, IRQSTORM_ABI_VERSION);
	return 0;
}

static int irqstorm_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	struct irqstorm *st;
	unsigned int i;
	int ret;

	st = devm_kzalloc(dev, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	st->pdev = pdev;
	mutex_init(&st->lock);
	mutex_init(&st->region_lock);
	strscpy(st->i8042_result, "none", sizeof(st->i8042_result));
	strscpy(st->section_result, "none", sizeof(st->section_result));
	spin_lock_init(&st->section_lock);
	raw_spin_lock_init(&st->section_raw_lock);
	spin_lock_init(&st->plant_a);
	spin_lock_init(&st->plant_b);
	ret = irqstorm_parse_params(dev, st);
	if (ret)
		return ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return dev_err_probe(dev, ret, "cannot enable device\n");
	st->regs = pcim_iomap_region(pdev, IRQSTORM_BAR_REGS, DRV_NAME);
	if (IS_ERR(st->regs))
		return dev_err_probe(dev, PTR_ERR(st->regs), "cannot map BAR%d\n",
				     IRQSTORM_BAR_REGS);
	st->pio = pcim_iomap_region(pdev, IRQSTORM_BAR_PIO, DRV_NAME);
	if (IS_ERR(st->pio))
		return dev_err_probe(dev, PTR_ERR(st->pio), "cannot map BAR%d\n",
				     IRQSTORM_BAR_PIO);
	ret = irqstorm_check_device(dev, st);
	if (ret)
		return ret;
	/* MSI and MSI-X messages are memory writes by the device. */
	pci_set_master(pdev);
	ret = irqstorm_setup_vectors(dev, st);
	if (ret)
		return ret;
	ret = irqstorm_parse_links(dev, st);
	if (ret)
		return ret;
	pci_set_drvdata(pdev, st);
	/* Registered before the IRQs, so on removal it runs after free_irq(). */
	ret = devm_add_action_or_reset(dev, irqstorm_kill_bottom_halves, st);
	if (ret)
		return ret;

	for (i = 0; i < NCH; i++) {
		struct irqstorm_chan *c = &st->ch[i];

		if (!c->active)
			continue;
		ret = irqstorm_request(dev, c);
		if (ret)
			return dev_err_probe(dev, ret,
					     "channel %u: cannot request IRQ %d as %s\n",
					     i, c->irq, threading_names[c->threading]);
		irqstorm_find_thread(c);
	}
	/* Registered after the IRQs, so on removal it runs before free_irq(). */
	ret = devm_add_action_or_reset(dev, irqstorm_stop_action, st);
	if (ret)
		return ret;

	dev_info(dev, "%s, channels 0x%x\n", irq_mode_names[st->irq_mode], channels);
	return 0;
}

static const struct pci_device_id irqstorm_ids[] = {
	{ PCI_DEVICE(IRQSTORM_PCI_VENDOR_ID, IRQSTORM_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, irqstorm_ids);

static struct pci_driver irqstorm_driver = {
	.name = DRV_NAME,
	.id_table = irqstorm_ids,
	.probe = irqstorm_probe,
	.dev_groups = irqstorm_groups,
};
module_pci_driver(irqstorm_driver);

MODULE_DESCRIPTION("irqstorm interrupt-storm test device driver");
MODULE_LICENSE("GPL");
