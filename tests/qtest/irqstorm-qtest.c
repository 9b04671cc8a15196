/*
 * qtest for the irqstorm device: INTx raised by the virtual-clock timer and
 * lowered by ACK, stamps landing in the shared log with exact virtual times,
 * lost-record counting, guest misuse, and QOM properties.
 *
 * Copyright (c) 2026 The irqstorm developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * Built inside QEMU's build tree by scripts/build-qemu.sh; run by meson with
 * QTEST_QEMU_BINARY pointing at our qemu-system-x86_64.
 */
#include "qemu/osdep.h"
#include <glib/gstdio.h>
#include <sys/mman.h>
#include "libqtest.h"
#include "libqos/libqos-pc.h"
#include "qapi/qmp/qdict.h"
#include "hw/pci/pci_regs.h"
#include "qapi/error.h"
#include "qapi/qmp/qjson.h"

#include "irqstorm/abi.h"

#define SLOT            4
#define INTX_GSI        20      /* q35: slot 4, pin A -> PIRQE -> IOAPIC 20 */
#define PERIOD_NS       1000
#define SECOND_NS       1000000000LL

typedef struct Fixture {
    QOSState *qs;
    QPCIDevice *dev;
    QPCIBar bar;
    QPCIBar pio;
    char *dir;
    char *path;
    size_t size;
    struct irqstorm_log_header *log;
} Fixture;

static void fixture_start(Fixture *f, size_t log_size, const char *extra)
{
    int fd;

    f->dir = g_dir_make_tmp("irqstorm-qtest-XXXXXX", NULL);
    g_assert(f->dir);
    f->path = g_build_filename(f->dir, "log", NULL);
    f->size = log_size;
    f->qs = qtest_pc_boot("-machine q35 -nodefaults "
                          "-object memory-backend-file,id=log,"
                          "share=on,mem-path=%s,size=%zu "
                          "-device irqstorm,id=storm,memdev=log,addr=%d.0,"
                          "ch0-pattern=periodic%s",
                          f->path, log_size, SLOT, extra);
    f->dev = qpci_device_find(f->qs->pcibus, QPCI_DEVFN(SLOT, 0));
    g_assert(f->dev);
    qpci_device_enable(f->dev);
    f->bar = qpci_iomap(f->dev, IRQSTORM_BAR_REGS, NULL);
    f->pio = qpci_iomap(f->dev, IRQSTORM_BAR_PIO, NULL);
    qtest_irq_intercept_in(f->qs->qts, "ioapic");

    fd = open(f->path, O_RDWR);
    g_assert_cmpint(fd, >=, 0);
    f->log = mmap(NULL, log_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    g_assert(f->log != MAP_FAILED);
    close(fd);
}

static void fixture_stop(Fixture *f)
{
    munmap(f->log, f->size);
    g_free(f->dev);
    qtest_shutdown(f->qs);
    g_unlink(f->path);
    g_rmdir(f->dir);
    g_free(f->path);
    g_free(f->dir);
}

static uint32_t rd(Fixture *f, uint64_t off)
{
    return qpci_io_readl(f->dev, f->bar, off);
}

static void wr(Fixture *f, uint64_t off, uint32_t val)
{
    qpci_io_writel(f->dev, f->bar, off, val);
}

static int64_t step(Fixture *f, int64_t ns)
{
    return qtest_clock_step(f->qs->qts, ns);
}

static bool intx(Fixture *f)
{
    return qtest_get_irq(f->qs->qts, INTX_GSI);
}

static uint64_t producer(Fixture *f)
{
    return __atomic_load_n(&f->log->producer, __ATOMIC_ACQUIRE);
}

static const struct irqstorm_record *record(Fixture *f, uint64_t i)
{
    const uint8_t *base = (const uint8_t *)f->log + f->log->header_size;

    return (const struct irqstorm_record *)
        (base + (i % f->log->ring_records) * f->log->record_size);
}

static uint64_t qom_get_u64(Fixture *f, const char *prop)
{
    QDict *rsp = qtest_qmp(f->qs->qts, "{ 'execute': 'qom-get', 'arguments':"
                           " { 'path': '/machine/peripheral/storm',"
                           " 'property': %s } }", prop);
    uint64_t val;

    g_assert(qdict_haskey(rsp, "return"));
    val = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return val;
}


/* qom-set; returns the error description, or NULL on success. */
static char *qom_set(Fixture *f, const char *prop, const char *json_value)
{
    QObject *value = qobject_from_json(json_value, &error_abort);
    QDict *rsp = qtest_qmp(f->qs->qts, "{ 'execute': 'qom-set', 'arguments':"
                           " { 'path': '/machine/peripheral/storm',"
                           " 'property': %s, 'value': %p } }", prop, value);
    char *err = NULL;

    if (qdict_haskey(rsp, "error")) {
        err = g_strdup(qdict_get_str(qdict_get_qdict(rsp, "error"), "desc"));
    } else {
        g_assert(qdict_haskey(rsp, "return"));
    }
    qobject_unref(rsp);
    return err;
}

static void qom_set_ok(Fixture *f, const char *prop, const char *json_value)
{
    g_autofree char *err = qom_set(f, prop, json_value);

    g_assert_null(err);
}

static uint32_t ch_rd(Fixture *f, unsigned n, unsigned reg)
{
    return rd(f, IRQSTORM_REG_CH(n, reg));
}

/* Guest RAM where MSI messages are pointed, so they can be read back. */
#define MSI_ADDR        0x100000
#define MSI_DATA        0x4a00

static uint32_t msi_word(Fixture *f, unsigned n)
{
    return qtest_readl(f->qs->qts, MSI_ADDR + 4 * n);
}

static void msi_clear(Fixture *f)
{
    for (unsigned n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
        qtest_writel(f->qs->qts, MSI_ADDR + 4 * n, 0);
    }
}

/* MSI on with 4 vectors, vector n writing MSI_DATA + n at MSI_ADDR + 4n. */
static uint8_t msi_setup(Fixture *f)
{
    uint8_t cap = qpci_find_capability(f->dev, PCI_CAP_ID_MSI, 0);
    uint16_t flags;

    g_assert_cmpuint(cap, !=, 0);
    flags = qpci_config_readw(f->dev, cap + PCI_MSI_FLAGS);
    g_assert_true(flags & PCI_MSI_FLAGS_64BIT);
    g_assert_true(flags & PCI_MSI_FLAGS_MASKBIT);
    qpci_config_writel(f->dev, cap + PCI_MSI_ADDRESS_LO, MSI_ADDR + 8);
    qpci_config_writel(f->dev, cap + PCI_MSI_ADDRESS_HI, 0);
    qpci_config_writew(f->dev, cap + PCI_MSI_DATA_64, MSI_DATA);
    qpci_config_writew(f->dev, cap + PCI_MSI_FLAGS,
                       flags | PCI_MSI_FLAGS_ENABLE | (2 << 4) /* 4 vectors */);
    msi_clear(f);
    g_assert_cmpuint(rd(f, IRQSTORM_REG_IRQ_MODE), ==, IRQSTORM_IRQ_MODE_MSI);
    return cap;
}

/* MSI-X on, every entry n writing MSI_DATA + n at MSI_ADDR + 4n, unmasked. */
static void msix_setup(Fixture *f)
{
    qpci_msix_enable(f->dev);
    for (unsigned n = 0; n < IRQSTORM_MSI_VECTORS; n++) {
        uint64_t e = f->dev->msix_table_off + n * PCI_MSIX_ENTRY_SIZE;

        qpci_io_writel(f->dev, f->dev->msix_table_bar,
                       e + PCI_MSIX_ENTRY_LOWER_ADDR, MSI_ADDR + 4 * n);
        qpci_io_writel(f->dev, f->dev->msix_table_bar,
                       e + PCI_MSIX_ENTRY_UPPER_ADDR, 0);
        qpci_io_writel(f->dev, f->dev->msix_table_bar,
                       e + PCI_MSIX_ENTRY_DATA, MSI_DATA + n);
        qpci_io_writel(f->dev, f->dev->msix_table_bar,
                       e + PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    }
    msi_clear(f);
}

static void msix_mask(Fixture *f, unsigned n, bool mask)
{
    qpci_io_writel(f->dev, f->dev->msix_table_bar,
                   f->dev->msix_table_off + n * PCI_MSIX_ENTRY_SIZE +
                   PCI_MSIX_ENTRY_VECTOR_CTRL,
                   mask ? PCI_MSIX_ENTRY_CTRL_MASKBIT : 0);
}

/* Complete an event the way a driver does: done stamp, then ack. */
static void complete(Fixture *f, unsigned n, uint32_t seq)
{
    wr(f, IRQSTORM_REG_STAMP_DONE, seq);
    wr(f, IRQSTORM_REG_ACK, 1u << n);
}

static void test_identity(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, "");
    g_assert_cmphex(rd(&f, IRQSTORM_REG_ID), ==, IRQSTORM_ID_MAGIC);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_VERSION), ==, IRQSTORM_ABI_VERSION);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_NCHAN), ==, IRQSTORM_NUM_CHANNELS);
    g_assert_cmphex(f.log->magic, ==, IRQSTORM_LOG_MAGIC);
    g_assert_cmpuint(f.log->version, ==, IRQSTORM_ABI_VERSION);
    g_assert_cmpuint(f.log->header_size, ==, IRQSTORM_LOG_HEADER_SIZE);
    g_assert_cmpuint(f.log->record_size, ==, sizeof(struct irqstorm_record));
    /* (1 MiB - 4 KiB) / 64 B rounded down to a power of two */
    g_assert_cmpuint(f.log->ring_records, ==, 8192);
    g_assert_cmpuint(producer(&f), ==, 0);
    fixture_stop(&f);
}

