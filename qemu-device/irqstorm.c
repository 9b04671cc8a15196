/*
 * irqstorm: a PCI device that raises interrupt storms and stamps every stage
 * of every interrupt, with QEMU_CLOCK_VIRTUAL, into a log shared with the host.
 *
 * Copyright (c) 2026 The irqstorm developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Register map and log layout: include/irqstorm/abi.h, docs/abi.md.
 *
 * Each channel fires from a virtual-clock timer with absolute deadlines,
 * following its pattern (periodic, Poisson, burst, one shot). A firing
 * raises an event into the channel's queue: on INTx the level line is
 * asserted until the guest acknowledges (a firing while it is still
 * asserted is coalesced into the queued event); under MSI or MSI-X every
 * firing is an event and a message, until the queue is full (then it is
 * dropped, and counted). The guest stamps the stages of an event by
 * writing its sequence number; the done stamp publishes the event's record
 * into the shared log. A storm ends when the guest clears RUN, or at the
 * bound the host set (storm-ns), whichever comes first.
 */
#include "qemu/osdep.h"
#include <math.h>
#include "qemu/atomic.h"
#include "qemu/bswap.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/core/cpu.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "sysemu/cpus.h"
#include "sysemu/hostmem.h"
#include "sysemu/runstate.h"
#include "qom/object.h"
#include "trace/trace-hw_misc.h"

#include "irqstorm/abi.h"
#include "irqstorm/device.h"

#define TYPE_IRQSTORM "irqstorm"
OBJECT_DECLARE_SIMPLE_TYPE(IrqstormState, IRQSTORM)

REG32(ID, IRQSTORM_REG_ID)
REG32(VERSION, IRQSTORM_REG_VERSION)
REG32(NCHAN, IRQSTORM_REG_NCHAN)
REG32(CTRL, IRQSTORM_REG_CTRL)
    FIELD(CTRL, RUN, 0, 1)
REG32(STATUS, IRQSTORM_REG_STATUS)
REG32(ACK, IRQSTORM_REG_ACK)
REG32(GUEST_ERRORS, IRQSTORM_REG_GUEST_ERRORS)
REG32(PROBE, IRQSTORM_REG_PROBE)
REG32(IRQ_MODE, IRQSTORM_REG_IRQ_MODE)
REG32(TRIGGER, IRQSTORM_REG_TRIGGER)
REG32(MASK_SET, IRQSTORM_REG_MASK_SET)
REG32(MASK_CLEAR, IRQSTORM_REG_MASK_CLEAR)
REG32(MASK, IRQSTORM_REG_MASK)
/* Channel-relative registers, inside each channel's block. */
REG32(CH_SEQ, IRQSTORM_CH_SEQ)
REG32(CH_RAISED, IRQSTORM_CH_RAISED)
REG32(CH_READY, IRQSTORM_CH_READY)
    FIELD(CH_READY, READY, 0, 1)
REG32(CH_PIO_LEFT, IRQSTORM_CH_PIO_LEFT)
REG32(CH_PENDING, IRQSTORM_CH_PENDING)
REG32(CH_CLAIM, IRQSTORM_CH_CLAIM)
REG32(CH_TRIGGERS_LEFT, IRQSTORM_CH_TRIGGERS_LEFT)

#define IRQSTORM_NCHAN          IRQSTORM_NUM_CHANNELS
#define IRQSTORM_DEPTH          IRQSTORM_QUEUE_DEPTH
#define IRQSTORM_CTRL_MASK      R_CTRL_RUN_MASK

/* Patterns, properties and counters: include/irqstorm/device.h */
/* A row's name (a pattern's, a counter's), in the order of its table. */
typedef struct {
    const char *name;
} NameDesc;

#define IRQSTORM_PATTERN_DESC(id, name, help) { name },
static const NameDesc patterns[IRQSTORM_PATTERN_COUNT] = {
    IRQSTORM_PATTERNS(IRQSTORM_PATTERN_DESC)
};

#define IRQSTORM_CH_COUNTER_DESC(id, field, name, total, help) { name },
static const NameDesc channel_counters[IRQSTORM_CHANNEL_COUNTER_COUNT] = {
    IRQSTORM_CHANNEL_COUNTERS(IRQSTORM_CH_COUNTER_DESC)
};

#define IRQSTORM_COUNTER_DESC(id, field, name, help) { name },

static const NameDesc device_counters[IRQSTORM_DEVICE_COUNTER_COUNT] = {
    IRQSTORM_DEVICE_COUNTERS(IRQSTORM_COUNTER_DESC)
};

/* A counter of a channel or of the device, by its ID in the tables. */
#define CH_CTR(ch, id) ((ch)->ctr[IRQSTORM_CHANNEL_COUNTER_##id])
#define DEV_CTR(s, id) ((s)->ctr[IRQSTORM_DEVICE_COUNTER_##id])

typedef struct IrqstormState IrqstormState;

/* A queued event: raised, not acked yet. */
typedef struct IrqstormEvent {
    struct irqstorm_record rec;         /* host byte order */
    bool settled;                       /* done, or left without: counted */
    uint32_t pio_left;                  /* PIO words still to hand out */
    uint64_t ready_mark;                /* ready source's handled at raise */
} IrqstormEvent;

typedef struct IrqstormChannel {
    IrqstormState *dev;
    unsigned index;
    QEMUTimer timer;

    /* parameters: QOM properties, settable at run time */
    uint32_t pattern;
    uint64_t period_ns;
    uint64_t gap_ns;
    uint32_t burst;
    uint64_t seed;
    bool enable;
    uint32_t pio_words;
    uint64_t ready_delay_ns;
    int32_t ready_channel;              /* -1: ready after ready_delay_ns */
    uint64_t trigger_start_ns;
    uint64_t trigger_stop_ns;
    uint64_t trigger_step_ns;

    /* schedule */
    int64_t last_deadline;              /* of the last firing, or the start */
    int64_t next_deadline;
    uint32_t burst_pos;
    uint64_t rng;
    bool armed;
    uint64_t trigger_next;              /* triggered: offsets used this storm */
    uint32_t trigger_offset;            /* of the firing the last one armed */

    /* queued events, oldest first: a ring, in raise (and seq) order */
    IrqstormEvent queue[IRQSTORM_DEPTH];
    uint32_t head;
    uint32_t count;
    uint32_t claimed;                   /* queued events claimed, from head */

    /* counters: raised, handled, in_flight, ... (QOM chN-*) */
    uint64_t ctr[IRQSTORM_CHANNEL_COUNTER_COUNT];
} IrqstormChannel;

struct IrqstormState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    MemoryRegion pio;
    MemoryRegion log_ro;                /* read-only alias for the guest */
    HostMemoryBackend *hostmem;
    struct irqstorm_log_header *log;    /* host mapping of the memdev */
    uint8_t *log_records;
    uint32_t ring_records;

    bool stamps;                        /* property: stamp and log events */
    uint64_t storm_ns;                  /* property: a storm's bound, 0: none */
    bool running;                       /* CTRL.RUN */
    QEMUTimer end_timer;                /* ends a storm at storm_ns */
    uint64_t pause_ns;                  /* property: pause then; 0: never */
    QEMUTimer pause_timer;              /* pauses it at pause_ns */
    uint64_t next_seq;
    uint32_t mask;                      /* MASK: channels masked */
    uint32_t msi_pending;               /* raised while masked, unsent */

    /*
     * counters (QOM): published (the log's producer index, never read
     * back), lost, guest_errors, probes, and the last storm's times in ns
     * of virtual time (0 when not yet)
     */
    uint64_t ctr[IRQSTORM_DEVICE_COUNTER_COUNT];

    IrqstormChannel ch[IRQSTORM_NCHAN];
};

