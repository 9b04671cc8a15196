// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm sweep --jobs N: the offsets cut into N contiguous parts on the
 * same grid, each swept by its own boot (`irqstorm sweep ... --offset
 * A:B:STEP --out OUT/part-K --no-random`), the boots side by side. Each
 * child runs in its own process group and dies with us (core/launch.h);
 * a signal to us is passed on to every child, which stops its QEMU and
 * marks its part incomplete.
 */
#include "sweep-parts.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <glib-unix.h>

#include "cmd.h"
#include "core/launch.h"

typedef struct {
	IrqstormChild child;
	char *dir;
	guint64 first, last;		/* its offsets, ns */
	gboolean running;
	int code;			/* its exit status; -1: killed or not run */
} Part;

typedef struct {
	const IrqstormSweepParts *p;
	Part *parts;
	guint running;
	GMainLoop *loop;
} PartsRun;

/* The k-th of n contiguous shares of count offsets: [*i0, *i1). */
static void share(guint64 count, guint n, guint k, guint64 *i0, guint64 *i1)
{
	*i0 = count * k / n;
	*i1 = count * (k + 1) / n;
}

static GPtrArray *part_argv(const IrqstormSweepParts *p, const Part *part)
{
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);

	g_ptr_array_add(a, g_strdup(p->binary));
	g_ptr_array_add(a, g_strdup("sweep"));
	g_ptr_array_add(a, g_strdup(p->scenario));
	g_ptr_array_add(a, g_strdup_printf("--offset=%" G_GUINT64_FORMAT ":%"
					   G_GUINT64_FORMAT ":%" G_GUINT64_FORMAT,
					   part->first, part->last, p->step));
	g_ptr_array_add(a, g_strdup_printf("--out=%s", part->dir));
	g_ptr_array_add(a, g_strdup("--quiet"));
	g_ptr_array_add(a, g_strdup("--no-random"));
	if (p->no_interference)
		g_ptr_array_add(a, g_strdup("--no-interference"));
	if (p->duration)
		g_ptr_array_add(a, g_strdup_printf("--duration=%s", p->duration));
	for (gsize i = 0; p->sets && p->sets[i]; i++)
		g_ptr_array_add(a, g_strdup_printf("--set=%s", p->sets[i]));
	g_ptr_array_add(a, NULL);
	return a;
}

static void on_part_exit(GPid pid, gint status, gpointer user)
{
	PartsRun *r = user;

	for (guint k = 0; k < r->p->parts; k++) {
		Part *part = &r->parts[k];

		if (part->child.pid != pid)
			continue;
		part->running = FALSE;
		part->child.exited = TRUE;
		part->child.wait_status = status;
		part->code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
		g_print("sweep: part %u of %u (offsets %" G_GUINT64_FORMAT " to %"
			G_GUINT64_FORMAT " ns) ended: exit %d\n", k + 1, r->p->parts,
			part->first, part->last, part->code);
	}
	g_spawn_close_pid(pid);
	if (--r->running == 0)
		g_main_loop_quit(r->loop);
}

/* A signal: pass SIGTERM on to every part still running. */
static gboolean on_signal(gpointer user)
{
	PartsRun *r = user;

	g_printerr("irqstorm: stopping the sweep's parts\n");
	for (guint k = 0; k < r->p->parts; k++)
		if (r->parts[k].running)
			kill(-r->parts[k].child.pid, SIGTERM);
	return G_SOURCE_CONTINUE;
}

/* Start part k, its output in OUT/part-K.log; FALSE after saying why. */
static gboolean start_part(PartsRun *r, guint k)
{
	Part *part = &r->parts[k];
	g_autoptr(GPtrArray) argv = part_argv(r->p, part);
	g_autofree char *log = g_strconcat(part->dir, ".log", NULL);
	g_autoptr(GError) err = NULL;
	int fd = g_open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0) {
		irqstorm_cmd_fail("cannot create %s: %s", log, g_strerror(errno));
		return FALSE;
	}
	if (!irqstorm_child_spawn(&part->child, (const char *const *)argv->pdata, fd, &err)) {
		close(fd);
		irqstorm_cmd_fail("cannot start part %u: %s", k + 1, err->message);
		return FALSE;
	}
	close(fd);
	part->running = TRUE;
	r->running++;
	g_child_watch_add(part->child.pid, on_part_exit, r);
	g_print("sweep: part %u of %u: offsets %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
		" ns, in %s\n", k + 1, r->p->parts, part->first, part->last, part->dir);
	return TRUE;
}

int irqstorm_sweep_parts_run(const IrqstormSweepParts *p, char ***dirs)
{
	g_autofree Part *parts = g_new0(Part, p->parts);
	PartsRun r = { .p = p, .parts = parts, .loop = g_main_loop_new(NULL, FALSE) };
	guint sig[3];
	int worst = IRQSTORM_EXIT_PASSED;

	for (guint k = 0; k < p->parts; k++) {
		guint64 i0, i1;

		share(p->count, p->parts, k, &i0, &i1);
		parts[k].first = p->start + i0 * p->step;
		parts[k].last = p->start + (i1 - 1) * p->step;
		parts[k].dir = g_strdup_printf("%s/part-%u", p->out, k + 1);
		parts[k].code = -1;
	}
	sig[0] = g_unix_signal_add(SIGINT, on_signal, &r);
	sig[1] = g_unix_signal_add(SIGTERM, on_signal, &r);
	sig[2] = g_unix_signal_add(SIGHUP, on_signal, &r);
	for (guint k = 0; k < p->parts; k++)
		if (!start_part(&r, k)) {
			on_signal(&r);
			break;
		}
	if (r.running)
		g_main_loop_run(r.loop);
	for (guint i = 0; i < G_N_ELEMENTS(sig); i++)
		g_source_remove(sig[i]);
	g_main_loop_unref(r.loop);

	*dirs = g_new0(char *, p->parts + 1);
	for (guint k = 0; k < p->parts; k++) {
		if (parts[k].code < 0 || parts[k].code == IRQSTORM_EXIT_ERROR)
			worst = IRQSTORM_EXIT_ERROR;
		else if (worst != IRQSTORM_EXIT_ERROR)
			worst = MAX(worst, parts[k].code);
		(*dirs)[k] = parts[k].dir;
	}
	return worst;
}
