// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small QMP client: see qmp.h.
 *
 * QEMU sends one JSON object per line ("\r\n" terminated): the greeting,
 * command replies and asynchronous events. We write one JSON object per
 * line, and tag each command with a fresh integer "id", so that a late reply
 * to a command that timed out is recognised and dropped. Received bytes
 * collect in a GString until a whole line is there. The socket is
 * non-blocking; every wait is a poll() bounded by the time left until the
 * caller's deadline on the monotonic clock. Events that arrive while a
 * command waits for its reply are queued for irqstorm_qmp_pop_event().
 *
 * Not thread safe: one thread owns an IrqstormQmp.
 */
#include "qmp.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define QMP_RETRY_US		(20 * G_TIME_SPAN_MILLISECOND)
#define QMP_READ_CHUNK		65536u
#define QMP_MAX_LINE		(64u << 20)	/* longer is not QMP */
#define QMP_POLL_MAX_READS	16	/* bounds one irqstorm_qmp_poll_events() */
#define QMP_EXCERPT_LEN		60
/* After QEMU closed the socket, how long its exit may take to show. */
#define QMP_EXIT_WAIT_MS	1000

struct IrqstormQmp {
	char *path;
	int fd;
	GString *in;		/* received bytes not parsed yet */
	GQueue events;		/* JsonObject refs, oldest first */
	gint64 next_id;
	gboolean broken;	/* a command was cut off mid-write */
};

G_DEFINE_QUARK(irqstorm-qmp-error-quark, irqstorm_qmp_error)

/* Monotonic time timeout_ms from now. */
static gint64 qmp_deadline(guint timeout_ms)
{
	return g_get_monotonic_time() +
	       (gint64)timeout_ms * G_TIME_SPAN_MILLISECOND;
}

/* Milliseconds left until deadline, rounded up, for poll(); 0 if past. */
static int qmp_remaining_ms(gint64 deadline)
{
	gint64 left = deadline - g_get_monotonic_time();

	if (left <= 0)
		return 0;
	return (int)MIN((left + G_TIME_SPAN_MILLISECOND - 1) /
			G_TIME_SPAN_MILLISECOND, G_MAXINT);
}

/* A short, escaped, quoted excerpt of the first len bytes of text. */
static char *qmp_excerpt(const char *text, gsize len)
{
	g_autofree char *head = g_strndup(text, MIN(len, QMP_EXCERPT_LEN));
	g_autofree char *esc = g_strescape(head, NULL);

	return g_strdup_printf("\"%s\"%s", esc,
			       len > QMP_EXCERPT_LEN ? "..." : "");
}

/* A short excerpt of a JSON node, serialized. */
static char *qmp_node_excerpt(JsonNode *node)
{
	g_autofree char *text = json_to_string(node, FALSE);

	return qmp_excerpt(text, strlen(text));
}

/* A short excerpt of a JSON object, serialized. */
static char *qmp_object_excerpt(JsonObject *obj)
{
	g_autoptr(JsonNode) node = json_node_alloc();

	json_node_init_object(node, obj);
	return qmp_node_excerpt(node);
}

/* Set an IO error for a failed system call. */
static void qmp_set_errno_error(IrqstormQmp *q, GError **error, int err,
				const char *what)
{
	if (err == EPIPE || err == ECONNRESET)
		g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO,
			    "%s: QEMU closed the QMP connection (%s: %s)",
			    q->path, what, g_strerror(err));
	else
		g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO,
			    "%s: %s failed: %s", q->path, what,
			    g_strerror(err));
}

/* A bound for messages: "30 s" when in whole seconds, else "200 ms". */
static char *qmp_bound_text(guint ms)
{
	if (ms && ms % 1000 == 0)
		return g_strdup_printf("%u s", ms / 1000);
	return g_strdup_printf("%u ms", ms);
}

