// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix, the run: every cell is `irqstorm run` as a child process
 * in its own process group (core/launch.c), its output in the cell's
 * matrix-run.log; a GMainLoop starts up to --jobs of them and reaps them.
 * A cell whose directory already holds a complete run is not run again,
 * so an interrupted matrix resumes where it stopped. See matrix.h.
 */
#include "matrix.h"
#include "core/runfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#define CELL_LOG "matrix-run.log"
/* After SIGTERM, how long a cell may take to stop QEMU and write its
 * INCOMPLETE marker before its process group is killed. */
#define KILL_GRACE_S 15

static void cell_run_clear(IrqstormCellRun *r)
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

void irqstorm_matrix_say(const IrqstormCellRun *r, const char *fmt, ...)
{
	g_autofree char *msg = NULL;
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	printf("[%u/%u] %s: %s\n", r->index + 1, r->m->n, r->cell->name, msg);
	fflush(stdout);
}

static void schedule(IrqstormMatrixRun *m);

/*
 * Why a cell has no summary.json to say why: its INCOMPLETE marker (a
 * --quiet run prints little), else the last line it printed, else how it
 * exited.
 */
static char *cell_tail(const IrqstormCellRun *r)
{
	g_autofree char *marker = irqstorm_run_path(r->dir, IRQSTORM_FILE_MARKER);
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);
	g_autofree char *why = last_line(marker);

	if (why)
		return g_strconcat("INCOMPLETE: ", why, NULL);
	why = last_line(log);
	return why ? g_steal_pointer(&why) : g_strdup(r->how);
}

/* Read a finished cell's summary.json and decide how it ended. */
static void cell_classify(IrqstormCellRun *r)
{
	irqstorm_summary_free(r->summary);
	r->summary = irqstorm_summary_load(r->dir, NULL);
	g_clear_pointer(&r->why, g_free);
	if (r->code < 0) {
		r->end = r->m->interrupted ? IRQSTORM_CELL_INTERRUPTED :
			 IRQSTORM_CELL_TOOL_FAILURE;
		r->why = g_strdup(r->how);
		return;
	}
	r->end = irqstorm_matrix_classify(r->code, r->summary, &r->why);
	if (!r->summary) {
		g_free(r->why);
		r->why = cell_tail(r);
	}
	/* A cell the matrix's own ^C stopped did not fail: it was stopped. */
	if (r->end == IRQSTORM_CELL_TOOL_FAILURE && r->m->interrupted)
		r->end = IRQSTORM_CELL_INTERRUPTED;
}

/* "[i/n] cell: ..." saying how a finished cell ended. */
static void say_cell_end(const IrqstormCellRun *r)
{
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);

	switch (r->end) {
	case IRQSTORM_CELL_PASSED:
		irqstorm_matrix_say(r, "exit 0 in %.1f s", r->seconds);
		break;
	case IRQSTORM_CELL_THRESHOLD:
		irqstorm_matrix_say(r, "exit 2 (a scenario threshold was exceeded) in %.1f s",
		    r->seconds);
		break;
	case IRQSTORM_CELL_STALL:
		irqstorm_matrix_say(r, "exit 3 (the guest stalled) in %.1f s", r->seconds);
		break;
	case IRQSTORM_CELL_REFUSED:
		irqstorm_matrix_say(r, "exit 1 in %.1f s, refused by the guest: %s", r->seconds,
		    r->why);
		break;
	case IRQSTORM_CELL_KERNEL:
		irqstorm_matrix_say(r, "exit 5 in %.1f s, the kernel failed the run: %s",
		    r->seconds, r->why);
		break;
	case IRQSTORM_CELL_INTERRUPTED:
		irqstorm_matrix_say(r, "interrupted after %.1f s (run the same command again "
				    "to run it)", r->seconds);
		break;
	default:
		irqstorm_matrix_say(r, "TOOL FAILURE in %.1f s: %s (log: %s)", r->seconds,
		    r->why, log);
		break;
	}
}

static void on_cell_exit(GPid pid, gint status, gpointer user)
{
	IrqstormCellRun *r = user;
	IrqstormMatrixRun *m = r->m;

	g_spawn_close_pid(pid);
	r->child.exited = TRUE;
	r->child.wait_status = status;
	r->state = IRQSTORM_CELL_FINISHED;
	r->seconds = (g_get_monotonic_time() - r->started_us) / 1e6;
	r->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r->how = irqstorm_child_describe_exit(&r->child);
	m->running--;
	cell_classify(r);
	say_cell_end(r);
	schedule(m);
}

/* irqstorm run SCENARIO --out DIR --replace --quiet, the --sets, the
 * cell's, the rest. The matrix runs only cells it must (a resume runs
 * those that failed again): such a cell's earlier result is replaced once
 * the new one is complete, never lost to one that is not. */
static GPtrArray *cell_argv(const IrqstormMatrixPlan *plan, const IrqstormCellRun *r)
{
	GPtrArray *argv = g_ptr_array_new();

	g_ptr_array_add(argv, plan->binary);
	g_ptr_array_add(argv, "run");
	g_ptr_array_add(argv, plan->scenario);
	g_ptr_array_add(argv, "--out");
	g_ptr_array_add(argv, r->dir);
	g_ptr_array_add(argv, "--replace");
	g_ptr_array_add(argv, "--quiet");
	for (gsize i = 0; plan->sets && plan->sets[i]; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, plan->sets[i]);
	}
	for (gsize i = 0; r->cell->sets[i]; i++) {
		g_ptr_array_add(argv, "--set");
		g_ptr_array_add(argv, r->cell->sets[i]);
	}
	for (gsize i = 0; plan->passthrough && plan->passthrough[i]; i++)
		g_ptr_array_add(argv, plan->passthrough[i]);
	g_ptr_array_add(argv, NULL);
	return argv;
}

