/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm ABI: the PCI register map of the irqstorm QEMU device and the
 * layout of the shared timestamp log in its memory BAR.
 *
 * This one header is included by the QEMU device (qemu-device/), the guest
 * driver (kernel-series/) and the host rig (rig/). docs/abi.md describes it
 * for humans. Any guest- or host-visible change bumps IRQSTORM_ABI_VERSION.
 *
 * All multi-byte fields are little-endian (x86 host and guest).
 */
#ifndef IRQSTORM_ABI_H
#define IRQSTORM_ABI_H

/*
 * uint32_t/uint64_t rather than uint32_t/uint64_t: they are the same types as the
 * ones QEMU and the rig use (unsigned long, not unsigned long long, on
 * x86_64), and the kernel defines them too.
 */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/stddef.h>
#include <linux/types.h>
#else
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#endif

#define IRQSTORM_ABI_VERSION		5u

/* ---- PCI identity ---------------------------------------------------- */
#define IRQSTORM_PCI_VENDOR_ID		0x1234	/* QEMU's experimental vendor */
#define IRQSTORM_PCI_DEVICE_ID		0x5157
#define IRQSTORM_PCI_CLASS		0xff00	/* base class 0xff: "other" */

/* ---- BARs ------------------------------------------------------------- */
#define IRQSTORM_BAR_REGS		0	/* MMIO registers, 4 KiB */
#define IRQSTORM_BAR_PIO		1	/* I/O ports: PIO data, 16 bytes */
#define IRQSTORM_BAR_LOG		2	/* shared log, 64-bit prefetchable RAM */
#define IRQSTORM_BAR_MSIX		4	/* MSI-X table and PBA */
#define IRQSTORM_REGS_SIZE		0x1000u
#define IRQSTORM_PIO_SIZE		0x10u

#define IRQSTORM_NUM_CHANNELS		4u
#define IRQSTORM_MSI_VECTORS		4u	/* vector n serves channel n */

/*
 * ---- BAR0 registers: 32-bit accesses only ---------------------------
 * Other sizes and offsets are guest errors: logged, counted, ignored.
 */
#define IRQSTORM_ID_MAGIC		0x49525153u /* "IRQS" */

#define IRQSTORM_REG_ID			0x000	/* RO: IRQSTORM_ID_MAGIC */
#define IRQSTORM_REG_VERSION		0x004	/* RO: IRQSTORM_ABI_VERSION */
#define IRQSTORM_REG_NCHAN		0x008	/* RO: number of channels */
/*
 * RW: global control. RUN: channels raise while set. The host may bound a
 * storm (the device's storm-ns property): that long after RUN was set, the
 * device clears RUN itself, so a storm ends on time even when the guest it
 * overwhelms never gets to clear it.
 */
#define IRQSTORM_REG_CTRL		0x00c
#define   IRQSTORM_CTRL_RUN		(1u << 0)
#define IRQSTORM_REG_STATUS		0x010	/* RO: bit n: channel n pending */
#define IRQSTORM_REG_ACK		0x014	/* WO: bit n: ack channel n's oldest */
#define IRQSTORM_REG_STAMP_HARDIRQ	0x020	/* WO: event seq; stamps hardirq */
#define IRQSTORM_REG_STAMP_THREAD	0x024	/* WO: event seq; stamps thread */
#define IRQSTORM_REG_STAMP_DONE		0x028	/* WO: event seq; stamps done */
#define IRQSTORM_REG_STAMP_BH		0x02c	/* WO: event seq; stamps bh */
#define IRQSTORM_REG_GUEST_ERRORS	0x030	/* RO: guest misuse counter */
#define IRQSTORM_REG_PROBE		0x034	/* WO: probe lateness, ns (see below) */
#define IRQSTORM_REG_IRQ_MODE		0x038	/* RO: how interrupts are delivered */
#define   IRQSTORM_IRQ_MODE_INTX	0u	/* level, INTx pin A, shared */
#define   IRQSTORM_IRQ_MODE_MSI		1u	/* edge, MSI vector n % enabled */
#define   IRQSTORM_IRQ_MODE_MSIX	2u	/* edge, MSI-X vector n */
/*
 * WO: bit n: trigger channel n, whose pattern is "triggered": it raises
 * exactly the sweep's next offset (ns of virtual time) after this write,
 * once. The guest writes it at the start of the code it wants an
 * interrupt aimed into; a trigger of a channel not running a triggered
 * pattern, with its last firing still to come, or with no offset left
 * (IRQSTORM_CH_TRIGGERS_LEFT) is a guest error and arms nothing.
 */
