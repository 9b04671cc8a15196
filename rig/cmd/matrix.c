// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix: see matrix.h. Every cell is `irqstorm run` as a child
 * process in its own process group (launch.c), its output in the cell's
 * matrix-run.log; a GMainLoop starts up to --jobs of them and reaps them.
 * A cell whose directory already holds a complete run is not run again,
 * so an interrupted matrix resumes where it stopped.
 */
#include "matrix.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "cmd.h"
#include "core/launch.h"
#include "core/json-build.h"
#include "core/output.h"
#include "core/scenario.h"
#include "core/summary.h"

#define MATRIX_FILE "matrix.json"
#define CELL_LOG "matrix-run.log"
/* After SIGTERM, how long a cell may take to stop QEMU and write its
 * INCOMPLETE marker before its process group is killed. */
#define KILL_GRACE_S 15

void irqstorm_vary_free(IrqstormVary *v)
{
	if (!v)
		return;
	g_free(v->key);
	g_free(v->name);
	g_strfreev(v->values);
	g_free(v);
}

void irqstorm_cell_free(IrqstormCell *c)
{
	if (!c)
		return;
	g_free(c->name);
	g_strfreev(c->values);
	g_strfreev(c->sets);
	g_free(c);
}

static gboolean bad_vary(GError **error, const char *spec, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static gboolean bad_vary(GError **error, const char *spec, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		    "--vary '%s': %s", spec, msg);
	return FALSE;
}

/* One --vary; NULL with an error when it is malformed. */
static IrqstormVary *parse_one(const char *spec, GError **error)
{
	const char *eq = strchr(spec, '=');
	g_autofree char *key = NULL;
	g_auto(GStrv) values = NULL;
	const char *dot;
	IrqstormVary *v;

	if (!eq) {
		bad_vary(error, spec, "expected GROUP.KEY=VALUE1,VALUE2,... (no '=')");
		return NULL;
	}
	key = g_strndup(spec, eq - spec);
	dot = strchr(key, '.');
	if (!dot || dot == key || !dot[1] || strchr(dot + 1, '.')) {
		bad_vary(error, spec, "'%s' is not GROUP.KEY (e.g. channel0.rate)", key);
		return NULL;
	}
	if (!eq[1]) {
		bad_vary(error, spec, "empty list of values");
		return NULL;
	}
	values = g_strsplit(eq + 1, ",", -1);
	for (guint i = 0; values[i]; i++) {
		if (!*values[i]) {
			bad_vary(error, spec, "empty value (item %u of the list)", i + 1);
			return NULL;
		}
		for (guint j = 0; j < i; j++) {
			if (!strcmp(values[i], values[j])) {
				bad_vary(error, spec, "value '%s' is listed twice", values[i]);
				return NULL;
			}
		}
	}
	v = g_new0(IrqstormVary, 1);
	v->key = g_steal_pointer(&key);
	v->values = g_steal_pointer(&values);
	return v;
}

GPtrArray *irqstorm_matrix_parse_vary(const char *const *specs, GError **error)
{
	g_autoptr(GPtrArray) varies = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_vary_free);

	for (gsize i = 0; specs && specs[i]; i++) {
		IrqstormVary *v = parse_one(specs[i], error);

		if (!v)
			return NULL;
		for (guint j = 0; j < varies->len; j++) {
			const IrqstormVary *o = varies->pdata[j];

			if (!strcmp(o->key, v->key)) {
				bad_vary(error, specs[i], "%s is varied twice: give all its "
					 "values in one --vary", v->key);
				irqstorm_vary_free(v);
				return NULL;
			}
		}
		g_ptr_array_add(varies, v);
	}
	if (!varies->len) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "no --vary: give at least one GROUP.KEY=VALUE1,VALUE2,...");
		return NULL;
	}
	/* Drop the group from the names when the key alone is unambiguous. */
	for (guint i = 0; i < varies->len; i++) {
		IrqstormVary *v = varies->pdata[i];
		const char *k = strchr(v->key, '.') + 1;
		gboolean unique = TRUE;

		for (guint j = 0; j < varies->len && unique; j++) {
			const IrqstormVary *o = varies->pdata[j];

			unique = j == i || strcmp(strchr(o->key, '.') + 1, k);
		}
		v->name = g_strdup(unique ? k : v->key);
	}
	return g_steal_pointer(&varies);
}

char *irqstorm_matrix_safe_name(const char *s)
{
	char *r = g_strdup(s);

	for (char *c = r; *c; c++)
		if (!g_ascii_isalnum(*c) && !strchr("._+=-", *c))
			*c = '_';
	return r;
}

