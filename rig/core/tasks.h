/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The whole run's tasks, per vCPU: what irqstorm explain's rerun saw at
 * every context switch and every interrupt (the plugin's tasks file,
 * include/irqstorm/explain.h), as slices: each task from the switch to it
 * to the next, each hard interrupt nested in the task it interrupted.
 * explain writes them as explain/tasks.json, export draws them
 * (docs/export.md).
 */
#ifndef IRQSTORM_RIG_TASKS_H
#define IRQSTORM_RIG_TASKS_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	guint cpu;
	guint64 from_ns, to_ns;
	const char *name;	/* interned: "irq/21-irqstorm0 (pid 51, FIFO 50)",
				 * "IRQ 21 (irqstorm0)", "timer interrupt" */
	gboolean interrupt;	/* a hard interrupt, inside its task's slice */
} IrqstormTaskSlice;

/*
 * The tasks file at path, its interrupts named from points (irqentry.h):
 * the slices per vCPU in time order, tasks first. A task's slice ends at
 * the vCPU's next switch or, the last one, at the vCPU's last line; an
 * interrupt's is cut at the next switch (it cannot outlive its task). An
 * error for a file without its end line or with a line of no known kind.
 */
GArray *irqstorm_tasks_read(const char *path, const GArray *points, GError **error);

/* slices as tasks.json at path; and read back. */
gboolean irqstorm_tasks_write(const GArray *slices, const char *path, GError **error);
GArray *irqstorm_tasks_load(const char *path, GError **error);

G_END_DECLS

#endif