static void irqstorm_guest_error(IrqstormState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

static void irqstorm_guest_error(IrqstormState *s, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *msg = NULL;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    DEV_CTR(s, GUEST_ERRORS)++;
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s\n", TYPE_IRQSTORM, msg);
}

static int64_t irqstorm_now(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static uint8_t irqstorm_cpu(void)
{
    return current_cpu && current_cpu->cpu_index < IRQSTORM_CPU_NONE ?
           current_cpu->cpu_index : IRQSTORM_CPU_NONE;
}

/* ---- interrupt delivery ---------------------------------------------- */

static uint32_t irqstorm_irq_mode(IrqstormState *s)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (msix_enabled(pdev)) {
        return IRQSTORM_IRQ_MODE_MSIX;
    }
    if (msi_enabled(pdev)) {
        return IRQSTORM_IRQ_MODE_MSI;
    }
    return IRQSTORM_IRQ_MODE_INTX;
}

static uint32_t irqstorm_status(IrqstormState *s)
{
    uint32_t status = 0;

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        if (s->ch[i].count) {
            status |= 1u << i;
        }
    }
    return status;
}

/*
 * INTx is asserted while any unmasked channel has an event pending, and
 * only then (QEMU's PCI core drops the calls that change nothing, and
 * deasserts INTx itself when the guest enables MSI).
 */
static void irqstorm_update_intx(IrqstormState *s)
{
    pci_set_irq(PCI_DEVICE(s), irqstorm_irq_mode(s) == IRQSTORM_IRQ_MODE_INTX &&
                               (irqstorm_status(s) & ~s->mask) != 0);
}

/* Send channel n's message; masked vectors keep it pending in QEMU's core. */
static void irqstorm_send_msi(IrqstormState *s, uint32_t mode, unsigned n)
{
    PCIDevice *pdev = PCI_DEVICE(s);

    if (mode == IRQSTORM_IRQ_MODE_MSIX) {
        msix_notify(pdev, n);
    } else {
        msi_notify(pdev, n % msi_nr_vectors_allocated(pdev));
    }
}

/* ---- shared log ------------------------------------------------------ */

static void irqstorm_log_init(IrqstormState *s)
{
    struct irqstorm_log_header *h = s->log;

    qatomic_set(&h->magic, 0);
    smp_wmb();      /* a reader sees no magic before the rest is rewritten */
    memset((uint8_t *)h + sizeof(h->magic), 0,
           IRQSTORM_LOG_HEADER_SIZE - sizeof(h->magic));
    h->version = cpu_to_le32(IRQSTORM_ABI_VERSION);
    h->header_size = cpu_to_le32(IRQSTORM_LOG_HEADER_SIZE);
    h->record_size = cpu_to_le32(sizeof(struct irqstorm_record));
    h->ring_records = cpu_to_le32(s->ring_records);
    DEV_CTR(s, PUBLISHED) = 0;
    DEV_CTR(s, LOST) = 0;
    /* Magic last: a reader that sees it sees a complete header. */
    qatomic_store_release(&h->magic, cpu_to_le32(IRQSTORM_LOG_MAGIC));
}

/*
 * Publish one completed record. The consumer index is written by the host;
 * it is only trusted when it lies in [producer - ring, producer]. Anything
 * else is treated as a full ring, so a confused consumer loses records
 * (counted) instead of making us overwrite unread ones.
 */
static void irqstorm_log_publish(IrqstormState *s,
                                 const struct irqstorm_record *r)
{
    uint64_t cons = le64_to_cpu(qatomic_load_acquire(&s->log->consumer));
    uint64_t used = DEV_CTR(s, PUBLISHED) - cons;
    struct irqstorm_record *slot;

    if (cons > DEV_CTR(s, PUBLISHED) || used >= s->ring_records) {
        DEV_CTR(s, LOST)++;
        qatomic_set(&s->log->lost, cpu_to_le64(DEV_CTR(s, LOST)));
        trace_irqstorm_log_lost(r->seq, DEV_CTR(s, LOST));
        return;
    }
    slot = (struct irqstorm_record *)(s->log_records +
            (DEV_CTR(s, PUBLISHED) & (s->ring_records - 1)) * sizeof(*slot));
    slot->seq = cpu_to_le64(r->seq);
    slot->t_raise = cpu_to_le64(r->t_raise);
    slot->t_hardirq = cpu_to_le64(r->t_hardirq);
    slot->t_thread = cpu_to_le64(r->t_thread);
    slot->t_done = cpu_to_le64(r->t_done);
    slot->channel = cpu_to_le32(r->channel);
    slot->flags = cpu_to_le32(r->flags);
    slot->coalesced = cpu_to_le32(r->coalesced);
    slot->work = cpu_to_le32(r->work);
    slot->cpu_hardirq = r->cpu_hardirq;
    slot->cpu_thread = r->cpu_thread;
    slot->cpu_done = r->cpu_done;
    slot->cpu_bh = r->cpu_bh;
    slot->offset = cpu_to_le32(r->offset);
    slot->t_bh = cpu_to_le64(r->t_bh);
    slot->reserved0 = 0;
    DEV_CTR(s, PUBLISHED)++;
    /* The record must be visible before the index that publishes it. */
    qatomic_store_release(&s->log->producer,
                          cpu_to_le64(DEV_CTR(s, PUBLISHED)));
    trace_irqstorm_log_publish(r->seq, DEV_CTR(s, PUBLISHED));
}

/* ---- events ------------------------------------------------------------ */

/* The channel's i-th queued event, from the oldest (i < count). */
static IrqstormEvent *irqstorm_queued(IrqstormChannel *ch, uint32_t i)
{
    return &ch->queue[(ch->head + i) % IRQSTORM_DEPTH];
}

/* The channel's oldest queued event (the one its handler works on). */
static IrqstormEvent *irqstorm_oldest(IrqstormChannel *ch)
{
    return ch->count ? irqstorm_queued(ch, 0) : NULL;
}

/*
 * The queued event whose seq has these low 32 bits, on any channel, or
 * NULL. A queue is in seq order, so its distances from the oldest seq
 * grow along it: a binary search.
 */
static IrqstormEvent *irqstorm_event_find(IrqstormState *s, uint32_t seq32)
{
    for (unsigned n = 0; n < IRQSTORM_NCHAN; n++) {
        IrqstormChannel *ch = &s->ch[n];
        uint64_t base = ch->count ? irqstorm_oldest(ch)->rec.seq : 0;
        uint64_t want = (uint32_t)(seq32 - (uint32_t)base);
        uint32_t lo = 0, hi = ch->count;

        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            uint64_t d = irqstorm_queued(ch, mid)->rec.seq - base;

            if (d == want) {
                return irqstorm_queued(ch, mid);
            }
            if (d < want) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
    }
    return NULL;
}

/*
 * An event settles once: at its done stamp, or when it leaves its queue
 * without one. Its record is published then, INCOMPLETE without done;
 * with stamps off there are no records, and an event settles at its ack.
 */
static void irqstorm_event_settle(IrqstormState *s, IrqstormEvent *ev)
{
    IrqstormChannel *ch = &s->ch[ev->rec.channel];

    if (ev->settled) {
        return;
    }
    ev->settled = true;
    CH_CTR(ch, IN_FLIGHT)--;
    if (!s->stamps) {
        return;
    }
    if (!(ev->rec.flags & IRQSTORM_REC_DONE)) {
        ev->rec.flags |= IRQSTORM_REC_INCOMPLETE;
        CH_CTR(ch, INCOMPLETE)++;
    }
    irqstorm_log_publish(s, &ev->rec);
}