/* The cell's directory and its matrix-run.log, opened; -1 on error. */
static int open_cell_log(const IrqstormCellRun *r, GError **error)
{
	g_autofree char *log = g_build_filename(r->dir, CELL_LOG, NULL);
	int fd;

	if (g_mkdir_with_parents(r->dir, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", r->dir, g_strerror(errno));
		return -1;
	}
	fd = g_open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", log, g_strerror(errno));
	return fd;
}

/* Start one cell; on failure the cell is finished with code -1. */
static void start_cell(IrqstormMatrixRun *m, IrqstormCellRun *r)
{
	g_autoptr(GPtrArray) argv = cell_argv(m->plan, r);
	g_autoptr(GError) err = NULL;
	gboolean spawned;
	int fd;

	r->started_us = g_get_monotonic_time();
	fd = open_cell_log(r, &err);
	if (fd >= 0) {
		spawned = irqstorm_child_spawn(&r->child, (const char *const *)argv->pdata,
					       fd, &err);
		close(fd);
		if (spawned) {
			r->state = IRQSTORM_CELL_RUNNING;
			m->running++;
			g_child_watch_add(r->child.pid, on_cell_exit, r);
			irqstorm_matrix_say(r, "started");
			return;
		}
	}
	r->state = IRQSTORM_CELL_FINISHED;
	r->code = -1;
	r->how = g_strdup_printf("could not start: %s", err->message);
	r->end = IRQSTORM_CELL_TOOL_FAILURE;
	r->why = g_strdup(r->how);
	irqstorm_matrix_say(r, "TOOL FAILURE: %s", r->how);
}

/* Start cells while there is room; quit when nothing is left to wait for. */
static void schedule(IrqstormMatrixRun *m)
{
	while (!m->interrupted && m->running < m->plan->jobs && m->next < m->n) {
		IrqstormCellRun *r = &m->runs[m->next++];

		if (r->state == IRQSTORM_CELL_PENDING)
			start_cell(m, r);
	}
	if (!m->running && (m->interrupted || m->next >= m->n))
		g_main_loop_quit(m->loop);
}

static void kill_running(IrqstormMatrixRun *m, int sig)
{
	for (guint i = 0; i < m->n; i++)
		if (m->runs[i].state == IRQSTORM_CELL_RUNNING)
			kill(-m->runs[i].child.pid, sig);
}

static gboolean on_kill_timer(gpointer user)
{
	IrqstormMatrixRun *m = user;

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
	IrqstormMatrixRun *m = user;

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

void irqstorm_matrix_run_cells(IrqstormMatrixRun *m)
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

IrqstormMatrixRun *irqstorm_matrix_run_new(const IrqstormMatrixPlan *plan)
{
	IrqstormMatrixRun *m = g_new0(IrqstormMatrixRun, 1);

	m->plan = plan;
	m->n = plan->cells->len;
	m->runs = g_new0(IrqstormCellRun, m->n);
	for (guint c = 0; c < m->n; c++) {
		IrqstormCellRun *r = &m->runs[c];

		r->m = m;
		r->index = c;
		r->cell = plan->cells->pdata[c];
		r->dir = g_build_filename(plan->out, r->cell->name, NULL);
		r->code = -1;
		if (plan->shards && irqstorm_matrix_shard_of(c, plan->shards) != plan->shard) {
			r->state = IRQSTORM_CELL_OTHER_SHARD;
			continue;
		}
		r->summary = complete_summary(r->dir);
		if (r->summary) {
			r->state = IRQSTORM_CELL_SKIPPED;
			r->code = r->summary->return_code;
			r->end = irqstorm_matrix_classify(r->code, r->summary, &r->why);
		}
	}
	return m;
}

void irqstorm_matrix_run_free(IrqstormMatrixRun *m)
{
	if (!m)
		return;
	for (guint c = 0; c < m->n; c++)
		cell_run_clear(&m->runs[c]);
	g_free(m->runs);
	g_free(m);
}

void irqstorm_matrix_announce(const IrqstormMatrixRun *m)
{
	guint skipped = 0, other = 0;

	for (guint c = 0; c < m->n; c++) {
		skipped += m->runs[c].state == IRQSTORM_CELL_SKIPPED;
		other += m->runs[c].state == IRQSTORM_CELL_OTHER_SHARD;
	}
	if (m->plan->shards)
		printf("irqstorm: shard %u of %u: %u of the matrix's %u cells\n",
		       m->plan->shard, m->plan->shards, m->n - other, m->n);
	printf("irqstorm: matrix of %u cell%s in %s, %u at a time%s\n", m->n,
	       m->n == 1 ? "" : "s", m->plan->out, m->plan->jobs,
	       skipped ? "; finished cells are skipped" : "");
	for (guint c = 0; c < m->n; c++)
		if (m->runs[c].state == IRQSTORM_CELL_SKIPPED)
			irqstorm_matrix_say(&m->runs[c], "skipped (done)");
	fflush(stdout);
}

int irqstorm_matrix_run_exit_code(const IrqstormMatrixRun *m)
{
	g_autofree IrqstormCellEnd *ends = g_new0(IrqstormCellEnd, m->n);
	guint n = 0;

	if (m->interrupted)
		return IRQSTORM_EXIT_ERROR;
	for (guint c = 0; c < m->n; c++)
		if (m->runs[c].state != IRQSTORM_CELL_OTHER_SHARD)
			ends[n++] = m->runs[c].end;
	return irqstorm_matrix_exit_code(ends, n);
}
