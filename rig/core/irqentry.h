/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The interrupts a vCPU took, seen from outside the guest: the kernel's
 * interrupt entry points (asm_common_interrupt, asm_sysvec_*), named in
 * the words a kernel developer uses, and the explain plugin's trace of
 * each time a vCPU started one (its interrupts mode,
 * include/irqstorm/explain.h). irqstorm sweep tells with it whether
 * another interrupt ran in an event's window.
 */
#ifndef IRQSTORM_RIG_IRQENTRY_H
#define IRQSTORM_RIG_IRQENTRY_H

#include <glib.h>

G_BEGIN_DECLS

/*
 * An interrupt entry point (or the exit every interrupt leaves through:
 * what NULL), or an interrupt a vCPU took at one, from t_ns to end_ns.
 */
typedef struct {
	guint64 t_ns;		/* virtual time its entry block started */
	guint64 end_ns;		/* when it reached the exit, or G_MAXUINT64 */
	guint64 reach_ns;	/* the latest end_ns of it and of every
				 * interrupt taken before it */
	guint64 vaddr;
	guint cpu;
	const char *what;	/* static: "the timer interrupt", ...; NULL:
				 * the exit */
	gboolean device;	/* a device interrupt's common entry */
} IrqstormIrqEntry;

/* Does the function named f enter a hard interrupt? */
gboolean irqstorm_irqentry_is_entry(const char *f);

/* The interrupt the entry f enters, in words ("the timer interrupt", "a
 * device interrupt", ... "a hard interrupt"). */
const char *irqstorm_irqentry_what(const char *f);

/* The entry points of a kernel's System.map, and its exit, by address. */
GArray *irqstorm_irqentry_points(const char *system_map, GError **error);

/* The plugin's entries file: each point's address, a line each. */
gboolean irqstorm_irqentry_write_points(const GArray *points, const char *path,
					GError **error);

/*
 * The plugin's trace of interrupts taken (or its tasks file, whose names
 * lines this skips), each named from points and
 * ended at the vCPU's next exit at its depth (nested interrupts pair
 * innermost first; an exit with none open is an exception's); by entry
 * time. An error for a trace without its end line (QEMU did not exit
 * normally) or with an address that is none of points.
 */
GArray *irqstorm_irqentry_read(const char *trace, const GArray *points,
			       GError **error);

/* The same from the lines of trace (irqstorm_explain_trace_lines()),
 * already read. */
GArray *irqstorm_irqentry_from_lines(char **lines, const char *trace, const GArray *points,
				     GError **error);

/*
 * The interrupts that ran in [from, to) of virtual time on vCPU cpu (any,
 * for G_MAXUINT): taken in it, or taken before and still running at from;
 * other than the event's own, the first device interrupt on cpu taken at
 * or after its raise at raise_ns (G_MAXUINT64: no event's own), and than
 * one running at trigger_ns (G_MAXUINT64: none), when the event's trigger
 * was written: a sweep's section that is itself an interrupt's handler.
 * *first (if not NULL) gets the first other's what, or NULL.
 */
guint irqstorm_irqentry_others(const GArray *taken, guint64 from, guint64 to,
			       guint cpu, guint64 raise_ns, guint64 trigger_ns,
			       const char **first);

G_END_DECLS

#endif /* IRQSTORM_RIG_IRQENTRY_H */