GPtrArray *irqstorm_matrix_cells(GPtrArray *varies, GError **error)
{
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_cell_free);
	g_autofree guint *idx = g_new0(guint, varies->len);
	g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);

	for (;;) {
		IrqstormCell *c = g_new0(IrqstormCell, 1);
		GString *name = g_string_new(NULL);
		int k;

		c->values = g_new0(char *, varies->len + 1);
		c->sets = g_new0(char *, varies->len + 1);
		for (guint i = 0; i < varies->len; i++) {
			const IrqstormVary *v = varies->pdata[i];
			g_autofree char *safe = irqstorm_matrix_safe_name(v->values[idx[i]]);

			c->values[i] = g_strdup(v->values[idx[i]]);
			c->sets[i] = g_strconcat(v->key, "=", v->values[idx[i]], NULL);
			g_string_append_printf(name, "%s%s=%s", i ? "," : "", v->name, safe);
		}
		c->name = g_string_free(name, FALSE);
		g_ptr_array_add(cells, c);
		if (g_hash_table_contains(names, c->name)) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "two cells would share the directory '%s': values "
				    "differing only in characters outside [A-Za-z0-9._+=-]",
				    c->name);
			return NULL;
		}
		g_hash_table_add(names, c->name);

		/* The next combination: an odometer, the last vary fastest. */
		for (k = (int)varies->len - 1; k >= 0; k--) {
			const IrqstormVary *v = varies->pdata[k];

			if (v->values[++idx[k]])
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	return g_steal_pointer(&cells);
}

/* ---- outcomes and tool failures -------------------------------------- */

const char *irqstorm_cell_end_name(IrqstormCellEnd end)
{
	switch (end) {
	case IRQSTORM_CELL_PASSED:
		return "passed";
	case IRQSTORM_CELL_THRESHOLD:
		return "threshold";
	case IRQSTORM_CELL_STALL:
		return "stall";
	case IRQSTORM_CELL_REFUSED:
		return "refused";
	case IRQSTORM_CELL_TOOL_FAILURE:
		return "tool failure";
	case IRQSTORM_CELL_NOT_RUN:
	default:
		return "not run";
	}
}

gboolean irqstorm_cell_end_is_outcome(IrqstormCellEnd end)
{
	return end != IRQSTORM_CELL_NOT_RUN && end != IRQSTORM_CELL_TOOL_FAILURE;
}

/* The guest's result line said something other than status=ok. */
static gboolean guest_refused(const IrqstormSummary *s)
{
	return s->guest_status && strcmp(s->guest_status, "ok");
}