/* One event through every stage, with exact virtual-clock stamps. */
static void test_intx_event(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;
    int64_t t0;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    t0 = step(&f, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CTRL), ==, IRQSTORM_CTRL_RUN);

    step(&f, PERIOD_NS - 1);
    g_assert_false(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_STATUS), ==, 0);
    step(&f, 1);
    g_assert_true(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_STATUS), ==, 1);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_SEQ)), ==, 1);

    step(&f, 50);
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 1);
    step(&f, 25);
    wr(&f, IRQSTORM_REG_STAMP_THREAD, 1);
    step(&f, 100);
    wr(&f, IRQSTORM_REG_STAMP_DONE, 1);
    g_assert_true(intx(&f));                /* done is not an ack */
    wr(&f, IRQSTORM_REG_ACK, 1);
    g_assert_false(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_STATUS), ==, 0);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_SEQ)), ==, 0);

    g_assert_cmpuint(producer(&f), ==, 1);
    r = record(&f, 0);
    g_assert_cmpuint(r->seq, ==, 1);
    g_assert_cmpuint(r->channel, ==, 0);
    g_assert_cmpuint(r->t_raise, ==, t0 + 1000);
    g_assert_cmpuint(r->t_hardirq, ==, t0 + 1050);
    g_assert_cmpuint(r->t_thread, ==, t0 + 1075);
    g_assert_cmpuint(r->t_done, ==, t0 + 1175);
    g_assert_cmphex(r->flags, ==, IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD |
                    IRQSTORM_REC_DONE | IRQSTORM_REC_LEVEL);
    g_assert_cmpuint(r->coalesced, ==, 0);

    /* Absolute deadlines: the next raise is at t0 + 2000, not ack + 1000. */
    step(&f, 2000 - 1175 - 1);
    g_assert_false(intx(&f));
    step(&f, 1);
    g_assert_true(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_SEQ)), ==, 2);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    fixture_stop(&f);
}

/*
 * Deferred work: hardirq, then bh (the work's start), then done, each
 * with its time and vCPU; a bh stamp after done, or a second one, is a
 * guest error and changes nothing.
 */
static void test_bh_stamp(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;
    int64_t t0;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    t0 = step(&f, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS + 40);
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 1);
    step(&f, 60);
    wr(&f, IRQSTORM_REG_STAMP_BH, 1);
    wr(&f, IRQSTORM_REG_STAMP_BH, 1);                   /* a second one */
    step(&f, 300);
    complete(&f, 0, 1);
    wr(&f, IRQSTORM_REG_STAMP_BH, 1);                   /* after done */
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 2);
    g_assert_cmpuint(producer(&f), ==, 1);
    r = record(&f, 0);
    g_assert_cmphex(r->flags, ==, IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_BH |
                    IRQSTORM_REC_DONE | IRQSTORM_REC_LEVEL);
    g_assert_cmpuint(r->t_hardirq, ==, t0 + 1040);
    g_assert_cmpuint(r->t_bh, ==, t0 + 1100);
    g_assert_cmpuint(r->t_done, ==, t0 + 1400);
    /* qtest runs no vCPU: a stamp's vCPU is NONE, as the hardirq one's */
    g_assert_cmpuint(r->cpu_bh, ==, r->cpu_hardirq);
    g_assert_cmpuint(r->cpu_thread, ==, IRQSTORM_CPU_NONE);
    g_assert_cmpuint(f.log->record_size, ==, sizeof(*r));
    fixture_stop(&f);
}

