// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of rig/qmp.c against a scripted fake QEMU: a thread listens on
 * a UNIX socket in a temporary directory, accepts one client and follows a
 * per-test script with blocking socket calls. It records every request line
 * it receives, parsed, and the main thread checks them after joining it.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <glib.h>
#include <glib-unix.h>
#include <glib/gstdio.h>

#include "core/qmp.h"

#define GREETING "{\"QMP\": {\"version\": {\"qemu\": {\"micro\": 0, " \
	"\"minor\": 2, \"major\": 7}, \"package\": \"\"}, " \
	"\"capabilities\": [\"oob\"]}}\r\n"
#define RETURN_EMPTY	"\"return\": {}"
#define SERVER_IO_MS	2000	/* the fake QEMU gives up on a silent client */
#define CLIENT_MS	1000
#define SLOW_MS		1000	/* a slow QEMU: 5 times the old 200 ms bound */
#define PROMPT_MS	5000	/* "at once", on a loaded host, against 10-30 s */
#define EXIT_LAG_MS	100	/* a dying QEMU's exit shows after its close */
#define BIG_LEN		(4u << 20)

typedef struct Server Server;
typedef void (*ScriptFunc)(Server *s);

struct Server {
	char *dir;
	char *path;
	int listen_fd;
	int fd;			/* the accepted client */
	guint listen_delay_ms;	/* create the socket only after this long */
	ScriptFunc script;
	gconstpointer data;	/* for the script */
	gint ended;		/* atomic: the fake QEMU "exited" (see Life) */
	GThread *thread;
	GString *in;
	GPtrArray *requests;	/* JsonObject: every request line received */
	guint bad_requests;	/* request lines that were not JSON objects */
};

/* Milliseconds elapsed since start, a g_get_monotonic_time() value. */
static gint64 elapsed_ms(gint64 start)
{
	return (g_get_monotonic_time() - start) / G_TIME_SPAN_MILLISECOND;
}

/* Bind a UNIX stream socket to path; listen on it too if do_listen. */
static int socket_at(const char *path, gboolean do_listen)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	g_assert_cmpuint(strlen(path), <, sizeof(addr.sun_path));
	memcpy(addr.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(bind(fd, (struct sockaddr *)&addr, sizeof(addr)), ==, 0);
	if (do_listen)
		g_assert_cmpint(listen(fd, 4), ==, 0);
	return fd;
}

/* A server with a fresh directory and socket path, not started. */
static Server *server_new(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = g_new0(Server, 1);

	s->dir = g_dir_make_tmp("irqstorm-qmp-XXXXXX", &error);
	g_assert_no_error(error);
	s->path = g_build_filename(s->dir, "qmp.sock", NULL);
	s->listen_fd = -1;
	s->fd = -1;
	s->in = g_string_new(NULL);
	s->requests = g_ptr_array_new_with_free_func(
		(GDestroyNotify)json_object_unref);
	return s;
}

/* Thread body: (create the socket,) accept one client, run the script. */
static gpointer server_thread(gpointer data)
{
	Server *s = data;
	struct pollfd pfd;

	if (s->listen_delay_ms) {
		g_usleep(s->listen_delay_ms * G_TIME_SPAN_MILLISECOND);
		s->listen_fd = socket_at(s->path, TRUE);
	}
	pfd = (struct pollfd){ .fd = s->listen_fd, .events = POLLIN };
	if (poll(&pfd, 1, SERVER_IO_MS) != 1)
		return NULL;
	s->fd = accept(s->listen_fd, NULL, NULL);
	if (s->fd < 0)
		return NULL;
	s->script(s);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	return NULL;
}

/* Start a fake QEMU following script; its socket appears after delay_ms. */
static Server *server_start(ScriptFunc script, gconstpointer data,
			    guint delay_ms)
{
	Server *s = server_new();

	s->script = script;
	s->data = data;
	s->listen_delay_ms = delay_ms;
	if (!delay_ms)
		s->listen_fd = socket_at(s->path, TRUE);
	s->thread = g_thread_new("fake-qemu", server_thread, s);
	return s;
}

/* Wait for the script to finish (it ends when the client closes). */
static void server_join(Server *s)
{
	if (s->thread)
		g_thread_join(s->thread);
	s->thread = NULL;
}

/* Join, remove the socket and directory, free. */
static void server_free(Server *s)
{
	server_join(s);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	g_unlink(s->path);
	g_assert_cmpint(g_rmdir(s->dir), ==, 0);
	g_ptr_array_unref(s->requests);
	g_string_free(s->in, TRUE);
	g_free(s->path);
	g_free(s->dir);
	g_free(s);
}