#define IRQSTORM_REG_TRIGGER		0x03c
/*
 * Interrupt mask, as a network card's: bit n masked, channel n raises its
 * events (queued and stamped as ever) without asserting INTx or sending
 * its message. Unmasking asserts INTx again if the channel still has
 * events queued, and sends the message that a raise while masked kept
 * pending. A driver that defers its work (a tasklet, a workqueue) masks
 * the channel in its handler until the deferred work has acked every
 * event, or a level line would fire again on return. Separate set and
 * clear registers: handlers of different channels never race on a
 * read-modify-write.
 */
#define IRQSTORM_REG_MASK_SET		0x040	/* WO: bit n: mask channel n */
#define IRQSTORM_REG_MASK_CLEAR		0x044	/* WO: bit n: unmask channel n */
#define IRQSTORM_REG_MASK		0x048	/* RO: the channels masked */

/* Per-channel blocks: channel n's register r is at CH_BASE + n*CH_STRIDE + r. */
#define IRQSTORM_REG_CH_BASE		0x100
#define IRQSTORM_REG_CH_STRIDE		0x040
/* RO: low 32 bits of the seq of the channel's oldest pending event; 0: none */
#define IRQSTORM_CH_SEQ			0x00
#define IRQSTORM_CH_RAISED		0x04	/* RO: raises so far (low 32 bits) */
/* RO: busy-wait status of the oldest pending event; each read is a poll */
#define IRQSTORM_CH_READY		0x08
#define   IRQSTORM_READY		(1u << 0)
#define IRQSTORM_CH_PIO_LEFT		0x0c	/* RO: PIO words left to read */
#define IRQSTORM_CH_PENDING		0x10	/* RO: events raised, not acked */
/*
 * RO, read to claim: the seq (low 32 bits) of the oldest pending event not
 * claimed yet, which it marks claimed; 0 when none. A primary handler
 * loops on it to take every event its interrupt stands for (edge
 * interrupts may stand for several), in the order they must be acked.
 */
#define IRQSTORM_CH_CLAIM		0x14
/*
 * RO: triggered pattern: the offsets of the sweep not used yet (saturated
 * at 0xffffffff); 0 for other patterns, and once the sweep is over. A
 * storm's start (RUN set) starts the sweep over.
 */
#define IRQSTORM_CH_TRIGGERS_LEFT	0x18

#define IRQSTORM_REG_CH(n, r) \
	(IRQSTORM_REG_CH_BASE + (n) * IRQSTORM_REG_CH_STRIDE + (r))

/*
 * ---- Event queues -----------------------------------------------------
 * Each channel queues the events it raised, oldest first, until the guest
 * acks them: at most IRQSTORM_QUEUE_DEPTH. The device tracks every queued
 * event until its ack: its stamps are taken and its record published (at
 * the done stamp; as INCOMPLETE when it is acked without one, or dropped
 * by a reset). A firing that finds its channel's queue full raises
 * nothing, no event and no message, and is counted (QOM chN-dropped), as a
 * network card counts a frame missed on a full receive ring. Level INTx
 * queues one event at most: later firings merge into it (chN-coalesced).
 * A driver that keeps claimed events for a thread needs room for this many.
 */
#define IRQSTORM_QUEUE_DEPTH		4096u