/*
 * The interrupt mask: a masked channel queues its events but does not
 * assert INTx; unmasked with events queued, it asserts again. Another
 * channel's events still assert the shared line.
 */
static void test_mask_intx(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000,ch1-pattern=oneshot,"
                  "ch1-period-ns=5500");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    g_assert_true(intx(&f));
    wr(&f, IRQSTORM_REG_MASK_SET, 1);
    g_assert_cmphex(rd(&f, IRQSTORM_REG_MASK), ==, 1);
    g_assert_false(intx(&f));
    g_assert_cmphex(rd(&f, IRQSTORM_REG_STATUS), ==, 1);  /* still queued */
    step(&f, 4 * PERIOD_NS);
    g_assert_false(intx(&f));
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 5);
    step(&f, PERIOD_NS / 2);                 /* channel 1's one firing */
    g_assert_true(intx(&f));
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_CLAIM), ==, 2);
    complete(&f, 1, 2);
    g_assert_false(intx(&f));
    wr(&f, IRQSTORM_REG_MASK_CLEAR, 1);
    g_assert_cmphex(rd(&f, IRQSTORM_REG_MASK), ==, 0);
    g_assert_true(intx(&f));
    complete(&f, 0, 1);
    g_assert_false(intx(&f));
    /* Bits beyond the channels: a guest error; the rest is still taken. */
    wr(&f, IRQSTORM_REG_MASK_SET, 0x11);
    g_assert_cmphex(rd(&f, IRQSTORM_REG_MASK), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 1);
    fixture_stop(&f);
}

/* Masked, MSI raises send nothing; unmasking sends one message. */
static void test_mask_msi(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-pattern=off,ch2-pattern=periodic,"
                  "ch2-period-ns=1000");
    msi_setup(&f);
    wr(&f, IRQSTORM_REG_MASK_SET, 1u << 2);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 3 * PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 2), ==, 0);
    g_assert_cmpuint(ch_rd(&f, 2, IRQSTORM_CH_PENDING), ==, 3);
    wr(&f, IRQSTORM_REG_MASK_CLEAR, 1u << 2);
    g_assert_cmphex(msi_word(&f, 2), ==, MSI_DATA + 2);
    msi_clear(&f);
    wr(&f, IRQSTORM_REG_MASK_CLEAR, 1u << 2);           /* nothing pending */
    g_assert_cmphex(msi_word(&f, 2), ==, 0);
    step(&f, PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 2), ==, MSI_DATA + 2);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    fixture_stop(&f);
}

/* Firings while the level line is still asserted merge into one event. */
static void test_coalesce(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 10 * PERIOD_NS);               /* 10 firings, nobody acks */
    g_assert_true(intx(&f));
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 10);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-coalesced"), ==, 9);
    wr(&f, IRQSTORM_REG_STAMP_DONE, 1);
    wr(&f, IRQSTORM_REG_ACK, 1);
    r = record(&f, 0);
    g_assert_cmpuint(r->coalesced, ==, 9);
    g_assert_true(r->flags & IRQSTORM_REC_COALESCED);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-handled"), ==, 1);
    fixture_stop(&f);
}

/* A consumer that does not move: the ring fills, the rest is counted lost. */
static void test_lost(void)
{
    Fixture f = { 0 };
    uint32_t ring;
    unsigned i;

    fixture_start(&f, IRQSTORM_LOG_MIN_SIZE, ",ch0-period-ns=1000");
    ring = f.log->ring_records;
    /* 4096 bytes after the header hold 51 records of 80: a ring of 32 */
    g_assert_cmpuint(ring, ==, 32);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    for (i = 1; i <= ring + 10; i++) {
        step(&f, PERIOD_NS);
        g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_SEQ)), ==, i);
        wr(&f, IRQSTORM_REG_STAMP_DONE, i);
        wr(&f, IRQSTORM_REG_ACK, 1);
    }
    g_assert_cmpuint(producer(&f), ==, ring);
    g_assert_cmpuint(f.log->lost, ==, 10);
    g_assert_cmpuint(qom_get_u64(&f, "log-lost"), ==, 10);
    /* Nothing unread was overwritten: slot 0 still holds seq 1. */
    g_assert_cmpuint(record(&f, 0)->seq, ==, 1);

    /* The consumer catches up; publishing resumes. */
    __atomic_store_n(&f.log->consumer, ring, __ATOMIC_RELEASE);
    step(&f, PERIOD_NS);
    wr(&f, IRQSTORM_REG_STAMP_DONE, ring + 11);
    g_assert_cmpuint(producer(&f), ==, ring + 1);
    g_assert_cmpuint(record(&f, 0)->seq, ==, ring + 11);

    /* A consumer index ahead of the producer is not trusted. */
    __atomic_store_n(&f.log->consumer, ring * 4, __ATOMIC_RELEASE);
    wr(&f, IRQSTORM_REG_ACK, 1);
    step(&f, PERIOD_NS);
    wr(&f, IRQSTORM_REG_STAMP_DONE, ring + 12);
    g_assert_cmpuint(producer(&f), ==, ring + 1);
    g_assert_cmpuint(f.log->lost, ==, 11);
    fixture_stop(&f);
}

/*
 * A storm past what the guest handles: MSI-X events queue up to the depth,
 * every queued one stays tracked (a stamp for the oldest lands, however
 * many came after it), and firings that find the queue full are dropped:
 * no event, no message, counted. Nothing is a guest error.
 */
static void test_queue_full(void)
{
    const uint32_t depth = IRQSTORM_QUEUE_DEPTH;
    Fixture f = { 0 };
    const struct irqstorm_record *r;
    int64_t t0;

    fixture_start(&f, 1 << 20, ",ch0-pattern=off,ch1-pattern=periodic,"
                  "ch1-period-ns=1000");
    msix_setup(&f);
    t0 = step(&f, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, (depth - 1) * PERIOD_NS);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_PENDING), ==, depth - 1);
    step(&f, PERIOD_NS);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_PENDING), ==, depth);
    msi_clear(&f);
    step(&f, 10 * PERIOD_NS);               /* 10 firings, nowhere to go */
    g_assert_cmphex(msi_word(&f, 1), ==, 0);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_PENDING), ==, depth);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-raised"), ==, depth + 10);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-dropped"), ==, 10);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-in-flight"), ==, depth);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-queue-max"), ==, depth);

    /* The oldest, depth - 1 events ago: stamped and completed exactly. */
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 1);
    complete(&f, 1, 1);
    r = record(&f, 0);
    g_assert_cmpuint(r->seq, ==, 1);
    g_assert_cmpuint(r->t_raise, ==, t0 + PERIOD_NS);
    g_assert_cmpuint(r->t_hardirq, ==, t0 + (depth + 10) * PERIOD_NS);
    g_assert_cmphex(r->flags, ==, IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE |
                    IRQSTORM_REC_MSIX);

    /* Room again: the next firing queues and sends its message. */
    step(&f, PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 1), ==, MSI_DATA + 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-dropped"), ==, 10);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_PENDING), ==, depth);
    /* The newest too: a binary search, not a window. */
    complete(&f, 1, 2);                     /* done of seq 2, ack of head */
    wr(&f, IRQSTORM_REG_STAMP_DONE, depth + 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-handled"), ==, 3);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-in-flight"), ==, depth - 2);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    g_assert_cmpuint(producer(&f), ==, 3);
    g_assert_cmpuint(record(&f, 2)->seq, ==, depth + 1);
    fixture_stop(&f);
}

