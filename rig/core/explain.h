/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An event's latency explained: the guest code that ran in each window of
 * it (raise -> hardirq -> thread -> done, or the probe's expected wake-up
 * -> wake-up), from the blocks that QEMU's explain plugin
 * (qemu-device/plugin/explain.c) saw executing in a rerun of the run, on
 * the device's clock. Nothing here runs anything.
 */
#ifndef IRQSTORM_RIG_EXPLAIN_H
#define IRQSTORM_RIG_EXPLAIN_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "irqstorm/abi.h"
#include "stages.h"
#include "symbols.h"

G_BEGIN_DECLS

/* How far before its first window the plugin records an event: enough to
 * see which task was running when the window opened. */
#define IRQSTORM_EXPLAIN_LEAD_NS 200000ull

/* A translation block as the plugin saw it execute. */
typedef struct {
	guint64 t_ns;		/* virtual time of its first instruction */
	guint64 vaddr;
	guint insns;
	guint vcpu;		/* the vCPU that ran it */
	const char *task;	/* the task it ran for, in words, when the
				 * plugin named tasks (names.h); else NULL */
	const char *irq;	/* the interrupt whose handlers it starts
				 * ("IRQ 24 (irqstorm0)"), or NULL */
	gboolean irqs_off;	/* it began with interrupts disabled
				 * (eflags.IF clear, the plugin's IF field) */
} IrqstormBlock;

/*
 * The lines of a trace the plugin wrote, in either mode, checked complete:
 * the plugin writes its end line (IRQSTORM_EXPLAIN_TRACE_END) as QEMU
 * exits; an error without it.
 */
char **irqstorm_explain_trace_lines(const char *path, GError **error);

/* The most vCPUs a trace of the plugin names ([machine] cpus). */
#define IRQSTORM_TRACE_VCPUS 64

/*
 * The plugin's trace (lines "T_NS VADDR INSNS VCPU"; VCPU 0 where a line
 * has none), checked complete: the plugin writes its last line as QEMU
 * exits. Its task and irq lines (with names=) name the blocks after them.
 */
GArray *irqstorm_explain_read_trace(const char *path, GError **error);

/* A stretch of one function's code (or [halted]) without a break. */
typedef struct {
	const char *function;	/* owned by the symbols */
	const char *context;	/* an interned string, see explain.c */
	gboolean entered;	/* it begins at the function's entry (a call,
				 * a jump or an interrupt), not a return */
	guint64 from_ns, to_ns;
	const char *vector;	/* inside a hard interrupt: its entry's
				 * function (asm_sysvec_...); else NULL */
	const char *task;	/* its block's task, when named, else NULL */
	const char *irq;	/* inside a hard interrupt whose IRQ was
				 * named: "IRQ 24 (irqstorm0)"; else NULL */
	gboolean irqs_off;	/* its block began with interrupts disabled */
	const char *softirq;	/* inside a softirq: the action running
				 * ("rcu_core"), or "softirq" when none is
				 * seen; else NULL */
} IrqstormSpan;

/* What the time of an event went to, in words: a hard interrupt by its
 * kind ("the timer interrupt"), else the task that ran ("the IRQ thread",
 * "idle"), and where the code ran: "in softirq: rcu_core", "with
 * interrupts disabled", "in the scheduler". */

typedef struct {
	const char *what;
	gboolean hard_interrupt;
	guint64 ns;
	guint64 first_ns;	/* when it first ran */
} IrqstormCause;

/* A function's share of a window. */
typedef struct {
	const char *function;
	const char *context;	/* where most of its time went */
	guint64 ns, insns;
} IrqstormFunctionTime;

/* One window of an event: between two of its points. */
typedef struct {
	char *name;		/* "raise->hardirq", ... */
	guint64 from_ns, to_ns;
	guint cpu;		/* whose code it shows: the vCPU of its end
				 * point's stamp (0 if it has none) */
	GArray *spans;		/* of IrqstormSpan, in time order */
	GArray *functions;	/* of IrqstormFunctionTime, largest first */
	guint interrupts;	/* hard-interrupt entries in it */
	guint switches;		/* context switches in it */
} IrqstormExplainWindow;

typedef struct {
	struct irqstorm_record rec;
	IrqstormStage stage;
	guint64 latency_ns;
	GPtrArray *windows;	/* of IrqstormExplainWindow */
	GArray *functions;	/* the whole stage, of IrqstormFunctionTime */
	GArray *causes;		/* the whole stage, of IrqstormCause, largest first */
	guint switches;		/* context switches in the whole stage */
	guint cpus;		/* the run's vCPUs: with more than one, each
				 * window says its CPU */
	gboolean named;		/* its tasks by name (the plugin read them) */
} IrqstormExplainEvent;

void irqstorm_explain_event_free(IrqstormExplainEvent *ev);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormExplainEvent, irqstorm_explain_event_free)

/*
 * The event of record r at stage st, its windows laid out (not yet
 * analysed); NULL when r lacks the stage (set *why, static).
 */
IrqstormExplainEvent *irqstorm_explain_event_new(const struct irqstorm_record *r,
						 IrqstormStage st,
						 const char **why);

/* The span of virtual time the plugin must record for ev (with the lead). */
void irqstorm_explain_event_span(const IrqstormExplainEvent *ev,
				 guint64 *from_ns, guint64 *to_ns);

/*
 * Fill ev's windows from blocks (a trace covering them, in time order):
 * spans, functions, contexts. One instruction is 2^shift ns.
 */
void irqstorm_explain_analyse(IrqstormExplainEvent *ev, const GArray *blocks,
			      const IrqstormSymbols *syms, guint shift);

/* Functions an event's line names. */
#define IRQSTORM_EXPLAIN_LINE_TOP 3

/*
 * "#SEQ STAGE +LAT us: 94% f (context), 4% g, 1% h": the event's largest
 * IRQSTORM_EXPLAIN_LINE_TOP functions, the first with its context; no '\n'.
 */
char *irqstorm_explain_line(const IrqstormExplainEvent *ev);

/* The readable report of one event: its windows, functions, entries. */
char *irqstorm_explain_text(const IrqstormExplainEvent *ev, const char *held);

/* ev as a JSON object member of an array being built (its line: "summary"). */
void irqstorm_explain_add_json(JsonBuilder *b, const IrqstormExplainEvent *ev);

/* What an event's times count from: "the raise", or a probe event's
 * "the expected wake-up". */
const char *irqstorm_explain_origin(const IrqstormExplainEvent *ev);

/*
 * The figure's data: spans.dat ("FROM_US TO_US ROW COLOUR LABEL", times
 * from the raise, the top functions a row each, the rest one row) and
 * marks.dat ("T_US NAME", the stamps). Returns the number of rows.
 */
guint irqstorm_explain_write_plot_data(const IrqstormExplainEvent *ev,
				       const char *spans_path,
				       const char *marks_path, guint rows,
				       GError **error);

G_END_DECLS

#endif /* IRQSTORM_RIG_EXPLAIN_H */