/*
 * ---- BAR1: PIO data ports (I/O space) --------------------------------
 * A 16-bit read of port 2*n hands out the next data word of channel n's
 * oldest pending event, like a non-DMA IDE data register; each read is a
 * trap into QEMU. Once the event's words are exhausted a read returns
 * 0xffff and is a guest error.
 */
#define IRQSTORM_PIO_DATA(n)		(2 * (n))

/*
 * ---- The probe --------------------------------------------------------
 * A guest real-time task that measured its own wake-up lateness writes it
 * (ns) to IRQSTORM_REG_PROBE; the device publishes a record on channel
 * IRQSTORM_PROBE_CHANNEL with flags PROBE|DONE, t_done = now and
 * t_raise = now - lateness: the probe's latency in the same log and clock.
 */
#define IRQSTORM_PROBE_CHANNEL		0xffu

/*
 * ---- Shared log (BAR2, backed by a memory-backend-file,share=on) -------
 *
 * A single-producer, single-consumer ring. The device is the producer: it
 * writes a complete record into slot (producer % ring_records), then
 * publishes it with a store-release of producer + 1. The host rig is the
 * consumer: it load-acquires producer, copies records, then store-releases
 * consumer. When producer - consumer == ring_records the ring is full: the
 * device drops the record and increments lost. Nothing unread is ever
 * overwritten. The guest sees the BAR read-only.
 *
 * A record is published when its event completes (the done stamp), or, if
 * it never completes, when it leaves its queue without (flag INCOMPLETE).
 * Records are therefore in completion order, not in seq order.
 */
#define IRQSTORM_LOG_MAGIC		0x474f4c51u /* "QLOG" */
#define IRQSTORM_LOG_HEADER_SIZE	4096u	/* records start at this offset */
#define IRQSTORM_LOG_MIN_SIZE		8192u	/* smallest memdev accepted */

struct irqstorm_log_header {
	/* Written once by the device at realize. */
	uint32_t magic;		/* IRQSTORM_LOG_MAGIC */
	uint32_t version;	/* IRQSTORM_ABI_VERSION */
	uint32_t header_size;	/* IRQSTORM_LOG_HEADER_SIZE */
	uint32_t record_size;	/* sizeof(struct irqstorm_record) */
	uint32_t ring_records;	/* number of slots, a power of two */
	uint32_t reserved0[11];
	/* Device-written cache line. */
	uint64_t producer;	/* records published, ever */
	uint64_t lost;		/* records dropped because the ring was full */
	uint64_t reserved1[6];
	/* Consumer-written cache line. */
	uint64_t consumer;	/* records consumed, ever */
	uint64_t reserved2[7];
};

/* Record flags */
#define IRQSTORM_REC_HARDIRQ		(1u << 0) /* t_hardirq is valid */
#define IRQSTORM_REC_THREAD		(1u << 1) /* t_thread is valid */
#define IRQSTORM_REC_DONE		(1u << 2) /* t_done is valid */
#define IRQSTORM_REC_LEVEL		(1u << 3) /* raised on INTx (level) */
#define IRQSTORM_REC_COALESCED		(1u << 4) /* level: raises merged into it */
#define IRQSTORM_REC_INCOMPLETE		(1u << 5) /* published without done */
#define IRQSTORM_REC_MSI		(1u << 6) /* raised as an MSI message */
#define IRQSTORM_REC_MSIX		(1u << 7) /* raised as an MSI-X message */
#define IRQSTORM_REC_OVERLAP		(1u << 8) /* edge: earlier events pending */
#define IRQSTORM_REC_PROBE		(1u << 9) /* a probe record (see above) */
#define IRQSTORM_REC_TRIGGERED		(1u << 10) /* raised by a trigger: offset */
#define IRQSTORM_REC_BH			(1u << 11) /* t_bh is valid */

#define IRQSTORM_CPU_NONE		0xffu	/* cpu_* of a stage not stamped */