IrqstormCellEnd irqstorm_matrix_classify(int code, const IrqstormSummary *s,
					 char **why)
{
	*why = NULL;
	if (!s) {
		*why = g_strdup("no readable summary.json");
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	if (code != s->return_code) {
		*why = g_strdup_printf("exit status %d, but summary.json says %d",
				       code, s->return_code);
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	if (!s->complete) {
		*why = g_strdup(s->incomplete_reason);
		return code == IRQSTORM_EXIT_ERROR && guest_refused(s) ?
		       IRQSTORM_CELL_REFUSED : IRQSTORM_CELL_TOOL_FAILURE;
	}
	if (s->failed_checks) {
		*why = g_strdup_printf("%u cross-check%s failed (summary.json "
				       "failed_checks)", s->failed_checks,
				       s->failed_checks == 1 ? "" : "s");
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
	switch (code) {
	case IRQSTORM_EXIT_PASSED:
		return IRQSTORM_CELL_PASSED;
	case IRQSTORM_EXIT_THRESHOLD:
		return IRQSTORM_CELL_THRESHOLD;
	case IRQSTORM_EXIT_STALL:
		return IRQSTORM_CELL_STALL;
	default:
		*why = g_strdup_printf("exit status %d from a complete run "
				       "without a failed check", code);
		return IRQSTORM_CELL_TOOL_FAILURE;
	}
}

int irqstorm_matrix_exit_code(const IrqstormCellEnd *ends, guint n)
{
	static const int status[] = {
		[IRQSTORM_CELL_PASSED] = IRQSTORM_EXIT_PASSED,
		[IRQSTORM_CELL_THRESHOLD] = IRQSTORM_EXIT_THRESHOLD,
		[IRQSTORM_CELL_STALL] = IRQSTORM_EXIT_STALL,
		[IRQSTORM_CELL_REFUSED] = IRQSTORM_EXIT_STALL,
		[IRQSTORM_CELL_TOOL_FAILURE] = IRQSTORM_MATRIX_EXIT_TOOL_FAILURE,
	};
	int code = IRQSTORM_EXIT_PASSED;

	for (guint i = 0; i < n; i++) {
		if (ends[i] == IRQSTORM_CELL_NOT_RUN)
			return IRQSTORM_EXIT_ERROR;
		/* The statuses rank as their numbers: 4 > 3 > 2 > 0. */
		code = MAX(code, status[ends[i]]);
	}
	return code;
}

/* ---- running the cells ------------------------------------------------ */

typedef enum {
	CELL_PENDING,		/* not started (yet, or ever: interrupted) */
	CELL_SKIPPED,		/* already complete from an earlier matrix */
	CELL_RUNNING,
	CELL_FINISHED,		/* exited, or could not be started */
} CellState;

typedef struct Matrix Matrix;

typedef struct {
	Matrix *m;
	guint index;
	const IrqstormCell *cell;
	char *dir;
	CellState state;
	IrqstormChild child;
	gint64 started_us;
	double seconds;
	int code;		/* exit status; -1 killed or not started */
	char *how;		/* "exited with status 1", "could not start: ..." */
	IrqstormSummary *summary;
	IrqstormCellEnd end;	/* NOT_RUN until finished or skipped */
	char *why;		/* for a refusal or a tool failure */
} CellRun;

struct Matrix {
	GMainLoop *loop;
	CellRun *runs;
	guint n, next, running, jobs;
	gboolean interrupted;
	guint kill_timer;
	char *binary;
	const char *scenario;
	const char *out;
	char **sets;		/* --set, for every cell */
	char **passthrough;	/* after --, for every cell */
};

static void cell_free_run(CellRun *r)
{
	g_free(r->dir);
	g_free(r->how);
	g_free(r->why);
	irqstorm_summary_free(r->summary);
}

/* A complete run is there: summary.json says so, no INCOMPLETE, and it
 * is an outcome (a tool failure is run again). */
static IrqstormSummary *complete_summary(const char *dir)
{
	g_autoptr(IrqstormSummary) s = irqstorm_summary_load(dir, NULL);
	g_autofree char *why = NULL;

	if (!s || !s->complete ||
	    !irqstorm_cell_end_is_outcome(irqstorm_matrix_classify(s->return_code,
								    s, &why)))
		return NULL;
	return g_steal_pointer(&s);
}

/* The last non-blank line of a file, or NULL. */
static char *last_line(const char *path)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (int i = (int)g_strv_length(lines) - 1; i >= 0; i--)
		if (*g_strstrip(lines[i]))
			return g_strdup(lines[i]);
	return NULL;
}

static void say(const CellRun *r, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

/* "[i/n] cell: ..." on stdout. */
static void say(const CellRun *r, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	printf("[%u/%u] %s: %s\n", r->index + 1, r->m->n, r->cell->name, msg);
	fflush(stdout);
}

static void schedule(Matrix *m);

/*
 * Why a cell has no summary.json to say why: its INCOMPLETE marker (a
 * --quiet run prints little), else the last line it printed, else how it
 * exited.
 */
static char *cell_tail(const CellRun *r)
{
	g_autofree char *marker = g_build_filename(r->dir, IRQSTORM_MARKER_FILE, NULL);
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);
	g_autofree char *why = last_line(marker);

	if (why)
		return g_strconcat("INCOMPLETE: ", why, NULL);
	why = last_line(log);
	return why ? g_steal_pointer(&why) : g_strdup(r->how);
}

/* Read a finished cell's summary.json and decide how it ended. */
static void cell_classify(CellRun *r)
{
	irqstorm_summary_free(r->summary);
	r->summary = irqstorm_summary_load(r->dir, NULL);
	g_clear_pointer(&r->why, g_free);
	if (r->code < 0) {
		r->end = IRQSTORM_CELL_TOOL_FAILURE;
		r->why = g_strdup(r->how);
		return;
	}
	r->end = irqstorm_matrix_classify(r->code, r->summary, &r->why);
	if (!r->summary) {
		g_free(r->why);
		r->why = cell_tail(r);
	}
}

/* "[i/n] cell: ..." saying how a finished cell ended. */
static void say_cell_end(const CellRun *r)
{
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);

	switch (r->end) {
	case IRQSTORM_CELL_PASSED:
		say(r, "exit 0 in %.1f s", r->seconds);
		break;
	case IRQSTORM_CELL_THRESHOLD:
		say(r, "exit 2 (a scenario threshold was exceeded) in %.1f s",
		    r->seconds);
		break;
	case IRQSTORM_CELL_STALL:
		say(r, "exit 3 (the guest stalled) in %.1f s", r->seconds);
		break;
	case IRQSTORM_CELL_REFUSED:
		say(r, "exit 1 in %.1f s, refused by the guest: %s", r->seconds,
		    r->why);
		break;
	default:
		say(r, "TOOL FAILURE in %.1f s: %s (log: %s)", r->seconds,
		    r->why, log);
		break;
	}
}

static void on_cell_exit(GPid pid, gint status, gpointer user)
{
	CellRun *r = user;
	Matrix *m = r->m;

	g_spawn_close_pid(pid);
	r->child.exited = TRUE;
	r->child.wait_status = status;
	r->state = CELL_FINISHED;
	r->seconds = (g_get_monotonic_time() - r->started_us) / 1e6;
	r->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->how = irqstorm_child_describe_exit(&r->child);
	m->running--;
	cell_classify(r);
	say_cell_end(r);
	schedule(m);
}

/* Start one cell; on failure the cell is finished with code -1. */
static void start_cell(Matrix *m, CellRun *r)
{
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_autoptr(GError) err = NULL;
	int fd;

	r->started_us = g_get_monotonic_time();
	if (g_mkdir_with_parents(r->dir, 0755) < 0) {
		g_set_error(&err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", r->dir, g_strerror(errno));
		goto failed;
	}
	fd = g_open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		g_set_error(&err, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", log, g_strerror(errno));
		goto failed;
	}
	g_ptr_array_add(argv, m->binary);
	g_ptr_array_add(argv, "run");
	g_ptr_array_add(argv, (char *)m->scenario);
	g_ptr_array_add(argv, "--out");
	g_ptr_array_add(argv, r->dir);
	g_ptr_array_add(argv, "--quiet");
	for (gsize i = 0; m->sets && m->sets[i]; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, m->sets[i]);
	}
	for (gsize i = 0; r->cell->sets[i]; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, r->cell->sets[i]);
	}
	for (gsize i = 0; m->passthrough && m->passthrough[i]; i++)
		g_ptr_array_add(argv, m->passthrough[i]);
	g_ptr_array_add(argv, NULL);
	if (!irqstorm_child_spawn(&r->child, (const char *const *)argv->pdata, fd, &err)) {
		close(fd);
		goto failed;
	}
	close(fd);
	r->state = CELL_RUNNING;
	m->running++;
	g_child_watch_add(r->child.pid, on_cell_exit, r);
	say(r, "started");
	return;

failed:
	r->state = CELL_FINISHED;
	r->code = -1;
	r->how = g_strdup_printf("could not start: %s", err->message);
	r->end = IRQSTORM_CELL_TOOL_FAILURE;
	r->why = g_strdup(r->how);
	say(r, "TOOL FAILURE: %s", r->how);
}

