/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Latencies derived from one log record: the stages of
 * include/irqstorm/stages.h (IRQSTORM_STAGES), each a difference of two
 * points of the record on QEMU's virtual clock, in ns. A point is the
 * raise, a stamp (include/irqstorm/abi.h, IRQSTORM_STAMPS), or the start
 * of the work (the bh stamp if it was deferred, else the thread stamp if
 * there is one, else the hardirq stamp). Interrupt stages never come from probe records,
 * nor probe stages from interrupt records; the table lists the interrupt
 * stages first.
 */
#ifndef IRQSTORM_RIG_STAGES_H
#define IRQSTORM_RIG_STAGES_H

#include <glib.h>

#include "irqstorm/abi.h"
#include "irqstorm/stages.h"

G_BEGIN_DECLS

/* Stamp p's row of IRQSTORM_STAMPS (include/irqstorm/abi.h): its name,
 * register, flag, and where its time and vCPU are in a record. */
const struct irqstorm_stamp_desc *irqstorm_stamp(guint p);

#define IRQSTORM_STAGE_ENUM(id, name, rec, from, to, help) IRQSTORM_STAGE_##id,
typedef enum {
	IRQSTORM_STAGES(IRQSTORM_STAGE_ENUM)
	IRQSTORM_STAGE_COUNT,	/* number of stages, not a stage */
} IrqstormStage;
#undef IRQSTORM_STAGE_ENUM

/* How many stages are the interrupts' (they come first). */
#define IRQSTORM_STAGE_OF_IRQ	1
#define IRQSTORM_STAGE_OF_PROBE	0
#define IRQSTORM_STAGE_COUNT_IRQ(id, name, rec, from, to, help) \
	+IRQSTORM_STAGE_OF_##rec
enum { IRQSTORM_STAGE_IRQ_COUNT = 0 IRQSTORM_STAGES(IRQSTORM_STAGE_COUNT_IRQ) };
#undef IRQSTORM_STAGE_COUNT_IRQ

/*
 * Compute stage st of record r into *ns. Returns FALSE, leaving *ns alone,
 * when the record is of the other kind (probe or interrupt), when a stamp
 * the stage needs is missing (its flag is clear) or when the later point
 * precedes the earlier one (the difference would be negative; the device
 * never produces that, so callers may count it as an anomaly).
 */
gboolean irqstorm_stage_value(const struct irqstorm_record *r,
			      IrqstormStage st, guint64 *ns);

/*
 * The points stage st of record r spans, virtual ns: from its start to its
 * end (as irqstorm_stage_value(), which is to - from).
 */
gboolean irqstorm_stage_span(const struct irqstorm_record *r, IrqstormStage st,
			     guint64 *from, guint64 *to);

/*
 * The vCPU of the stamp stage st of record r ends at (the one that wrote
 * it), or IRQSTORM_CPU_NONE when r lacks that stamp.
 */
guint irqstorm_stage_cpu(const struct irqstorm_record *r, IrqstormStage st);

/*
 * The points record r has, in chain order: the raise, then each stamp it
 * carries (IRQSTORM_STAMPS), their names ("raise", "hardirq", ...) into
 * names and times into times (IRQSTORM_STAMP_COUNT + 1 each). Returns how
 * many.
 */
guint irqstorm_stage_points(const struct irqstorm_record *r,
			    const char **names, guint64 *times);
/*
 * Those points as an event's windows name them (explain, export): a probe
 * record's first and last are its "expected" and "wake-up"; and the vCPU
 * of each into cpus (IRQSTORM_STAMP_COUNT + 1), the one that wrote the
 * stamp, IRQSTORM_CPU_NONE for the raise (the device's). Returns how many.
 */
guint irqstorm_stage_event_points(const struct irqstorm_record *r, const char **names,
				  guint64 *times, guint *cpus);

/* Name used in outputs ("hardirq", ...); NULL for an invalid stage. */
const char *irqstorm_stage_name(IrqstormStage st);

/* What the stage measures, for help texts. */
const char *irqstorm_stage_help(IrqstormStage st);

/* Is it a stage of probe records (not of interrupts)? */
gboolean irqstorm_stage_is_probe(IrqstormStage st);

/*
 * Is it measured from the raise to a stamp of an interrupt: a step of the
 * chain raise -> hardirq -> thread -> ... -> done that a breakdown stacks?
 */
gboolean irqstorm_stage_from_raise(IrqstormStage st);

/* Look a stage up by its name; FALSE if there is no such stage. */
gboolean irqstorm_stage_from_name(const char *name, IrqstormStage *st);

/* The stages' names, space-separated ("hardirq thread ..."), probe or not. */
char *irqstorm_stage_names(gboolean with_probe);

G_END_DECLS

#endif /* IRQSTORM_RIG_STAGES_H */
