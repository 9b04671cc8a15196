/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small QMP client: one UNIX socket, newline-delimited JSON (json-glib),
 * synchronous commands with timeouts, asynchronous events queued.
 */
#ifndef IRQSTORM_QMP_H
#define IRQSTORM_QMP_H

#include <glib.h>
#include <json-glib/json-glib.h>

#define IRQSTORM_QMP_ERROR (irqstorm_qmp_error_quark())
GQuark irqstorm_qmp_error_quark(void);

typedef enum {
	IRQSTORM_QMP_ERROR_CONNECT,	/* socket could not be reached */
	IRQSTORM_QMP_ERROR_IO,		/* read/write failed, peer closed */
	IRQSTORM_QMP_ERROR_TIMEOUT,	/* no answer in time */
	IRQSTORM_QMP_ERROR_PROTOCOL,	/* not QMP */
	IRQSTORM_QMP_ERROR_COMMAND,	/* QEMU answered with an error */
} IrqstormQmpError;

typedef struct IrqstormQmp IrqstormQmp;

IrqstormQmp *irqstorm_qmp_connect(const char *path, guint timeout_ms,
				  GError **error);
void irqstorm_qmp_free(IrqstormQmp *q);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormQmp, irqstorm_qmp_free)

JsonNode *irqstorm_qmp_execute(IrqstormQmp *q, const char *command,
			       JsonObject *arguments, guint timeout_ms,
			       GError **error);
gboolean irqstorm_qmp_qom_get_u64(IrqstormQmp *q, const char *path,
				  const char *property, guint64 *value,
				  guint timeout_ms, GError **error);

int irqstorm_qmp_fd(IrqstormQmp *q);
gboolean irqstorm_qmp_poll_events(IrqstormQmp *q, GError **error);
JsonObject *irqstorm_qmp_pop_event(IrqstormQmp *q);

#endif /* IRQSTORM_QMP_H */