/* Set a TIMEOUT error: command NULL means the greeting. */
static void qmp_set_timeout_error(IrqstormQmp *q, GError **error,
				  const char *command, guint timeout_ms)
{
	g_autofree char *bound = qmp_bound_text(timeout_ms);

	if (command)
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_TIMEOUT,
			    "%s: no reply to %s within %s",
			    q->path, command, bound);
	else
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_TIMEOUT,
			    "%s: no QMP greeting within %s",
			    q->path, bound);
}

/*
 * Poll the socket for events until deadline: 1 when ready, 0 on timeout,
 * -1 with error set if poll() fails.
 */
static int qmp_wait(IrqstormQmp *q, short events, gint64 deadline,
		    GError **error)
{
	for (;;) {
		struct pollfd pfd = { .fd = q->fd, .events = events };
		int r = poll(&pfd, 1, qmp_remaining_ms(deadline));

		if (r > 0)
			return 1;
		if (r == 0) {
			if (g_get_monotonic_time() >= deadline)
				return 0;
			continue;
		}
		if (errno != EINTR) {
			qmp_set_errno_error(q, error, errno, "poll");
			return -1;
		}
	}
}

/*
 * Append what the socket holds now to the input buffer, without waiting:
 * 1 if bytes arrived, 0 if none are available, -1 with error set on EOF or
 * failure.
 */
static int qmp_read_some(IrqstormQmp *q, GError **error)
{
	gsize old = q->in->len;
	gssize n;
	int err;

	g_string_set_size(q->in, old + QMP_READ_CHUNK);
	do
		n = read(q->fd, q->in->str + old, QMP_READ_CHUNK);
	while (n < 0 && errno == EINTR);
	err = errno;
	g_string_set_size(q->in, old + (n > 0 ? (gsize)n : 0));

	if (n > 0)
		return 1;
	if (n == 0) {
		g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO,
			    "%s: QEMU closed the QMP connection", q->path);
		return -1;
	}
	if (err == EAGAIN || err == EWOULDBLOCK)
		return 0;
	qmp_set_errno_error(q, error, err, "read");
	return -1;
}

/*
 * Write all len bytes of buf before deadline, waiting whenever the socket is
 * full. A command cut off after its first byte leaves the stream unusable.
 */
static gboolean qmp_write_all(IrqstormQmp *q, const char *buf, gsize len,
			      const char *command, guint timeout_ms,
			      gint64 deadline, GError **error)
{
	gsize done = 0;
	int r;

	while (done < len) {
		gssize n = send(q->fd, buf + done, len - done, MSG_NOSIGNAL);

		if (n >= 0) {
			done += (gsize)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			qmp_set_errno_error(q, error, errno, "write");
			goto fail;
		}
		r = qmp_wait(q, POLLOUT, deadline, error);
		if (r < 0)
			goto fail;
		if (r == 0) {
			qmp_set_timeout_error(q, error, command, timeout_ms);
			goto fail;
		}
	}
	return TRUE;

fail:
	if (done > 0)
		q->broken = TRUE;
	return FALSE;
}

/*
 * Parse the next complete line of the input buffer into *out, which stays
 * NULL when no complete line is buffered. Blank lines are skipped. A line
 * that is not a JSON object is consumed and reported as a PROTOCOL error;
 * with keep_bad it is instead left at the head of the buffer, and *out is
 * NULL, so that the next strict caller reports it.
 */
