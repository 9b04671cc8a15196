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

#define IRQSTORM_ABI_VERSION		1u

/* ---- PCI identity ---------------------------------------------------- */
#define IRQSTORM_PCI_VENDOR_ID		0x1234	/* QEMU's experimental vendor */
#define IRQSTORM_PCI_DEVICE_ID		0x5157
#define IRQSTORM_PCI_CLASS		0xff00	/* base class 0xff: "other" */

/* ---- BARs ------------------------------------------------------------- */
#define IRQSTORM_BAR_REGS		0	/* MMIO registers, 4 KiB */
#define IRQSTORM_BAR_LOG		2	/* shared log, 64-bit prefetchable RAM */
#define IRQSTORM_REGS_SIZE		0x1000u

#define IRQSTORM_NUM_CHANNELS		1u

/*
 * ---- BAR0 registers: 32-bit accesses only ---------------------------
 * Other sizes and offsets are guest errors: logged, counted, ignored.
 */
#define IRQSTORM_ID_MAGIC		0x49525153u /* "IRQS" */

#define IRQSTORM_REG_ID			0x000	/* RO: IRQSTORM_ID_MAGIC */
#define IRQSTORM_REG_VERSION		0x004	/* RO: IRQSTORM_ABI_VERSION */
#define IRQSTORM_REG_NCHAN		0x008	/* RO: number of channels */
#define IRQSTORM_REG_CTRL		0x00c	/* RW: global control */
#define   IRQSTORM_CTRL_RUN		(1u << 0) /* channels raise while set */
#define IRQSTORM_REG_STATUS		0x010	/* RO: bit n: channel n pending */
#define IRQSTORM_REG_ACK		0x014	/* WO: bit n: ack channel n */
#define IRQSTORM_REG_STAMP_HARDIRQ	0x020	/* WO: event seq; stamps hardirq */
#define IRQSTORM_REG_STAMP_THREAD	0x024	/* WO: event seq; stamps thread */
#define IRQSTORM_REG_STAMP_DONE		0x028	/* WO: event seq; stamps done */
#define IRQSTORM_REG_GUEST_ERRORS	0x030	/* RO: guest misuse counter */

/* Per-channel blocks: channel n's register r is at CH_BASE + n*CH_STRIDE + r. */
#define IRQSTORM_REG_CH_BASE		0x100
#define IRQSTORM_REG_CH_STRIDE		0x040
/* RO: low 32 bits of the seq of the channel's pending event; 0: none */
#define IRQSTORM_CH_SEQ			0x00
#define IRQSTORM_CH_RAISED		0x04	/* RO: raises so far (low 32 bits) */

#define IRQSTORM_REG_CH(n, r) \
	(IRQSTORM_REG_CH_BASE + (n) * IRQSTORM_REG_CH_STRIDE + (r))

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
 * it never completes, when the device gives up on it (flag INCOMPLETE).
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
#define IRQSTORM_REC_COALESCED		(1u << 4) /* raises merged into it */
#define IRQSTORM_REC_INCOMPLETE		(1u << 5) /* published without done */

struct irqstorm_record {
	uint64_t seq;		/* event sequence number, from 1, device-wide */
	uint64_t t_raise;	/* ns of QEMU_CLOCK_VIRTUAL: line raised */
	uint64_t t_hardirq;	/* ns: hardirq stamp written by the guest */
	uint64_t t_thread;	/* ns: thread stamp */
	uint64_t t_done;	/* ns: done stamp */
	uint32_t channel;
	uint32_t flags;		/* IRQSTORM_REC_* */
	uint32_t coalesced;	/* raises merged into this event */
	uint32_t reserved[3];
};

#define IRQSTORM_LOG_OFF_PRODUCER	64u
#define IRQSTORM_LOG_OFF_LOST		72u
#define IRQSTORM_LOG_OFF_CONSUMER	128u

static_assert(sizeof(struct irqstorm_record) == 64, "record is 64 bytes");
static_assert(sizeof(struct irqstorm_log_header) == 192, "header layout");
static_assert(offsetof(struct irqstorm_log_header, producer) ==
	       IRQSTORM_LOG_OFF_PRODUCER, "producer offset");
static_assert(offsetof(struct irqstorm_log_header, lost) ==
	       IRQSTORM_LOG_OFF_LOST, "lost offset");
static_assert(offsetof(struct irqstorm_log_header, consumer) ==
	       IRQSTORM_LOG_OFF_CONSUMER, "consumer offset");

#endif /* IRQSTORM_ABI_H */