/* Take the channel's oldest event off its queue (an ack, or a reset). */
static void irqstorm_dequeue(IrqstormChannel *ch)
{
    irqstorm_event_settle(ch->dev, irqstorm_oldest(ch));
    ch->head = (ch->head + 1) % IRQSTORM_DEPTH;
    ch->count--;
    if (ch->claimed) {
        ch->claimed--;
    }
}

/* Queue a new event at the tail; the caller saw room for it. */
static IrqstormEvent *irqstorm_enqueue(IrqstormChannel *ch, int64_t now,
                                       uint32_t flags)
{
    IrqstormState *s = ch->dev;
    IrqstormEvent *ev = irqstorm_queued(ch, ch->count);

    memset(ev, 0, sizeof(*ev));
    ev->rec.seq = ++s->next_seq;
    ev->rec.channel = ch->index;
    ev->rec.t_raise = now;
    ev->rec.flags = flags;
    ev->rec.cpu_hardirq = IRQSTORM_CPU_NONE;
    ev->rec.cpu_thread = IRQSTORM_CPU_NONE;
    ev->rec.cpu_done = IRQSTORM_CPU_NONE;
    ev->rec.cpu_bh = IRQSTORM_CPU_NONE;
    if (ch->count) {
        ev->rec.flags |= IRQSTORM_REC_OVERLAP;
        ev->rec.coalesced = ch->count;
    }
    if (ch->pattern == IRQSTORM_PATTERN_TRIGGERED) {
        ev->rec.flags |= IRQSTORM_REC_TRIGGERED;
        ev->rec.offset = ch->trigger_offset;
    }
    ev->pio_left = ch->pio_words;
    if (ch->ready_channel >= 0) {
        ev->ready_mark = CH_CTR(&s->ch[ch->ready_channel], HANDLED);
    }
    ch->count++;
    CH_CTR(ch, IN_FLIGHT)++;
    CH_CTR(ch, QUEUE_MAX) = MAX(CH_CTR(ch, QUEUE_MAX), ch->count);
    return ev;
}

/* Claim the oldest unclaimed queued event: its seq, or 0 when none. */
static uint32_t irqstorm_claim(IrqstormChannel *ch)
{
    uint64_t seq;

    if (ch->claimed >= ch->count) {
        return 0;
    }
    seq = irqstorm_queued(ch, ch->claimed++)->rec.seq;
    trace_irqstorm_claim(ch->index, seq);
    return seq;
}

/* ---- channels: raising ------------------------------------------------ */

static void irqstorm_raise(IrqstormChannel *ch, int64_t now)
{
    IrqstormState *s = ch->dev;
    uint32_t mode = irqstorm_irq_mode(s);
    IrqstormEvent *ev;

    CH_CTR(ch, RAISED)++;
    if (mode == IRQSTORM_IRQ_MODE_INTX && ch->count) {
        /* Level line still asserted: the guest sees one interrupt. */
        ev = irqstorm_oldest(ch);
        ev->rec.coalesced++;
        ev->rec.flags |= IRQSTORM_REC_COALESCED;
        CH_CTR(ch, COALESCED)++;
        trace_irqstorm_coalesce(ch->index, ev->rec.seq);
        return;
    }
    if (ch->count == IRQSTORM_DEPTH) {
        CH_CTR(ch, DROPPED)++;
        trace_irqstorm_drop(ch->index, CH_CTR(ch, DROPPED));
        return;
    }
    if (ch->count) {
        CH_CTR(ch, OVERLAPPED)++;
    }
    ev = irqstorm_enqueue(ch, now,
                          mode == IRQSTORM_IRQ_MODE_INTX ? IRQSTORM_REC_LEVEL :
                          mode == IRQSTORM_IRQ_MODE_MSI ? IRQSTORM_REC_MSI :
                                                          IRQSTORM_REC_MSIX);
    trace_irqstorm_raise(ch->index, ev->rec.seq, now);
    if (mode == IRQSTORM_IRQ_MODE_INTX) {
        irqstorm_update_intx(s);
    } else if (s->mask & (1u << ch->index)) {
        s->msi_pending |= 1u << ch->index;      /* sent when unmasked */
    } else {
        irqstorm_send_msi(s, mode, ch->index);
    }
}

/* splitmix64: a tiny, well-mixed generator whose whole state is one word. */
static uint64_t irqstorm_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* An exponential gap of mean period_ns, at least 1 ns. */
static int64_t irqstorm_poisson_gap(IrqstormChannel *ch)
{
    /* 53 random bits: u in (0, 1], so log(u) is finite. */
    double u = ((irqstorm_rng_next(&ch->rng) >> 11) + 1) * ldexp(1.0, -53);
    double gap = -log(u) * (double)ch->period_ns;

    return gap < 1 ? 1 : gap > IRQSTORM_MAX_NS ? IRQSTORM_MAX_NS : (int64_t)gap;
}

/* The time from one firing to the next, advancing the pattern's state. */
static int64_t irqstorm_next_gap(IrqstormChannel *ch)
{
    switch (ch->pattern) {
    case IRQSTORM_PATTERN_PERIODIC:
        return ch->period_ns;
    case IRQSTORM_PATTERN_POISSON:
        return irqstorm_poisson_gap(ch);
    case IRQSTORM_PATTERN_BURST:
        if (++ch->burst_pos < ch->burst) {
            return ch->period_ns;
        }
        ch->burst_pos = 0;
        return ch->gap_ns;
    default:
        return -1;      /* off, or a one shot that has fired */
    }
}

/* The time from the start to the first firing. */
static int64_t irqstorm_first_gap(IrqstormChannel *ch)
{
    ch->burst_pos = 0;
    ch->rng = ch->seed;
    switch (ch->pattern) {
    case IRQSTORM_PATTERN_POISSON:
        return irqstorm_poisson_gap(ch);
    case IRQSTORM_PATTERN_OFF:
    case IRQSTORM_PATTERN_TRIGGERED:
        return -1;      /* nothing until a trigger */
    default:
        return ch->period_ns;
    }
}

static bool irqstorm_active(IrqstormChannel *ch)
{
    return ch->dev->running && ch->enable &&
           ch->pattern != IRQSTORM_PATTERN_OFF;
}

/* Start the channel's schedule from now (or stop it). */
static void irqstorm_channel_start(IrqstormChannel *ch)
{
    int64_t gap = irqstorm_active(ch) ? irqstorm_first_gap(ch) : -1;

    ch->last_deadline = irqstorm_now();
    ch->armed = gap >= 0;
    if (ch->armed) {
        ch->next_deadline = ch->last_deadline + gap;
        timer_mod_ns(&ch->timer, ch->next_deadline);
    } else {
        timer_del(&ch->timer);
    }
}

/*
 * Deadlines are absolute: each follows the previous deadline by the
 * pattern's gap, whenever the timer actually ran, so rates do not drift.
 */
static void irqstorm_timer_cb(void *opaque)
{
    IrqstormChannel *ch = opaque;
    int64_t gap;

    irqstorm_raise(ch, irqstorm_now());
    ch->last_deadline = ch->next_deadline;
    gap = irqstorm_next_gap(ch);
    ch->armed = gap >= 0;
    if (ch->armed) {
        ch->next_deadline += gap;
        timer_mod_ns(&ch->timer, ch->next_deadline);
    }
}

