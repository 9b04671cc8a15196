/*
 * irqstorm: a PCI device that raises interrupt storms and stamps every stage
 * of every interrupt, with QEMU_CLOCK_VIRTUAL, into a log shared with the host.
 *
 * Copyright (c) 2026 The irqstorm developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Register map and log layout: include/irqstorm/abi.h, docs/abi.md.
 */
#include "qemu/osdep.h"
#include "qemu/atomic.h"
#include "qemu/bswap.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "migration/vmstate.h"
#include "sysemu/hostmem.h"
#include "qom/object.h"
#include "trace/trace-hw_misc.h"

#include "irqstorm/abi.h"

#define TYPE_IRQSTORM "irqstorm"
OBJECT_DECLARE_SIMPLE_TYPE(IrqstormState, IRQSTORM)

REG32(ID, IRQSTORM_REG_ID)
REG32(VERSION, IRQSTORM_REG_VERSION)
REG32(NCHAN, IRQSTORM_REG_NCHAN)
REG32(CTRL, IRQSTORM_REG_CTRL)
    FIELD(CTRL, RUN, 0, 1)
REG32(STATUS, IRQSTORM_REG_STATUS)
REG32(ACK, IRQSTORM_REG_ACK)
REG32(STAMP_HARDIRQ, IRQSTORM_REG_STAMP_HARDIRQ)
REG32(STAMP_THREAD, IRQSTORM_REG_STAMP_THREAD)
REG32(STAMP_DONE, IRQSTORM_REG_STAMP_DONE)
REG32(GUEST_ERRORS, IRQSTORM_REG_GUEST_ERRORS)
/* Channel-relative registers, inside each channel's block. */
REG32(CH_SEQ, IRQSTORM_CH_SEQ)
REG32(CH_RAISED, IRQSTORM_CH_RAISED)

#define IRQSTORM_NCHAN          IRQSTORM_NUM_CHANNELS
#define IRQSTORM_INFLIGHT       64      /* events raised and not yet done */
#define IRQSTORM_CTRL_MASK      R_CTRL_RUN_MASK
#define IRQSTORM_MIN_PERIOD_NS  100     /* 10 MHz: beyond any guest */

typedef struct IrqstormState IrqstormState;

typedef struct IrqstormEvent {
    struct irqstorm_record rec;         /* host byte order until published */
    bool in_use;
} IrqstormEvent;

typedef struct IrqstormChannel {
    IrqstormState *dev;
    unsigned index;
    QEMUTimer timer;
    uint64_t period_ns;                 /* 0: channel off */
    int64_t next_deadline;              /* absolute, QEMU_CLOCK_VIRTUAL ns */
    uint64_t pending_seq;               /* asserted event, 0: none */
    uint64_t raised;                    /* pattern firings */
    uint64_t coalesced;                 /* firings merged into a pending one */
    uint64_t handled;                   /* done stamps */
} IrqstormChannel;

struct IrqstormState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    MemoryRegion log_ro;                /* read-only alias for the guest */
    HostMemoryBackend *hostmem;
    struct irqstorm_log_header *log;    /* host mapping of the memdev */
    uint8_t *log_records;
    uint32_t ring_records;

    bool running;                       /* CTRL.RUN */
    uint64_t next_seq;
    uint64_t log_producer;              /* device's copy; never read back */
    uint64_t log_lost;
    uint64_t guest_errors;
    IrqstormChannel ch[IRQSTORM_NCHAN];
    IrqstormEvent events[IRQSTORM_INFLIGHT];
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
    s->guest_errors++;
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s\n", TYPE_IRQSTORM, msg);
}

static uint32_t irqstorm_status(IrqstormState *s)
{
    uint32_t status = 0;

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        if (s->ch[i].pending_seq) {
            status |= 1u << i;
        }
    }
    return status;
}

static void irqstorm_update_irq(IrqstormState *s)
{
    pci_set_irq(PCI_DEVICE(s), irqstorm_status(s) != 0);
}

/* ---- shared log ------------------------------------------------------ */

