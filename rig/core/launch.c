// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Launching QEMU. The child gets its own process group (so one kill reaches
 * anything it starts) and PR_SET_PDEATHSIG (so it dies with us even if we
 * are killed with SIGKILL and get no chance to clean up).
 */
#include "launch.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* Runs in the child between fork and exec: async-signal-safe calls only. */
static void child_setup(gpointer data)
{
	pid_t parent = GPOINTER_TO_INT(data);

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* The parent may have died before prctl took effect. */
	if (getppid() != parent)
		_exit(127);
}

/* Start argv with stdout and stderr both going to out_fd. */
gboolean irqstorm_child_spawn(IrqstormChild *c, const char *const *argv,
			      int out_fd, GError **error)
{
	memset(c, 0, sizeof(*c));
	/* Our own process group too, so that ^C reaches only us, not QEMU. */
	if (!g_spawn_async_with_pipes_and_fds(NULL, argv, NULL,
					      G_SPAWN_DO_NOT_REAP_CHILD |
					      G_SPAWN_STDIN_FROM_DEV_NULL,
					      child_setup,
					      GINT_TO_POINTER(getpid()),
					      -1, out_fd, out_fd, NULL, NULL, 0,
					      &c->pid, NULL, NULL, NULL, error))
		return FALSE;
	/* Also from here, so the group exists before we ever signal it. */
	setpgid(c->pid, c->pid);
	return TRUE;
}

/* waitpid() that also records the CPU time the child used. */
static pid_t child_wait(IrqstormChild *c, int options)
{
	struct rusage ru;
	pid_t r = wait4(c->pid, &c->wait_status, options, &ru);

	if (r == c->pid)
		c->cpu_seconds = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
				 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	return r;
}

/* One thread's "RUN_NS WAIT_NS SLICES" into *run and *wait (ns). */
static gboolean read_schedstat(const char *path, guint64 *run, guint64 *wait)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) f = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return FALSE;
	f = g_strsplit_set(g_strstrip(text), " ", -1);
	return g_strv_length(f) >= 2 &&
	       g_ascii_string_to_unsigned(f[0], 10, 0, G_MAXUINT64, run, NULL) &&
	       g_ascii_string_to_unsigned(f[1], 10, 0, G_MAXUINT64, wait, NULL);
}

gboolean irqstorm_child_sample_sched(IrqstormChild *c)
{
	g_autofree char *tasks = NULL;
	g_autoptr(GDir) dir = NULL;
	guint64 run = 0, wait = 0;
	const char *tid;
	guint n = 0;

	if (!c->pid || c->exited)
		return FALSE;
	tasks = g_strdup_printf("/proc/%d/task", c->pid);
	dir = g_dir_open(tasks, 0, NULL);
	if (!dir)
		return FALSE;
	while ((tid = g_dir_read_name(dir))) {
		g_autofree char *path = g_build_filename(tasks, tid, "schedstat", NULL);
		guint64 r, w;

		if (read_schedstat(path, &r, &w)) {
			run += r;
			wait += w;
			n++;
		}
	}
	if (!n)
		return FALSE;
	c->sched_run_seconds = run / 1e9;
	c->sched_wait_seconds = wait / 1e9;
	c->sched_known = TRUE;
	return TRUE;
}

gboolean irqstorm_sched_starved(double run_s, double wait_s, char **why)
{
	double total = run_s + wait_s;

	if (total <= 0 || wait_s < IRQSTORM_STARVED_SHARE * total)
		return FALSE;
	if (why)
		*why = g_strdup_printf("QEMU's threads waited %.2f s for a host CPU, %.0f%% "
				       "of their %.2f s (schedstat; the bound is %.0f%%)",
				       wait_s, 100 * wait_s / total, total,
				       100 * IRQSTORM_STARVED_SHARE);
	return TRUE;
}

/* Wait up to timeout_ms for the child to exit; TRUE once it has. */
gboolean irqstorm_child_reap(IrqstormChild *c, guint timeout_ms)
{
	gint64 deadline = g_get_monotonic_time() + (gint64)timeout_ms * 1000;

	while (c->pid && !c->exited) {
		pid_t r = child_wait(c, WNOHANG);

		if (r == c->pid || (r < 0 && errno == ECHILD)) {
			c->exited = TRUE;
			break;
		}
		if (g_get_monotonic_time() >= deadline)
			break;
		g_usleep(10000);
	}
	return c->exited;
}

/* Kill the child's whole process group and reap the child. */
void irqstorm_child_kill(IrqstormChild *c)
{
	if (!c->pid)
		return;
	kill(-c->pid, SIGKILL);
	if (!c->exited) {
		while (child_wait(c, 0) < 0 && errno == EINTR)
			;
		c->exited = TRUE;
	}
}

/* "exited with status N" or "killed by signal NAME". */
char *irqstorm_child_describe_exit(const IrqstormChild *c)
{
	if (!c->exited)
		return g_strdup("still running");
	if (WIFEXITED(c->wait_status))
		return g_strdup_printf("exited with status %d",
				       WEXITSTATUS(c->wait_status));
	if (WIFSIGNALED(c->wait_status))
		return g_strdup_printf("killed by signal %d (%s)",
				       WTERMSIG(c->wait_status),
				       strsignal(WTERMSIG(c->wait_status)));
	return g_strdup_printf("wait status 0x%x", c->wait_status);
}