static gboolean qmp_next_object(IrqstormQmp *q, gboolean keep_bad,
				JsonObject **out, GError **error)
{
	*out = NULL;
	for (;;) {
		const char *nl = memchr(q->in->str, '\n', q->in->len);
		g_autoptr(JsonParser) parser = NULL;
		g_autoptr(GError) local = NULL;
		g_autofree char *excerpt = NULL;
		gsize line_len, text_len;
		JsonNode *root = NULL;

		if (!nl) {
			if (q->in->len <= QMP_MAX_LINE)
				return TRUE;
			excerpt = qmp_excerpt(q->in->str, q->in->len);
			g_set_error(error, IRQSTORM_QMP_ERROR,
				    IRQSTORM_QMP_ERROR_PROTOCOL,
				    "%s: no end of line after %" G_GSIZE_FORMAT
				    " bytes: %s", q->path, q->in->len, excerpt);
			g_string_truncate(q->in, 0);
			return FALSE;
		}
		line_len = (gsize)(nl - q->in->str) + 1;
		text_len = line_len - 1;
		while (text_len > 0 && g_ascii_isspace(q->in->str[text_len - 1]))
			text_len--;
		if (text_len == 0) {
			g_string_erase(q->in, 0, (gssize)line_len);
			continue;
		}

		parser = json_parser_new();
		if (json_parser_load_from_data(parser, q->in->str,
					       (gssize)text_len, &local))
			root = json_parser_get_root(parser);
		if (root && JSON_NODE_HOLDS_OBJECT(root)) {
			*out = json_object_ref(json_node_get_object(root));
			g_string_erase(q->in, 0, (gssize)line_len);
			return TRUE;
		}
		if (keep_bad)
			return TRUE;

		excerpt = qmp_excerpt(q->in->str, text_len);
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_PROTOCOL,
			    "%s: bad QMP message %s: %s", q->path, excerpt,
			    local ? local->message : "expected a JSON object");
		g_string_erase(q->in, 0, (gssize)line_len);
		return FALSE;
	}
}

/* Queue obj if it is an event (taking the reference); TRUE if it was. */
static gboolean qmp_queue_event(IrqstormQmp *q, JsonObject **obj)
{
	if (!json_object_has_member(*obj, "event"))
		return FALSE;
	g_queue_push_tail(&q->events, g_steal_pointer(obj));
	return TRUE;
}

/*
 * Route the complete lines already buffered: queue events, drop stray
 * replies. keep_bad as for qmp_next_object().
 */
static gboolean qmp_route_buffered(IrqstormQmp *q, gboolean keep_bad,
				   GError **error)
{
	for (;;) {
		g_autoptr(JsonObject) obj = NULL;

		if (!qmp_next_object(q, keep_bad, &obj, error))
			return FALSE;
		if (!obj)
			return TRUE;
		if (!qmp_queue_event(q, &obj))
			g_debug("%s: ignoring a QMP message nobody waits for",
				q->path);
	}
}

/*
 * Read the next object, waiting until deadline. A timeout names command
 * (NULL: the greeting).
 */
static JsonObject *qmp_read_object(IrqstormQmp *q, const char *command,
				   guint timeout_ms, gint64 deadline,
				   GError **error)
{
	for (;;) {
		JsonObject *obj;
		int r;

		if (!qmp_next_object(q, FALSE, &obj, error))
			return NULL;
		if (obj)
			return obj;
		r = qmp_read_some(q, error);
		if (r < 0)
			return NULL;
		if (r > 0)
			continue;
		r = qmp_wait(q, POLLIN, deadline, error);
		if (r < 0)
			return NULL;
		if (r == 0) {
			qmp_set_timeout_error(q, error, command, timeout_ms);
			return NULL;
		}
	}
}

/* Serialize one command line: {"execute", "arguments"?, "id"?} and "\n". */
static char *qmp_request(const char *command, JsonObject *arguments,
			 gint64 id, gsize *len)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonGenerator) gen = json_generator_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *text = NULL;
	gsize n;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "execute");
	json_builder_add_string_value(b, command);
	if (arguments) {
		JsonNode *node = json_node_alloc();

		json_node_init_object(node, arguments);
		json_builder_set_member_name(b, "arguments");
		json_builder_add_value(b, node);
	}
	if (id >= 0) {
		json_builder_set_member_name(b, "id");
		json_builder_add_int_value(b, id);
	}
	json_builder_end_object(b);
	root = json_builder_get_root(b);

	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, &n);
	*len = n + 1;
	return g_strconcat(text, "\n", NULL);
}

/*
 * Is obj the reply to our command? id < 0 means the command went without
 * one: the reply is then the first "return" or "error" without an "id".
 */