static void irqstorm_log_init(IrqstormState *s)
{
    struct irqstorm_log_header *h = s->log;

    qatomic_set(&h->magic, 0);
    smp_wmb();
    memset((uint8_t *)h + sizeof(h->magic), 0,
           IRQSTORM_LOG_HEADER_SIZE - sizeof(h->magic));
    h->version = cpu_to_le32(IRQSTORM_ABI_VERSION);
    h->header_size = cpu_to_le32(IRQSTORM_LOG_HEADER_SIZE);
    h->record_size = cpu_to_le32(sizeof(struct irqstorm_record));
    h->ring_records = cpu_to_le32(s->ring_records);
    s->log_producer = 0;
    s->log_lost = 0;
    /* Magic last: a reader that sees it sees a complete header. */
    qatomic_store_release(&h->magic, cpu_to_le32(IRQSTORM_LOG_MAGIC));
}

/*
 * Publish one completed record. The consumer index is written by the host;
 * it is only trusted when it lies in [producer - ring, producer]. Anything
 * else is treated as a full ring, so a confused consumer loses records
 * (counted) instead of making us overwrite unread ones.
 */
static void irqstorm_log_publish(IrqstormState *s, const struct irqstorm_record *r)
{
    uint64_t cons = le64_to_cpu(qatomic_load_acquire(&s->log->consumer));
    uint64_t used = s->log_producer - cons;
    struct irqstorm_record *slot;

    if (cons > s->log_producer || used >= s->ring_records) {
        s->log_lost++;
        qatomic_set(&s->log->lost, cpu_to_le64(s->log_lost));
        trace_irqstorm_log_lost(r->seq, s->log_lost);
        return;
    }
    slot = (struct irqstorm_record *)(s->log_records +
            (s->log_producer & (s->ring_records - 1)) * sizeof(*slot));
    slot->seq = cpu_to_le64(r->seq);
    slot->t_raise = cpu_to_le64(r->t_raise);
    slot->t_hardirq = cpu_to_le64(r->t_hardirq);
    slot->t_thread = cpu_to_le64(r->t_thread);
    slot->t_done = cpu_to_le64(r->t_done);
    slot->channel = cpu_to_le32(r->channel);
    slot->flags = cpu_to_le32(r->flags);
    slot->coalesced = cpu_to_le32(r->coalesced);
    memset(slot->reserved, 0, sizeof(slot->reserved));
    s->log_producer++;
    /* The record must be visible before the index that publishes it. */
    qatomic_store_release(&s->log->producer, cpu_to_le64(s->log_producer));
    trace_irqstorm_log_publish(r->seq, s->log_producer);
}

/* ---- in-flight events ------------------------------------------------ */

static IrqstormEvent *irqstorm_event_find(IrqstormState *s, uint32_t seq32)
{
    for (unsigned i = 0; i < IRQSTORM_INFLIGHT; i++) {
        if (s->events[i].in_use && (uint32_t)s->events[i].rec.seq == seq32) {
            return &s->events[i];
        }
    }
    return NULL;
}

static void irqstorm_event_retire(IrqstormState *s, IrqstormEvent *ev)
{
    if (!(ev->rec.flags & IRQSTORM_REC_DONE)) {
        ev->rec.flags |= IRQSTORM_REC_INCOMPLETE;
    }
    irqstorm_log_publish(s, &ev->rec);
    ev->in_use = false;
}

/*
 * A free slot for a new event. When all are taken by events the guest never
 * completed, the oldest is published as INCOMPLETE to make room: the table
 * bounds device memory whatever the guest does, and nothing vanishes unlogged.
 */
static IrqstormEvent *irqstorm_event_alloc(IrqstormState *s)
{
    IrqstormEvent *oldest = &s->events[0];

    for (unsigned i = 0; i < IRQSTORM_INFLIGHT; i++) {
        if (!s->events[i].in_use) {
            return &s->events[i];
        }
        if (s->events[i].rec.seq < oldest->rec.seq) {
            oldest = &s->events[i];
        }
    }
    irqstorm_event_retire(s, oldest);
    return oldest;
}

static void irqstorm_flush_events(IrqstormState *s)
{
    for (unsigned i = 0; i < IRQSTORM_INFLIGHT; i++) {
        if (s->events[i].in_use) {
            irqstorm_event_retire(s, &s->events[i]);
        }
    }
}

