// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Consumer of the device's shared timestamp log.
 *
 * Ring protocol (include/irqstorm/abi.h): the device writes a record into
 * slot producer % ring_records and store-releases producer + 1; we
 * load-acquire producer, copy the records out, then store-release consumer.
 * Slots in [consumer, producer) are never rewritten by the device, so a copy
 * taken after the acquire cannot be torn. Once consumer moves past a slot the
 * device may reuse it, so records are always copied before use.
 */
#include "logreader.h"
#include "stages.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct IrqstormLog {
	char *path;
	int fd;
	void *map;
	gsize map_size;
	struct irqstorm_log_header *hdr;
	const guint8 *records;
	guint32 ring_records;
	guint64 consumer;	/* our copy: never re-read from the header */
};

G_DEFINE_QUARK(irqstorm-log-error-quark, irqstorm_log_error)

/* Set a G_FILE_ERROR from errno for operation what on path. */
static void set_errno_error(GError **error, int err, const char *path,
			    const char *what)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(err),
		    "%s: %s failed: %s", path, what, g_strerror(err));
}

/* Check the header fields against the ABI and the file size. */
static gboolean log_validate(IrqstormLog *log, GError **error)
{
	const struct irqstorm_log_header *h = log->hdr;
	guint32 magic, version, header_size, record_size, ring;
	guint64 producer, consumer, need;

	magic = GUINT32_FROM_LE(__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE));
	if (magic == 0) {
		g_set_error(error, IRQSTORM_LOG_ERROR,
			    IRQSTORM_LOG_ERROR_NOT_READY,
			    "%s: log header not written yet (magic is 0)",
			    log->path);
		return FALSE;
	}
	if (magic != IRQSTORM_LOG_MAGIC) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad magic 0x%08x (expected 0x%08x)",
			    log->path, magic, IRQSTORM_LOG_MAGIC);
		return FALSE;
	}
	version = GUINT32_FROM_LE(h->version);
	if (version != IRQSTORM_ABI_VERSION) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad version %u (expected %u)",
			    log->path, version, IRQSTORM_ABI_VERSION);
		return FALSE;
	}
	header_size = GUINT32_FROM_LE(h->header_size);
	if (header_size != IRQSTORM_LOG_HEADER_SIZE) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad header_size %u (expected %u)",
			    log->path, header_size, IRQSTORM_LOG_HEADER_SIZE);
		return FALSE;
	}
	record_size = GUINT32_FROM_LE(h->record_size);
	if (record_size != sizeof(struct irqstorm_record)) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad record_size %u (expected %zu)",
			    log->path, record_size,
			    sizeof(struct irqstorm_record));
		return FALSE;
	}
	ring = GUINT32_FROM_LE(h->ring_records);
	if (ring == 0 || (ring & (ring - 1)) != 0) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad ring_records %u (expected a nonzero power of two)",
			    log->path, ring);
		return FALSE;
	}
	need = (guint64)header_size + (guint64)ring * record_size;
	if (need > log->map_size) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad ring_records %u: header_size + ring_records * record_size = %"
			    G_GUINT64_FORMAT " bytes (expected at most the file size, %"
			    G_GSIZE_FORMAT ")",
			    log->path, ring, need, log->map_size);
		return FALSE;
	}

	producer = GUINT64_FROM_LE(__atomic_load_n(&h->producer,
						   __ATOMIC_ACQUIRE));
	consumer = GUINT64_FROM_LE(__atomic_load_n(&h->consumer,
						   __ATOMIC_RELAXED));
	if (consumer > producer || producer - consumer > ring) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad consumer %" G_GUINT64_FORMAT
			    " (expected within [producer - ring_records, producer] = [%"
			    G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT "])",
			    log->path, consumer,
			    producer > ring ? producer - ring : 0, producer);
		return FALSE;
	}

	log->ring_records = ring;
	log->records = (const guint8 *)log->map + header_size;
	log->consumer = consumer;
	return TRUE;
}

/* Map and validate the log file at path. */
IrqstormLog *irqstorm_log_open(const char *path, GError **error)
{
	g_autoptr(IrqstormLog) log = g_new0(IrqstormLog, 1);
	struct stat st;

	g_return_val_if_fail(path != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	log->path = g_strdup(path);
	log->fd = -1;
	log->map = MAP_FAILED;

	log->fd = open(path, O_RDWR | O_CLOEXEC);
	if (log->fd < 0) {
		set_errno_error(error, errno, path, "open");
		return NULL;
	}
	if (fstat(log->fd, &st) < 0) {
		set_errno_error(error, errno, path, "fstat");
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size < (off_t)IRQSTORM_LOG_MIN_SIZE) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad file size %lld (expected a regular file of at least %u bytes)",
			    path, (long long)st.st_size, IRQSTORM_LOG_MIN_SIZE);
		return NULL;
	}
	if ((guint64)st.st_size > G_MAXSIZE) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_INVALID,
			    "%s: bad file size %lld (too large to map)",
			    path, (long long)st.st_size);
		return NULL;
	}
	log->map_size = (gsize)st.st_size;
	log->map = mmap(NULL, log->map_size, PROT_READ | PROT_WRITE,
			MAP_SHARED, log->fd, 0);
	if (log->map == MAP_FAILED) {
		set_errno_error(error, errno, path, "mmap");
		return NULL;
	}
	log->hdr = log->map;

	if (!log_validate(log, error))
		return NULL;
	return g_steal_pointer(&log);
}

