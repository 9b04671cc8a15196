/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Launching QEMU: its own process group, killed with it, never orphaned.
 */
#ifndef IRQSTORM_LAUNCH_H
#define IRQSTORM_LAUNCH_H

#include <glib.h>

typedef struct {
	GPid pid;		/* also the process group id; 0: none */
	gboolean exited;
	int wait_status;	/* as from waitpid(), valid when exited */
	double cpu_seconds;	/* user + system CPU time, valid when exited */
	/* What its threads' schedstat said when last sampled (while it ran):
	 * time on a host CPU, and time runnable, waiting for one. */
	double sched_run_seconds, sched_wait_seconds;
	gboolean sched_known;	/* sampled at least once */
} IrqstormChild;

gboolean irqstorm_child_spawn(IrqstormChild *c, const char *const *argv,
			      int out_fd, GError **error);
gboolean irqstorm_child_reap(IrqstormChild *c, guint timeout_ms);
void irqstorm_child_kill(IrqstormChild *c);

/*
 * Sample the running child's threads' schedstat (/proc/PID/task/TID/
 * schedstat: run time, run-queue wait, both cumulative): how long the host
 * kept it waiting for a CPU so far. Threads that have exited are not
 * counted; QEMU's vCPU threads live to its end. FALSE when not readable.
 */
gboolean irqstorm_child_sample_sched(IrqstormChild *c);

/*
 * Did the host starve QEMU: did its threads wait for a host CPU at least
 * IRQSTORM_STARVED_SHARE of the time they ran or waited? Then a late guest
 * is the host's doing, not its kernel's (without icount its clock is the
 * host's; with icount a boot still takes wall time). If so, *why (if not
 * NULL) says it in numbers.
 */
#define IRQSTORM_STARVED_SHARE 0.10
gboolean irqstorm_sched_starved(double run_s, double wait_s, char **why);
char *irqstorm_child_describe_exit(const IrqstormChild *c);

#endif /* IRQSTORM_LAUNCH_H */
