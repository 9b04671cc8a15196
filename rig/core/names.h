/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names for explain: where QEMU's explain plugin reads which task a vCPU
 * switched to and which interrupt it handles (the names file of
 * include/irqstorm/explain.h), from the kernel's System.map and the
 * offsets its identity's kernel-layout has; and those reads, as the plugin
 * writes them, turned into the words explain prints.
 */
#ifndef IRQSTORM_RIG_NAMES_H
#define IRQSTORM_RIG_NAMES_H

#include <glib.h>

G_BEGIN_DECLS

/*
 * Write the names file for the kernel of system_map and layout (its
 * identity's kernel-layout, "NAME:OFFSET,..."). FALSE with the reason when
 * the layout lacks a name or the map a function.
 */
gboolean irqstorm_names_write(const char *system_map, const char *layout,
			      const char *path, GError **error);

/*
 * A task line's fields after "task START VCPU " ("PID POLICY RT_PRIORITY
 * STATIC_PRIO COMM") in words: "irq/24-irqstorm0 (pid 57, FIFO 50)",
 * "sh (pid 1, OTHER nice 0)", "swapper/0 (idle, pid 0)". NULL if it does
 * not parse. Interned.
 */
const char *irqstorm_names_task(const char *fields);

/* An irq line's fields after "irq START VCPU " ("IRQ NAME"): "IRQ 24
 * (irqstorm0)". NULL if it does not parse. Interned. */
const char *irqstorm_names_irq(const char *fields);

/*
 * A names line of the plugin's traces ("task START_NS VCPU ..." or "irq
 * START_NS VCPU ..."): *task says which, *t_ns and *vcpu where, *words the
 * rest in words (irqstorm_names_task, _irq). FALSE if it does not parse.
 */
gboolean irqstorm_names_line(const char *line, gboolean *task, guint64 *t_ns, guint *vcpu,
			     const char **words);

G_END_DECLS

#endif /* IRQSTORM_RIG_NAMES_H */