/* A parameter changed at run time: keep the phase, apply the new gap. */
static void irqstorm_channel_retime(IrqstormChannel *ch)
{
    if (!irqstorm_active(ch)) {
        timer_del(&ch->timer);
        ch->armed = false;
        return;
    }
    if (ch->pattern == IRQSTORM_PATTERN_TRIGGERED) {
        /* Only a trigger arms it: a change cancels a firing to come. */
        timer_del(&ch->timer);
        ch->armed = false;
        return;
    }
    if (!ch->armed) {
        irqstorm_channel_start(ch);
        return;
    }
    ch->burst_pos = 0;
    ch->next_deadline = ch->last_deadline +
        (ch->pattern == IRQSTORM_PATTERN_POISSON ? irqstorm_poisson_gap(ch) :
                                          (int64_t)ch->period_ns);
    timer_mod_ns(&ch->timer, ch->next_deadline);
}

/* A storm begins: forget the last one's times, arm its bound. */
static void irqstorm_storm_begin(IrqstormState *s, int64_t now)
{
    DEV_CTR(s, STORMS)++;
    DEV_CTR(s, STORM_START_NS) = now;
    DEV_CTR(s, STORM_END_NS) = 0;
    DEV_CTR(s, GUEST_STOP_NS) = 0;
    DEV_CTR(s, STORM_DEVICE_END) = 0;
    DEV_CTR(s, STORM_BACKLOG) = 0;
    if (s->storm_ns) {
        timer_mod_ns(&s->end_timer, now + s->storm_ns);
    }
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        s->ch[i].trigger_next = 0;      /* each storm sweeps anew */
    }
}

/* A storm ends, by the guest's CTRL write or by its bound. */
static void irqstorm_storm_finish(IrqstormState *s, int64_t now,
                                  bool by_device)
{
    timer_del(&s->end_timer);
    DEV_CTR(s, STORM_END_NS) = now;
    DEV_CTR(s, STORM_DEVICE_END) = by_device;
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        DEV_CTR(s, STORM_BACKLOG) += CH_CTR(&s->ch[i], IN_FLIGHT);
    }
    trace_irqstorm_storm_end(by_device ? "device" : "guest", now,
                             DEV_CTR(s, STORM_BACKLOG));
}

static void irqstorm_set_running(IrqstormState *s, bool run, bool by_device)
{
    int64_t now = irqstorm_now();

    if (!run && !by_device && DEV_CTR(s, STORMS) &&
        !DEV_CTR(s, GUEST_STOP_NS)) {
        DEV_CTR(s, GUEST_STOP_NS) = now;
    }
    if (run == s->running) {
        return;
    }
    s->running = run;
    if (run) {
        irqstorm_storm_begin(s, now);
    } else {
        irqstorm_storm_finish(s, now, by_device);
    }
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        irqstorm_channel_start(&s->ch[i]);
    }
}

/* The storm's bound passed and the guest had not ended it: end it. */
static void irqstorm_end_cb(void *opaque)
{
    irqstorm_set_running(opaque, false, true);
}

/* ---- guest actions --------------------------------------------------- */

static void irqstorm_ack(IrqstormState *s, uint32_t mask)
{
    if (mask & ~MAKE_64BIT_MASK(0, IRQSTORM_NCHAN)) {
        irqstorm_guest_error(s, "ACK of nonexistent channels 0x%x", mask);
    }
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        IrqstormChannel *ch = &s->ch[i];

        if (!(mask & (1u << i))) {
            continue;
        }
        if (!ch->count) {
            irqstorm_guest_error(s, "ACK of channel %u with nothing queued",
                                 i);
            continue;
        }
        trace_irqstorm_ack(i, irqstorm_oldest(ch)->rec.seq);
        if (!s->stamps) {
            CH_CTR(ch, HANDLED)++;      /* no done stamps to count */
        }
        irqstorm_dequeue(ch);
    }
    irqstorm_update_intx(s);
}

/*
 * MASK_SET and MASK_CLEAR: a channel unmasked asserts INTx again if it has
 * events queued, and sends the message a raise kept pending while masked.
 */
static void irqstorm_mask(IrqstormState *s, uint32_t bits, bool set)
{
    uint32_t mode = irqstorm_irq_mode(s);

    if (bits & ~MAKE_64BIT_MASK(0, IRQSTORM_NCHAN)) {
        irqstorm_guest_error(s, "MASK_%s of nonexistent channels 0x%x",
                             set ? "SET" : "CLEAR", bits);
        bits &= MAKE_64BIT_MASK(0, IRQSTORM_NCHAN);
    }
    s->mask = set ? s->mask | bits : s->mask & ~bits;
    trace_irqstorm_mask(set ? "set" : "clear", bits, s->mask);
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        if (!set && (bits & s->msi_pending & (1u << i))) {
            s->msi_pending &= ~(1u << i);
            if (mode != IRQSTORM_IRQ_MODE_INTX) {
                irqstorm_send_msi(s, mode, i);
            }
        }
    }
    irqstorm_update_intx(s);
}

/* triggered: the offsets of the sweep not used yet. */
static uint64_t irqstorm_triggers_left(IrqstormChannel *ch)
{
    uint64_t n;

    if (ch->pattern != IRQSTORM_PATTERN_TRIGGERED) {
        return 0;
    }
    n = irqstorm_trigger_offsets(ch->trigger_start_ns, ch->trigger_stop_ns,
                                 ch->trigger_step_ns);
    return n > ch->trigger_next ? n - ch->trigger_next : 0;
}

/* Why channel ch cannot be triggered now, or NULL. */
static const char *irqstorm_trigger_refusal(IrqstormChannel *ch)
{
    if (ch->pattern != IRQSTORM_PATTERN_TRIGGERED) {
        return "its pattern is not triggered";
    }
    if (!irqstorm_active(ch)) {
        return "it is not running";
    }
    if (ch->armed) {
        return "its last trigger's firing is still to come";
    }
    if (!irqstorm_triggers_left(ch)) {
        return "its sweep is over";
    }
    return NULL;
}

/*
 * Arm each channel of mask to raise the sweep's next offset from now:
 * trigger-start-ns + k * trigger-step-ns for the storm's k-th trigger.
 */
static void irqstorm_trigger(IrqstormState *s, uint32_t mask)
{
    int64_t now = irqstorm_now();

    if (mask & ~MAKE_64BIT_MASK(0, IRQSTORM_NCHAN)) {
        irqstorm_guest_error(s, "TRIGGER of nonexistent channels 0x%x", mask);
    }
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        IrqstormChannel *ch = &s->ch[i];
        const char *why;

        if (!(mask & (1u << i))) {
            continue;
        }
        why = irqstorm_trigger_refusal(ch);
        if (why) {
            irqstorm_guest_error(s, "TRIGGER of channel %u: %s", i, why);
            continue;
        }
        ch->trigger_offset = ch->trigger_start_ns +
                             ch->trigger_next++ * ch->trigger_step_ns;
        CH_CTR(ch, TRIGGERS)++;
        ch->last_deadline = now;
        ch->next_deadline = now + ch->trigger_offset;
        ch->armed = true;
        timer_mod_ns(&ch->timer, ch->next_deadline);
        trace_irqstorm_trigger(i, ch->trigger_offset, ch->next_deadline);
    }
}

/* The stamps the guest writes: include/irqstorm/abi.h. */
static const struct irqstorm_stamp_desc stamps[IRQSTORM_STAMP_COUNT] = {
    IRQSTORM_STAMPS(IRQSTORM_STAMP_DESC)
};