/* Unmap and free; NULL is accepted. The consumer index stays published. */
void irqstorm_log_close(IrqstormLog *log)
{
	if (!log)
		return;
	if (log->map != MAP_FAILED && log->map)
		munmap(log->map, log->map_size);
	if (log->fd >= 0)
		close(log->fd);
	g_free(log->path);
	g_free(log);
}

/* Make our consumer index visible to the device, after our slot reads. */
static void log_publish_consumer(IrqstormLog *log)
{
	__atomic_store_n(&log->hdr->consumer, GUINT64_TO_LE(log->consumer),
			 __ATOMIC_RELEASE);
}

/* Copy the record in ring slot idx out of shared memory, in host order. */
static void log_copy_record(const IrqstormLog *log, guint64 idx,
			    struct irqstorm_record *rec)
{
	const guint8 *slot = log->records +
		(gsize)(idx & (log->ring_records - 1)) * sizeof(*rec);

	memcpy(rec, slot, sizeof(*rec));
	rec->seq = GUINT64_FROM_LE(rec->seq);
	rec->t_raise = GUINT64_FROM_LE(rec->t_raise);
	for (guint p = 0; p < IRQSTORM_STAMP_COUNT; p++) {
		guint64 *t = G_STRUCT_MEMBER_P(rec, irqstorm_stamp(p)->time);

		*t = GUINT64_FROM_LE(*t);	/* a stamp's vCPU is a byte */
	}
	rec->channel = GUINT32_FROM_LE(rec->channel);
	rec->flags = GUINT32_FROM_LE(rec->flags);
	rec->coalesced = GUINT32_FROM_LE(rec->coalesced);
	rec->work = GUINT32_FROM_LE(rec->work);
	rec->offset = GUINT32_FROM_LE(rec->offset);
}

/* Consume all records published so far; see logreader.h. */
gsize irqstorm_log_drain(IrqstormLog *log, IrqstormLogFunc fn, gpointer data,
			 GError **error)
{
	struct irqstorm_record rec;
	guint64 producer;
	gsize n = 0;

	g_return_val_if_fail(log != NULL, 0);
	g_return_val_if_fail(error == NULL || *error == NULL, 0);

	producer = GUINT64_FROM_LE(__atomic_load_n(&log->hdr->producer,
						   __ATOMIC_ACQUIRE));
	if (producer < log->consumer ||
	    producer - log->consumer > log->ring_records) {
		g_set_error(error, IRQSTORM_LOG_ERROR, IRQSTORM_LOG_ERROR_CORRUPT,
			    "%s: corrupt producer index %" G_GUINT64_FORMAT
			    " (consumer %" G_GUINT64_FORMAT ", ring_records %u)",
			    log->path, producer, log->consumer,
			    log->ring_records);
		return 0;
	}

	while (log->consumer != producer) {
		log_copy_record(log, log->consumer, &rec);
		log->consumer++;
		n++;
		if (n % IRQSTORM_LOG_RELEASE_BATCH == 0)
			log_publish_consumer(log);
		if (fn)
			fn(&rec, data);
	}
	if (n % IRQSTORM_LOG_RELEASE_BATCH != 0)
		log_publish_consumer(log);
	return n;
}

/* Records published by the device so far. */
guint64 irqstorm_log_producer(const IrqstormLog *log)
{
	return GUINT64_FROM_LE(__atomic_load_n(&log->hdr->producer,
					       __ATOMIC_ACQUIRE));
}

/* Records consumed by this reader so far (our own copy). */
guint64 irqstorm_log_consumer(const IrqstormLog *log)
{
	return log->consumer;
}

/* Records the device dropped because the ring was full. */
guint64 irqstorm_log_lost(const IrqstormLog *log)
{
	return GUINT64_FROM_LE(__atomic_load_n(&log->hdr->lost,
					       __ATOMIC_ACQUIRE));
}

/* Number of slots in the ring. */
guint32 irqstorm_log_ring_records(const IrqstormLog *log)
{
	return log->ring_records;
}

/* Path the log was opened from. */
const char *irqstorm_log_path(const IrqstormLog *log)
{
	return log->path;
}
