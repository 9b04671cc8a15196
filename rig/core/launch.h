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
} IrqstormChild;

gboolean irqstorm_child_spawn(IrqstormChild *c, const char *const *argv,
			      int out_fd, GError **error);
gboolean irqstorm_child_reap(IrqstormChild *c, guint timeout_ms);
void irqstorm_child_kill(IrqstormChild *c);
char *irqstorm_child_describe_exit(const IrqstormChild *c);

#endif /* IRQSTORM_LAUNCH_H */