/* The stamp whose register is at addr, or NULL. */
static const struct irqstorm_stamp_desc *irqstorm_stamp_at(hwaddr addr)
{
    for (unsigned i = 0; i < IRQSTORM_STAMP_COUNT; i++) {
        if (stamps[i].reg == addr) {
            return &stamps[i];
        }
    }
    return NULL;
}

static void irqstorm_stamp(IrqstormState *s, uint32_t seq32,
                           const struct irqstorm_stamp_desc *d)
{
    uint32_t flag = d->flag;
    const char *stage = d->name;
    int64_t now;
    IrqstormEvent *ev;

    if (!s->stamps) {
        return;                 /* stamps=off: accepted, ignored */
    }
    now = irqstorm_now();
    ev = seq32 ? irqstorm_event_find(s, seq32) : NULL;
    if (!ev) {
        irqstorm_guest_error(s, "%s stamp for seq %u, which is not queued",
                             stage, seq32);
        return;
    }
    if (ev->settled && flag != IRQSTORM_REC_DONE) {
        irqstorm_guest_error(s, "%s stamp for seq %u after its done stamp",
                             stage, seq32);
        return;
    }
    if (ev->rec.flags & flag) {
        irqstorm_guest_error(s, "second %s stamp for seq %u", stage, seq32);
        return;
    }
    ev->rec.flags |= flag;
    trace_irqstorm_stamp(stage, ev->rec.seq, now);
    *(uint64_t *)((uint8_t *)&ev->rec + d->time) = now;
    *((uint8_t *)&ev->rec + d->cpu) = irqstorm_cpu();
    if (flag == IRQSTORM_REC_DONE) {
        CH_CTR(&s->ch[ev->rec.channel], HANDLED)++;
        irqstorm_event_settle(s, ev);
    }
}

/* The guest probe's lateness becomes a record of its own. */
static void irqstorm_probe(IrqstormState *s, uint32_t late_ns)
{
    int64_t now = irqstorm_now();
    struct irqstorm_record r = {
        .seq = ++s->next_seq,
        .t_raise = now - MIN((int64_t)late_ns, now),
        .t_done = now,
        .channel = IRQSTORM_PROBE_CHANNEL,
        .flags = IRQSTORM_REC_PROBE | IRQSTORM_REC_DONE,
        .cpu_hardirq = IRQSTORM_CPU_NONE,
        .cpu_thread = IRQSTORM_CPU_NONE,
        .cpu_done = irqstorm_cpu(),
        .cpu_bh = IRQSTORM_CPU_NONE,
    };

    DEV_CTR(s, PROBES)++;
    irqstorm_log_publish(s, &r);
}

/* Busy-wait status: ready after a delay, or after another channel's done. */
static uint32_t irqstorm_ready(IrqstormChannel *ch)
{
    IrqstormEvent *ev = irqstorm_oldest(ch);
    bool ready;

    if (!ev) {
        irqstorm_guest_error(ch->dev, "READY of channel %u with nothing "
                             "queued", ch->index);
        return 0;
    }
    ev->rec.work++;
    CH_CTR(ch, READY_POLLS)++;
    if (ch->ready_channel >= 0) {
        IrqstormChannel *source = &ch->dev->ch[ch->ready_channel];

        ready = CH_CTR(source, HANDLED) > ev->ready_mark;
    } else {
        ready = irqstorm_now() >=
                (int64_t)(ev->rec.t_raise + ch->ready_delay_ns);
    }
    return ready ? R_CH_READY_READY_MASK : 0;
}

/* One 16-bit PIO data word of the channel's oldest queued event. */
static uint64_t irqstorm_pio_word(IrqstormChannel *ch)
{
    IrqstormEvent *ev = irqstorm_oldest(ch);

    if (!ev || !ev->pio_left) {
        irqstorm_guest_error(ch->dev, "PIO read of channel %u with %s",
                             ch->index,
                             ev ? "no words left" : "nothing queued");
        return 0xffff;
    }
    ev->pio_left--;
    ev->rec.work++;
    CH_CTR(ch, PIO_READS)++;
    /* A recognisable pattern: low bits of seq, then the word index. */
    return ((ev->rec.seq & 0xff) << 8 | (ev->pio_left & 0xff)) & 0xffff;
}

/* ---- MMIO and PIO ---------------------------------------------------- */

static uint64_t irqstorm_ch_read(IrqstormState *s, unsigned n, hwaddr reg)
{
    IrqstormChannel *ch = &s->ch[n];
    IrqstormEvent *ev;

    switch (reg) {
    case A_CH_SEQ:
        ev = irqstorm_oldest(ch);
        return ev ? (uint32_t)ev->rec.seq : 0;
    case A_CH_RAISED:
        return (uint32_t)CH_CTR(ch, RAISED);
    case A_CH_READY:
        return irqstorm_ready(ch);
    case A_CH_PIO_LEFT:
        ev = irqstorm_oldest(ch);
        return ev ? ev->pio_left : 0;
    case A_CH_PENDING:
        return ch->count;
    case A_CH_CLAIM:
        return irqstorm_claim(ch);
    case A_CH_TRIGGERS_LEFT:
        return MIN(irqstorm_triggers_left(ch), UINT32_MAX);
    }
    irqstorm_guest_error(s, "read of unknown channel %u register 0x%"
                         HWADDR_PRIx, n, reg);
    return 0;
}

static uint64_t irqstorm_read(void *opaque, hwaddr addr, unsigned size)
{
    IrqstormState *s = opaque;
    uint64_t val = 0;

    if (size != 4 || (addr & 3)) {
        irqstorm_guest_error(s, "%u-byte read at 0x%" HWADDR_PRIx
                             " (registers are 32-bit, aligned)", size, addr);
        return 0;
    }
    switch (addr) {
    case A_ID:
        val = IRQSTORM_ID_MAGIC;
        break;
    case A_VERSION:
        val = IRQSTORM_ABI_VERSION;
        break;
    case A_NCHAN:
        val = IRQSTORM_NCHAN;
        break;
    case A_CTRL:
        val = s->running ? R_CTRL_RUN_MASK : 0;
        break;
    case A_STATUS:
        val = irqstorm_status(s);
        break;
    case A_GUEST_ERRORS:
        val = (uint32_t)DEV_CTR(s, GUEST_ERRORS);
        break;
    case A_IRQ_MODE:
        val = irqstorm_irq_mode(s);
        break;
    case A_MASK:
        val = s->mask;
        break;
    default:
        if (addr >= IRQSTORM_REG_CH_BASE &&
            addr < IRQSTORM_REG_CH(IRQSTORM_NCHAN, 0)) {
            hwaddr off = addr - IRQSTORM_REG_CH_BASE;

            val = irqstorm_ch_read(s, off / IRQSTORM_REG_CH_STRIDE,
                                   off % IRQSTORM_REG_CH_STRIDE);
        } else {
            irqstorm_guest_error(s, "read of unknown or write-only register "
                                 "0x%" HWADDR_PRIx, addr);
        }
    }
    trace_irqstorm_mmio_read(addr, val);
    return val;
}