/* Send len bytes of text; errors are ignored (the client may be gone). */
static void srv_send_len(Server *s, const char *text, gsize len)
{
	gsize done = 0;

	while (done < len) {
		gssize n = send(s->fd, text + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		done += (gsize)n;
	}
}

/* Send a NUL-terminated text. */
static void srv_send(Server *s, const char *text)
{
	srv_send_len(s, text, strlen(text));
}

/* Send text in separate writes cut at the given offsets, pausing between. */
static void srv_send_cut(Server *s, const char *text, const gsize *cuts,
			 guint ncuts, guint pause_ms)
{
	gsize pos = 0;
	guint i;

	for (i = 0; i < ncuts; i++) {
		g_assert_cmpuint(cuts[i], >, pos);
		g_assert_cmpuint(cuts[i], <, strlen(text));
		srv_send_len(s, text + pos, cuts[i] - pos);
		pos = cuts[i];
		g_usleep(pause_ms * G_TIME_SPAN_MILLISECOND);
	}
	srv_send(s, text + pos);
}

/*
 * The next request line, parsed (owned by s->requests); NULL on EOF, after
 * SERVER_IO_MS of silence, or for a line that is not a JSON object.
 */
static JsonObject *srv_recv(Server *s)
{
	for (;;) {
		const char *nl = memchr(s->in->str, '\n', s->in->len);
		struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
		char buf[65536];
		gssize n;

		if (nl) {
			g_autoptr(JsonParser) parser = json_parser_new();
			gsize len = (gsize)(nl - s->in->str);
			JsonNode *root = NULL;
			JsonObject *obj = NULL;

			if (json_parser_load_from_data(parser, s->in->str,
						       (gssize)len, NULL))
				root = json_parser_get_root(parser);
			g_string_erase(s->in, 0, (gssize)len + 1);
			if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
				s->bad_requests++;
				return NULL;
			}
			obj = json_object_ref(json_node_get_object(root));
			g_ptr_array_add(s->requests, obj);
			return obj;
		}
		if (poll(&pfd, 1, SERVER_IO_MS) != 1)
			return NULL;
		n = read(s->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return NULL;
		g_string_append_len(s->in, buf, n);
	}
}

/* Read (and record) requests until the client closes the connection. */
static void srv_wait_eof(Server *s)
{
	while (srv_recv(s))
		;
}

/* A reply line to req: {body, "id": the id of req, if any}. */
static char *reply_line(JsonObject *req, const char *body)
{
	JsonNode *id = req ? json_object_get_member(req, "id") : NULL;
	g_autofree char *id_text = NULL;

	if (!id)
		return g_strdup_printf("{%s}\r\n", body);
	id_text = json_to_string(id, FALSE);
	return g_strdup_printf("{%s, \"id\": %s}\r\n", body, id_text);
}

/* Send the reply to req. */
static void srv_reply(Server *s, JsonObject *req, const char *body)
{
	g_autofree char *line = reply_line(req, body);

	srv_send(s, line);
}

/* Greet, answer qmp_capabilities; FALSE if the client went away. */
static gboolean srv_handshake(Server *s)
{
	JsonObject *req;

	srv_send(s, GREETING);
	req = srv_recv(s);
	if (!req)
		return FALSE;
	srv_reply(s, req, RETURN_EMPTY);
	return TRUE;
}

/* String member name of obj, which must exist. */
static const char *obj_str(JsonObject *obj, const char *name)
{
	JsonNode *node = json_object_get_member(obj, name);

	g_assert_nonnull(node);
	g_assert_true(JSON_NODE_HOLDS_VALUE(node));
	g_assert_cmpint(json_node_get_value_type(node), ==, G_TYPE_STRING);
	return json_node_get_string(node);
}

/* Integer "id" of a request, which must have one. */
static gint64 request_id(JsonObject *req)
{
	JsonNode *node = json_object_get_member(req, "id");

	g_assert_nonnull(node);
	g_assert_true(JSON_NODE_HOLDS_VALUE(node));
	g_assert_cmpint(json_node_get_value_type(node), ==, G_TYPE_INT64);
	return json_node_get_int(node);
}

/* Request i, which must execute command; all requests must be objects. */
static JsonObject *request(Server *s, guint i, const char *command)
{
	JsonObject *req;

	g_assert_cmpuint(s->bad_requests, ==, 0);
	g_assert_cmpuint(i, <, s->requests->len);
	req = g_ptr_array_index(s->requests, i);
	g_assert_cmpstr(obj_str(req, "execute"), ==, command);
	return req;
}

/* Request 0 must be exactly {"execute": "qmp_capabilities"}. */
static void check_capabilities(Server *s)
{
	JsonObject *req = request(s, 0, "qmp_capabilities");

	g_assert_cmpuint(json_object_get_size(req), ==, 1);
}

/*
 * The fake QEMU's life, for IrqstormQmpConnectOptions.ended: it has ended
 * once *ended is set (by a script), or once dies_at (monotonic) passed.
 */
typedef struct {
	const gint *ended;
	gint64 dies_at;
	const char *how;	/* "exited with status 7" */
	guint calls;
} Life;

static gboolean life_over(const Life *life)
{
	return (life->ended && g_atomic_int_get(life->ended)) ||
	       (life->dies_at && g_get_monotonic_time() >= life->dies_at);
}

/* IrqstormQmpEndedFunc: waits up to wait_ms, as run.c's reaping does. */
static char *life_ended(gpointer data, guint wait_ms)
{
	Life *life = data;
	gint64 deadline = g_get_monotonic_time() +
			  (gint64)wait_ms * G_TIME_SPAN_MILLISECOND;

	life->calls++;
	while (!life_over(life)) {
		if (g_get_monotonic_time() >= deadline)
			return NULL;
		g_usleep(5 * G_TIME_SPAN_MILLISECOND);
	}
	return g_strdup(life->how);
}

/* irqstorm_qmp_connect() with these bounds; life may be NULL. */
static IrqstormQmp *qmp_connect(const char *path, guint accept_ms,
				guint handshake_ms, Life *life,
				GError **error)
{
	const IrqstormQmpConnectOptions how = {
		.accept_ms = accept_ms,
		.handshake_ms = handshake_ms,
		.ended = life ? life_ended : NULL,
		.ended_data = life,
	};

	return irqstorm_qmp_connect(path, &how, error);
}

/* Connect to s with the rig's own bounds; must succeed. */
static IrqstormQmp *connect_ok(Server *s)
{
	g_autoptr(GError) error = NULL;
	IrqstormQmp *q = qmp_connect(s->path, IRQSTORM_QMP_ACCEPT_MS,
				     IRQSTORM_QMP_HANDSHAKE_MS, NULL, &error);

	g_assert_no_error(error);
	g_assert_nonnull(q);
	return q;
}

/* Script: the plain handshake, then silence until the client closes. */
static void script_idle(Server *s)
{
	if (srv_handshake(s))
		srv_wait_eof(s);
}

/* Script: the greeting cut into three writes, then as script_idle. */
static void script_cut_greeting(Server *s)
{
	static const gsize cuts[] = { 5, sizeof(GREETING) - 2 };
	JsonObject *req;

	srv_send_cut(s, GREETING, cuts, G_N_ELEMENTS(cuts), 30);
	req = srv_recv(s);
	if (!req)
		return;
	srv_reply(s, req, RETURN_EMPTY);
	srv_wait_eof(s);
}

/* A greeting in pieces; capabilities negotiated; no events; free(NULL). */
static void test_connect_ok(void)
{
	Server *s = server_start(script_cut_greeting, NULL, 0);
	IrqstormQmp *q = connect_ok(s);

	g_assert_cmpint(irqstorm_qmp_fd(q), >=, 0);
	g_assert_null(irqstorm_qmp_pop_event(q));
	irqstorm_qmp_free(q);
	irqstorm_qmp_free(NULL);
	server_join(s);
	g_assert_cmpuint(s->requests->len, ==, 1);
	check_capabilities(s);
	server_free(s);
}

/* The socket appears 100 ms after the client starts trying: it connects
 * then, not at its accept bound (IRQSTORM_QMP_ACCEPT_MS, 30 s). */
static void test_connect_late_socket(void)
{
	gint64 start = g_get_monotonic_time();
	Server *s = server_start(script_idle, NULL, 100);
	IrqstormQmp *q = connect_ok(s);

	g_assert_cmpint(elapsed_ms(start), >=, 100);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	irqstorm_qmp_free(q);
	server_join(s);
	check_capabilities(s);
	server_free(s);
}

/* No socket ever: CONNECT error after the timeout, naming path and errno. */
static void test_connect_no_server(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_new();
	gint64 start = g_get_monotonic_time();
	IrqstormQmp *q = qmp_connect(s->path, 150, CLIENT_MS, NULL, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_CONNECT);
	g_assert_cmpint(elapsed_ms(start), >=, 150);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_nonnull(strstr(error->message, s->path));
	g_assert_nonnull(strstr(error->message, g_strerror(ENOENT)));
	server_free(s);
}

/* A socket file nobody listens on: connection refused until the timeout. */
static void test_connect_refused(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_new();
	gint64 start;
	IrqstormQmp *q;

	s->listen_fd = socket_at(s->path, FALSE);
	start = g_get_monotonic_time();
	q = qmp_connect(s->path, 100, CLIENT_MS, NULL, &error);
	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_CONNECT);
	g_assert_cmpint(elapsed_ms(start), >=, 100);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_nonnull(strstr(error->message, g_strerror(ECONNREFUSED)));
	server_free(s);
}

