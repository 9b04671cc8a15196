// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/logreader.c. A temporary file is laid out as the device
 * lays out its memdev, and a producer thread plays the device through its
 * own shared mapping: it writes each record field by field and store-releases
 * producer. Every field of a record is derived from its seq, so a torn or
 * stale read shows up as a mismatch.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "core/logreader.h"

#define STRESS_RECORDS	1000000u
#define STRESS_RING	64u

typedef struct {
	char *dir;
	char *path;
	int fd;
	gsize size;
	guint8 *map;			/* the "device" side mapping */
	struct irqstorm_log_header *hdr;
	guint32 ring;
} Fixture;

/* splitmix64 of x: a cheap, well-mixed function of seq. */
static guint64 mix(guint64 x)
{
	x += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* The record the producer publishes for seq. */
static void make_record(guint64 seq, struct irqstorm_record *r)
{
	r->seq = seq;
	r->t_raise = mix(seq * 16 + 1);
	r->t_hardirq = mix(seq * 16 + 2);
	r->t_thread = mix(seq * 16 + 3);
	r->t_done = mix(seq * 16 + 4);
	r->channel = (guint32)mix(seq * 16 + 5);
	r->flags = (guint32)mix(seq * 16 + 6);
	r->coalesced = (guint32)mix(seq * 16 + 7);
	r->work = (guint32)mix(seq * 16 + 8);
	r->cpu_hardirq = (guint8)mix(seq * 16 + 9);
	r->cpu_thread = (guint8)mix(seq * 16 + 10);
	r->cpu_done = (guint8)mix(seq * 16 + 11);
	r->cpu_bh = (guint8)mix(seq * 16 + 12);
	r->offset = (guint32)mix(seq * 16 + 13);
	r->t_bh = mix(seq * 16 + 14);
	r->reserved0 = mix(seq * 16 + 15);
}

/* Does r hold exactly the record made for r->seq? */
static gboolean record_ok(const struct irqstorm_record *r)
{
	struct irqstorm_record want;

	make_record(r->seq, &want);
	return memcmp(r, &want, sizeof(want)) == 0;
}

/* Create a zero-filled log file of size bytes and map it. */
static void fixture_init(Fixture *f, gsize size)
{
	g_autoptr(GError) error = NULL;

	memset(f, 0, sizeof(*f));
	f->dir = g_dir_make_tmp("irqstorm-test-XXXXXX", &error);
	g_assert_no_error(error);
	f->path = g_build_filename(f->dir, "log", NULL);
	f->fd = open(f->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	g_assert_cmpint(f->fd, >=, 0);
	g_assert_cmpint(ftruncate(f->fd, (off_t)size), ==, 0);
	f->size = size;
	f->map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd, 0);
	g_assert_true(f->map != MAP_FAILED);
	f->hdr = (struct irqstorm_log_header *)f->map;
}

/* Write the header as the device does at realize. */
static void fixture_write_header(Fixture *f, guint32 ring)
{
	f->ring = ring;
	f->hdr->magic = IRQSTORM_LOG_MAGIC;
	f->hdr->version = IRQSTORM_ABI_VERSION;
	f->hdr->header_size = IRQSTORM_LOG_HEADER_SIZE;
	f->hdr->record_size = sizeof(struct irqstorm_record);
	f->hdr->ring_records = ring;
}

/* A valid log with ring slots, in a file of the minimum size or just big enough. */
static void fixture_init_valid(Fixture *f, guint32 ring)
{
	fixture_init(f, MAX(IRQSTORM_LOG_MIN_SIZE, IRQSTORM_LOG_HEADER_SIZE +
			    (gsize)ring * sizeof(struct irqstorm_record)));
	fixture_write_header(f, ring);
}

/* Unmap and delete the log file. */
static void fixture_fini(Fixture *f)
{
	munmap(f->map, f->size);
	close(f->fd);
	g_unlink(f->path);
	g_rmdir(f->dir);
	g_free(f->path);
	g_free(f->dir);
}

/* Write record seq into ring slot idx field by field, like the device. */
static void device_write_slot(Fixture *f, guint64 idx, guint64 seq)
{
	struct irqstorm_record r;
	struct irqstorm_record *slot = (struct irqstorm_record *)
		(f->map + IRQSTORM_LOG_HEADER_SIZE) + (idx & (f->ring - 1));

	make_record(seq, &r);
	slot->seq = r.seq;
	slot->t_raise = r.t_raise;
	slot->t_hardirq = r.t_hardirq;
	slot->t_thread = r.t_thread;
	slot->t_done = r.t_done;
	slot->channel = r.channel;
	slot->flags = r.flags;
	slot->coalesced = r.coalesced;
	slot->work = r.work;
	slot->cpu_hardirq = r.cpu_hardirq;
	slot->cpu_thread = r.cpu_thread;
	slot->cpu_done = r.cpu_done;
	slot->cpu_bh = r.cpu_bh;
	slot->offset = r.offset;
	slot->t_bh = r.t_bh;
	slot->reserved0 = r.reserved0;
}

/* Publish records seq first.. in slots [producer, producer + n) at once. */
static void device_publish(Fixture *f, guint64 producer, guint64 n,
			   guint64 first)
{
	guint64 i;

	for (i = 0; i < n; i++)
		device_write_slot(f, producer + i, first + i);
	__atomic_store_n(&f->hdr->producer, producer + n, __ATOMIC_RELEASE);
}

/* ---- header validation ------------------------------------------------ */

/* Open f's file, expecting failure in domain/code with want in the message. */
static void expect_open_error(Fixture *f, GQuark domain, gint code,
			      const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = irqstorm_log_open(f->path, &error);

	g_assert_null(log);
	g_assert_error(error, domain, code);
	if (g_test_verbose())
		g_test_message("%s", error->message);
	g_assert_nonnull(strstr(error->message, f->path));
	g_assert_nonnull(strstr(error->message, want));
}

/* A valid header opens, and the getters reflect it. */
static void test_open_valid(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	Fixture f;

	fixture_init_valid(&f, 64);
	f.hdr->producer = 1000;
	f.hdr->consumer = 990;
	f.hdr->lost = 7;
	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);
	g_assert_nonnull(log);
	g_assert_cmpuint(irqstorm_log_ring_records(log), ==, 64);
	g_assert_cmpuint(irqstorm_log_producer(log), ==, 1000);
	g_assert_cmpuint(irqstorm_log_consumer(log), ==, 990);
	g_assert_cmpuint(irqstorm_log_lost(log), ==, 7);
	g_assert_cmpstr(irqstorm_log_path(log), ==, f.path);
	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* A zero-filled file is NOT_READY until the device writes the header. */
static void test_open_not_ready(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	Fixture f;

	fixture_init(&f, 1 << 16);
	expect_open_error(&f, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_NOT_READY,
			  "magic");
	fixture_write_header(&f, 512);
	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(irqstorm_log_ring_records(log), ==, 512);
	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* A file that does not exist is a G_FILE_ERROR. */
static void test_open_missing(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log =
		irqstorm_log_open("/nonexistent/irqstorm-log", &error);

	g_assert_null(log);
	g_assert_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
}

/* A file too small for any log is refused before its header is read. */
static void test_open_too_small(void)
{
	Fixture f;

	fixture_init(&f, IRQSTORM_LOG_MIN_SIZE - 1);
	fixture_write_header(&f, 1);
	expect_open_error(&f, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			  "bad file size 8191");
	fixture_fini(&f);
}

typedef struct {
	const char *name;
	guint32 magic, version, header_size, record_size, ring;
	guint64 producer, consumer;
	const char *want;	/* expected in the message */
} BadHeader;

/* A log from another ABI version is refused, naming both versions. */
static void test_open_bad_version(void)
{
	g_autofree char *want = g_strdup_printf("bad version %u (expected %u)",
						IRQSTORM_ABI_VERSION + 1,
						IRQSTORM_ABI_VERSION);
	Fixture f;

	fixture_init_valid(&f, 64);
	f.hdr->version = IRQSTORM_ABI_VERSION + 1;
	expect_open_error(&f, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID, want);
	fixture_fini(&f);
}

/* Every wrong header field is refused with its own message. */
static void test_open_invalid(void)
{
	static const BadHeader cases[] = {
		{ "magic", 0xdeadbeef, 0, 0, 0, 0, 0, 0,
		  "bad magic 0xdeadbeef (expected 0x474f4c51)" },
		{ "header_size", 0, 0, 2048, 0, 0, 0, 0,
		  "bad header_size 2048 (expected 4096)" },
		{ "record_size", 0, 0, 0, 32, 0, 0, 0,
		  "bad record_size 32 (expected 80)" },
		{ "ring zero", 0, 0, 0, 0, G_MAXUINT32, 0, 0,
		  "bad ring_records 0 (expected a nonzero power of two)" },
		{ "ring not pow2", 0, 0, 0, 0, 48, 0, 0,
		  "bad ring_records 48 (expected a nonzero power of two)" },
		{ "ring too big", 0, 0, 0, 0, 128, 0, 0,
		  "bad ring_records 128: header_size + ring_records * record_size = 14336 bytes (expected at most the file size, 9216)" },
		{ "huge ring", 0, 0, 0, 0, 0x80000000u, 0, 0,
		  "bad ring_records 2147483648" },
		{ "consumer ahead", 0, 0, 0, 0, 0, 5, 6,
		  "bad consumer 6 (expected within [producer - ring_records, producer] = [0, 5])" },
		{ "consumer behind", 0, 0, 0, 0, 0, 1000, 935,
		  "bad consumer 935 (expected within [producer - ring_records, producer] = [936, 1000])" },
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		const BadHeader *c = &cases[i];
		Fixture f;

		g_test_message("case %s", c->name);
		fixture_init_valid(&f, 64);
		if (c->magic)
			f.hdr->magic = c->magic;
		if (c->version)
			f.hdr->version = c->version;
		if (c->header_size)
			f.hdr->header_size = c->header_size;
		if (c->record_size)
			f.hdr->record_size = c->record_size;
		if (c->ring)
			f.hdr->ring_records = c->ring == G_MAXUINT32 ? 0 : c->ring;
		f.hdr->producer = c->producer;
		f.hdr->consumer = c->consumer;
		expect_open_error(&f, IRQSTORM_LOG_ERROR,
				  IRQSTORM_LOG_ERROR_INVALID, c->want);
		fixture_fini(&f);
	}
}

/* ---- draining ------------------------------------------------------- */

typedef struct {
	Fixture *f;
	guint64 received;
	guint64 last_seq;
	guint64 bad;
	guint64 min_published;	/* lowest consumer seen published - received */
	gboolean check_published;
	gboolean consecutive;	/* seqs must be exactly last + 1 */
} Sink;

/* Check one drained record. */
static void sink_record(const struct irqstorm_record *rec, gpointer data)
{
	Sink *s = data;

	if (!record_ok(rec) || rec->seq <= s->last_seq ||
	    (s->consecutive && rec->seq != s->last_seq + 1)) {
		if (s->bad++ < 5)
			g_test_message("bad record: seq %" G_GUINT64_FORMAT
				       " after %" G_GUINT64_FORMAT,
				       rec->seq, s->last_seq);
	}
	s->last_seq = rec->seq;
	s->received++;
	if (s->check_published) {
		guint64 pub = __atomic_load_n(&s->f->hdr->consumer,
					      __ATOMIC_ACQUIRE);

		/* The consumer index is released at least every batch. */
		g_assert_cmpuint(pub, >=, s->received / IRQSTORM_LOG_RELEASE_BATCH *
				 IRQSTORM_LOG_RELEASE_BATCH);
		g_assert_cmpuint(pub, <=, s->received);
	}
}

/* Drain a few batches by hand, including the wrap of the ring. */
static void test_drain_simple(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	Sink s = { 0 };
	Fixture f;

	fixture_init_valid(&f, 8);
	s.f = &f;
	s.consecutive = TRUE;
	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);

	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 0);
	g_assert_no_error(error);

	device_publish(&f, 0, 5, 1);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 5);
	g_assert_no_error(error);
	g_assert_cmpuint(f.hdr->consumer, ==, 5);

	/* A full ring, wrapping: slots 5, 6, 7, 0, ..., 4. */
	device_publish(&f, 5, 8, 6);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 8);
	g_assert_no_error(error);
	g_assert_cmpuint(f.hdr->consumer, ==, 13);
	g_assert_cmpuint(irqstorm_log_consumer(log), ==, 13);
	g_assert_cmpuint(s.received, ==, 13);
	g_assert_cmpuint(s.last_seq, ==, 13);
	g_assert_cmpuint(s.bad, ==, 0);

	/* A NULL callback just consumes. */
	device_publish(&f, 13, 3, 14);
	g_assert_cmpuint(irqstorm_log_drain(log, NULL, NULL, &error), ==, 3);
	g_assert_cmpuint(f.hdr->consumer, ==, 16);

	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* The consumer index is released every batch, not only at the end. */