static void irqstorm_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    IrqstormState *s = opaque;
    const struct irqstorm_stamp_desc *stamp = irqstorm_stamp_at(addr);

    trace_irqstorm_mmio_write(addr, val);
    if (size != 4 || (addr & 3)) {
        irqstorm_guest_error(s, "%u-byte write at 0x%" HWADDR_PRIx
                             " (registers are 32-bit, aligned)", size, addr);
        return;
    }
    if (stamp) {
        irqstorm_stamp(s, val, stamp);
        return;
    }
    switch (addr) {
    case A_CTRL:
        if (val & ~IRQSTORM_CTRL_MASK) {
            irqstorm_guest_error(s, "CTRL reserved bits 0x%" PRIx64,
                                 val & ~IRQSTORM_CTRL_MASK);
        }
        irqstorm_set_running(s, FIELD_EX32(val, CTRL, RUN), false);
        break;
    case A_ACK:
        irqstorm_ack(s, val);
        break;
    case A_PROBE:
        irqstorm_probe(s, val);
        break;
    case A_TRIGGER:
        irqstorm_trigger(s, val);
        break;
    case A_MASK_SET:
    case A_MASK_CLEAR:
        irqstorm_mask(s, val, addr == A_MASK_SET);
        break;
    default:
        irqstorm_guest_error(s, "write 0x%" PRIx64 " to read-only or unknown "
                             "register 0x%" HWADDR_PRIx, val, addr);
    }
}

static const MemoryRegionOps irqstorm_mmio_ops = {
    .read = irqstorm_read,
    .write = irqstorm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    /* Every size reaches us, so that misuse is logged rather than dropped. */
    .valid = { .min_access_size = 1, .max_access_size = 8 },
    .impl = { .min_access_size = 1, .max_access_size = 8 },
};

static uint64_t irqstorm_pio_read(void *opaque, hwaddr addr, unsigned size)
{
    IrqstormState *s = opaque;
    uint64_t val;

    if (size != 2 || (addr & 1) || addr / 2 >= IRQSTORM_NCHAN) {
        irqstorm_guest_error(s, "%u-byte PIO read at 0x%" HWADDR_PRIx
                             " (data ports are 16-bit, at 2*channel)",
                             size, addr);
        return 0xffff;
    }
    val = irqstorm_pio_word(&s->ch[addr / 2]);
    trace_irqstorm_pio_read(addr / 2, val);
    return val;
}

static void irqstorm_pio_write(void *opaque, hwaddr addr, uint64_t val,
                               unsigned size)
{
    irqstorm_guest_error(opaque, "PIO write 0x%" PRIx64 " at 0x%" HWADDR_PRIx
                         " (data ports are read-only)", val, addr);
}

static const MemoryRegionOps irqstorm_pio_ops = {
    .read = irqstorm_pio_read,
    .write = irqstorm_pio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 4 },
    .impl = { .min_access_size = 1, .max_access_size = 4 },
};

/* ---- QOM properties: channel parameters and counters ----------------- */

typedef enum {
    PARAM_U64,          /* uint64 in [min, max] */
    PARAM_U32,          /* uint32 in [min, max] */
    PARAM_I32,          /* int32 in [min, max] */
    PARAM_BOOL,
    PARAM_PATTERN,      /* string, one of patterns */
} ParamType;

typedef struct {
    const char *name;           /* "ch%u-" is prepended */
    ParamType type;
    size_t offset;              /* in IrqstormChannel */
    int64_t min;
    uint64_t max;
    bool timing;                /* a change re-times the schedule */
    const char *help;
} ParamDesc;

#define CHF(f) offsetof(IrqstormChannel, f)

#define IRQSTORM_PARAM_DESC(id, field, name, type, min, max, dflt, t, help) \
    { name, PARAM_##type, CHF(field), min, max, t, help },
static const ParamDesc channel_params[] = {
    IRQSTORM_CHANNEL_PROPS(IRQSTORM_PARAM_DESC)
};
#undef IRQSTORM_PARAM_DESC

typedef struct {
    IrqstormChannel *ch;
    const ParamDesc *d;
} ParamRef;

static void irqstorm_param_get(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    ParamRef *p = opaque;
    void *field = (uint8_t *)p->ch + p->d->offset;
    uint64_t u;
    int32_t i;
    bool b;
    char *str;

    switch (p->d->type) {
    case PARAM_U64:
        u = *(uint64_t *)field;
        visit_type_uint64(v, name, &u, errp);
        break;
    case PARAM_U32:
        u = *(uint32_t *)field;
        visit_type_uint64(v, name, &u, errp);
        break;
    case PARAM_I32:
        i = *(int32_t *)field;
        visit_type_int32(v, name, &i, errp);
        break;
    case PARAM_BOOL:
        b = *(bool *)field;
        visit_type_bool(v, name, &b, errp);
        break;
    case PARAM_PATTERN:
        str = (char *)patterns[*(uint32_t *)field].name;
        visit_type_str(v, name, &str, errp);
        break;
    }
}

/* Parse and range-check a new value; store nothing unless it is valid. */
static bool irqstorm_param_parse(const ParamRef *p, Visitor *v,
                                 const char *name, uint64_t *out, Error **errp)
{
    g_autofree char *str = NULL;
    int64_t i;
    bool b;

    switch (p->d->type) {
    case PARAM_U64:
    case PARAM_U32:
        if (!visit_type_uint64(v, name, out, errp)) {
            return false;
        }
        if (*out < (uint64_t)p->d->min || *out > p->d->max) {
            error_setg(errp, "%s: %" PRIu64 " is out of range [%" PRId64
                       ", %" PRIu64 "] (%s)", name, *out, p->d->min,
                       p->d->max, p->d->help);
            return false;
        }
        return true;
    case PARAM_I32:
        if (!visit_type_int64(v, name, &i, errp)) {
            return false;
        }
        if (i < p->d->min || i > (int64_t)p->d->max) {
            error_setg(errp, "%s: %" PRId64 " is out of range [%" PRId64
                       ", %" PRIu64 "] (%s)", name, i, p->d->min, p->d->max,
                       p->d->help);
            return false;
        }
        *out = i;
        return true;
    case PARAM_BOOL:
        if (!visit_type_bool(v, name, &b, errp)) {
            return false;
        }
        *out = b;
        return true;
    case PARAM_PATTERN:
        if (!visit_type_str(v, name, &str, errp)) {
            return false;
        }
        for (unsigned k = 0; k < IRQSTORM_PATTERN_COUNT; k++) {
            if (!strcmp(str, patterns[k].name)) {
                *out = k;
                return true;
            }
        }
        error_setg(errp, "%s: unknown pattern '%s' (%s)", name, str,
                   p->d->help);
        return false;
    }
    g_assert_not_reached();
}

static void irqstorm_param_set(Object *obj, Visitor *v, const char *name,
                               void *opaque, Error **errp)
{
    ParamRef *p = opaque;
    void *field = (uint8_t *)p->ch + p->d->offset;
    uint64_t val;

    if (!irqstorm_param_parse(p, v, name, &val, errp)) {
        return;
    }
    switch (p->d->type) {
    case PARAM_U64:
        *(uint64_t *)field = val;
        break;
    case PARAM_U32:
    case PARAM_PATTERN:
        *(uint32_t *)field = val;
        break;
    case PARAM_I32:
        *(int32_t *)field = (int32_t)val;
        break;
    case PARAM_BOOL:
        *(bool *)field = val;
        break;
    }
    trace_irqstorm_param(p->ch->index, p->d->name, val);
    if (p->d->timing) {
        irqstorm_channel_retime(p->ch);
    }
}

static void irqstorm_param_release(Object *obj, const char *name, void *opaque)
{
    g_free(opaque);
}

static void irqstorm_get_counter(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    uint64_t val = *(uint64_t *)opaque;

    visit_type_uint64(v, name, &val, errp);
}

static void irqstorm_add_counter(Object *obj, const char *name, uint64_t *ctr)
{
    object_property_add(obj, name, "uint64", irqstorm_get_counter, NULL,
                        NULL, ctr);
}

/* Every property's default, for channel n. */
static void irqstorm_channel_defaults(IrqstormChannel *ch, unsigned n)
{
#define IRQSTORM_PARAM_DEFAULT(id, field, name, type, min, max, dflt, t, h) \
    ch->field = (dflt);
    IRQSTORM_CHANNEL_PROPS(IRQSTORM_PARAM_DEFAULT)
#undef IRQSTORM_PARAM_DEFAULT
}

static void irqstorm_channel_init(IrqstormState *s, unsigned i)
{
    IrqstormChannel *ch = &s->ch[i];
    Object *obj = OBJECT(s);

    ch->dev = s;
    ch->index = i;
    irqstorm_channel_defaults(ch, i);
    timer_init_ns(&ch->timer, QEMU_CLOCK_VIRTUAL, irqstorm_timer_cb, ch);

    for (size_t k = 0; k < G_N_ELEMENTS(channel_params); k++) {
        const ParamDesc *d = &channel_params[k];
        g_autofree char *name = g_strdup_printf("ch%u-%s", i, d->name);
        ParamRef *ref = g_new(ParamRef, 1);

        *ref = (ParamRef) { .ch = ch, .d = d };
        object_property_add(obj, name,
                                   d->type == PARAM_BOOL ? "bool" :
                                   d->type == PARAM_PATTERN ? "str" :
                                   d->type == PARAM_I32 ? "int32" : "uint64",
                                   irqstorm_param_get, irqstorm_param_set,
                                   irqstorm_param_release, ref);
        object_property_set_description(obj, name, d->help);
    }
    for (size_t k = 0; k < G_N_ELEMENTS(channel_counters); k++) {
        g_autofree char *name = g_strdup_printf("ch%u-%s", i,
                                                channel_counters[k].name);

        irqstorm_add_counter(obj, name, &ch->ctr[k]);
    }
}

static void irqstorm_instance_init(Object *obj)
{
    IrqstormState *s = IRQSTORM(obj);

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        irqstorm_channel_init(s, i);
    }
    for (size_t k = 0; k < G_N_ELEMENTS(device_counters); k++) {
        irqstorm_add_counter(obj, device_counters[k].name, &s->ctr[k]);
    }
    timer_init_ns(&s->end_timer, QEMU_CLOCK_VIRTUAL, irqstorm_end_cb, s);
}