/* Script: send s->data instead of a greeting, then wait. */
static void script_bad_greeting(Server *s)
{
	srv_send(s, s->data);
	srv_wait_eof(s);
}

/* Not a QMP greeting: PROTOCOL error quoting it, nothing sent. */
static void test_connect_bad_greeting(gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_bad_greeting, data, 0);
	IrqstormQmp *q = qmp_connect(s->path, CLIENT_MS, CLIENT_MS, NULL,
				     &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_PROTOCOL);
	g_assert_nonnull(strstr(error->message, "hello"));
	server_join(s);
	g_assert_cmpuint(s->requests->len, ==, 0);
	g_assert_cmpuint(s->bad_requests, ==, 0);
	server_free(s);
}

/* Script: accept and stay silent. */
static void script_silent(Server *s)
{
	srv_wait_eof(s);
}

/* No greeting: TIMEOUT after the handshake bound, naming the stage. */
static void test_connect_no_greeting(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_silent, NULL, 0);
	gint64 start = g_get_monotonic_time();
	IrqstormQmp *q = qmp_connect(s->path, CLIENT_MS, 200, NULL, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_TIMEOUT);
	g_assert_cmpint(elapsed_ms(start), >=, 200);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_nonnull(strstr(error->message, "no QMP greeting within 200 ms"));
	server_free(s);
}

/* Script: refuse qmp_capabilities. */
static void script_caps_error(Server *s)
{
	JsonObject *req;

	srv_send(s, GREETING);
	req = srv_recv(s);
	if (!req)
		return;
	srv_reply(s, req, "\"error\": {\"class\": \"CommandNotFound\", "
		  "\"desc\": \"nope\"}");
	srv_wait_eof(s);
}

/* qmp_capabilities answered with an error: COMMAND error. */
static void test_connect_caps_error(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_caps_error, NULL, 0);
	IrqstormQmp *q = qmp_connect(s->path, CLIENT_MS, CLIENT_MS, NULL,
				     &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_COMMAND);
	g_assert_cmpstr(error->message, ==,
			"qmp_capabilities: CommandNotFound: nope");
	server_join(s);
	check_capabilities(s);
	server_free(s);
}

/* Script: greet, read qmp_capabilities, never answer. */
static void script_caps_mute(Server *s)
{
	srv_send(s, GREETING);
	srv_wait_eof(s);
}