static gboolean qmp_is_reply(JsonObject *obj, gint64 id)
{
	JsonNode *node = json_object_get_member(obj, "id");

	if (id < 0)
		return !node && (json_object_has_member(obj, "return") ||
				 json_object_has_member(obj, "error"));
	return node && JSON_NODE_HOLDS_VALUE(node) &&
	       json_node_get_value_type(node) == G_TYPE_INT64 &&
	       json_node_get_int(node) == id;
}

/* String member name of obj, or NULL if missing or not a string. */
static const char *qmp_string_member(JsonObject *obj, const char *name)
{
	JsonNode *node = json_object_get_member(obj, name);

	if (!node || !JSON_NODE_HOLDS_VALUE(node) ||
	    json_node_get_value_type(node) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(node);
}

/* Turn the reply to command into its "return" value or a COMMAND error. */
static JsonNode *qmp_reply_value(IrqstormQmp *q, const char *command,
				 JsonObject *reply, GError **error)
{
	g_autofree char *excerpt = NULL;
	JsonNode *node;

	node = json_object_get_member(reply, "return");
	if (node)
		return json_node_copy(node);

	node = json_object_get_member(reply, "error");
	if (node && JSON_NODE_HOLDS_OBJECT(node)) {
		JsonObject *err = json_node_get_object(node);
		const char *cls = qmp_string_member(err, "class");
		const char *desc = qmp_string_member(err, "desc");

		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_COMMAND, "%s: %s: %s", command,
			    cls ? cls : "(no class)",
			    desc ? desc : "(no description)");
		return NULL;
	}
	excerpt = qmp_object_excerpt(reply);
	g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_PROTOCOL,
		    "%s: bad reply to %s: %s", q->path, command, excerpt);
	return NULL;
}

/*
 * Send command (tagged with a fresh id if with_id) and read until its reply
 * or deadline, queueing events and dropping stray replies. Complete lines
 * that came in with the reply are routed too, since no poll() will report
 * them again.
 */
static JsonNode *qmp_command(IrqstormQmp *q, const char *command,
			     JsonObject *arguments, gboolean with_id,
			     guint timeout_ms, gint64 deadline, GError **error)
{
	g_autofree char *req = NULL;
	gint64 id = -1;
	JsonNode *ret;
	gsize len;

	if (q->broken) {
		g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO,
			    "%s: QMP stream unusable after a command was cut off mid-write",
			    q->path);
		return NULL;
	}
	if (with_id)
		id = q->next_id++;
	req = qmp_request(command, arguments, id, &len);
	if (!qmp_write_all(q, req, len, command, timeout_ms, deadline, error))
		return NULL;

	for (;;) {
		g_autoptr(JsonObject) obj = NULL;

		obj = qmp_read_object(q, command, timeout_ms, deadline, error);
		if (!obj)
			return NULL;
		if (qmp_queue_event(q, &obj))
			continue;
		if (!qmp_is_reply(obj, id)) {
			g_debug("%s: ignoring a QMP message nobody waits for",
				q->path);
			continue;
		}
		ret = qmp_reply_value(q, command, obj, error);
		qmp_route_buffered(q, TRUE, NULL);
		return ret;
	}
}

/* One non-blocking connect attempt to addr: the fd, or -1 with errno set. */
static int qmp_try_connect(const struct sockaddr_un *addr)
{
	int fd, err;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0)
		return fd;
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/*
 * May a failed connect succeed later? The socket file may not exist yet, or
 * not listen yet; a full backlog (EAGAIN on a non-blocking AF_UNIX connect)
 * drains.
 */
static gboolean qmp_connect_retryable(int err)
{
	return err == ENOENT || err == ECONNREFUSED || err == EAGAIN ||
	       err == EINTR;
}

/* How QEMU ended, waiting up to wait_ms; NULL while it lives or unknown. */
static char *qmp_ended(const IrqstormQmpConnectOptions *how, guint wait_ms)
{
	return how->ended ? how->ended(how->ended_data, wait_ms) : NULL;
}

/*
 * Connect to addr, retrying while the socket is not there or does not
 * listen yet, until how->accept_ms pass or QEMU ends: the fd, or -1 with
 * error set.
 */
