/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own reports in its log (console.log): a bug, a lockdep
 * splat, a lockup, a stall, a line the spurious-interrupt detector shut.
 * Each kind is recognised by the words the kernel prints it with (the
 * table in kreports.c names the function that prints them), with the
 * first frames of its Call Trace. A fault fails the run unless the
 * scenario expects its kind ([run] kernel_expect); a notice (a refused
 * request_irq) never does: it is an outcome the run's printout explains.
 */
#ifndef IRQSTORM_KREPORTS_H
#define IRQSTORM_KREPORTS_H

#include <glib.h>

#include "symbols.h"

/* The frames of a Call Trace a report keeps. */
#define IRQSTORM_KREPORT_FRAMES 8

typedef struct {
	const char *kind;	/* a name of the table (static) */
	gboolean fault;		/* a bug the kernel reports, not a notice */
	char *title;		/* its first line, without the time stamp */
	GPtrArray *then;	/* lines that say what became of it (char *):
				 * "Disabling IRQ #21" after "nobody cared" */
	GPtrArray *trace;	/* its first frames (char *), as printed, or
				 * named from System.map where printed as an
				 * address */
	gboolean expected;	/* the scenario expects its kind (set by the
				 * judge, not the parser) */
} IrqstormKreport;

/* The reports in a console's text, in the order printed (IrqstormKreport *).
 * A report the guest's init shows again (the same title) is one report. */
GPtrArray *irqstorm_kreports_parse(const char *console_text);

/* Name the frames printed as bare addresses (a kernel without kallsyms):
 * "? 0xffffffff812632d1" becomes "? note_interrupt+0x1e1". */
void irqstorm_kreports_name_frames(GPtrArray *reports, const IrqstormSymbols *syms);

/* Is kind a fault kind of the table (what [run] kernel_expect may name)? */
gboolean irqstorm_kreport_kind_known(const char *kind);

/* The kinds a [run] kernel_expect value names: split at ",", each stripped
 * ("" names none). Checked by the scenario, judged by the run. */
GStrv irqstorm_kreport_kinds_split(const char *list);

/* The fault kinds, ", "-separated, for messages and help. */
char *irqstorm_kreport_kinds(void);

#endif /* IRQSTORM_KREPORTS_H */