static void test_drain_release_batches(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	const guint32 ring = 4 * IRQSTORM_LOG_RELEASE_BATCH;
	Sink s = { 0 };
	Fixture f;

	fixture_init_valid(&f, ring);
	s.f = &f;
	s.consecutive = TRUE;
	s.check_published = TRUE;
	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);
	device_publish(&f, 0, ring - 10, 1);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==,
			 ring - 10);
	g_assert_no_error(error);
	g_assert_cmpuint(f.hdr->consumer, ==, ring - 10);
	g_assert_cmpuint(s.bad, ==, 0);
	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* A producer index outside [consumer, consumer + ring] is refused. */
static void test_drain_corrupt_producer(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	Sink s = { 0 };
	Fixture f;

	fixture_init_valid(&f, 64);
	s.f = &f;
	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);

	/* More than a ring ahead. */
	__atomic_store_n(&f.hdr->producer, 65, __ATOMIC_RELEASE);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 0);
	g_assert_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_CORRUPT);
	g_assert_nonnull(strstr(error->message, "corrupt producer index 65"));
	g_clear_error(&error);
	g_assert_cmpuint(s.received, ==, 0);
	g_assert_cmpuint(irqstorm_log_consumer(log), ==, 0);
	g_assert_cmpuint(f.hdr->consumer, ==, 0);

	/* Exactly a ring ahead is fine. */
	device_publish(&f, 0, 64, 1);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 64);
	g_assert_no_error(error);

	/* Behind our consumer. */
	__atomic_store_n(&f.hdr->producer, 10, __ATOMIC_RELEASE);
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 0);
	g_assert_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_CORRUPT);
	g_assert_nonnull(strstr(error->message, "corrupt producer index 10 (consumer 64, ring_records 64)"));
	g_clear_error(&error);

	/* Our own consumer copy is trusted, not the header's. */
	__atomic_store_n(&f.hdr->producer, 64, __ATOMIC_RELEASE);
	f.hdr->consumer = 0;
	g_assert_cmpuint(irqstorm_log_drain(log, sink_record, &s, &error), ==, 0);
	g_assert_no_error(error);
	g_assert_cmpuint(irqstorm_log_consumer(log), ==, 64);
	g_assert_cmpuint(s.received, ==, 64);
	g_assert_cmpuint(s.bad, ==, 0);

	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* ---- concurrent producer ----------------------------------------------- */