/* Start cells while there is room; quit when nothing is left to wait for. */
static void schedule(Matrix *m)
{
	while (!m->interrupted && m->running < m->jobs && m->next < m->n) {
		CellRun *r = &m->runs[m->next++];

		if (r->state == CELL_PENDING)
			start_cell(m, r);
	}
	if (!m->running && (m->interrupted || m->next >= m->n))
		g_main_loop_quit(m->loop);
}

static void kill_running(Matrix *m, int sig)
{
	for (guint i = 0; i < m->n; i++)
		if (m->runs[i].state == CELL_RUNNING)
			kill(-m->runs[i].child.pid, sig);
}

static gboolean on_kill_timer(gpointer user)
{
	Matrix *m = user;

	m->kill_timer = 0;
	g_printerr("irqstorm: cells still running after %d s: killing them\n", KILL_GRACE_S);
	kill_running(m, SIGKILL);
	return G_SOURCE_REMOVE;
}

/* First signal: SIGTERM to every running cell's process group (irqstorm
 * run then stops its QEMU and marks its directory INCOMPLETE); start no
 * more. A second signal, or the grace time: SIGKILL. */
static gboolean on_signal(gpointer user)
{
	Matrix *m = user;

	if (!m->interrupted) {
		m->interrupted = TRUE;
		g_printerr("irqstorm: interrupted: stopping %u running cell%s "
			   "(interrupt again to kill them at once)\n",
			   m->running, m->running == 1 ? "" : "s");
		kill_running(m, SIGTERM);
		m->kill_timer = g_timeout_add_seconds(KILL_GRACE_S, on_kill_timer, m);
	} else {
		kill_running(m, SIGKILL);
	}
	schedule(m);
	return G_SOURCE_CONTINUE;
}

static void run_cells(Matrix *m)
{
	guint sources[3];

	m->loop = g_main_loop_new(NULL, FALSE);
	sources[0] = g_unix_signal_add(SIGINT, on_signal, m);
	sources[1] = g_unix_signal_add(SIGTERM, on_signal, m);
	sources[2] = g_unix_signal_add(SIGHUP, on_signal, m);
	schedule(m);
	/* schedule() quits at once when there is nothing to run. */
	if (m->running)
		g_main_loop_run(m->loop);
	for (gsize i = 0; i < G_N_ELEMENTS(sources); i++)
		g_source_remove(sources[i]);
	if (m->kill_timer)
		g_source_remove(m->kill_timer);
	m->kill_timer = 0;
	g_main_loop_unref(m->loop);
	m->loop = NULL;
}

/* ---- matrix.json and the table ----------------------------------------- */

/* The statistics matrix.json keeps of every stage, and the table shows. */
static const IrqstormStat json_stats[] = {
	IRQSTORM_STAT_P50, IRQSTORM_STAT_P99, IRQSTORM_STAT_MAX,
};
static const IrqstormStat table_stats[] = { IRQSTORM_STAT_P99, IRQSTORM_STAT_MAX };

static const char *state_name(const CellRun *r)
{
	switch (r->state) {
	case CELL_SKIPPED:
		return "skipped";
	case CELL_RUNNING:
		return "running";
	case CELL_FINISHED:
		return r->code < 0 && !r->child.pid ? "not started" : "ran";
	case CELL_PENDING:
	default:
		return "not run";
	}
}