/* ---- channels -------------------------------------------------------- */

static void irqstorm_raise(IrqstormChannel *ch, int64_t now)
{
    IrqstormState *s = ch->dev;
    IrqstormEvent *ev;

    ch->raised++;
    if (ch->pending_seq) {
        /* Level line still asserted: the guest sees one interrupt. */
        ev = irqstorm_event_find(s, ch->pending_seq);
        if (ev) {
            ev->rec.coalesced++;
            ev->rec.flags |= IRQSTORM_REC_COALESCED;
        }
        ch->coalesced++;
        trace_irqstorm_coalesce(ch->index, ch->pending_seq);
        return;
    }
    ev = irqstorm_event_alloc(s);
    memset(ev, 0, sizeof(*ev));
    ev->in_use = true;
    ev->rec.seq = ++s->next_seq;
    ev->rec.channel = ch->index;
    ev->rec.t_raise = now;
    ev->rec.flags = IRQSTORM_REC_LEVEL;
    ch->pending_seq = ev->rec.seq;
    trace_irqstorm_raise(ch->index, ev->rec.seq, now);
    irqstorm_update_irq(s);
}

static void irqstorm_arm(IrqstormChannel *ch)
{
    if (ch->dev->running && ch->period_ns) {
        timer_mod_ns(&ch->timer, ch->next_deadline);
    } else {
        timer_del(&ch->timer);
    }
}

/*
 * Deadlines are absolute: each follows the previous one by exactly one
 * period, whenever the timer actually ran, so rates do not drift.
 */
static void irqstorm_timer_cb(void *opaque)
{
    IrqstormChannel *ch = opaque;

    irqstorm_raise(ch, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    ch->next_deadline += ch->period_ns;
    irqstorm_arm(ch);
}

static void irqstorm_set_running(IrqstormState *s, bool run)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (run == s->running) {
        return;
    }
    s->running = run;
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        s->ch[i].next_deadline = now + s->ch[i].period_ns;
        irqstorm_arm(&s->ch[i]);
    }
}

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
        if (!ch->pending_seq) {
            irqstorm_guest_error(s, "ACK of channel %u with nothing pending", i);
            continue;
        }
        trace_irqstorm_ack(i, ch->pending_seq);
        ch->pending_seq = 0;
    }
    irqstorm_update_irq(s);
}

static void irqstorm_stamp(IrqstormState *s, uint32_t seq32, uint32_t flag,
                           const char *stage)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    IrqstormEvent *ev = seq32 ? irqstorm_event_find(s, seq32) : NULL;

    if (!ev) {
        irqstorm_guest_error(s, "%s stamp for unknown or stale seq %u",
                             stage, seq32);
        return;
    }
    if (ev->rec.flags & flag) {
        irqstorm_guest_error(s, "second %s stamp for seq %u", stage, seq32);
        return;
    }
    ev->rec.flags |= flag;
    trace_irqstorm_stamp(stage, ev->rec.seq, now);
    switch (flag) {
    case IRQSTORM_REC_HARDIRQ:
        ev->rec.t_hardirq = now;
        break;
    case IRQSTORM_REC_THREAD:
        ev->rec.t_thread = now;
        break;
    case IRQSTORM_REC_DONE:
        ev->rec.t_done = now;
        s->ch[ev->rec.channel].handled++;
        irqstorm_event_retire(s, ev);
        break;
    }
}

/* ---- MMIO ------------------------------------------------------------ */

static uint64_t irqstorm_ch_read(IrqstormState *s, unsigned n, hwaddr reg)
{
    IrqstormChannel *ch = &s->ch[n];

    switch (reg) {
    case A_CH_SEQ:
        return (uint32_t)ch->pending_seq;
    case A_CH_RAISED:
        return (uint32_t)ch->raised;
    }
    irqstorm_guest_error(s, "read of unknown channel %u register 0x%" HWADDR_PRIx,
                         n, reg);
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
        val = (uint32_t)s->guest_errors;
        break;
    default:
        if (addr >= IRQSTORM_REG_CH_BASE &&
            addr < IRQSTORM_REG_CH(IRQSTORM_NCHAN, 0)) {
            hwaddr off = addr - IRQSTORM_REG_CH_BASE;

            val = irqstorm_ch_read(s, off / IRQSTORM_REG_CH_STRIDE,
                                   off % IRQSTORM_REG_CH_STRIDE);
        } else {
            irqstorm_guest_error(s, "read of unknown register 0x%" HWADDR_PRIx,
                                 addr);
        }
    }
    trace_irqstorm_mmio_read(addr, val);
    return val;
}