/* ---- lifecycle ------------------------------------------------------- */

static bool irqstorm_log_realize(IrqstormState *s, Error **errp)
{
    MemoryRegion *mr;
    uint64_t size;

    if (!s->hostmem) {
        error_setg(errp, "'memdev' is required: the shared timestamp log "
                   "(e.g. -object memory-backend-file,id=log,share=on,"
                   "mem-path=FILE,size=16M -device irqstorm,memdev=log)");
        return false;
    }
    if (host_memory_backend_is_mapped(s->hostmem)) {
        error_setg(errp, "memdev '%s' is already in use",
                   object_get_canonical_path_component(OBJECT(s->hostmem)));
        return false;
    }
    if (!s->hostmem->share) {
        error_setg(errp, "memdev '%s' needs share=on, or the host cannot "
                   "read the log",
                   object_get_canonical_path_component(OBJECT(s->hostmem)));
        return false;
    }
    mr = host_memory_backend_get_memory(s->hostmem);
    size = memory_region_size(mr);
    if (size < IRQSTORM_LOG_MIN_SIZE || !is_power_of_2(size)) {
        error_setg(errp, "memdev size %" PRIu64 " must be a power of two of "
                   "at least %u bytes", size, IRQSTORM_LOG_MIN_SIZE);
        return false;
    }
    s->log = memory_region_get_ram_ptr(mr);
    s->log_records = (uint8_t *)s->log + IRQSTORM_LOG_HEADER_SIZE;
    s->ring_records = pow2floor((size - IRQSTORM_LOG_HEADER_SIZE) /
                                sizeof(struct irqstorm_record));
    host_memory_backend_set_mapped(s->hostmem, true);
    irqstorm_log_init(s);

    /* The guest may read the log but never scribble on it. */
    memory_region_init_alias(&s->log_ro, OBJECT(s), "irqstorm-log", mr, 0,
                             size);
    memory_region_set_readonly(&s->log_ro, true);
    pci_register_bar(PCI_DEVICE(s), IRQSTORM_BAR_LOG,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_PREFETCH |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->log_ro);
    return true;
}

/*
 * pause-ns: the VM stops when the virtual clock reaches it. Under -icount
 * the round-robin vCPU thread runs the virtual timers itself when its
 * budget ends at their deadline, between the two guest instructions where
 * the clock passes pause_ns: stopping that vCPU at once (cpu_stop_current(),
 * as vm_stop() does from a vCPU thread) leaves the guest exactly there for
 * a debugger on QEMU's gdbstub. The stop itself is a request, so that a
 * caller running timers outside a vCPU (qtest's clock_step) is not left
 * waiting for a clock that no longer moves.
 */
static void irqstorm_pause_cb(void *opaque)
{
    trace_irqstorm_pause(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    qemu_system_vmstop_request_prepare();
    qemu_system_vmstop_request(RUN_STATE_PAUSED);
    cpu_stop_current();
}

static void irqstorm_realize(PCIDevice *pdev, Error **errp)
{
    IrqstormState *s = IRQSTORM(pdev);

    if (!irqstorm_log_realize(s, errp)) {
        return;
    }
    timer_init_ns(&s->pause_timer, QEMU_CLOCK_VIRTUAL, irqstorm_pause_cb, s);
    if (s->pause_ns) {
        timer_mod_ns(&s->pause_timer, s->pause_ns);
    }
    pci_config_set_interrupt_pin(pdev->config, 1);
    memory_region_init_io(&s->mmio, OBJECT(s), &irqstorm_mmio_ops, s,
                          "irqstorm-mmio", IRQSTORM_REGS_SIZE);
    pci_register_bar(pdev, IRQSTORM_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    memory_region_init_io(&s->pio, OBJECT(s), &irqstorm_pio_ops, s,
                          "irqstorm-pio", IRQSTORM_PIO_SIZE);
    pci_register_bar(pdev, IRQSTORM_BAR_PIO, PCI_BASE_ADDRESS_SPACE_IO,
                     &s->pio);
    if (msi_init(pdev, 0, IRQSTORM_MSI_VECTORS, true, true, errp) < 0 ||
        msix_init_exclusive_bar(pdev, IRQSTORM_MSI_VECTORS, IRQSTORM_BAR_MSIX,
                                errp) < 0) {
        host_memory_backend_set_mapped(s->hostmem, false);
        return;
    }
    for (unsigned i = 0; i < IRQSTORM_MSI_VECTORS; i++) {
        msix_vector_use(pdev, i);
    }
}

static void irqstorm_exit(PCIDevice *pdev)
{
    IrqstormState *s = IRQSTORM(pdev);

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        timer_del(&s->ch[i].timer);
    }
    timer_del(&s->end_timer);
    timer_del(&s->pause_timer);
    msix_unuse_all_vectors(pdev);
    msix_uninit_exclusive_bar(pdev);
    msi_uninit(pdev);
    host_memory_backend_set_mapped(s->hostmem, false);
}

/*
 * Reset stops the storm and empties the queues; events still in flight
 * are published as INCOMPLETE first. Channel parameters (the host's) stay.
 * The log itself, and its indices, belong to the host reader and survive a
 * guest reboot.
 */
static void irqstorm_reset(DeviceState *dev)
{
    IrqstormState *s = IRQSTORM(dev);
    PCIDevice *pdev = PCI_DEVICE(dev);

    s->running = false;
    s->mask = 0;
    s->msi_pending = 0;
    timer_del(&s->end_timer);
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        IrqstormChannel *ch = &s->ch[i];

        timer_del(&ch->timer);
        ch->armed = false;
        ch->trigger_next = 0;
        while (ch->count) {
            irqstorm_dequeue(ch);
        }
        ch->head = 0;
    }
    msi_reset(pdev);
    msix_reset(pdev);
    irqstorm_update_intx(s);
}