/* No reply to qmp_capabilities: TIMEOUT naming it, after the bound. */
static void test_connect_no_caps_reply(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_caps_mute, NULL, 0);
	gint64 start = g_get_monotonic_time();
	IrqstormQmp *q = qmp_connect(s->path, CLIENT_MS, 300, NULL, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_TIMEOUT);
	g_assert_cmpint(elapsed_ms(start), >=, 300);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_nonnull(strstr(error->message,
				"no reply to qmp_capabilities within 300 ms"));
	server_free(s);
}

/* Script: a QEMU slow to build its machine: greet SLOW_MS late. */
static void script_slow_greeting(Server *s)
{
	g_usleep(SLOW_MS * G_TIME_SPAN_MILLISECOND);
	if (srv_handshake(s))
		srv_wait_eof(s);
}

/* Script: greet at once, answer qmp_capabilities SLOW_MS late. */
static void script_slow_caps(Server *s)
{
	JsonObject *req;

	srv_send(s, GREETING);
	req = srv_recv(s);
	if (!req)
		return;
	g_usleep(SLOW_MS * G_TIME_SPAN_MILLISECOND);
	srv_reply(s, req, RETURN_EMPTY);
	srv_wait_eof(s);
}

/*
 * A QEMU slow to start (a second one booting beside a busy one), following
 * script, its socket delay_ms late: with the rig's bounds the connection
 * waits for it, and takes at least expect_ms.
 */
static void check_slow_start(ScriptFunc script, guint delay_ms,
			     guint expect_ms)
{
	gint64 start = g_get_monotonic_time();
	Server *s = server_start(script, NULL, delay_ms);
	IrqstormQmp *q = connect_ok(s);

	g_assert_cmpint(elapsed_ms(start), >=, expect_ms);
	irqstorm_qmp_free(q);
	server_join(s);
	g_assert_cmpuint(s->requests->len, ==, 1);
	check_capabilities(s);
	server_free(s);
}

static void test_connect_slow_greeting(void)
{
	check_slow_start(script_slow_greeting, 0, SLOW_MS);
}

static void test_connect_slow_caps(void)
{
	check_slow_start(script_slow_caps, 0, SLOW_MS);
}

/* The socket SLOW_MS late, then the greeting SLOW_MS later still. */
static void test_connect_slow_socket(void)
{
	check_slow_start(script_slow_greeting, SLOW_MS, 2 * SLOW_MS);
}

/* Script: QEMU dies before greeting: close, and "exit" a little later. */
static void script_die_at_once(Server *s)
{
	close(s->fd);
	s->fd = -1;
	g_usleep(EXIT_LAG_MS * G_TIME_SPAN_MILLISECOND);
	g_atomic_int_set(&s->ended, 1);
}

/* Script: greet, read qmp_capabilities, then die as above. */
static void script_die_at_caps(Server *s)
{
	srv_send(s, GREETING);
	if (srv_recv(s))
		script_die_at_once(s);
}

/*
 * QEMU, following script, closes the socket mid-handshake and exits:
 * EXITED at once (not after the 30 s bound), saying how it ended.
 */
static void check_exits_in_handshake(ScriptFunc script)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script, NULL, 0);
	Life life = { .ended = &s->ended, .how = "exited with status 7" };
	gint64 start = g_get_monotonic_time();
	IrqstormQmp *q = qmp_connect(s->path, IRQSTORM_QMP_ACCEPT_MS,
				     IRQSTORM_QMP_HANDSHAKE_MS, &life, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_EXITED);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_cmpstr(error->message, ==, "QEMU exited with status 7 at "
			"start, during the QMP handshake");
	server_free(s);
}

static void test_connect_exits_before_greeting(void)
{
	check_exits_in_handshake(script_die_at_once);
}

static void test_connect_exits_at_caps(void)
{
	check_exits_in_handshake(script_die_at_caps);
}

/*
 * The peer closes mid-handshake and nothing says it ended (no ended
 * callback): an IO error at once, naming the stage.
 */
static void test_connect_closed_in_handshake(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_die_at_caps, NULL, 0);
	gint64 start = g_get_monotonic_time();
	IrqstormQmp *q = qmp_connect(s->path, IRQSTORM_QMP_ACCEPT_MS,
				     IRQSTORM_QMP_HANDSHAKE_MS, NULL, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_true(g_str_has_prefix(error->message,
				       "during the QMP handshake: "));
	g_assert_nonnull(strstr(error->message,
				"QEMU closed the QMP connection"));
	server_free(s);
}

/*
 * QEMU dies before its socket ever appears: EXITED as soon as the ended
 * callback says so, not after the 30 s bound, saying how; the callback is
 * asked between attempts, without waiting.
 */
static void test_connect_exits_before_socket(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_new();
	gint64 start = g_get_monotonic_time();
	Life life = {
		.dies_at = start + 300 * G_TIME_SPAN_MILLISECOND,
		.how = "killed by signal 11",
	};
	IrqstormQmp *q = qmp_connect(s->path, IRQSTORM_QMP_ACCEPT_MS,
				     IRQSTORM_QMP_HANDSHAKE_MS, &life, &error);

	g_assert_null(q);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_EXITED);
	g_assert_cmpint(elapsed_ms(start), >=, 300);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_cmpstr(error->message, ==, "QEMU killed by signal 11 at "
			"start, before its QMP socket accepted a connection");
	g_assert_cmpuint(life.calls, >=, 2);
	server_free(s);
}