static void irqstorm_write(void *opaque, hwaddr addr, uint64_t val,
                           unsigned size)
{
    IrqstormState *s = opaque;

    trace_irqstorm_mmio_write(addr, val);
    if (size != 4 || (addr & 3)) {
        irqstorm_guest_error(s, "%u-byte write at 0x%" HWADDR_PRIx
                             " (registers are 32-bit, aligned)", size, addr);
        return;
    }
    switch (addr) {
    case A_CTRL:
        if (val & ~IRQSTORM_CTRL_MASK) {
            irqstorm_guest_error(s, "CTRL reserved bits 0x%" PRIx64,
                                 val & ~IRQSTORM_CTRL_MASK);
        }
        irqstorm_set_running(s, FIELD_EX32(val, CTRL, RUN));
        break;
    case A_ACK:
        irqstorm_ack(s, val);
        break;
    case A_STAMP_HARDIRQ:
        irqstorm_stamp(s, val, IRQSTORM_REC_HARDIRQ, "hardirq");
        break;
    case A_STAMP_THREAD:
        irqstorm_stamp(s, val, IRQSTORM_REC_THREAD, "thread");
        break;
    case A_STAMP_DONE:
        irqstorm_stamp(s, val, IRQSTORM_REC_DONE, "done");
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

/* ---- QOM properties: channel parameters and counters ----------------- */

static void irqstorm_get_period(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    IrqstormChannel *ch = opaque;

    visit_type_uint64(v, name, &ch->period_ns, errp);
}

static void irqstorm_set_period(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    IrqstormChannel *ch = opaque;
    uint64_t period;

    if (!visit_type_uint64(v, name, &period, errp)) {
        return;
    }
    if (period && period < IRQSTORM_MIN_PERIOD_NS) {
        error_setg(errp, "%s: %" PRIu64 " ns is below the minimum period of "
                   "%u ns (0 turns the channel off)", name, period,
                   IRQSTORM_MIN_PERIOD_NS);
        return;
    }
    /* A running channel keeps its phase: next raise = last one + period. */
    ch->next_deadline += (int64_t)period - (int64_t)ch->period_ns;
    ch->period_ns = period;
    irqstorm_arm(ch);
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

static void irqstorm_instance_init(Object *obj)
{
    IrqstormState *s = IRQSTORM(obj);

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        IrqstormChannel *ch = &s->ch[i];
        g_autofree char *period = g_strdup_printf("ch%u-period-ns", i);
        g_autofree char *raised = g_strdup_printf("ch%u-raised", i);
        g_autofree char *coal = g_strdup_printf("ch%u-coalesced", i);
        g_autofree char *handled = g_strdup_printf("ch%u-handled", i);

        ch->dev = s;
        ch->index = i;
        timer_init_ns(&ch->timer, QEMU_CLOCK_VIRTUAL, irqstorm_timer_cb, ch);
        object_property_add(obj, period, "uint64", irqstorm_get_period,
                            irqstorm_set_period, NULL, ch);
        irqstorm_add_counter(obj, raised, &ch->raised);
        irqstorm_add_counter(obj, coal, &ch->coalesced);
        irqstorm_add_counter(obj, handled, &ch->handled);
    }
    irqstorm_add_counter(obj, "log-published", &s->log_producer);
    irqstorm_add_counter(obj, "log-lost", &s->log_lost);
    irqstorm_add_counter(obj, "guest-errors", &s->guest_errors);
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
    memory_region_init_alias(&s->log_ro, OBJECT(s), "irqstorm-log", mr, 0, size);
    memory_region_set_readonly(&s->log_ro, true);
    pci_register_bar(PCI_DEVICE(s), IRQSTORM_BAR_LOG,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_PREFETCH |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->log_ro);
    return true;
}

static void irqstorm_realize(PCIDevice *pdev, Error **errp)
{
    IrqstormState *s = IRQSTORM(pdev);

    if (!irqstorm_log_realize(s, errp)) {
        return;
    }
    pci_config_set_interrupt_pin(pdev->config, 1);
    memory_region_init_io(&s->mmio, OBJECT(s), &irqstorm_mmio_ops, s,
                          "irqstorm-mmio", IRQSTORM_REGS_SIZE);
    pci_register_bar(pdev, IRQSTORM_BAR_REGS, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
}

static void irqstorm_exit(PCIDevice *pdev)
{
    IrqstormState *s = IRQSTORM(pdev);

    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        timer_del(&s->ch[i].timer);
    }
    host_memory_backend_set_mapped(s->hostmem, false);
}

/*
 * Reset stops the storm and forgets pending events; those still in flight
 * are published as INCOMPLETE first. The log itself, and its indices, belong
 * to the host reader and survive a guest reboot.
 */
static void irqstorm_reset(DeviceState *dev)
{
    IrqstormState *s = IRQSTORM(dev);

    s->running = false;
    irqstorm_flush_events(s);
    for (unsigned i = 0; i < IRQSTORM_NCHAN; i++) {
        IrqstormChannel *ch = &s->ch[i];

        timer_del(&ch->timer);
        ch->pending_seq = 0;
        ch->next_deadline = 0;
    }
    irqstorm_update_irq(s);
}

static const VMStateDescription vmstate_irqstorm_record = {
    .name = "irqstorm/record",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_UINT64(rec.seq, IrqstormEvent),
        VMSTATE_UINT64(rec.t_raise, IrqstormEvent),
        VMSTATE_UINT64(rec.t_hardirq, IrqstormEvent),
        VMSTATE_UINT64(rec.t_thread, IrqstormEvent),
        VMSTATE_UINT64(rec.t_done, IrqstormEvent),
        VMSTATE_UINT32(rec.channel, IrqstormEvent),
        VMSTATE_UINT32(rec.flags, IrqstormEvent),
        VMSTATE_UINT32(rec.coalesced, IrqstormEvent),
        VMSTATE_BOOL(in_use, IrqstormEvent),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_irqstorm_channel = {
    .name = "irqstorm/channel",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (VMStateField[]) {
        VMSTATE_TIMER(timer, IrqstormChannel),
        VMSTATE_UINT64(period_ns, IrqstormChannel),
        VMSTATE_INT64(next_deadline, IrqstormChannel),
        VMSTATE_UINT64(pending_seq, IrqstormChannel),
        VMSTATE_UINT64(raised, IrqstormChannel),
        VMSTATE_UINT64(coalesced, IrqstormChannel),
        VMSTATE_UINT64(handled, IrqstormChannel),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_irqstorm = {
    .name = TYPE_IRQSTORM,
    .version_id = IRQSTORM_ABI_VERSION,
    .minimum_version_id = IRQSTORM_ABI_VERSION,
    .fields = (VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, IrqstormState),
        VMSTATE_BOOL(running, IrqstormState),
        VMSTATE_UINT64(next_seq, IrqstormState),
        VMSTATE_UINT64(log_producer, IrqstormState),
        VMSTATE_UINT64(log_lost, IrqstormState),
        VMSTATE_UINT64(guest_errors, IrqstormState),
        VMSTATE_STRUCT_ARRAY(ch, IrqstormState, IRQSTORM_NCHAN, 1,
                             vmstate_irqstorm_channel, IrqstormChannel),
        VMSTATE_STRUCT_ARRAY(events, IrqstormState, IRQSTORM_INFLIGHT, 1,
                             vmstate_irqstorm_record, IrqstormEvent),
        VMSTATE_END_OF_LIST()
    }
};

static Property irqstorm_properties[] = {
    DEFINE_PROP_LINK("memdev", IrqstormState, hostmem, TYPE_MEMORY_BACKEND,
                     HostMemoryBackend *),
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