/* Per stage of the cell's summary, the json_stats in ns (null: none). */
static void add_cell_stages(JsonBuilder *b, const IrqstormSummary *s)
{
	json_builder_set_member_name(b, "stages");
	json_builder_begin_object(b);
	for (guint i = 0; s && i < s->stages->len; i++) {
		const IrqstormStageStats *st = s->stages->pdata[i];

		json_builder_set_member_name(b, st->name);
		json_builder_begin_object(b);
		for (gsize k = 0; k < G_N_ELEMENTS(json_stats); k++)
			irqstorm_json_add_rounded(b, irqstorm_stat_key(json_stats[k]),
						  st->cycles ? st->v[json_stats[k]] : NAN);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

static void add_cell(JsonBuilder *b, const CellRun *r, GPtrArray *varies)
{
	gboolean exited = r->state == CELL_SKIPPED ||
			  (r->state == CELL_FINISHED && r->code >= 0);

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "dir", r->cell->name);
	json_builder_set_member_name(b, "values");
	json_builder_begin_object(b);
	for (guint i = 0; i < varies->len; i++)
		irqstorm_json_add_string(b, ((IrqstormVary *)varies->pdata[i])->key,
					 r->cell->values[i]);
	json_builder_end_object(b);
	irqstorm_json_add_string(b, "status", state_name(r));
	irqstorm_json_add_rounded(b, "exit_status", exited ? r->code : NAN);
	irqstorm_json_add_bool(b, "complete", r->summary && r->summary->complete);
	irqstorm_json_add_string(b, "ended", irqstorm_cell_end_name(r->end));
	irqstorm_json_add_bool(b, "outcome", irqstorm_cell_end_is_outcome(r->end));
	irqstorm_json_add_string(b, "reason", r->why);
	add_cell_stages(b, r->summary);
	json_builder_end_object(b);
}

static JsonNode *matrix_json(const Matrix *m, GPtrArray *varies)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "scenario", m->scenario);
	irqstorm_json_add_strv(b, "set", (const char *const *)m->sets);
	irqstorm_json_add_strv(b, "run_options", (const char *const *)m->passthrough);
	json_builder_set_member_name(b, "vary");
	json_builder_begin_array(b);
	for (guint i = 0; i < varies->len; i++) {
		const IrqstormVary *v = varies->pdata[i];

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "key", v->key);
		irqstorm_json_add_strv(b, "values", (const char *const *)v->values);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	irqstorm_json_add_bool(b, "interrupted", m->interrupted);
	json_builder_set_member_name(b, "cells");
	json_builder_begin_array(b);
	for (guint c = 0; c < m->n; c++)
		add_cell(b, &m->runs[c], varies);
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static gboolean write_matrix_json(const Matrix *m, GPtrArray *varies, GError **error)
{
	g_autofree char *path = g_build_filename(m->out, MATRIX_FILE, NULL);
	g_autoptr(JsonNode) root = matrix_json(m, varies);

	return irqstorm_write_json_file(path, root, error);
}

/* The strings of a JSON array member, or NULL when it is not one. */
static char **json_strv(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);
	GPtrArray *a;
	JsonArray *arr;

	if (!n || !JSON_NODE_HOLDS_ARRAY(n))
		return NULL;
	arr = json_node_get_array(n);
	a = g_ptr_array_new();
	for (guint i = 0; i < json_array_get_length(arr); i++) {
		const char *s = json_array_get_string_element(arr, i);

		g_ptr_array_add(a, g_strdup(s ? s : ""));
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

static gboolean strv_same(char **a, char **b)
{
	static char *empty[] = { NULL };

	return g_strv_equal((const char *const *)(a ? a : empty),
			    (const char *const *)(b ? b : empty));
}

/* An existing OUT/matrix.json must come from the same scenario, --set and
 * run options: otherwise its finished cells would be reused as if they
 * were this matrix's. */
static gboolean check_same_matrix(const Matrix *m, GError **error)
{
	g_autofree char *path = g_build_filename(m->out, MATRIX_FILE, NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) sets = NULL, opts = NULL;
	JsonNode *root;
	JsonObject *o;
	const char *scenario;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	if (!json_parser_load_from_file(parser, path, &err)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: %s (remove it, or choose another --out)", path, err->message);
		return FALSE;
	}
	root = json_parser_get_root(parser);
	o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
	scenario = o ? json_object_get_string_member_with_default(o, "scenario", NULL) : NULL;
	sets = o ? json_strv(o, "set") : NULL;
	opts = o ? json_strv(o, "run_options") : NULL;
	if (!scenario || !sets || !opts) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not a matrix file (remove it, or choose another --out)", path);
		return FALSE;
	}
	if (strcmp(scenario, m->scenario) || !strv_same(sets, m->sets) ||
	    !strv_same(opts, m->passthrough)) {
		g_autofree char *was_sets = g_strjoinv(" ", sets);
		g_autofree char *was_opts = g_strjoinv(" ", opts);

		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s holds a matrix of another invocation (scenario %s, "
			    "--set [%s], run options [%s]); its finished cells would "
			    "be taken for this one's: choose another --out, or remove "
			    "it to start over", m->out, scenario, was_sets, was_opts);
		return FALSE;
	}
	return TRUE;
}

static char *cell_exit_text(const CellRun *r)
{
	const char *mark = r->summary && !r->summary->complete ? " INCOMPLETE" :
			   !r->summary ? " no summary" : "";

	switch (r->state) {
	case CELL_PENDING:
		return g_strdup("not run");
	case CELL_RUNNING:
		return g_strdup("running");
	case CELL_SKIPPED:
	case CELL_FINISHED:
	default:
		if (r->code >= 0)
			return g_strdup_printf("%d%s", r->code, mark);
		if (!r->child.pid)
			return g_strdup("not started");
		if (WIFSIGNALED(r->child.wait_status))
			return g_strdup_printf("killed (%s)", strsignal(WTERMSIG(r->child.wait_status)));
		return g_strdup("?");
	}
}

static char *us_text(const IrqstormStageStats *st, IrqstormStat s)
{
	if (!st || !st->cycles || isnan(st->v[s]))
		return g_strdup("-");
	return g_strdup_printf("%.3f", st->v[s] / 1e3);
}