/* An event acked without its done stamp is published INCOMPLETE at once. */
static void test_ack_incomplete(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 1);
    wr(&f, IRQSTORM_REG_ACK, 1);
    g_assert_cmpuint(producer(&f), ==, 1);
    r = record(&f, 0);
    g_assert_cmphex(r->flags, ==, IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_LEVEL |
                    IRQSTORM_REC_INCOMPLETE);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-incomplete"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-handled"), ==, 0);
    /* Gone from the queue: a late stamp for it is misuse. */
    wr(&f, IRQSTORM_REG_STAMP_DONE, 1);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 1);
    g_assert_cmpuint(producer(&f), ==, 1);
    fixture_stop(&f);
}

/*
 * storm-ns: the device ends a storm the guest never ends, exactly that
 * long after RUN, and says so; the guest's late stop is recorded, not an
 * error. A guest that stops first ends it itself, and the bound is gone.
 */
static void test_storm_bound(void)
{
    Fixture f = { 0 };
    int64_t t0;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000,storm-ns=10500");
    t0 = step(&f, 0);
    g_assert_cmpuint(qom_get_u64(&f, "storms"), ==, 0);
    wr(&f, IRQSTORM_REG_CTRL, 0);           /* no storm to stop: nothing */
    g_assert_cmpuint(qom_get_u64(&f, "guest-stop-ns"), ==, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    g_assert_cmpuint(qom_get_u64(&f, "storms"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "storm-start-ns"), ==, t0);
    step(&f, 10499);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CTRL), ==, IRQSTORM_CTRL_RUN);
    step(&f, 1);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CTRL), ==, 0);
    step(&f, 100000);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 10);
    g_assert_cmpuint(qom_get_u64(&f, "storm-end-ns"), ==, t0 + 10500);
    g_assert_cmpuint(qom_get_u64(&f, "storm-device-end"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "storm-backlog"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "guest-stop-ns"), ==, 0);
    /* The starved guest gets to its stop at last. */
    wr(&f, IRQSTORM_REG_CTRL, 0);
    g_assert_cmpuint(qom_get_u64(&f, "guest-stop-ns"), ==, t0 + 110500);
    g_assert_cmpuint(qom_get_u64(&f, "storm-end-ns"), ==, t0 + 10500);
    complete(&f, 0, 1);
    g_assert_false(intx(&f));

    /* A guest that stops in time: its end, no device end after it. */
    t0 = step(&f, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 5500);
    wr(&f, IRQSTORM_REG_CTRL, 0);
    step(&f, 100000);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 15);
    g_assert_cmpuint(qom_get_u64(&f, "storms"), ==, 2);
    g_assert_cmpuint(qom_get_u64(&f, "storm-start-ns"), ==, t0);
    g_assert_cmpuint(qom_get_u64(&f, "storm-end-ns"), ==, t0 + 5500);
    g_assert_cmpuint(qom_get_u64(&f, "guest-stop-ns"), ==, t0 + 5500);
    g_assert_cmpuint(qom_get_u64(&f, "storm-device-end"), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    fixture_stop(&f);
}

static bool vm_running(Fixture *f)
{
    QDict *rsp = qtest_qmp(f->qs->qts, "{ 'execute': 'query-status' }");
    bool running;

    g_assert(qdict_haskey(rsp, "return"));
    running = qdict_get_bool(qdict_get_qdict(rsp, "return"), "running");
    qobject_unref(rsp);
    return running;
}

/* pause-ns: the VM stops exactly when the virtual clock reaches it. */
static void test_pause(void)
{
    Fixture f = { 0 };
    int64_t t0;

    fixture_start(&f, 1 << 20, ",pause-ns=50000");
    t0 = step(&f, 0);
    g_assert_cmpint(t0, <, 50000);
    g_assert_true(vm_running(&f));
    step(&f, 50000 - 1 - t0);
    g_assert_true(vm_running(&f));
    step(&f, 1);
    g_assert_false(vm_running(&f));
    fixture_stop(&f);
}

/* Misuse is counted and ignored; the device keeps working. */
static void test_guest_errors(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    wr(&f, IRQSTORM_REG_STAMP_DONE, 77);                /* unknown seq */
    wr(&f, IRQSTORM_REG_ACK, 1);                        /* nothing pending */
    wr(&f, IRQSTORM_REG_ID, 0);                         /* read-only */
    rd(&f, 0xffc);                                      /* unknown */
    qpci_io_writeb(f.dev, f.bar, IRQSTORM_REG_CTRL, 1); /* wrong size */
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CTRL), ==, 0);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_GUEST_ERRORS), ==, 5);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    wr(&f, IRQSTORM_REG_STAMP_DONE, 1);
    wr(&f, IRQSTORM_REG_STAMP_DONE, 1);                 /* stale now */
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 6);
    g_assert_cmpuint(producer(&f), ==, 1);
    fixture_stop(&f);
}

/* The period is a QOM property, settable at run time, validated. */
static void test_qom_period(void)
{
    Fixture f = { 0 };
    QDict *rsp;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000");
    rsp = qtest_qmp(f.qs->qts, "{ 'execute': 'qom-set', 'arguments':"
                    " { 'path': '/machine/peripheral/storm',"
                    " 'property': 'ch0-period-ns', 'value': 5 } }");
    g_assert(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    rsp = qtest_qmp(f.qs->qts, "{ 'execute': 'qom-set', 'arguments':"
                    " { 'path': '/machine/peripheral/storm',"
                    " 'property': 'ch0-period-ns', 'value': 250 } }");
    g_assert(qdict_haskey(rsp, "return"));
    qobject_unref(rsp);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-period-ns"), ==, 250);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 100 * 250);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 100);
    fixture_stop(&f);
}


/* Two level channels share INTx: the line stays up until both are acked. */
static void test_intx_shared(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000,ch1-pattern=periodic,"
                  "ch1-period-ns=1000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    g_assert_true(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_STATUS), ==, 3);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_IRQ_MODE), ==, IRQSTORM_IRQ_MODE_INTX);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_SEQ), ==, 1);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_SEQ), ==, 2);
    complete(&f, 0, 1);
    g_assert_true(intx(&f));
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_STATUS), ==, 2);
    complete(&f, 1, 2);
    g_assert_false(intx(&f));
    g_assert_cmphex(record(&f, 1)->flags & IRQSTORM_REC_LEVEL, ==,
                    IRQSTORM_REC_LEVEL);
    g_assert_cmpuint(record(&f, 1)->channel, ==, 1);
    fixture_stop(&f);
}

