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

#include "irqstorm/abi.h"

#define SLOT            4
#define INTX_GSI        20      /* q35: slot 4, pin A -> PIRQE -> IOAPIC 20 */
#define PERIOD_NS       1000

typedef struct Fixture {
    QOSState *qs;
    QPCIDevice *dev;
    QPCIBar bar;
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
    f->qs = qtest_pc_boot("-machine q35 -nodefaults -object memory-backend-file,id=log,"
                          "share=on,mem-path=%s,size=%zu "
                          "-device irqstorm,id=storm,memdev=log,addr=%d.0%s",
                          f->path, log_size, SLOT, extra);
    f->dev = qpci_device_find(f->qs->pcibus, QPCI_DEVFN(SLOT, 0));
    g_assert(f->dev);
    qpci_device_enable(f->dev);
    f->bar = qpci_iomap(f->dev, IRQSTORM_BAR_REGS, NULL);
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
    g_assert_cmpuint(ring, ==, 64);
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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/irqstorm/identity", test_identity);
    qtest_add_func("/irqstorm/intx-event", test_intx_event);
    qtest_add_func("/irqstorm/coalesce", test_coalesce);
    qtest_add_func("/irqstorm/lost", test_lost);
    qtest_add_func("/irqstorm/guest-errors", test_guest_errors);
    qtest_add_func("/irqstorm/qom-period", test_qom_period);
    return g_test_run();
}