/* The union of the cells' stage names, in order of first appearance. */
static GPtrArray *matrix_stages(const Matrix *m)
{
	g_autoptr(GPtrArray) summaries = g_ptr_array_new();

	for (guint c = 0; c < m->n; c++)
		if (m->runs[c].summary)
			g_ptr_array_add(summaries, m->runs[c].summary);
	return irqstorm_summaries_stage_names((IrqstormSummary *const *)summaries->pdata,
					      summaries->len);
}

/* The header row: the varied keys' names, exit, ended, each stage's stats. */
static char **header_row(GPtrArray *varies, guint nstages)
{
	GPtrArray *row = g_ptr_array_new();

	for (guint i = 0; i < varies->len; i++)
		g_ptr_array_add(row, g_strdup(((IrqstormVary *)varies->pdata[i])->name));
	g_ptr_array_add(row, g_strdup("exit"));
	g_ptr_array_add(row, g_strdup("ended"));
	for (guint s = 0; s < nstages; s++)
		for (gsize k = 0; k < G_N_ELEMENTS(table_stats); k++)
			g_ptr_array_add(row, g_strdup(irqstorm_stat_title(table_stats[k])));
	g_ptr_array_add(row, NULL);
	return (char **)g_ptr_array_free(row, FALSE);
}

/* A cell's row: its values, exit, how it ended, each stage's stats (us). */
static char **cell_row(const CellRun *r, GPtrArray *varies, GPtrArray *stages)
{
	GPtrArray *row = g_ptr_array_new();

	for (guint i = 0; i < varies->len; i++)
		g_ptr_array_add(row, g_strdup(r->cell->values[i]));
	g_ptr_array_add(row, cell_exit_text(r));
	g_ptr_array_add(row, g_strdup(r->state == CELL_RUNNING ? "running" :
				      irqstorm_cell_end_name(r->end)));
	for (guint s = 0; s < stages->len; s++) {
		const IrqstormStageStats *st = r->summary ?
			irqstorm_summary_stage(r->summary, stages->pdata[s]) : NULL;

		for (gsize k = 0; k < G_N_ELEMENTS(table_stats); k++)
			g_ptr_array_add(row, us_text(st, table_stats[k]));
	}
	g_ptr_array_add(row, NULL);
	return (char **)g_ptr_array_free(row, FALSE);
}

/*
 * One row per cell: the varied values (left-aligned), the exit and how
 * the cell ended, then p99 and max (us, right-aligned) of every stage any
 * cell has, each stage's name over its columns, three spaces before it.
 */
static GString *matrix_table(const Matrix *m, GPtrArray *varies)
{
	g_autoptr(GPtrArray) stages = matrix_stages(m);
	guint s0 = varies->len + 2, per = G_N_ELEMENTS(table_stats);
	g_autoptr(IrqstormTable) t = irqstorm_table_new(s0 + per * stages->len);
	GString *out = g_string_new(NULL);

	irqstorm_table_align_right(t, s0);
	for (guint s = 0; s < stages->len; s++) {
		irqstorm_table_set_gap(t, s0 + per * s, 3);
		irqstorm_table_add_heading(t, s0 + per * s, per, stages->pdata[s]);
	}
	irqstorm_table_add_row(t, header_row(varies, stages->len));
	for (guint c = 0; c < m->n; c++)
		irqstorm_table_add_row(t, cell_row(&m->runs[c], varies, stages));
	/* Without stages (no cell has a summary) there is no stage header. */
	if (stages->len)
		g_string_append(out, "p99 and max in us of virtual time from the raise\n");
	irqstorm_table_render(t, out);
	return out;
}

/* On stderr: every cell that ended in a tool failure, and why. */
static void report_tool_failures(const Matrix *m)
{
	guint n = 0;

	for (guint c = 0; c < m->n; c++)
		n += m->runs[c].end == IRQSTORM_CELL_TOOL_FAILURE;
	if (!n || m->interrupted)	/* ^C stopped them: rerun to resume */
		return;
	g_printerr("irqstorm: %u of %u cell%s ended in a tool failure, not an "
		   "outcome of the scenario:\n", n, m->n, m->n == 1 ? "" : "s");
	for (guint c = 0; c < m->n; c++) {
		const CellRun *r = &m->runs[c];

		if (r->end == IRQSTORM_CELL_TOOL_FAILURE)
			g_printerr("  %s: %s\n", r->cell->name, r->why);
	}
}

/* ---- the command ------------------------------------------------------ */