/* MSI with four vectors: channel n's message carries data + n. */
static void test_msi(void)
{
    Fixture f = { 0 };
    uint8_t cap;
    const struct irqstorm_record *r;

    fixture_start(&f, 1 << 20, ",ch0-pattern=off,ch2-pattern=periodic,"
                  "ch2-period-ns=1000");
    cap = msi_setup(&f);

    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    g_assert_false(intx(&f));
    g_assert_cmphex(msi_word(&f, 2), ==, MSI_DATA + 2);
    complete(&f, 2, 1);
    r = record(&f, 0);
    g_assert_cmphex(r->flags & (IRQSTORM_REC_MSI | IRQSTORM_REC_LEVEL), ==,
                    IRQSTORM_REC_MSI);

    /* Masked: the message waits in the pending bit, then goes on unmask. */
    qpci_config_writel(f.dev, cap + PCI_MSI_MASK_64, 1u << 2);
    msi_clear(&f);
    step(&f, PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 2), ==, 0);
    g_assert_cmphex(qpci_config_readl(f.dev, cap + PCI_MSI_PENDING_64), ==,
                    1u << 2);
    qpci_config_writel(f.dev, cap + PCI_MSI_MASK_64, 0);
    g_assert_cmphex(msi_word(&f, 2), ==, MSI_DATA + 2);
    g_assert_cmphex(qpci_config_readl(f.dev, cap + PCI_MSI_PENDING_64), ==, 0);
    fixture_stop(&f);
}

/* MSI-X: one vector per channel, edge events never coalesce. */
static void test_msix(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;

    fixture_start(&f, 1 << 20, ",ch0-pattern=off,ch1-pattern=periodic,"
                  "ch1-period-ns=1000");
    msix_setup(&f);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_IRQ_MODE), ==, IRQSTORM_IRQ_MODE_MSIX);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 1), ==, MSI_DATA + 1);
    g_assert_cmphex(msi_word(&f, 0), ==, 0);
    g_assert_false(intx(&f));

    /* A second firing before the first is handled: a separate event. */
    step(&f, PERIOD_NS);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_PENDING), ==, 2);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-in-flight"), ==, 2);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_SEQ), ==, 1);
    /* A primary handler claims both, oldest first, each once. */
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_CLAIM), ==, 1);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_CLAIM), ==, 2);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_CLAIM), ==, 0);
    complete(&f, 1, 1);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_SEQ), ==, 2);
    complete(&f, 1, 2);
    g_assert_cmpuint(ch_rd(&f, 1, IRQSTORM_CH_CLAIM), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-in-flight"), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-overlapped"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-coalesced"), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "ch1-queue-max"), ==, 2);
    r = record(&f, 1);
    g_assert_cmpuint(r->seq, ==, 2);
    g_assert_cmphex(r->flags & (IRQSTORM_REC_MSIX | IRQSTORM_REC_OVERLAP), ==,
                    IRQSTORM_REC_MSIX | IRQSTORM_REC_OVERLAP);
    g_assert_cmpuint(r->coalesced, ==, 1);

    /* Masked vector: pending bit, no message; unmask delivers it. */
    msix_mask(&f, 1, true);
    msi_clear(&f);
    step(&f, PERIOD_NS);
    g_assert_cmphex(msi_word(&f, 1), ==, 0);
    g_assert_true(qpci_msix_pending(f.dev, 1));
    msix_mask(&f, 1, false);
    g_assert_cmphex(msi_word(&f, 1), ==, MSI_DATA + 1);
    g_assert_false(qpci_msix_pending(f.dev, 1));
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    fixture_stop(&f);
}

/* Absolute deadlines: 100 kHz for 1 s of virtual time is 100,000 raises. */
static void test_periodic_exact(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=10000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, SECOND_NS);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 100000);
    /* Level and never acked: one event, every other firing merged. */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-coalesced"), ==, 99999);
    fixture_stop(&f);
}

/* Bursts of 5 firings 1 us apart, 10 us from a burst's last to the next. */
static void test_burst(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-pattern=burst,ch0-period-ns=1000,"
                  "ch0-burst=5,ch0-gap-ns=10000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 5000);                         /* firings at 1..5 us */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 5);
    step(&f, 9999);                         /* gap until 15 us */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 5);
    step(&f, 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 6);
    step(&f, 140000 - 15000);               /* bursts start every 14 us */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 50);
    fixture_stop(&f);
}

static void test_oneshot_and_enable(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-pattern=oneshot,ch0-period-ns=5000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 4999);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 0);
    step(&f, 100000);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 1);
    /* The host stops and restarts a channel; a restart re-arms one shots. */
    qom_set_ok(&f, "ch0-pattern", "'periodic'");
    qom_set_ok(&f, "ch0-period-ns", "1000");
    qom_set_ok(&f, "ch0-enable", "false");
    step(&f, 10000);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 1);
    qom_set_ok(&f, "ch0-enable", "true");
    step(&f, 10000);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 11);
    fixture_stop(&f);
}