static const VMStateDescription vmstate_irqstorm_event = {
    .name = "irqstorm/event",
    .version_id = 5,
    .minimum_version_id = 5,
    .fields = (VMStateField[]) {
        VMSTATE_UINT64(rec.seq, IrqstormEvent),
        VMSTATE_UINT64(rec.t_raise, IrqstormEvent),
        VMSTATE_UINT64(rec.t_hardirq, IrqstormEvent),
        VMSTATE_UINT64(rec.t_thread, IrqstormEvent),
        VMSTATE_UINT64(rec.t_done, IrqstormEvent),
        VMSTATE_UINT32(rec.channel, IrqstormEvent),
        VMSTATE_UINT32(rec.flags, IrqstormEvent),
        VMSTATE_UINT32(rec.coalesced, IrqstormEvent),
        VMSTATE_UINT32(rec.work, IrqstormEvent),
        VMSTATE_UINT8(rec.cpu_hardirq, IrqstormEvent),
        VMSTATE_UINT8(rec.cpu_thread, IrqstormEvent),
        VMSTATE_UINT8(rec.cpu_done, IrqstormEvent),
        VMSTATE_UINT8(rec.cpu_bh, IrqstormEvent),
        VMSTATE_UINT32(rec.offset, IrqstormEvent),
        VMSTATE_UINT64(rec.t_bh, IrqstormEvent),
        VMSTATE_BOOL(settled, IrqstormEvent),
        VMSTATE_UINT32(pio_left, IrqstormEvent),
        VMSTATE_UINT64(ready_mark, IrqstormEvent),
        VMSTATE_END_OF_LIST()
    }
};

static int irqstorm_channel_post_load(void *opaque, int version_id)
{
    IrqstormChannel *ch = opaque;

    /* Indices come from the stream: never trust them to stay in bounds. */
    if (ch->head >= IRQSTORM_DEPTH || ch->count > IRQSTORM_DEPTH ||
        ch->claimed > ch->count ||
        ch->pattern >= IRQSTORM_PATTERN_COUNT ||
        ch->ready_channel < -1 || ch->ready_channel >= (int)IRQSTORM_NCHAN ||
        !ch->trigger_step_ns) {
        return -EINVAL;
    }
    return 0;
}

static const VMStateDescription vmstate_irqstorm_channel = {
    .name = "irqstorm/channel",
    .version_id = 5,
    .minimum_version_id = 5,
    .post_load = irqstorm_channel_post_load,
    .fields = (VMStateField[]) {
        VMSTATE_TIMER(timer, IrqstormChannel),
        VMSTATE_UINT32(pattern, IrqstormChannel),
        VMSTATE_UINT64(period_ns, IrqstormChannel),
        VMSTATE_UINT64(gap_ns, IrqstormChannel),
        VMSTATE_UINT32(burst, IrqstormChannel),
        VMSTATE_UINT64(seed, IrqstormChannel),
        VMSTATE_BOOL(enable, IrqstormChannel),
        VMSTATE_UINT32(pio_words, IrqstormChannel),
        VMSTATE_UINT64(ready_delay_ns, IrqstormChannel),
        VMSTATE_INT32(ready_channel, IrqstormChannel),
        VMSTATE_UINT64(trigger_start_ns, IrqstormChannel),
        VMSTATE_UINT64(trigger_stop_ns, IrqstormChannel),
        VMSTATE_UINT64(trigger_step_ns, IrqstormChannel),
        VMSTATE_UINT64(trigger_next, IrqstormChannel),
        VMSTATE_UINT32(trigger_offset, IrqstormChannel),
        VMSTATE_INT64(last_deadline, IrqstormChannel),
        VMSTATE_INT64(next_deadline, IrqstormChannel),
        VMSTATE_UINT32(burst_pos, IrqstormChannel),
        VMSTATE_UINT64(rng, IrqstormChannel),
        VMSTATE_BOOL(armed, IrqstormChannel),
        VMSTATE_STRUCT_ARRAY(queue, IrqstormChannel, IRQSTORM_DEPTH, 5,
                             vmstate_irqstorm_event, IrqstormEvent),
        VMSTATE_UINT32(head, IrqstormChannel),
        VMSTATE_UINT32(count, IrqstormChannel),
        VMSTATE_UINT32(claimed, IrqstormChannel),
        VMSTATE_UINT64_ARRAY(ctr, IrqstormChannel,
                             IRQSTORM_CHANNEL_COUNTER_COUNT),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_irqstorm = {
    .name = TYPE_IRQSTORM,
    .version_id = IRQSTORM_ABI_VERSION,
    .minimum_version_id = IRQSTORM_ABI_VERSION,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, IrqstormState),
        VMSTATE_MSIX(parent_obj, IrqstormState),
        VMSTATE_BOOL(running, IrqstormState),
        VMSTATE_TIMER(end_timer, IrqstormState),
        VMSTATE_UINT64(next_seq, IrqstormState),
        VMSTATE_UINT32(mask, IrqstormState),
        VMSTATE_UINT32(msi_pending, IrqstormState),
        VMSTATE_UINT64_ARRAY(ctr, IrqstormState, IRQSTORM_DEVICE_COUNTER_COUNT),
        VMSTATE_STRUCT_ARRAY(ch, IrqstormState, IRQSTORM_NCHAN, 5,
                             vmstate_irqstorm_channel, IrqstormChannel),
        VMSTATE_END_OF_LIST()
    }
};

static Property irqstorm_properties[] = {
    DEFINE_PROP_LINK("memdev", IrqstormState, hostmem, TYPE_MEMORY_BACKEND,
                     HostMemoryBackend *),
    /*
     * off: no stamps taken, nothing logged; interrupts, claims and acks as
     * usual (handled counts acks): what the instrumentation costs.
     */
    DEFINE_PROP_BOOL(IRQSTORM_PROP_STAMPS, IrqstormState, stamps, true),
    /* A storm's bound: past it the device clears RUN itself (0: none). */
    DEFINE_PROP_UINT64(IRQSTORM_PROP_STORM_NS, IrqstormState, storm_ns, 0),
    DEFINE_PROP_UINT64(IRQSTORM_PROP_PAUSE_NS, IrqstormState, pause_ns, 0),
    DEFINE_PROP_END_OF_LIST(),
};

static void irqstorm_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

    k->realize = irqstorm_realize;
    k->exit = irqstorm_exit;
    k->vendor_id = IRQSTORM_PCI_VENDOR_ID;
    k->device_id = IRQSTORM_PCI_DEVICE_ID;
    k->revision = IRQSTORM_ABI_VERSION;
    k->class_id = IRQSTORM_PCI_CLASS;
    dc->desc = "Interrupt storm generator with a shared timestamp log";
    dc->reset = irqstorm_reset;
    dc->vmsd = &vmstate_irqstorm;
    device_class_set_props(dc, irqstorm_properties);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo irqstorm_info = {
    .name = TYPE_IRQSTORM,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(IrqstormState),
    .instance_init = irqstorm_instance_init,
    .class_init = irqstorm_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { },
    },
};

static void irqstorm_register_types(void)
{
    type_register_static(&irqstorm_info);
}

type_init(irqstorm_register_types)