static const char matrix_description[] =
	"Runs SCENARIO once for every combination of the --vary values (the\n"
	"cartesian product), each run (a cell) as\n"
	"  irqstorm run SCENARIO --out OUT/CELL --quiet [--set ...] --set K=V ... [OPTIONS]\n"
	"where OPTIONS are what follows '--' (e.g. -- --duration 5 --no-csv),\n"
	"given to every run as they are. CELL names the values, e.g.\n"
	"rate=1000,threading=hardirq (the group is dropped when the key alone\n"
	"is unambiguous; characters outside [A-Za-z0-9._+=-] become '_'). Each\n"
	"cell's own output is in its matrix-run.log. Values cannot contain ','.\n"
	"Every cell's scenario is checked before the first one runs.\n"
	"\n"
	"Resumable: a cell whose directory already holds a complete run\n"
	"(summary.json, no INCOMPLETE) is skipped, so after ^C or a failure the\n"
	"same command carries on; OUT/matrix.json records the scenario, --set\n"
	"and run options, and another combination of them is refused in the\n"
	"same OUT. Remove a cell's directory to run it again.\n"
	"\n"
	"Parallel: --jobs N runs N cells at once. Under icount (the default)\n"
	"each QEMU runs its one vCPU in one host thread, so N = the number of\n"
	"host cores is reasonable; the results do not depend on N, because each\n"
	"run is deterministic in virtual time however loaded the host is.\n"
	"^C stops the running cells (they are marked INCOMPLETE and rerun next\n"
	"time), keeps the finished ones, and exits 1.\n"
	"\n"
	"At the end, OUT/matrix.json lists every cell (its values, directory,\n"
	"exit status, completeness, how it ended, p50/p99/max per stage in ns)\n"
	"and a table shows p99 and max of every stage per cell. For more, use\n"
	"irqstorm compare OUT/*/ or irqstorm plot OUT/*/ --out OUT.\n"
	"\n"
	"Each cell ends in an outcome of the scenario, which is a result, or in\n"
	"a tool failure, which is not. Outcomes: passed (exit 0), threshold\n"
	"(exit 2), stall (exit 3), and refused: the guest itself reported an\n"
	"error (e.g. the kernel refused the interrupt, \"Flags mismatch\"),\n"
	"exit 1 with the guest's status in summary.json. Anything else is a\n"
	"tool failure: QEMU did not start or crashed, the wall-clock timeout, a\n"
	"rig error, failed cross-checks, no summary.json. Tool failures are\n"
	"listed on stderr and run again when the matrix is resumed.\n"
	"\n"
	"Exit status: 0 every cell passed; 2 a cell exceeded a threshold, the\n"
	"others passed; 3 a cell stalled or was refused, the others were\n"
	"outcomes too; 4 a cell ended in a tool failure; 1 the matrix did not\n"
	"finish (^C, a bad option, OUT/matrix.json not written).\n"
	"\n"
	"Examples:\n"
	"  irqstorm matrix scenarios/default.ini --vary channel0.threading=hardirq,threaded,forced\n"
	"  irqstorm matrix scenarios/default.ini --vary channel0.rate=1000,5000,20000 \\\n"
	"      --vary channel0.threading=hardirq,threaded --jobs 2 --out results/rates\n"
	"  irqstorm matrix scenarios/default.ini --vary kernel.flavour=rt,dyn \\\n"
	"      --set kernel.cmdline=threadirqs -- --duration 5\n";

/* results/<scenario file name without extension>-matrix */
static char *default_out(const char *scenario)
{
	g_autofree char *base = g_path_get_basename(scenario);
	char *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return g_strdup_printf("results/%s-matrix", base);
}

/* Options for every run that matrix itself sets (or must check). */
static const char *passthrough_conflict(char **opts)
{
	static const char *const owned[] = { "--out", "-o", "--set", "-s", NULL };

	for (gsize i = 0; opts && opts[i]; i++) {
		for (gsize k = 0; owned[k]; k++) {
			gsize len = strlen(owned[k]);

			if (!strcmp(opts[i], owned[k]) ||
			    (g_str_has_prefix(opts[i], owned[k]) && opts[i][len] == '=') ||
			    (len == 2 && g_str_has_prefix(opts[i], owned[k])))
				return owned[k];
		}
	}
	return NULL;
}

/* Every cell's scenario must load, so that a typo fails now and not after
 * hours of the cells before it. */
static gboolean validate_cells(const char *scenario, char **sets, GPtrArray *cells,
			       GError **error)
{
	for (guint c = 0; c < cells->len; c++) {
		const IrqstormCell *cell = cells->pdata[c];
		g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load(scenario, error);

		if (!sc)
			return FALSE;
		for (gsize i = 0; sets && sets[i]; i++)
			if (!irqstorm_scenario_set(sc, sets[i], error))
				return FALSE;
		for (gsize i = 0; cell->sets[i]; i++) {
			if (!irqstorm_scenario_set(sc, cell->sets[i], error)) {
				g_prefix_error(error, "cell %s: ", cell->name);
				return FALSE;
			}
		}
	}
	return TRUE;
}