/* Each trigger: one raise, exactly the sweep's next offset after it. */
static void test_triggered(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;
    const unsigned left = IRQSTORM_REG_CH(0, IRQSTORM_CH_TRIGGERS_LEFT);
    int64_t t;

    fixture_start(&f, 1 << 20, ",ch0-pattern=triggered,"
                  "ch0-trigger-start-ns=1000,ch0-trigger-stop-ns=1020,"
                  "ch0-trigger-step-ns=10");
    g_assert_cmpuint(rd(&f, left), ==, 3);
    wr(&f, IRQSTORM_REG_TRIGGER, 1);        /* not running: refused */
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_GUEST_ERRORS), ==, 1);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, SECOND_NS);                    /* nothing without a trigger */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 0);

    for (unsigned k = 0; k < 3; k++) {
        t = step(&f, 12345);
        wr(&f, IRQSTORM_REG_TRIGGER, 1);
        g_assert_cmpuint(rd(&f, left), ==, 2 - k);
        wr(&f, IRQSTORM_REG_TRIGGER, 1);    /* still armed: refused */
        step(&f, 1000 + 10 * k - 1);
        g_assert_false(intx(&f));
        step(&f, 1);
        g_assert_true(intx(&f));
        complete(&f, 0, k + 1);
        r = record(&f, k);
        g_assert_cmpuint(r->t_raise, ==, t + 1000 + 10 * k);
        g_assert_cmphex(r->flags, ==, IRQSTORM_REC_TRIGGERED |
                        IRQSTORM_REC_DONE | IRQSTORM_REC_LEVEL);
        g_assert_cmpuint(r->offset, ==, 1000 + 10 * k);
    }
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_GUEST_ERRORS), ==, 4);
    wr(&f, IRQSTORM_REG_TRIGGER, 1);        /* the sweep is over */
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_GUEST_ERRORS), ==, 5);
    step(&f, SECOND_NS);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, 3);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-triggers"), ==, 3);
    /* A new storm sweeps anew. */
    wr(&f, IRQSTORM_REG_CTRL, 0);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    g_assert_cmpuint(rd(&f, left), ==, 3);
    fixture_stop(&f);
}

/*
 * A sweep of 2,000 offsets one 8 ns instruction apart, triggered at
 * irregular times: every raise exactly its offset after its trigger.
 */
static void test_triggered_sweep(void)
{
    Fixture f = { 0 };
    const unsigned n = 2000;
    int64_t t;

    fixture_start(&f, 1 << 20, ",ch0-pattern=triggered,"
                  "ch0-trigger-start-ns=8,ch0-trigger-stop-ns=16000,"
                  "ch0-trigger-step-ns=8");
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_TRIGGERS_LEFT)),
                     ==, n);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    for (unsigned k = 0; k < n; k++) {
        t = step(&f, 1 + k % 7);
        wr(&f, IRQSTORM_REG_TRIGGER, 1);
        step(&f, 8 * (k + 1));
        g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==, k + 1);
        g_assert_cmpuint(producer(&f), ==, k);
        complete(&f, 0, k + 1);
        g_assert_cmpuint(record(&f, k)->t_raise, ==, t + 8 * (k + 1));
        g_assert_cmpuint(record(&f, k)->offset, ==, 8 * (k + 1));
    }
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_CH(0, IRQSTORM_CH_TRIGGERS_LEFT)),
                     ==, 0);
    g_assert_cmpuint(rd(&f, IRQSTORM_REG_GUEST_ERRORS), ==, 0);
    fixture_stop(&f);
}

static uint64_t poisson_count(uint64_t seed)
{
    Fixture f = { 0 };
    g_autofree char *extra = g_strdup_printf(
        ",ch0-pattern=poisson,ch0-period-ns=1000,ch0-seed=%" PRIu64, seed);
    uint64_t n;

    fixture_start(&f, 1 << 20, extra);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 10 * 1000 * 1000);             /* 10 ms: ~10,000 arrivals */
    n = qom_get_u64(&f, "ch0-raised");
    fixture_stop(&f);
    return n;
}

/* Poisson arrivals: reproducible for a seed, different for another. */
static void test_poisson(void)
{
    uint64_t a = poisson_count(42), b = poisson_count(42), c = poisson_count(7);

    g_test_message("poisson counts: seed 42: %" PRIu64 ", %" PRIu64
                   "; seed 7: %" PRIu64, a, b, c);
    g_assert_cmpuint(a, ==, b);
    g_assert_cmpuint(a, !=, c);
    /* Mean 10,000, sd 100: 5 sd either way. */
    g_assert_cmpuint(a, >, 9500);
    g_assert_cmpuint(a, <, 10500);
    g_assert_cmpuint(c, >, 9500);
    g_assert_cmpuint(c, <, 10500);
}

/* PIO: exactly pio-words 16-bit words per event, then 0xffff and an error. */
static void test_pio(void)
{
    Fixture f = { 0 };
    const unsigned words = 8 * 256;         /* 8 sectors of 256 words */

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000000,ch0-pio-words=2048");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 1000000);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_PIO_LEFT), ==, words);
    for (unsigned i = 0; i < words; i++) {
        uint16_t w = qpci_io_readw(f.dev, f.pio, IRQSTORM_PIO_DATA(0));

        g_assert_cmphex(w, ==, (1 << 8) | ((words - 1 - i) & 0xff));
    }
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_PIO_LEFT), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    g_assert_cmphex(qpci_io_readw(f.dev, f.pio, IRQSTORM_PIO_DATA(0)), ==,
                    0xffff);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 1);
    complete(&f, 0, 1);
    g_assert_cmpuint(record(&f, 0)->work, ==, words);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-pio-reads"), ==, words);
    fixture_stop(&f);
}

/* Busy-wait: READY exactly ready-delay-ns after the raise. */
static void test_ready_delay(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20,
                  ",ch0-period-ns=1000000,ch0-ready-delay-ns=5000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 1000000);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, 0);
    step(&f, 4999);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, 0);
    step(&f, 1);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, IRQSTORM_READY);
    complete(&f, 0, 1);
    g_assert_cmpuint(record(&f, 0)->work, ==, 3);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-ready-polls"), ==, 3);
    fixture_stop(&f);
}

/* The i8042 case: READY only once another channel's event is done. */
static void test_ready_channel(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000000,ch0-ready-channel=1,"
                  "ch1-pattern=oneshot,ch1-period-ns=2000000");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, 1000000);                      /* ch0 raised, seq 1 */
    step(&f, 5000000);                      /* ch1 raised, seq 2 */
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, 0);
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 2);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, 0);
    complete(&f, 1, 2);
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_READY), ==, IRQSTORM_READY);
    fixture_stop(&f);
}

/* The probe: a record with the guest's lateness, in virtual time. */
static void test_probe(void)
{
    Fixture f = { 0 };
    const struct irqstorm_record *r;
    int64_t t;

    fixture_start(&f, 1 << 20, ",ch0-pattern=off");
    t = step(&f, 123456);
    wr(&f, IRQSTORM_REG_PROBE, 4321);
    r = record(&f, 0);
    g_assert_cmpuint(r->channel, ==, IRQSTORM_PROBE_CHANNEL);
    g_assert_cmphex(r->flags, ==, IRQSTORM_REC_PROBE | IRQSTORM_REC_DONE);
    g_assert_cmpuint(r->t_done, ==, t);
    g_assert_cmpuint(r->t_raise, ==, t - 4321);
    g_assert_cmpuint(qom_get_u64(&f, "probes"), ==, 1);
    fixture_stop(&f);
}