/* Script: answer two commands with an object and an integer. */
static void script_two_returns(Server *s)
{
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_reply(s, req, "\"return\": {\"status\": \"running\", "
		  "\"running\": true}");
	if (!(req = srv_recv(s)))
		return;
	srv_reply(s, req, "\"return\": 42");
	srv_wait_eof(s);
}

#define AWKWARD_ARG	"say \"hi\"\n\tbye \\ \xc3\xbc {\"x\": 1}"

/* Commands with and without arguments; values returned; ids distinct. */
static void test_execute_return(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) args = json_object_new();
	g_autoptr(JsonNode) ret = NULL;
	g_autoptr(JsonNode) ret2 = NULL;
	Server *s = server_start(script_two_returns, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonObject *obj, *req, *req_args;

	json_object_set_string_member(args, "command-line", AWKWARD_ARG);
	ret = irqstorm_qmp_execute(q, "human-monitor-command", args,
				   CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_true(JSON_NODE_HOLDS_OBJECT(ret));
	obj = json_node_get_object(ret);
	g_assert_cmpstr(obj_str(obj, "status"), ==, "running");
	g_assert_true(json_object_get_boolean_member(obj, "running"));
	/* arguments were borrowed, not taken */
	g_assert_cmpstr(obj_str(args, "command-line"), ==, AWKWARD_ARG);

	ret2 = irqstorm_qmp_execute(q, "query-answer", NULL, CLIENT_MS,
				    &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret2);
	g_assert_true(JSON_NODE_HOLDS_VALUE(ret2));
	g_assert_cmpint(json_node_get_value_type(ret2), ==, G_TYPE_INT64);
	g_assert_cmpint(json_node_get_int(ret2), ==, 42);
	g_assert_null(irqstorm_qmp_pop_event(q));
	irqstorm_qmp_free(q);

	server_join(s);
	g_assert_cmpuint(s->requests->len, ==, 3);
	check_capabilities(s);
	req = request(s, 1, "human-monitor-command");
	g_assert_cmpuint(json_object_get_size(req), ==, 3);
	g_assert_true(json_object_has_member(req, "arguments"));
	req_args = json_object_get_object_member(req, "arguments");
	g_assert_cmpuint(json_object_get_size(req_args), ==, 1);
	g_assert_cmpstr(obj_str(req_args, "command-line"), ==, AWKWARD_ARG);
	req = request(s, 2, "query-answer");
	g_assert_false(json_object_has_member(req, "arguments"));
	g_assert_cmpuint(json_object_get_size(req), ==, 2);
	g_assert_cmpint(request_id(request(s, 1, "human-monitor-command")),
			!=, request_id(req));
	server_free(s);
}

#define SHUTDOWN_EVENT	"{\"timestamp\": {\"seconds\": 1700000000, " \
	"\"microseconds\": 5}, \"event\": \"SHUTDOWN\", " \
	"\"data\": {\"guest\": true, \"reason\": \"guest-shutdown\"}}\r\n"

/* Script: an event, a pause, then the reply. */
static void script_event_first(Server *s)
{
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_send(s, SHUTDOWN_EVENT);
	g_usleep(20 * G_TIME_SPAN_MILLISECOND);
	srv_reply(s, req, "\"return\": {\"ok\": 1}");
	srv_wait_eof(s);
}

/* An event while a command waits: queued, with its data. */
static void test_execute_event_first(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) ret = NULL;
	g_autoptr(JsonObject) ev = NULL;
	Server *s = server_start(script_event_first, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonObject *data;

	ret = irqstorm_qmp_execute(q, "system_powerdown", NULL, CLIENT_MS,
				   &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_cmpint(json_object_get_int_member(json_node_get_object(ret),
						   "ok"), ==, 1);
	ev = irqstorm_qmp_pop_event(q);
	g_assert_nonnull(ev);
	g_assert_cmpstr(obj_str(ev, "event"), ==, "SHUTDOWN");
	data = json_object_get_object_member(ev, "data");
	g_assert_nonnull(data);
	g_assert_cmpstr(obj_str(data, "reason"), ==, "guest-shutdown");
	g_assert_null(irqstorm_qmp_pop_event(q));
	irqstorm_qmp_free(q);
	server_join(s);
	request(s, 1, "system_powerdown");
	server_free(s);
}

/*
 * Script: STOP, the reply and RESUME, written in three pieces with pauses:
 * the cuts fall inside the reply and between its "\r" and "\n".
 */
static void script_cut_reply(Server *s)
{
	g_autofree char *reply = NULL;
	g_autofree char *text = NULL;
	gsize cuts[2];
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	reply = reply_line(req, "\"return\": \"cut\"");
	text = g_strconcat("{\"event\": \"STOP\"}\r\n", reply,
			   "{\"event\": \"RESUME\"}\r\n", NULL);
	cuts[0] = strlen("{\"event\": \"STOP\"}\r\n") + 10;
	cuts[1] = strlen("{\"event\": \"STOP\"}\r\n") + strlen(reply) - 1;
	srv_send_cut(s, text, cuts, G_N_ELEMENTS(cuts), 50);
	srv_wait_eof(s);
}

/* A reply in pieces; events before and after it in the same writes. */
static void test_execute_cut_reply(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) ret = NULL;
	g_autoptr(JsonObject) ev1 = NULL;
	g_autoptr(JsonObject) ev2 = NULL;
	Server *s = server_start(script_cut_reply, NULL, 0);
	IrqstormQmp *q = connect_ok(s);

	ret = irqstorm_qmp_execute(q, "cont", NULL, CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_cmpstr(json_node_get_string(ret), ==, "cut");
	/* RESUME came with the end of the reply: queued without a poll */
	ev1 = irqstorm_qmp_pop_event(q);
	ev2 = irqstorm_qmp_pop_event(q);
	g_assert_nonnull(ev1);
	g_assert_nonnull(ev2);
	g_assert_cmpstr(obj_str(ev1, "event"), ==, "STOP");
	g_assert_cmpstr(obj_str(ev2, "event"), ==, "RESUME");
	g_assert_null(irqstorm_qmp_pop_event(q));
	irqstorm_qmp_free(q);
	server_join(s);
	request(s, 1, "cont");
	server_free(s);
}

/* Script: replies with a foreign id and with none, then the right one. */
static void script_stray(Server *s)
{
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_send(s, "{\"return\": \"stray\", \"id\": 999999}\r\n");
	srv_send(s, "{\"return\": \"no-id\"}\r\n");
	g_usleep(20 * G_TIME_SPAN_MILLISECOND);
	srv_reply(s, req, "\"return\": \"right\"");
	srv_wait_eof(s);
}

/* Only the reply carrying our id is taken. */
static void test_execute_stray(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) ret = NULL;
	Server *s = server_start(script_stray, NULL, 0);
	IrqstormQmp *q = connect_ok(s);

	ret = irqstorm_qmp_execute(q, "query-name", NULL, CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_cmpstr(json_node_get_string(ret), ==, "right");
	g_assert_null(irqstorm_qmp_pop_event(q));
	irqstorm_qmp_free(q);
	server_join(s);
	g_assert_cmpint(request_id(request(s, 1, "query-name")), !=, 999999);
	server_free(s);
}

/* Script: an error reply, then a normal one. */
static void script_error(Server *s)
{
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_reply(s, req, "\"error\": {\"class\": \"DeviceNotFound\", "
		  "\"desc\": \"Device 'storm0' not found\"}");
	if (!(req = srv_recv(s)))
		return;
	srv_reply(s, req, RETURN_EMPTY);
	srv_wait_eof(s);
}

/* An error reply: COMMAND error "COMMAND: CLASS: DESC"; still usable. */
static void test_execute_error(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) args = json_object_new();
	g_autoptr(JsonNode) ret = NULL;
	Server *s = server_start(script_error, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonNode *bad;

	json_object_set_string_member(args, "id", "storm0");
	bad = irqstorm_qmp_execute(q, "device_del", args, CLIENT_MS, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_COMMAND);
	g_assert_cmpstr(error->message, ==,
			"device_del: DeviceNotFound: Device 'storm0' not found");
	g_clear_error(&error);

	ret = irqstorm_qmp_execute(q, "stop", NULL, CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_true(JSON_NODE_HOLDS_OBJECT(ret));
	g_assert_cmpuint(json_object_get_size(json_node_get_object(ret)), ==,
			 0);
	irqstorm_qmp_free(q);
	server_join(s);
	g_assert_cmpstr(obj_str(json_object_get_object_member(
		request(s, 1, "device_del"), "arguments"), "id"), ==, "storm0");
	request(s, 2, "stop");
	server_free(s);
}

/*
 * Script: garbage instead of a reply (then the late reply), a JSON array
 * instead of a reply (then the late reply), then a good reply.
 */
static void script_garbage(Server *s)
{
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_send(s, "this is not json at all\r\n");
	srv_reply(s, req, "\"return\": \"late-a\"");
	if (!(req = srv_recv(s)))
		return;
	srv_send(s, "[1, 2, 3]\r\n");
	srv_reply(s, req, "\"return\": \"late-b\"");
	if (!(req = srv_recv(s)))
		return;
	srv_reply(s, req, "\"return\": \"ok\"");
	srv_wait_eof(s);
}

/* Unparsable and non-object lines: PROTOCOL errors quoting them. */
static void test_execute_garbage(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) ret = NULL;
	Server *s = server_start(script_garbage, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonNode *bad;

	bad = irqstorm_qmp_execute(q, "a", NULL, CLIENT_MS, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_PROTOCOL);
	g_assert_nonnull(strstr(error->message, "this is not json at all"));
	g_clear_error(&error);

	bad = irqstorm_qmp_execute(q, "b", NULL, CLIENT_MS, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_PROTOCOL);
	g_assert_nonnull(strstr(error->message, "[1, 2, 3]"));
	g_clear_error(&error);

	/* the late replies to a and b are recognised as stray */
	ret = irqstorm_qmp_execute(q, "c", NULL, CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_cmpstr(json_node_get_string(ret), ==, "ok");
	irqstorm_qmp_free(q);
	server_join(s);
	request(s, 3, "c");
	server_free(s);
}

/* Script: read the command, then hang up. */
static void script_hangup(Server *s)
{
	if (srv_handshake(s))
		srv_recv(s);
}

/* QEMU closes mid-command: IO error, for this and the next command. */
static void test_execute_closed(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_hangup, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonNode *bad;

	bad = irqstorm_qmp_execute(q, "quit", NULL, CLIENT_MS, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO);
	g_assert_nonnull(strstr(error->message,
				"QEMU closed the QMP connection"));
	g_clear_error(&error);
	server_join(s);

	bad = irqstorm_qmp_execute(q, "quit", NULL, CLIENT_MS, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO);
	g_assert_nonnull(strstr(error->message,
				"QEMU closed the QMP connection"));
	irqstorm_qmp_free(q);
	request(s, 1, "quit");
	server_free(s);
}

/* Script: read commands, never answer. */
static void script_mute(Server *s)
{
	if (srv_handshake(s))
		srv_wait_eof(s);
}

/* No answer: TIMEOUT naming the command, after the timeout. */
static void test_execute_timeout(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_mute, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	gint64 start = g_get_monotonic_time();
	JsonNode *bad;

	bad = irqstorm_qmp_execute(q, "query-status", NULL, 200, &error);
	g_assert_null(bad);
	g_assert_error(error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_TIMEOUT);
	g_assert_cmpint(elapsed_ms(start), >=, 200);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_nonnull(strstr(error->message, "query-status"));
	irqstorm_qmp_free(q);
	server_join(s);
	request(s, 1, "query-status");
	server_free(s);
}

/* BIG_LEN bytes of a recognisable pattern. */
static char *big_string(char first)
{
	char *big = g_malloc(BIG_LEN + 1);
	guint i;

	for (i = 0; i < BIG_LEN; i++)
		big[i] = (char)(first + i % 26);
	big[BIG_LEN] = '\0';
	return big;
}

/* Script: read slowly (the client's writes fill the socket), answer big. */
static void script_big(Server *s)
{
	g_autofree char *big = big_string('A');
	g_autofree char *body = NULL;
	JsonObject *req;

	if (!srv_handshake(s))
		return;
	g_usleep(100 * G_TIME_SPAN_MILLISECOND);
	if (!(req = srv_recv(s)))
		return;
	body = g_strdup_printf("\"return\": \"%s\"", big);
	srv_reply(s, req, body);
	srv_wait_eof(s);
}

/* A 4 MiB request written in many partial writes; a 4 MiB reply. */
static void test_execute_big(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) args = json_object_new();
	g_autoptr(JsonNode) ret = NULL;
	g_autofree char *big_a = big_string('A');
	g_autofree char *big_a2 = big_string('a');
	Server *s = server_start(script_big, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonObject *req_args;

	json_object_set_string_member(args, "blob", big_a2);
	ret = irqstorm_qmp_execute(q, "echo", args, 10 * CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);
	g_assert_cmpstr(json_node_get_string(ret), ==, big_a);
	irqstorm_qmp_free(q);
	server_join(s);
	req_args = json_object_get_object_member(request(s, 1, "echo"),
						 "arguments");
	g_assert_cmpstr(obj_str(req_args, "blob"), ==, big_a2);
	server_free(s);
}

/* Script: answer qom-get with a u64, a string, a negative, a float. */
static void script_qom(Server *s)
{
	static const char *const bodies[] = {
		"\"return\": 1234567890123",
		"\"return\": \"12\"",
		"\"return\": -1",
		"\"return\": 1.5",
		"\"return\": 18446744073709551615",	/* wraps in json-glib */
	};
	JsonObject *req;
	guint i;

	if (!srv_handshake(s))
		return;
	for (i = 0; i < G_N_ELEMENTS(bodies); i++) {
		if (!(req = srv_recv(s)))
			return;
		srv_reply(s, req, bodies[i]);
	}
	srv_wait_eof(s);
}

/*
 * qom-get: an integer >= 0 is taken; a string, a negative, a float and a
 * value above G_MAXINT64 are PROTOCOL errors.
 */
static void test_qom_get_u64(void)
{
	g_autoptr(GError) error = NULL;
	Server *s = server_start(script_qom, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	JsonObject *req_args;
	guint64 value = 7;
	guint i;

	g_assert_true(irqstorm_qmp_qom_get_u64(q, "/machine/peripheral/storm0",
					       "irq-count", &value, CLIENT_MS,
					       &error));
	g_assert_no_error(error);
	g_assert_cmpuint(value, ==, G_GUINT64_CONSTANT(1234567890123));

	for (i = 0; i < 4; i++) {
		value = 7;
		g_assert_false(irqstorm_qmp_qom_get_u64(q, "/machine/x",
							"lost-count", &value,
							CLIENT_MS, &error));
		g_assert_error(error, IRQSTORM_QMP_ERROR,
			       IRQSTORM_QMP_ERROR_PROTOCOL);
		g_assert_nonnull(strstr(error->message, "lost-count"));
		g_assert_cmpuint(value, ==, 7);
		g_clear_error(&error);
	}
	irqstorm_qmp_free(q);
	server_join(s);
	g_assert_cmpuint(s->requests->len, ==, 6);
	req_args = json_object_get_object_member(request(s, 1, "qom-get"),
						 "arguments");
	g_assert_cmpuint(json_object_get_size(req_args), ==, 2);
	g_assert_cmpstr(obj_str(req_args, "path"), ==,
			"/machine/peripheral/storm0");
	g_assert_cmpstr(obj_str(req_args, "property"), ==, "irq-count");
	server_free(s);
}

/*
 * Script: after "go" is answered, an event cut in two, a stray reply and a
 * second event, with pauses; then hang up.
 */
static void script_events(Server *s)
{
	static const char first[] = "{\"event\": \"SHUTDOWN\"}\r\n";
	static const gsize cuts[] = { 7 };
	JsonObject *req;

	if (!srv_handshake(s) || !(req = srv_recv(s)))
		return;
	srv_reply(s, req, RETURN_EMPTY);
	g_usleep(30 * G_TIME_SPAN_MILLISECOND);
	srv_send_cut(s, first, cuts, G_N_ELEMENTS(cuts), 30);
	g_usleep(30 * G_TIME_SPAN_MILLISECOND);
	srv_send(s, "{\"return\": {}, \"id\": 777}\r\n");
	srv_send(s, "{\"event\": \"RESET\", \"data\": {\"guest\": false}}\r\n");
	g_usleep(30 * G_TIME_SPAN_MILLISECOND);
}

typedef struct {
	IrqstormQmp *q;
	GMainLoop *loop;
	GPtrArray *names;	/* char *: event names, in order */
	GError *error;
	guint wakeups;
} Watcher;

/* g_unix_fd_add() callback: poll events, pop them, stop on failure. */
static gboolean on_qmp_readable(int fd, GIOCondition cond, gpointer data)
{
	Watcher *w = data;
	JsonObject *ev;

	w->wakeups++;
	if (!irqstorm_qmp_poll_events(w->q, &w->error)) {
		g_main_loop_quit(w->loop);
		return G_SOURCE_REMOVE;
	}
	while ((ev = irqstorm_qmp_pop_event(w->q))) {
		g_ptr_array_add(w->names, g_strdup(obj_str(ev, "event")));
		json_object_unref(ev);
	}
	return G_SOURCE_CONTINUE;
}

/* Watchdog: the events never finished arriving. */
static gboolean on_watchdog(gpointer data)
{
	g_error("timed out waiting for events and EOF");
	return G_SOURCE_REMOVE;
}

/* Events through a main-loop fd watch; no waiting; EOF reported. */
static void test_poll_events(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) ret = NULL;
	Server *s = server_start(script_events, NULL, 0);
	IrqstormQmp *q = connect_ok(s);
	Watcher w = { .q = q };
	gint64 start;
	guint watch, watchdog;

	/* nothing to read: returns at once, no event taken (it did not
	 * wait for one: the script sends them only after "go") */
	start = g_get_monotonic_time();
	g_assert_true(irqstorm_qmp_poll_events(q, &error));
	g_assert_no_error(error);
	g_assert_cmpint(elapsed_ms(start), <, PROMPT_MS);
	g_assert_null(irqstorm_qmp_pop_event(q));

	ret = irqstorm_qmp_execute(q, "go", NULL, CLIENT_MS, &error);
	g_assert_no_error(error);
	g_assert_nonnull(ret);

	w.loop = g_main_loop_new(NULL, FALSE);
	w.names = g_ptr_array_new_with_free_func(g_free);
	watch = g_unix_fd_add(irqstorm_qmp_fd(q), G_IO_IN, on_qmp_readable,
			      &w);
	watchdog = g_timeout_add(5000, on_watchdog, NULL);
	g_main_loop_run(w.loop);
	g_source_remove(watchdog);
	g_assert_null(g_main_context_find_source_by_id(NULL, watch));

	g_assert_error(w.error, IRQSTORM_QMP_ERROR, IRQSTORM_QMP_ERROR_IO);
	g_assert_nonnull(strstr(w.error->message,
				"QEMU closed the QMP connection"));
	g_assert_cmpuint(w.wakeups, >=, 2);
	g_assert_cmpuint(w.names->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(w.names, 0), ==, "SHUTDOWN");
	g_assert_cmpstr(g_ptr_array_index(w.names, 1), ==, "RESET");

	g_clear_error(&w.error);
	g_ptr_array_unref(w.names);
	g_main_loop_unref(w.loop);
	irqstorm_qmp_free(q);
	server_join(s);
	request(s, 1, "go");
	server_free(s);
}

/* Register and run the tests. */
int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/qmp/connect/ok", test_connect_ok);
	g_test_add_func("/qmp/connect/late-socket", test_connect_late_socket);
	g_test_add_func("/qmp/connect/no-server", test_connect_no_server);
	g_test_add_func("/qmp/connect/refused", test_connect_refused);
	g_test_add_data_func("/qmp/connect/bad-greeting/object",
			     "{\"hello\": 1}\r\n", test_connect_bad_greeting);
	g_test_add_data_func("/qmp/connect/bad-greeting/garbage",
			     "hello, this is not QMP\r\n",
			     test_connect_bad_greeting);
	g_test_add_func("/qmp/connect/no-greeting", test_connect_no_greeting);
	g_test_add_func("/qmp/connect/caps-error", test_connect_caps_error);
	g_test_add_func("/qmp/connect/no-caps-reply",
			test_connect_no_caps_reply);
	g_test_add_func("/qmp/connect/slow-greeting",
			test_connect_slow_greeting);
	g_test_add_func("/qmp/connect/slow-caps", test_connect_slow_caps);
	g_test_add_func("/qmp/connect/slow-socket", test_connect_slow_socket);
	g_test_add_func("/qmp/connect/exits-before-greeting",
			test_connect_exits_before_greeting);
	g_test_add_func("/qmp/connect/exits-at-caps",
			test_connect_exits_at_caps);
	g_test_add_func("/qmp/connect/closed-in-handshake",
			test_connect_closed_in_handshake);
	g_test_add_func("/qmp/connect/exits-before-socket",
			test_connect_exits_before_socket);
	g_test_add_func("/qmp/execute/return", test_execute_return);
	g_test_add_func("/qmp/execute/event-first", test_execute_event_first);
	g_test_add_func("/qmp/execute/cut-reply", test_execute_cut_reply);
	g_test_add_func("/qmp/execute/stray", test_execute_stray);
	g_test_add_func("/qmp/execute/error", test_execute_error);
	g_test_add_func("/qmp/execute/garbage", test_execute_garbage);
	g_test_add_func("/qmp/execute/closed", test_execute_closed);
	g_test_add_func("/qmp/execute/timeout", test_execute_timeout);
	g_test_add_func("/qmp/execute/big", test_execute_big);
	g_test_add_func("/qmp/qom-get/u64", test_qom_get_u64);
	g_test_add_func("/qmp/poll-events", test_poll_events);
	return g_test_run();
}