typedef struct {
	Fixture *f;
	guint64 records;	/* records to produce */
	gboolean drop;		/* drop when full, like the device */
	guint64 prefill;	/* attempts made before the consumer may start */
	gint started;		/* set once prefill attempts are done */
	gint done;		/* set after the last publish */
	guint64 lost;
} Producer;

/* The device: publish records seq 1..records, dropping or waiting if full. */
static gpointer producer_thread(gpointer data)
{
	Producer *p = data;
	Fixture *f = p->f;
	guint64 prod = 0, seq;

	for (seq = 1; seq <= p->records; seq++) {
		guint64 cons;

		if (seq == p->prefill + 1)
			__atomic_store_n(&p->started, 1, __ATOMIC_RELEASE);
		for (;;) {
			cons = __atomic_load_n(&f->hdr->consumer, __ATOMIC_ACQUIRE);
			if (cons <= prod && prod - cons < f->ring)
				break;
			if (p->drop)
				break;
			g_thread_yield();
		}
		if (cons > prod || prod - cons >= f->ring) {
			p->lost++;
			__atomic_store_n(&f->hdr->lost, p->lost, __ATOMIC_RELAXED);
			continue;
		}
		device_write_slot(f, prod, seq);
		prod++;
		__atomic_store_n(&f->hdr->producer, prod, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&p->started, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Run the producer thread against a draining consumer; return the sink. */
static void run_concurrent(gboolean drop, guint64 prefill, Sink *s,
			   Producer *p)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(IrqstormLog) log = NULL;
	g_autoptr(GThread) thread = NULL;
	Fixture f;
	guint64 drains = 0, max_batch = 0;

	fixture_init_valid(&f, STRESS_RING);
	memset(s, 0, sizeof(*s));
	memset(p, 0, sizeof(*p));
	s->f = &f;
	s->consecutive = !drop;
	p->f = &f;
	p->records = STRESS_RECORDS;
	p->drop = drop;
	p->prefill = prefill;

	log = irqstorm_log_open(f.path, &error);
	g_assert_no_error(error);
	thread = g_thread_new("producer", producer_thread, p);
	while (!__atomic_load_n(&p->started, __ATOMIC_ACQUIRE))
		g_thread_yield();

	for (;;) {
		gboolean finished = __atomic_load_n(&p->done, __ATOMIC_ACQUIRE);
		gsize n = irqstorm_log_drain(log, sink_record, s, &error);

		g_assert_no_error(error);
		drains++;
		max_batch = MAX(max_batch, n);
		if (finished && n == 0)
			break;
		if (n == 0)
			g_thread_yield();
	}
	g_thread_join(g_steal_pointer(&thread));

	g_test_message("%s: %" G_GUINT64_FORMAT " received, %" G_GUINT64_FORMAT
		       " lost, %" G_GUINT64_FORMAT " drains, largest batch %"
		       G_GUINT64_FORMAT, drop ? "dropping" : "blocking",
		       s->received, p->lost, drains, max_batch);
	g_assert_cmpuint(max_batch, <=, STRESS_RING);
	g_assert_cmpuint(irqstorm_log_lost(log), ==, p->lost);
	g_assert_cmpuint(irqstorm_log_producer(log), ==, s->received);
	g_assert_cmpuint(irqstorm_log_consumer(log), ==, s->received);
	g_assert_cmpuint(f.hdr->consumer, ==, s->received);
	g_clear_pointer(&log, irqstorm_log_close);
	fixture_fini(&f);
}

/* 1,000,000 records through a 64-slot ring: all arrive, whole, in order. */
static void test_concurrent_blocking(void)
{
	Sink s;
	Producer p;

	run_concurrent(FALSE, 0, &s, &p);
	g_assert_cmpuint(s.bad, ==, 0);
	g_assert_cmpuint(p.lost, ==, 0);
	g_assert_cmpuint(s.received, ==, STRESS_RECORDS);
	g_assert_cmpuint(s.last_seq, ==, STRESS_RECORDS);
}

/*
 * A producer that drops when full, exactly like the device. The consumer
 * starts only after ring + 100 attempts, so at least 100 are lost; every
 * record that does arrive is whole and in order, and none goes missing
 * without being counted.
 */
static void test_concurrent_dropping(void)
{
	Sink s;
	Producer p;

	run_concurrent(TRUE, STRESS_RING + 100, &s, &p);
	g_assert_cmpuint(s.bad, ==, 0);
	g_assert_cmpuint(p.lost, >=, 100);
	g_assert_cmpuint(s.received + p.lost, ==, STRESS_RECORDS);
	g_assert_cmpuint(s.last_seq, <=, STRESS_RECORDS);
}

/* Register and run the tests. */
int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/logreader/open/valid", test_open_valid);
	g_test_add_func("/logreader/open/not-ready", test_open_not_ready);
	g_test_add_func("/logreader/open/missing", test_open_missing);
	g_test_add_func("/logreader/open/too-small", test_open_too_small);
	g_test_add_func("/logreader/open/invalid", test_open_invalid);
	g_test_add_func("/logreader/open/bad-version", test_open_bad_version);
	g_test_add_func("/logreader/drain/simple", test_drain_simple);
	g_test_add_func("/logreader/drain/release-batches",
			test_drain_release_batches);
	g_test_add_func("/logreader/drain/corrupt-producer",
			test_drain_corrupt_producer);
	g_test_add_func("/logreader/concurrent/blocking",
			test_concurrent_blocking);
	g_test_add_func("/logreader/concurrent/dropping",
			test_concurrent_dropping);
	return g_test_run();
}