/* stamps=off: interrupts, claims and acks as usual; nothing kept or logged */
static void test_stamps_off(void)
{
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, ",ch0-period-ns=1000,stamps=off");
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    step(&f, PERIOD_NS);
    g_assert_true(intx(&f));
    g_assert_cmpuint(ch_rd(&f, 0, IRQSTORM_CH_CLAIM), ==, 1);
    wr(&f, IRQSTORM_REG_STAMP_HARDIRQ, 1);              /* ignored, no error */
    wr(&f, IRQSTORM_REG_ACK, 1);
    g_assert_false(intx(&f));
    g_assert_cmpuint(qom_get_u64(&f, "ch0-handled"), ==, 1);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-in-flight"), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    g_assert_cmpuint(producer(&f), ==, 0);
    fixture_stop(&f);
}

/* Bad property values are refused with a message that says why. */
static void test_qom_errors(void)
{
    static const struct {
        const char *prop, *value, *needle;
    } cases[] = {
        { "ch0-period-ns", "0", "out of range" },
        { "ch0-period-ns", "99", "out of range" },
        { "ch0-pattern", "'zigzag'", "unknown pattern 'zigzag'" },
        { "ch0-burst", "0", "out of range" },
        { "ch1-ready-channel", "4", "out of range" },
        { "ch1-ready-channel", "-2", "out of range" },
        { "ch3-enable", "'yes'", "bool" },
    };
    Fixture f = { 0 };

    fixture_start(&f, 1 << 20, "");
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *err = qom_set(&f, cases[i].prop, cases[i].value);

        g_test_message("%s = %s: %s", cases[i].prop, cases[i].value, err);
        g_assert_nonnull(err);
        g_assert_nonnull(strstr(err, cases[i].needle));
    }
    g_assert_cmpuint(qom_get_u64(&f, "ch0-period-ns"), ==, 1000000);
    fixture_stop(&f);
}

/* One access of sz bytes (1, 2, 4 or 8) at off in a BAR; reads are dropped */
static void random_access(QPCIDevice *dev, QPCIBar map, uint64_t off,
                          unsigned sz, bool write, uint32_t val)
{
    switch (sz) {
    case 1:
        if (write) {
            qpci_io_writeb(dev, map, off, val);
        } else {
            qpci_io_readb(dev, map, off);
        }
        break;
    case 2:
        if (write) {
            qpci_io_writew(dev, map, off, val);
        } else {
            qpci_io_readw(dev, map, off);
        }
        break;
    case 4:
        if (write) {
            qpci_io_writel(dev, map, off, val);
        } else {
            qpci_io_readl(dev, map, off);
        }
        break;
    default:
        if (write) {
            qpci_io_writeq(dev, map, off, val);
        } else {
            qpci_io_readq(dev, map, off);
        }
        break;
    }
}

/*
 * A misbehaving guest: thousands of seeded random accesses of random sizes
 * to every BAR while all channels storm. QEMU must survive, keep answering
 * QMP, and the log must stay well formed.
 */
static void test_random_access(void)
{
    struct {
        int bar;
        uint64_t size;
        QPCIBar map;
    } bars[] = {
        { IRQSTORM_BAR_REGS, IRQSTORM_REGS_SIZE },
        { IRQSTORM_BAR_PIO, IRQSTORM_PIO_SIZE },
        { IRQSTORM_BAR_LOG },
        { IRQSTORM_BAR_MSIX },
    };
    Fixture f = { 0 };
    GRand *rnd = g_rand_new_with_seed(20261203);
    uint64_t published, events;

    fixture_start(&f, 1 << 20, ",ch0-period-ns=700,ch1-pattern=poisson,"
                  "ch1-period-ns=900,ch2-pattern=burst,ch2-period-ns=300,"
                  "ch3-pattern=periodic,ch3-period-ns=1100,ch0-pio-words=4");
    /* BARs 0 and 1 are mapped already: mapping again would move them. */
    bars[0].map = f.bar;
    bars[1].map = f.pio;
    bars[2].map = qpci_iomap(f.dev, IRQSTORM_BAR_LOG, &bars[2].size);
    bars[3].map = qpci_iomap(f.dev, IRQSTORM_BAR_MSIX, &bars[3].size);
    g_assert_cmpuint(bars[2].size, ==, 1 << 20);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    for (int i = 0; i < 20000; i++) {
        size_t b = g_rand_int_range(rnd, 0, G_N_ELEMENTS(bars));
        unsigned sz = 1u << g_rand_int_range(rnd, 0, b == 1 ? 3 : 4);
        uint64_t off = g_rand_int_range(rnd, 0, bars[b].size) &
                       ~(uint64_t)(sz - 1);
        uint32_t val = g_rand_int(rnd);
        QPCIBar map = bars[b].map;

        /* Keep the message address on guest RAM, as a live guest would. */
        if (bars[b].bar == IRQSTORM_BAR_MSIX && off % 16 < 8) {
            val = MSI_ADDR;
        }
        random_access(f.dev, map, off, sz, g_rand_boolean(rnd), val);
        if (i % 16 == 0) {
            step(&f, g_rand_int_range(rnd, 1, 5000));
        }
    }
    g_rand_free(rnd);

    g_assert_cmphex(rd(&f, IRQSTORM_REG_ID), ==, IRQSTORM_ID_MAGIC);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), >, 0);
    /* The guest could not write the log: the header is intact. */
    g_assert_cmphex(f.log->magic, ==, IRQSTORM_LOG_MAGIC);
    g_assert_cmpuint(f.log->ring_records, ==, 8192);
    published = producer(&f);
    g_assert_cmpuint(published, ==, qom_get_u64(&f, "log-published"));
    /* Every seq ever given: an event per queued firing, one per probe. */
    events = qom_get_u64(&f, "probes");
    for (unsigned n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
        g_autofree char *raised = g_strdup_printf("ch%u-raised", n);
        g_autofree char *coalesced = g_strdup_printf("ch%u-coalesced", n);
        g_autofree char *dropped = g_strdup_printf("ch%u-dropped", n);

        events += qom_get_u64(&f, raised) - qom_get_u64(&f, coalesced) -
                  qom_get_u64(&f, dropped);
    }
    for (uint64_t i = 0; i < MIN(published, f.log->ring_records); i++) {
        const struct irqstorm_record *r = record(&f, i);

        g_assert_true(r->channel < IRQSTORM_NUM_CHANNELS ||
                      r->channel == IRQSTORM_PROBE_CHANNEL);
        g_assert_cmpuint(r->seq, >, 0);
        g_assert_cmpuint(r->seq, <=, events);
    }
    fixture_stop(&f);
}