int irqstorm_cmd_matrix(int argc, char **argv)
{
	g_autofree char *out = NULL;
	g_auto(GStrv) vary = NULL;
	g_auto(GStrv) sets = NULL;
	g_auto(GStrv) passthrough = NULL;
	int jobs = 1;
	const GOptionEntry entries[] = {
		{ "vary", 'v', 0, G_OPTION_ARG_STRING_ARRAY, &vary,
		  "A scenario key and its values, one cell each (repeatable: the "
		  "cells are every combination)", "GROUP.KEY=V1,V2,..." },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Where the cells go (default: results/<scenario name>-matrix)", "DIR" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs,
		  "Cells run at once (default 1)", "N" },
		{ "set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &sets,
		  "Override a scenario key in every cell (repeatable)", "GROUP.KEY=VALUE" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new(
		"SCENARIO --vary GROUP.KEY=V1,V2,... [--vary ...] [-- RUN OPTIONS] - "
		"run every combination");
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) varies = NULL;
	g_autoptr(GPtrArray) cells = NULL;
	g_autofree IrqstormCellEnd *ends = NULL;
	g_autoptr(GString) table = NULL;
	const char *binary_env = g_getenv("IRQSTORM_RUN_BINARY");
	const char *conflict;
	Matrix m = { 0 };
	guint skipped = 0;
	int code;

	/* Everything after "--" is for the runs, not for us. */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			passthrough = g_strdupv(argv + i + 1);
			argc = i;
			break;
		}
	}
	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx, matrix_description);
	if (!g_option_context_parse(ctx, &argc, &argv, &err))
		return irqstorm_usage_error(ctx, "%s", err->message);
	if (argc != 2)
		return irqstorm_usage_error(ctx, "matrix needs exactly one SCENARIO file");
	if (jobs < 1)
		return irqstorm_usage_error(ctx, "--jobs must be at least 1");
	if ((conflict = passthrough_conflict(passthrough))) {
		g_autofree char *msg = g_strdup_printf(
			"%s after '--': matrix sets --out per cell, and --set goes before '--' "
			"(so that it is checked before any cell runs)", conflict);

		return irqstorm_usage_error(ctx, "%s", msg);
	}
	varies = irqstorm_matrix_parse_vary((const char *const *)vary, &err);
	if (!varies)
		return irqstorm_usage_error(ctx, "%s", err->message);
	for (gsize i = 0; sets && sets[i]; i++) {
		for (guint j = 0; j < varies->len; j++) {
			const char *key = ((IrqstormVary *)varies->pdata[j])->key;
			gsize len = strlen(key);

			if (!strncmp(sets[i], key, len) && sets[i][len] == '=') {
				g_autofree char *msg = g_strdup_printf(
					"%s is both --set and --vary", key);

				return irqstorm_usage_error(ctx, "%s", msg);
			}
		}
	}
	cells = irqstorm_matrix_cells(varies, &err);
	if (!cells || !validate_cells(argv[1], sets, cells, &err)) {
		g_printerr("irqstorm: %s\n", err->message);
		return IRQSTORM_EXIT_ERROR;
	}

	m.scenario = argv[1];
	m.sets = sets;
	m.passthrough = passthrough;
	m.jobs = (guint)jobs;
	if (!out)
		out = default_out(argv[1]);
	m.out = out;
	if (binary_env && *binary_env)
		m.binary = g_strdup(binary_env);
	else if (!(m.binary = g_file_read_link("/proc/self/exe", &err))) {
		g_printerr("irqstorm: cannot find my own executable: %s\n", err->message);
		return IRQSTORM_EXIT_ERROR;
	}
	if (g_mkdir_with_parents(out, 0755) < 0) {
		g_printerr("irqstorm: cannot create %s: %s\n", out, g_strerror(errno));
		g_free(m.binary);
		return IRQSTORM_EXIT_ERROR;
	}
	if (!check_same_matrix(&m, &err)) {
		g_printerr("irqstorm: %s\n", err->message);
		g_free(m.binary);
		return IRQSTORM_EXIT_ERROR;
	}

	m.n = cells->len;
	m.runs = g_new0(CellRun, m.n);
	for (guint c = 0; c < m.n; c++) {
		CellRun *r = &m.runs[c];

		r->m = &m;
		r->index = c;
		r->cell = cells->pdata[c];
		r->dir = g_build_filename(out, r->cell->name, NULL);
		r->code = -1;
		r->summary = complete_summary(r->dir);
		if (r->summary) {
			r->state = CELL_SKIPPED;
			r->code = r->summary->return_code;
			r->end = irqstorm_matrix_classify(r->code, r->summary,
							  &r->why);
			skipped++;
		}
	}
	printf("irqstorm: matrix of %u cell%s in %s, %u at a time%s\n", m.n,
	       m.n == 1 ? "" : "s", out, m.jobs,
	       skipped ? "; finished cells are skipped" : "");
	for (guint c = 0; c < m.n; c++)
		if (m.runs[c].state == CELL_SKIPPED)
			say(&m.runs[c], "skipped (done)");
	fflush(stdout);
	if (!write_matrix_json(&m, varies, &err)) {
		g_printerr("irqstorm: %s\n", err->message);
		code = IRQSTORM_EXIT_ERROR;
		goto done;
	}

	run_cells(&m);

	ends = g_new0(IrqstormCellEnd, m.n);
	for (guint c = 0; c < m.n; c++)
		ends[c] = m.runs[c].end;
	code = irqstorm_matrix_exit_code(ends, m.n);
	if (m.interrupted)
		code = IRQSTORM_EXIT_ERROR;
	if (!write_matrix_json(&m, varies, &err)) {
		g_printerr("irqstorm: %s\n", err->message);
		code = IRQSTORM_EXIT_ERROR;
	}
	table = matrix_table(&m, varies);
	printf("\n%s", table->str);
	printf("\n%s/%s%s\n", out, MATRIX_FILE,
	       m.interrupted ? " (interrupted: run the same command again to resume)" : "");
	report_tool_failures(&m);
done:
	for (guint c = 0; c < m.n; c++)
		cell_free_run(&m.runs[c]);
	g_free(m.runs);
	g_free(m.binary);
	return code;
}