static int qmp_accept_wait(const char *path, const struct sockaddr_un *addr,
			   const IrqstormQmpConnectOptions *how,
			   GError **error)
{
	gint64 deadline = qmp_deadline(how->accept_ms);

	for (;;) {
		g_autofree char *ended = NULL;
		g_autofree char *bound = NULL;
		int fd = qmp_try_connect(addr);
		int err = errno;
		gint64 left;

		if (fd >= 0)
			return fd;
		if (!qmp_connect_retryable(err)) {
			g_set_error(error, IRQSTORM_QMP_ERROR,
				    IRQSTORM_QMP_ERROR_CONNECT,
				    "%s: connect failed: %s", path,
				    g_strerror(err));
			return -1;
		}
		ended = qmp_ended(how, 0);
		if (ended) {
			g_set_error(error, IRQSTORM_QMP_ERROR,
				    IRQSTORM_QMP_ERROR_EXITED,
				    "QEMU %s at start, before its QMP socket accepted a connection",
				    ended);
			return -1;
		}
		left = deadline - g_get_monotonic_time();
		if (left <= 0) {
			bound = qmp_bound_text(how->accept_ms);
			g_set_error(error, IRQSTORM_QMP_ERROR,
				    IRQSTORM_QMP_ERROR_CONNECT,
				    "no QMP socket within %s (%s: %s)", bound,
				    path, g_strerror(err));
			return -1;
		}
		g_usleep((gulong)MIN(left, QMP_RETRY_US));
	}
}

/* Read the greeting and negotiate capabilities, within one bound. */
static gboolean qmp_handshake(IrqstormQmp *q, guint timeout_ms,
			      GError **error)
{
	g_autoptr(JsonObject) greeting = NULL;
	g_autoptr(JsonNode) ret = NULL;
	g_autofree char *excerpt = NULL;
	gint64 deadline = qmp_deadline(timeout_ms);
	JsonNode *node;

	greeting = qmp_read_object(q, NULL, timeout_ms, deadline, error);
	if (!greeting)
		return FALSE;
	node = json_object_get_member(greeting, "QMP");
	if (!node || !JSON_NODE_HOLDS_OBJECT(node)) {
		excerpt = qmp_object_excerpt(greeting);
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_PROTOCOL,
			    "%s: expected the QMP greeting, got %s", q->path,
			    excerpt);
		return FALSE;
	}
	ret = qmp_command(q, "qmp_capabilities", NULL, FALSE, timeout_ms,
			  deadline, error);
	return ret != NULL;
}

/*
 * The connection failed during the handshake with an IO error: QEMU
 * closed it, usually because it is exiting. Say how it ended if it did.
 */
static void qmp_explain_close(const IrqstormQmpConnectOptions *how,
			      GError **error)
{
	g_autofree char *ended = NULL;

	if (!g_error_matches(*error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO))
		return;
	ended = qmp_ended(how, QMP_EXIT_WAIT_MS);
	if (!ended) {
		g_prefix_error(error, "during the QMP handshake: ");
		return;
	}
	g_clear_error(error);
	g_set_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_EXITED,
		    "QEMU %s at start, during the QMP handshake", ended);
}

