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
	IRQSTORM_QMP_ERROR_EXITED,	/* QEMU ended while we connected */
} IrqstormQmpError;

typedef struct IrqstormQmp IrqstormQmp;

/*
 * Bounds for connecting to a QEMU that was just started. QEMU creates its
 * QMP socket (a chardev) early, then builds the machine (kernel and initrd
 * loaded, devices realized), and only then, from its main loop, greets
 * and answers qmp_capabilities. Measured from spawn to the capabilities
 * reply on two cores: 0.1 s alone; 0.2-0.4 s with four starting at once
 * beside two busy loops; with two more QEMUs storming beside those, the
 * socket came after 4.0 s and the reply after 5.6 s. The rig once allowed
 * 200 ms for greeting and reply, and declared such a QEMU dead.
 *
 * Neither bound is what notices a QEMU that dies: its exit is checked
 * between connection attempts, and its socket closing ends the handshake
 * at once. They only catch a QEMU that hangs, so they are generous.
 */
#define IRQSTORM_QMP_ACCEPT_MS		30000	/* for the socket to accept */
#define IRQSTORM_QMP_HANDSHAKE_MS	30000	/* then greeting + capabilities */

/*
 * Has QEMU ended? Waits up to wait_ms for it to. NULL while it lives, else
 * how it ended ("exited with status 1", "killed by signal 9"), newly
 * allocated; the text follows "QEMU " in error messages.
 */
typedef char *(*IrqstormQmpEndedFunc)(gpointer data, guint wait_ms);

typedef struct {
	guint accept_ms;		/* for the socket to accept */
	guint handshake_ms;		/* then greeting + qmp_capabilities */
	IrqstormQmpEndedFunc ended;	/* may be NULL */
	gpointer ended_data;
} IrqstormQmpConnectOptions;

/*
 * Connect to the QMP socket at path, the one start-up path for a QEMU
 * that may still be starting:
 *
 * 1. Until the socket accepts a connection (it may not exist or listen
 *    yet), retry every 20 ms for at most accept_ms, asking ended() between
 *    attempts: if QEMU ended, fail at once with EXITED, saying how. After
 *    accept_ms: CONNECT, "no QMP socket within 30 s (PATH: ERRNO)".
 * 2. Then read the greeting and negotiate capabilities within handshake_ms
 *    (one bound for both). A timeout is TIMEOUT, naming the stage ("no QMP
 *    greeting", "no reply to qmp_capabilities"). QEMU closing the
 *    connection ends the wait at once: EXITED when ended() (given 1 s, for
 *    the exit to follow the close) says QEMU is gone, else IO.
 *
 * Errors that are not QEMU's end name path; none names QEMU's own output,
 * which the caller knows.
 */
IrqstormQmp *irqstorm_qmp_connect(const char *path,
				  const IrqstormQmpConnectOptions *how,
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