/*
 * Cost of a raise (run with -m perf; bench/device-raise.sh): the CPU time
 * of QEMU's main thread (where qtest, timers and so the raises run) while
 * it steps the clock over IRQSTORM_QUEUE_DEPTH MSI-X firings, each an event
 * queued and a message, about a million in all; the queue is drained with
 * acks between steps, outside the measurement. Minus the same steps with
 * the channel disabled. /proc/PID/schedstat counts ns, so the thousands of
 * qtest round trips of the acks, which cost far more, stay out of it.
 */
#define PERF_BATCHES    (1000000 / IRQSTORM_QUEUE_DEPTH)

/* The pid of our QEMU: the one process whose parent we are. */
static pid_t qemu_child_pid(void)
{
    g_autoptr(GDir) dir = g_dir_open("/proc", 0, NULL);
    const char *name;
    pid_t found = 0;

    g_assert(dir);
    while ((name = g_dir_read_name(dir))) {
        g_autofree char *path = g_strdup_printf("/proc/%s/stat", name);
        g_autofree char *text = NULL;
        const char *paren;
        int ppid;

        if (!g_ascii_isdigit(name[0]) ||
            !g_file_get_contents(path, &text, NULL, NULL)) {
            continue;
        }
        paren = strrchr(text, ')');
        if (!paren || sscanf(paren + 1, " %*c %d", &ppid) != 1 ||
            ppid != getpid()) {
            continue;
        }
        g_assert_cmpint(found, ==, 0);
        found = atoi(name);
    }
    g_assert_cmpint(found, >, 0);
    return found;
}

/* Nanoseconds a thread has run, from /proc/PID/schedstat. */
static uint64_t thread_run_ns(pid_t pid)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/schedstat", pid);
    g_autofree char *text = NULL;

    g_assert(g_file_get_contents(path, &text, NULL, NULL));
    return g_ascii_strtoull(text, NULL, 10);
}

/* QEMU main-thread seconds spent stepping through the firings. */
static double qemu_step_seconds(unsigned period, bool enabled)
{
    g_autofree char *extra = g_strdup_printf(",ch0-period-ns=%u%s", period,
                                             enabled ? "" : ",ch0-enable=off");
    Fixture f = { 0 };
    uint64_t ns = 0;
    pid_t pid;

    fixture_start(&f, 16 << 20, extra);
    pid = qemu_child_pid();
    msix_setup(&f);
    wr(&f, IRQSTORM_REG_CTRL, IRQSTORM_CTRL_RUN);
    for (unsigned b = 0; b < PERF_BATCHES; b++) {
        uint64_t before = thread_run_ns(pid);

        step(&f, (int64_t)IRQSTORM_QUEUE_DEPTH * period);
        ns += thread_run_ns(pid) - before;
        for (unsigned i = 0; enabled && i < IRQSTORM_QUEUE_DEPTH; i++) {
            wr(&f, IRQSTORM_REG_ACK, 1);
        }
    }
    /* Every deadline honoured, and nothing dropped. */
    g_assert_cmpuint(qom_get_u64(&f, "ch0-raised"), ==,
                     enabled ? PERF_BATCHES * IRQSTORM_QUEUE_DEPTH : 0);
    g_assert_cmpuint(qom_get_u64(&f, "ch0-dropped"), ==, 0);
    g_assert_cmpuint(qom_get_u64(&f, "guest-errors"), ==, 0);
    fixture_stop(&f);
    return ns / 1e9;
}

static void test_perf_raise(void)
{
    static const unsigned periods[] = { 1000, 100 };    /* 1 MHz, 10 MHz */
    const double raises = (double)PERF_BATCHES * IRQSTORM_QUEUE_DEPTH;

    for (size_t i = 0; i < G_N_ELEMENTS(periods); i++) {
        double idle = qemu_step_seconds(periods[i], false);
        double busy = qemu_step_seconds(periods[i], true);
        double per_million = (busy - idle) / raises * 1e6;

        g_test_message("%u MHz: %.0f raises, exact, none dropped; QEMU main "
                       "thread %.3f s stepping (%.3f s without raises)",
                       1000 / periods[i], raises, busy, idle);
        g_print("irqstorm-raise %u-MHz raises=%.0f cpu-s-per-million=%.3f\n",
                1000 / periods[i], raises, per_million);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/irqstorm/identity", test_identity);
    qtest_add_func("/irqstorm/intx-event", test_intx_event);
    qtest_add_func("/irqstorm/coalesce", test_coalesce);
    qtest_add_func("/irqstorm/bh-stamp", test_bh_stamp);
    qtest_add_func("/irqstorm/mask-intx", test_mask_intx);
    qtest_add_func("/irqstorm/mask-msi", test_mask_msi);
    qtest_add_func("/irqstorm/lost", test_lost);
    qtest_add_func("/irqstorm/guest-errors", test_guest_errors);
    qtest_add_func("/irqstorm/queue-full", test_queue_full);
    qtest_add_func("/irqstorm/ack-incomplete", test_ack_incomplete);
    qtest_add_func("/irqstorm/storm-bound", test_storm_bound);
    qtest_add_func("/irqstorm/pause", test_pause);
    qtest_add_func("/irqstorm/qom-period", test_qom_period);
    qtest_add_func("/irqstorm/intx-shared", test_intx_shared);
    qtest_add_func("/irqstorm/msi", test_msi);
    qtest_add_func("/irqstorm/msix", test_msix);
    qtest_add_func("/irqstorm/periodic-exact", test_periodic_exact);
    qtest_add_func("/irqstorm/burst", test_burst);
    qtest_add_func("/irqstorm/oneshot-enable", test_oneshot_and_enable);
    qtest_add_func("/irqstorm/poisson", test_poisson);
    qtest_add_func("/irqstorm/triggered", test_triggered);
    qtest_add_func("/irqstorm/triggered-sweep", test_triggered_sweep);
    qtest_add_func("/irqstorm/pio", test_pio);
    qtest_add_func("/irqstorm/ready-delay", test_ready_delay);
    qtest_add_func("/irqstorm/ready-channel", test_ready_channel);
    qtest_add_func("/irqstorm/probe", test_probe);
    qtest_add_func("/irqstorm/qom-errors", test_qom_errors);
    qtest_add_func("/irqstorm/stamps-off", test_stamps_off);
    qtest_add_func("/irqstorm/random-access", test_random_access);
    if (g_test_perf()) {
        qtest_add_func("/irqstorm/perf/raise", test_perf_raise);
    }
    return g_test_run();
}