struct irqstorm_record {
	uint64_t seq;		/* event sequence number, from 1, device-wide */
	uint64_t t_raise;	/* ns of QEMU_CLOCK_VIRTUAL: interrupt raised */
	uint64_t t_hardirq;	/* ns: hardirq stamp written by the guest */
	uint64_t t_thread;	/* ns: thread stamp */
	uint64_t t_done;	/* ns: done stamp */
	uint32_t channel;	/* 0..NUM_CHANNELS-1, or IRQSTORM_PROBE_CHANNEL */
	uint32_t flags;		/* IRQSTORM_REC_* */
	/* level: raises merged into it; edge: events queued at its raise */
	uint32_t coalesced;
	uint32_t work;		/* PIO words read + busy-wait status polls */
	uint8_t cpu_hardirq;	/* vCPU that wrote each stamp, or CPU_NONE */
	uint8_t cpu_thread;
	uint8_t cpu_done;
	uint8_t cpu_bh;
	/* REC_TRIGGERED: ns from the trigger to the raise (the sweep's offset) */
	uint32_t offset;
	/* ns: bh stamp, the deferred work's start (a tasklet, a work item) */
	uint64_t t_bh;
	uint64_t reserved0;
};

/*
 * ---- Stamps -------------------------------------------------------------
 * The stages of an interrupt the guest stamps, each by writing the event's
 * seq to its register, each kept in the record with its flag, time and
 * vCPU: X(ID, "name", register, flag, time field, cpu field).
 */
#define IRQSTORM_STAMPS(X)						\
	X(HARDIRQ, "hardirq", IRQSTORM_REG_STAMP_HARDIRQ,		\
	  IRQSTORM_REC_HARDIRQ, t_hardirq, cpu_hardirq)			\
	X(THREAD, "thread", IRQSTORM_REG_STAMP_THREAD,			\
	  IRQSTORM_REC_THREAD, t_thread, cpu_thread)			\
	X(BH, "bh", IRQSTORM_REG_STAMP_BH,				\
	  IRQSTORM_REC_BH, t_bh, cpu_bh)				\
	X(DONE, "done", IRQSTORM_REG_STAMP_DONE,			\
	  IRQSTORM_REC_DONE, t_done, cpu_done)

#define IRQSTORM_STAMP_ENUM(id, name, reg, flag, time, cpu)	IRQSTORM_STAMP_##id,
enum irqstorm_stamp {
	IRQSTORM_STAMPS(IRQSTORM_STAMP_ENUM)
	IRQSTORM_STAMP_COUNT
};

#undef IRQSTORM_STAMP_ENUM

/* A stamp as a row of a table: IRQSTORM_STAMPS(IRQSTORM_STAMP_DESC). */
struct irqstorm_stamp_desc {
	const char *name;
	uint32_t reg;
	uint32_t flag;
	size_t time;		/* offset of its time in the record */
	size_t cpu;		/* offset of its vCPU in the record */
};

#define IRQSTORM_STAMP_DESC(id, name, reg, flag, time, cpu)		\
	{ name, reg, flag, offsetof(struct irqstorm_record, time),	\
	  offsetof(struct irqstorm_record, cpu) },

#define IRQSTORM_LOG_OFF_PRODUCER	64u
#define IRQSTORM_LOG_OFF_LOST		72u
#define IRQSTORM_LOG_OFF_CONSUMER	128u

static_assert(sizeof(struct irqstorm_record) == 80, "record is 80 bytes");
static_assert(sizeof(struct irqstorm_log_header) == 192, "header layout");
static_assert(offsetof(struct irqstorm_log_header, producer) ==
	       IRQSTORM_LOG_OFF_PRODUCER, "producer offset");
static_assert(offsetof(struct irqstorm_log_header, lost) ==
	       IRQSTORM_LOG_OFF_LOST, "lost offset");
static_assert(offsetof(struct irqstorm_log_header, consumer) ==
	       IRQSTORM_LOG_OFF_CONSUMER, "consumer offset");

#endif /* IRQSTORM_ABI_H */