/* Connect, read the greeting and negotiate capabilities; see qmp.h. */
IrqstormQmp *irqstorm_qmp_connect(const char *path,
				  const IrqstormQmpConnectOptions *how,
				  GError **error)
{
	g_autoptr(IrqstormQmp) q = NULL;
	g_autoptr(GError) local = NULL;
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	g_return_val_if_fail(path != NULL, NULL);
	g_return_val_if_fail(how != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (strlen(path) >= sizeof(addr.sun_path)) {
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_CONNECT,
			    "%s: socket path too long (%zu bytes, at most %zu)",
			    path, strlen(path), sizeof(addr.sun_path) - 1);
		return NULL;
	}
	memcpy(addr.sun_path, path, strlen(path) + 1);

	fd = qmp_accept_wait(path, &addr, how, error);
	if (fd < 0)
		return NULL;
	q = g_new0(IrqstormQmp, 1);
	q->path = g_strdup(path);
	q->fd = fd;
	q->in = g_string_sized_new(4096);
	g_queue_init(&q->events);
	q->next_id = 1;

	if (!qmp_handshake(q, how->handshake_ms, &local)) {
		qmp_explain_close(how, &local);
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	return g_steal_pointer(&q);
}

/* Close the socket and free; NULL is accepted. */
void irqstorm_qmp_free(IrqstormQmp *q)
{
	if (!q)
		return;
	if (q->fd >= 0)
		close(q->fd);
	if (q->in)
		g_string_free(q->in, TRUE);
	g_queue_clear_full(&q->events, (GDestroyNotify)json_object_unref);
	g_free(q->path);
	g_free(q);
}

/* Run command and wait for its reply; see qmp.h. */
JsonNode *irqstorm_qmp_execute(IrqstormQmp *q, const char *command,
			       JsonObject *arguments, guint timeout_ms,
			       GError **error)
{
	g_return_val_if_fail(q != NULL, NULL);
	g_return_val_if_fail(command != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	return qmp_command(q, command, arguments, TRUE, timeout_ms,
			   qmp_deadline(timeout_ms), error);
}

/* qom-get a non-negative integer property. */
gboolean irqstorm_qmp_qom_get_u64(IrqstormQmp *q, const char *path,
				  const char *property, guint64 *value,
				  guint timeout_ms, GError **error)
{
	g_autoptr(JsonObject) args = json_object_new();
	g_autoptr(JsonNode) ret = NULL;
	g_autofree char *excerpt = NULL;

	g_return_val_if_fail(q != NULL, FALSE);
	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(property != NULL, FALSE);
	g_return_val_if_fail(value != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	json_object_set_string_member(args, "path", path);
	json_object_set_string_member(args, "property", property);
	ret = irqstorm_qmp_execute(q, "qom-get", args, timeout_ms, error);
	if (!ret)
		return FALSE;
	/*
	 * json-glib holds integers as gint64: QEMU's values above G_MAXINT64
	 * come out negative and are refused here.
	 */
	if (!JSON_NODE_HOLDS_VALUE(ret) ||
	    json_node_get_value_type(ret) != G_TYPE_INT64 ||
	    json_node_get_int(ret) < 0) {
		excerpt = qmp_node_excerpt(ret);
		g_set_error(error, IRQSTORM_QMP_ERROR,
			    IRQSTORM_QMP_ERROR_PROTOCOL,
			    "%s: qom-get %s %s: expected a non-negative integer, got %s",
			    q->path, path, property, excerpt);
		return FALSE;
	}
	*value = (guint64)json_node_get_int(ret);
	return TRUE;
}

/* The socket, to watch for G_IO_IN in the caller's main loop. */
int irqstorm_qmp_fd(IrqstormQmp *q)
{
	g_return_val_if_fail(q != NULL, -1);
	return q->fd;
}

/*
 * Read what is available now, without waiting, and queue the events among
 * the complete lines; stray replies are dropped. Lines received before an
 * EOF are routed before the EOF is reported.
 */
gboolean irqstorm_qmp_poll_events(IrqstormQmp *q, GError **error)
{
	g_autoptr(GError) io_error = NULL;
	int i, r = 1;

	g_return_val_if_fail(q != NULL, FALSE);
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	for (i = 0; i < QMP_POLL_MAX_READS && r > 0; i++)
		r = qmp_read_some(q, &io_error);
	if (!qmp_route_buffered(q, FALSE, error))
		return FALSE;
	if (io_error) {
		g_propagate_error(error, g_steal_pointer(&io_error));
		return FALSE;
	}
	return TRUE;
}

/* Next queued event (the caller owns the reference), or NULL. */
JsonObject *irqstorm_qmp_pop_event(IrqstormQmp *q)
{
	g_return_val_if_fail(q != NULL, NULL);
	return g_queue_pop_head(&q->events);
}
