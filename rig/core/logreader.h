/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Consumer of the device's shared timestamp log (see include/irqstorm/abi.h).
 *
 * The rig creates the (zero-filled) backing file before QEMU starts, and the
 * device writes the header when QEMU realizes it. irqstorm_log_open() fails
 * with IRQSTORM_LOG_ERROR_NOT_READY while the magic is still 0, so the caller
 * can retry; anything else that is wrong is IRQSTORM_LOG_ERROR_INVALID.
 * Failing to open or map the file is reported in the G_FILE_ERROR domain.
 *
 * Not thread safe: one thread owns an IrqstormLog.
 */
#ifndef IRQSTORM_RIG_LOGREADER_H
#define IRQSTORM_RIG_LOGREADER_H

#include <glib.h>

#include "irqstorm/abi.h"

G_BEGIN_DECLS

#define IRQSTORM_LOG_ERROR (irqstorm_log_error_quark())
GQuark irqstorm_log_error_quark(void);

typedef enum {
	IRQSTORM_LOG_ERROR_NOT_READY,	/* header not written yet: retry */
	IRQSTORM_LOG_ERROR_INVALID,	/* header or file size is wrong */
	IRQSTORM_LOG_ERROR_CORRUPT,	/* ring indices are inconsistent */
} IrqstormLogError;

typedef struct IrqstormLog IrqstormLog;

/*
 * Called once per consumed record, in ring order. rec points to a private
 * copy, valid only during the call.
 */
typedef void (*IrqstormLogFunc)(const struct irqstorm_record *rec,
				gpointer data);

/*
 * Map path shared and read/write, and validate its header. The initial
 * consumer index is read from the header once, and must lie within
 * [producer - ring_records, producer].
 */
IrqstormLog *irqstorm_log_open(const char *path, GError **error);
void irqstorm_log_close(IrqstormLog *log);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormLog, irqstorm_log_close)

/*
 * Consume every record published so far: call fn on a copy of each, and
 * publish the new consumer index (every IRQSTORM_LOG_RELEASE_BATCH records,
 * and at the end). Returns the number of records consumed; on a corrupt
 * producer index returns 0, sets error and consumes nothing.
 */
#define IRQSTORM_LOG_RELEASE_BATCH	1024u
gsize irqstorm_log_drain(IrqstormLog *log, IrqstormLogFunc fn, gpointer data,
			 GError **error);

guint64 irqstorm_log_producer(const IrqstormLog *log);
guint64 irqstorm_log_consumer(const IrqstormLog *log);
guint64 irqstorm_log_lost(const IrqstormLog *log);
guint32 irqstorm_log_ring_records(const IrqstormLog *log);
const char *irqstorm_log_path(const IrqstormLog *log);

G_END_DECLS

#endif /* IRQSTORM_RIG_LOGREADER_H */
