// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Benchmark: how many records per second the rig's ingest path takes on one
 * core: the log reader draining a shared ring that a producer thread fills
 * exactly like the device does, every record through the collector (stage
 * latencies into exact histograms, per channel and overall). Compared in
 * the same run with a plain memcpy of the same bytes.
 *
 *   ingest [RECORDS]        (default 20,000,000)
 *
 * Prints the figures, the ratio last. Exit status non-zero only when the
 * benchmark could not run.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "core/collect.h"
#include "irqstorm/abi.h"
#include "core/logreader.h"

#define RING		131072u		/* the default 16 MiB log */

typedef struct {
	struct irqstorm_log_header *hdr;
	struct irqstorm_record *slots;
	guint64 n;
} Producer;

/* The device's side: publish n records, waiting (never dropping) when full. */
static gpointer produce(gpointer data)
{
	Producer *p = data;

	for (guint64 i = 0; i < p->n; i++) {
		struct irqstorm_record *r = &p->slots[i & (RING - 1)];

		while (i - __atomic_load_n(&p->hdr->consumer, __ATOMIC_ACQUIRE) >= RING)
			g_thread_yield();
		r->seq = i + 1;
		r->t_raise = i * 1000;
		r->t_hardirq = r->t_raise + 2000 + (i % 97) * 10;
		r->t_thread = r->t_raise + 15000 + (i % 389) * 10;
		r->t_done = r->t_thread + 100;
		r->channel = i & 3;
		r->flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD |
			   IRQSTORM_REC_DONE | IRQSTORM_REC_LEVEL;
		__atomic_store_n(&p->hdr->producer, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static double now_s(void)
{
	return g_get_monotonic_time() / 1e6;
}

int main(int argc, char **argv)
{
	guint64 n = argc > 1 ? g_ascii_strtoull(argv[1], NULL, 10) : 20000000;
	gsize size = IRQSTORM_LOG_HEADER_SIZE + (gsize)RING * sizeof(struct irqstorm_record);
	g_autofree char *dir = g_dir_make_tmp("irqstorm-bench-XXXXXX", NULL);
	g_autofree char *path = dir ? g_build_filename(dir, "log", NULL) : NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	g_autoptr(IrqstormCollected) d = NULL;
	IrqstormCollector *c;
	Producer p = { .n = n };
	GThread *t;
	double t0, ingest, copy, copy_rate, ingest_rate;
	guint8 *dst;
	int fd;

	if (!n || !path)
		return 1;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || ftruncate(fd, size) < 0)
		return 1;
	p.hdr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p.hdr == MAP_FAILED)
		return 1;
	p.slots = (void *)((guint8 *)p.hdr + IRQSTORM_LOG_HEADER_SIZE);
	p.hdr->version = IRQSTORM_ABI_VERSION;
	p.hdr->header_size = IRQSTORM_LOG_HEADER_SIZE;
	p.hdr->record_size = sizeof(struct irqstorm_record);
	p.hdr->ring_records = RING;
	__atomic_store_n(&p.hdr->magic, IRQSTORM_LOG_MAGIC, __ATOMIC_RELEASE);

	log = irqstorm_log_open(path, &err);
	if (!log) {
		g_printerr("ingest: %s\n", err->message);
		return 1;
	}
	t0 = now_s();
	c = irqstorm_collector_start(log, 1000, 10000, 0, G_MAXUINT64, NULL);
	t = g_thread_new("producer", produce, &p);
	g_thread_join(t);
	d = irqstorm_collector_finish(c);
	ingest = now_s() - t0;
	if (d->records != n || d->all.done_records != n) {
		g_printerr("ingest: read %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT "\n",
			   d->records, n);
		return 1;
	}

	/* The same bytes with memcpy, ring-sized chunks, on one core. */
	dst = g_malloc(RING * sizeof(struct irqstorm_record));
	t0 = now_s();
	for (guint64 done = 0; done < n; done += RING) {
		guint64 k = MIN(RING, n - done);

		memcpy(dst, p.slots, k * sizeof(struct irqstorm_record));
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	copy = now_s() - t0;
	g_free(dst);
	munmap(p.hdr, size);
	g_unlink(path);
	g_rmdir(dir);

	ingest_rate = n / ingest;
	copy_rate = n / copy;
	printf("host: %ld cores; %" G_GUINT64_FORMAT " records of %zu bytes, ring %u\n",
	       sysconf(_SC_NPROCESSORS_ONLN), n, sizeof(struct irqstorm_record), RING);
	printf("ingest (log reader + 5 stages x 5 histograms): %.3f s, %.2f M records/s\n",
	       ingest, ingest_rate / 1e6);
	printf("memcpy of the same bytes: %.3f s, %.2f M records/s\n", copy, copy_rate / 1e6);
	printf("irqstorm-ingest records-per-second=%.0f memcpy-ratio=%.3f\n",
	       ingest_rate, ingest_rate / copy_rate);
	return 0;
}
