// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An event's latency explained from the explain plugin's trace: see
 * explain.h.
 */
#include "explain.h"
#include "irqentry.h"

#include <string.h>

#include "files.h"
#include "irqstorm/explain.h"
#include "json-build.h"
#include "names.h"
#include "table.h"

/*
 * What the code says about the task running it, by function name prefix:
 * the best (first) match in a stretch between context switches names the
 * whole stretch. Without guest memory reads (QEMU 7.2's plugins have
 * none) this is what can be derived: the kind of task, not its name.
 */
#define CONTEXT_IDLE "idle"

static const struct {
	const char *prefix;
	const char *context;
} task_marks[] = {
	{ "irqstorm_section", "section (a guest task)" },
	{ "irq_thread", "IRQ thread" },
	{ "irq_forced_thread_fn", "IRQ thread" },
	{ "run_ksoftirqd", "ksoftirqd" },
	{ "worker_thread", "kworker" },
	{ "process_one_work", "kworker" },
	{ "smpboot_thread_fn", "per-CPU kthread" },
	{ IRQSTORM_SYM_USER, "user task" },
	{ "do_idle", CONTEXT_IDLE },
	{ "default_idle", CONTEXT_IDLE },
	{ "cpu_idle_poll", CONTEXT_IDLE },
	{ IRQSTORM_SYM_HALTED, CONTEXT_IDLE },
};
#define CONTEXT_UNKNOWN "task not seen"
#define CONTEXT_SWITCH "__switch_to"		/* runs on the next task's stack */
#define CONTEXT_HARDIRQ "hard interrupt "


void irqstorm_explain_event_free(IrqstormExplainEvent *ev)
{
	if (!ev)
		return;
	g_ptr_array_unref(ev->windows);
	if (ev->functions)
		g_array_unref(ev->functions);
	if (ev->causes)
		g_array_unref(ev->causes);
	g_free(ev);
}

static void window_free(gpointer p)
{
	IrqstormExplainWindow *w = p;

	g_free(w->name);
	if (w->spans)
		g_array_unref(w->spans);
	if (w->functions)
		g_array_unref(w->functions);
	g_free(w);
}

char **irqstorm_explain_trace_lines(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(path, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		if (g_str_has_prefix(lines[i], IRQSTORM_EXPLAIN_TRACE_END))
			return g_steal_pointer(&lines);
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
		    "%s: the explain plugin's trace has no end line: QEMU did "
		    "not exit normally", path);
	return NULL;
}


/*
 * A names line ("task START VCPU ..." or "irq START VCPU ..."): its words
 * for the vCPU's next blocks into names[vcpu]. FALSE if it does not parse.
 */
static gboolean names_line(const char *line, const char **tasks, const char **irqs)
{
	gboolean task;
	guint64 t;
	guint vcpu;
	const char *words;

	if (!irqstorm_names_line(line, &task, &t, &vcpu, &words) ||
	    vcpu >= IRQSTORM_TRACE_VCPUS)
		return FALSE;
	(task ? tasks : irqs)[vcpu] = words;
	return TRUE;
}

GArray *irqstorm_explain_read_trace(const char *path, GError **error)
{
	g_auto(GStrv) lines = irqstorm_explain_trace_lines(path, error);
	g_autoptr(GArray) blocks = g_array_new(FALSE, FALSE, sizeof(IrqstormBlock));
	const char *tasks[IRQSTORM_TRACE_VCPUS] = { NULL };
	const char *irqs[IRQSTORM_TRACE_VCPUS] = { NULL };

	if (!lines)
		return NULL;
	for (guint i = 0; lines[i]; i++) {
		IrqstormBlock b = { 0 };
		char *end;

		if (!*lines[i] || lines[i][0] == '#')
			continue;
		if (g_ascii_isalpha(lines[i][0])) {
			if (!names_line(lines[i], tasks, irqs))
				goto bad;
			continue;
		}
		b.t_ns = g_ascii_strtoull(lines[i], &end, 10);
		b.vaddr = g_ascii_strtoull(end, &end, 16);
		b.insns = g_ascii_strtoull(end, &end, 10);
		b.vcpu = *end ? g_ascii_strtoull(end, &end, 10) : 0;
		/* IF: 1 interrupts enabled, 0 disabled; absent: enabled */
		if (*end) {
			b.irqs_off = g_ascii_strtoull(end, &end, 10) == 0;
			if (end[-1] != '0' && end[-1] != '1')
				goto bad;
		}
		if (*end || !b.insns || b.vcpu >= IRQSTORM_TRACE_VCPUS)
			goto bad;
		b.task = tasks[b.vcpu];
		b.irq = irqs[b.vcpu];
		irqs[b.vcpu] = NULL;
		g_array_append_val(blocks, b);
		continue;
bad:
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s:%u: not a line of the explain plugin", path, i + 1);
		return NULL;
	}
	return g_steal_pointer(&blocks);
}

IrqstormExplainEvent *irqstorm_explain_event_new(const struct irqstorm_record *r,
						 IrqstormStage st,
						 const char **why)
{
	const char *names[IRQSTORM_STAMP_COUNT + 1];
	guint64 times[IRQSTORM_STAMP_COUNT + 1], from, to;
	guint cpus[IRQSTORM_STAMP_COUNT + 1];
	gboolean probe = (r->flags & IRQSTORM_REC_PROBE) != 0;
	IrqstormExplainEvent *ev;
	guint n;

	if (!irqstorm_stage_span(r, st, &from, &to)) {
		*why = probe ? "a probe record has only the probe stage" :
			       "the record lacks the stage's stamps";
		return NULL;
	}
	ev = g_new0(IrqstormExplainEvent, 1);
	ev->cpus = 1;
	ev->rec = *r;
	ev->stage = st;
	ev->latency_ns = to - from;
	ev->windows = g_ptr_array_new_with_free_func(window_free);
	n = irqstorm_stage_event_points(r, names, times, cpus);
	/* The stage's span cut at every point of the record inside it. */
	for (guint i = 0; i + 1 < n; i++) {
		IrqstormExplainWindow *w;

		if (times[i] < from || times[i + 1] > to || times[i + 1] < times[i])
			continue;
		w = g_new0(IrqstormExplainWindow, 1);
		w->name = g_strdup_printf("%s->%s", names[i], names[i + 1]);
		w->from_ns = times[i];
		w->to_ns = times[i + 1];
		w->cpu = cpus[i + 1] == IRQSTORM_CPU_NONE ? 0 : cpus[i + 1];
		g_ptr_array_add(ev->windows, w);
	}
	return ev;
}

void irqstorm_explain_event_span(const IrqstormExplainEvent *ev,
				 guint64 *from_ns, guint64 *to_ns)
{
	const IrqstormExplainWindow *first = ev->windows->pdata[0];
	const IrqstormExplainWindow *last = ev->windows->pdata[ev->windows->len - 1];

	*from_ns = first->from_ns > IRQSTORM_EXPLAIN_LEAD_NS ?
		   first->from_ns - IRQSTORM_EXPLAIN_LEAD_NS : 0;
	*to_ns = last->to_ns;
}

/* The index of function f's task mark, or G_N_ELEMENTS(task_marks). */
static guint task_mark(const char *f)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(task_marks); i++)
		if (g_str_has_prefix(f, task_marks[i].prefix))
			break;
	return i;
}

/*
 * The spans of the blocks, in time order: each block's executed part (cut
 * where the next block starts: an exception or I/O ended it early), the
 * time until the next block [halted]. Consecutive spans of one function
 * are merged. Ends at the last block's end: the caller clips.
 */
static GArray *trace_spans(const GArray *blocks, const IrqstormSymbols *syms,
			   guint shift)
{
	GArray *spans = g_array_new(FALSE, FALSE, sizeof(IrqstormSpan));

	for (guint i = 0; i < blocks->len; i++) {
		const IrqstormBlock *b = &g_array_index(blocks, IrqstormBlock, i);
		guint64 end = b->t_ns + ((guint64)b->insns << shift);
		guint64 next = i + 1 < blocks->len ?
			       g_array_index(blocks, IrqstormBlock, i + 1).t_ns : end;
		guint64 start;
		IrqstormSpan s = { irqstorm_symbols_lookup(syms, b->vaddr, &start), NULL,
				   FALSE, b->t_ns, MIN(end, next), NULL, b->task, b->irq,
				   b->irqs_off, NULL };
		IrqstormSpan *prev = spans->len ?
			&g_array_index(spans, IrqstormSpan, spans->len - 1) : NULL;

		if (prev && prev->function == s.function && prev->to_ns == s.from_ns &&
		    prev->irqs_off == s.irqs_off) {
			prev->to_ns = s.to_ns;
			prev->irq = prev->irq ? prev->irq : s.irq;
		} else if (s.to_ns > s.from_ns) {
			s.entered = start == b->vaddr;
			g_array_append_val(spans, s);
		}
		if (next > end) {
			IrqstormSpan h = { IRQSTORM_SYM_HALTED, NULL, TRUE, end, next, NULL,
					   b->task, NULL, FALSE, NULL };

			g_array_append_val(spans, h);
		}
	}
	return spans;
}

/*
 * A stretch of spans between context switches: its task by name where the
 * plugin read it, else by its best mark (the code says what kind of task).
 */
static const char *stretch_context(const GArray *spans, guint from, guint to)
{
	guint best = G_N_ELEMENTS(task_marks);

	for (guint j = from; j < to; j++)
		if (g_array_index(spans, IrqstormSpan, j).task)
			return g_array_index(spans, IrqstormSpan, j).task;
	for (guint j = from; j < to; j++)
		best = MIN(best, task_mark(g_array_index(spans, IrqstormSpan, j).function));
	return g_intern_static_string(best < G_N_ELEMENTS(task_marks) ?
				      task_marks[best].context : CONTEXT_UNKNOWN);
}

/*
 * The spans of the hard interrupt entered at spans[from], to irqentry_exit
 * (or another's entry, or the end): its IRQ where one was named, its
 * vector, and the context "hard interrupt [IRQ N (NAME) ]over TASK".
 * Returns the index after it.
 */
static guint hardirq_context(GArray *spans, guint from)
{
	const char *vector = g_array_index(spans, IrqstormSpan, from).function;
	const char *irq = NULL;
	guint to = from;

	while (to < spans->len) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, to);

		if (to > from && s->entered && irqstorm_irqentry_is_entry(s->function))
			break;
		to++;
		irq = irq ? irq : s->irq;
		if (s->entered && !strcmp(s->function, IRQSTORM_IRQ_EXIT))
			break;
	}
	for (guint i = from; i < to; i++) {
		IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);
		g_autofree char *c = g_strconcat(CONTEXT_HARDIRQ, irq ? irq : "",
						 irq ? " over " : "over ", s->context, NULL);

		s->context = g_intern_string(c);
		s->vector = vector;
		s->irq = irq;
	}
	return to;
}

/* The functions that run the pending softirqs (6.1: __do_softirq). */
static const char *const softirq_entries[] = { "handle_softirqs", "__do_softirq", NULL };

/* The softirqs' actions (the kernel's open_softirq()s, 6.1 to 7.3). */
static const char *const softirq_actions[] = {
	"tasklet_action", "tasklet_hi_action", "run_timer_softirq", "hrtimer_run_softirq",
	"rcu_core_si", "rcu_core", "net_tx_action", "net_rx_action", "blk_done_softirq",
	"irq_poll_softirq", "run_rebalance_domains", "sched_balance_softirq", NULL,
};

static gboolean is_named(const char *f, const char *const *names)
{
	for (guint i = 0; names[i]; i++)
		if (!strcmp(f, names[i]))
			return TRUE;
	return FALSE;
}

/*
 * The softirq run from spans[from] (an entry of handle_softirqs): until
 * the function that called it runs again, not entered (it returned), or a
 * context switch (a PREEMPT_RT softirq preempted, ksoftirqd done). Each
 * span of it (but a hard interrupt's inside it) gets the action running:
 * the last one entered, or the first ahead for those before it, or
 * "softirq" when none is seen. Returns the index after it.
 */
static guint softirq_context(GArray *spans, guint from)
{
	const char *caller = from ? g_array_index(spans, IrqstormSpan, from - 1).function : NULL;
	const char *action = NULL;
	guint to = from + 1;

	for (; to < spans->len; to++) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, to);

		if ((s->entered && !strcmp(s->function, CONTEXT_SWITCH)) ||
		    (!s->entered && caller && !strcmp(s->function, caller)))
			break;
		if (!action && s->entered && is_named(s->function, softirq_actions))
			action = s->function;
	}
	for (guint i = from; i < to; i++) {
		IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);

		if (s->entered && is_named(s->function, softirq_actions))
			action = s->function;
		s->softirq = action ? action : "softirq";
	}
	return to;
}

/*
 * Each span's context: the task of its stretch between context switches,
 * and whether it ran inside a hard interrupt (from an interrupt entry to
 * irqentry_exit).
 */
static void trace_contexts(GArray *spans)
{
	guint start = 0;

	for (guint i = 0; i <= spans->len; i++) {
		IrqstormSpan *s = i < spans->len ? &g_array_index(spans, IrqstormSpan, i) : NULL;
		const char *context;

		if (s && !(s->entered && !strcmp(s->function, CONTEXT_SWITCH)))
			continue;
		context = stretch_context(spans, start, i);
		for (guint j = start; j < i; j++)
			g_array_index(spans, IrqstormSpan, j).context = context;
		start = i;
	}
	for (guint i = 0; i < spans->len;) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);

		if (s->entered && irqstorm_irqentry_is_entry(s->function))
			i = hardirq_context(spans, i);
		else
			i++;
	}
	for (guint i = 0; i < spans->len;) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);

		if (s->entered && is_named(s->function, softirq_entries))
			i = softirq_context(spans, i);
		else
			i++;
	}
}

static gint function_time_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormFunctionTime *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return strcmp(x->function, y->function);
}

/* Function f's time in context c (by_ctx: "f\tc" to ns), ns added to it. */
static guint64 context_time(GHashTable *by_ctx, const char *f, const char *c, guint64 ns)
{
	char *key = g_strconcat(f, "\t", c, NULL);
	guint64 t = GPOINTER_TO_SIZE(g_hash_table_lookup(by_ctx, key)) + ns;

	g_hash_table_replace(by_ctx, key, GSIZE_TO_POINTER(t));
	return t;
}

/* The entry of span s's function in out (by_fn: its index), made if new. */
static IrqstormFunctionTime *function_entry(GArray *out, GHashTable *by_fn,
					    const IrqstormSpan *s)
{
	gpointer idx;

	if (!g_hash_table_lookup_extended(by_fn, s->function, NULL, &idx)) {
		IrqstormFunctionTime f = { s->function, s->context, 0, 0 };

		idx = GUINT_TO_POINTER(out->len);
		g_array_append_val(out, f);
		g_hash_table_insert(by_fn, (gpointer)s->function, idx);
	}
	return &g_array_index(out, IrqstormFunctionTime, GPOINTER_TO_UINT(idx));
}

/*
 * Each function's time in spans (with instructions: its time over 2^shift
 * ns, none while halted), largest first; its context is the one where it
 * spent the most.
 */
static GArray *function_times(const GArray *spans, guint shift)
{
	g_autoptr(GHashTable) by_fn = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GHashTable) by_ctx = g_hash_table_new_full(g_str_hash, g_str_equal,
							     g_free, NULL);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(IrqstormFunctionTime));

	for (guint i = 0; i < spans->len; i++) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);
		guint64 ns = s->to_ns - s->from_ns;
		guint64 here = context_time(by_ctx, s->function, s->context, ns);
		IrqstormFunctionTime *f = function_entry(out, by_fn, s);

		f->ns += ns;
		if (strcmp(s->function, IRQSTORM_SYM_HALTED))
			f->insns += ns >> shift;
		if (here > context_time(by_ctx, f->function, f->context, 0))
			f->context = s->context;
	}
	g_array_sort(out, function_time_compare);
	return out;
}

/* The spans inside [from, to), clipped to it. */
static GArray *clip_spans(const GArray *spans, guint64 from, guint64 to)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(IrqstormSpan));

	for (guint i = 0; i < spans->len; i++) {
		IrqstormSpan s = g_array_index(spans, IrqstormSpan, i);

		if (s.to_ns <= from || s.from_ns >= to)
			continue;
		if (s.from_ns < from) {
			s.from_ns = from;
			s.entered = FALSE;	/* it began before the window */
		}
		s.to_ns = MIN(s.to_ns, to);
		g_array_append_val(out, s);
	}
	return out;
}

/*
 * A window's spans: those of the trace inside it, and [halted] where the
 * trace has nothing (the plugin records every block that overlaps the
 * window, so a gap is a halted vCPU).
 */
static GArray *window_spans(const GArray *all, guint64 from, guint64 to)
{
	g_autoptr(GArray) in = clip_spans(all, from, to);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(IrqstormSpan));
	guint64 t = from;

	for (guint i = 0; i <= in->len; i++) {
		const IrqstormSpan *s = i < in->len ? &g_array_index(in, IrqstormSpan, i) : NULL;
		guint64 next = s ? s->from_ns : to;

		if (next > t) {
			IrqstormSpan h = { IRQSTORM_SYM_HALTED, CONTEXT_IDLE, TRUE, t, next };

			g_array_append_val(out, h);
		}
		if (s) {
			g_array_append_val(out, *s);
			t = s->to_ns;
		}
	}
	return out;
}

/* The scheduler's own code, by the names of its functions. */
static const char *const scheduler_code[] = {
	"__schedule", "schedule", "preempt_schedule", "finish_task_switch", "__switch_to",
	"context_switch", "pick_next_task", "put_prev_task", "set_next_task", "dequeue_task",
	"enqueue_task", "try_to_wake_up", "ttwu_", "update_curr", "update_rq_clock", NULL,
};

static gboolean in_scheduler(const char *f)
{
	for (guint i = 0; scheduler_code[i]; i++)
		if (g_str_has_prefix(f, scheduler_code[i]))
			return TRUE;
	return FALSE;
}

/* Whose a span's time was: its hard interrupt's kind, else its task's. */
static const char *task_of(const IrqstormSpan *s)
{
	if (s->irq)
		return s->irq;
	if (s->vector)
		return irqstorm_irqentry_what(s->vector);
	static const struct {
		const char *context;
		const char *what;
	} tasks[] = {
		{ "IRQ thread", "the IRQ thread" },
		{ "kworker", "a kworker" },
		{ "per-CPU kthread", "a per-CPU kthread" },
		{ "user task", "a user task" },
		{ "section (a guest task)", "the section (a guest task)" },
	};

	if (!s->context || !strcmp(s->context, CONTEXT_UNKNOWN))
		return "a task its code does not name";
	for (guint i = 0; i < G_N_ELEMENTS(tasks); i++)
		if (!strcmp(s->context, tasks[i].context))
			return tasks[i].what;
	return s->context;	/* idle, ksoftirqd */
}

/*
 * What a span's time went to (IrqstormCause.what): whose it was (its hard
 * interrupt's kind, else its task's: task_of()), and where that code ran
 * when it was not plain task or hard-interrupt code: in a softirq (its
 * action), in the scheduler, or with interrupts disabled (a force-threaded
 * handler on a kernel without PREEMPT_RT, a raw spinlock's section).
 * Interned.
 */
static const char *cause_of(const IrqstormSpan *s)
{
	const char *who = task_of(s);
	g_autofree char *what = NULL;

	if (s->softirq)
		what = g_strconcat(who, " in softirq: ", s->softirq, NULL);
	else if (in_scheduler(s->function))
		what = g_strconcat(who, " in the scheduler", NULL);
	else if (s->irqs_off && !s->vector)
		what = g_strconcat(who, " with interrupts disabled", NULL);
	else
		return who;
	return g_intern_string(what);
}

static gint cause_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormCause *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return x->first_ns < y->first_ns ? -1 : x->first_ns > y->first_ns;
}

/* The spans' time by cause, largest first. */
static GArray *causes_of(const GArray *spans)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(IrqstormCause));

	for (guint i = 0; i < spans->len; i++) {
		const IrqstormSpan *s = &g_array_index(spans, IrqstormSpan, i);
		IrqstormCause c = { cause_of(s), s->vector != NULL && !s->softirq, 0, s->from_ns };
		guint k;

		for (k = 0; k < out->len; k++) {
			IrqstormCause *o = &g_array_index(out, IrqstormCause, k);

			if (!strcmp(o->what, c.what) && o->hard_interrupt == c.hard_interrupt)
				break;
		}
		if (k == out->len)
			g_array_append_val(out, c);
		g_array_index(out, IrqstormCause, k).ns += s->to_ns - s->from_ns;
	}
	g_array_sort(out, cause_compare);
	return out;
}

static void spans_free(gpointer p)
{
	if (p)
		g_array_unref(p);
}

/* The spans of vCPU cpu's blocks, with their contexts. */
static GArray *vcpu_spans(const GArray *blocks, guint cpu, const IrqstormSymbols *syms,
			  guint shift)
{
	g_autoptr(GArray) mine = g_array_new(FALSE, FALSE, sizeof(IrqstormBlock));
	GArray *spans;

	for (guint i = 0; i < blocks->len; i++)
		if (g_array_index(blocks, IrqstormBlock, i).vcpu == cpu)
			g_array_append_val(mine, g_array_index(blocks, IrqstormBlock, i));
	spans = trace_spans(mine, syms, shift);
	trace_contexts(spans);
	return spans;
}

void irqstorm_explain_analyse(IrqstormExplainEvent *ev, const GArray *blocks,
			      const IrqstormSymbols *syms, guint shift)
{
	g_autoptr(GPtrArray) by_cpu = g_ptr_array_new_with_free_func(spans_free);
	g_autoptr(GArray) stage = g_array_new(FALSE, FALSE, sizeof(IrqstormSpan));

	for (guint i = 0; i < ev->windows->len; i++) {
		IrqstormExplainWindow *w = ev->windows->pdata[i];

		while (by_cpu->len <= w->cpu)
			g_ptr_array_add(by_cpu, NULL);
		if (!by_cpu->pdata[w->cpu])
			by_cpu->pdata[w->cpu] = vcpu_spans(blocks, w->cpu, syms, shift);
		w->spans = window_spans(by_cpu->pdata[w->cpu], w->from_ns, w->to_ns);
		w->functions = function_times(w->spans, shift);
		for (guint j = 0; j < w->spans->len; j++) {
			const IrqstormSpan *s = &g_array_index(w->spans, IrqstormSpan, j);

			ev->named |= s->task != NULL;
			w->interrupts += s->entered && irqstorm_irqentry_is_entry(s->function);
			w->switches += s->entered && !strcmp(s->function, CONTEXT_SWITCH);
		}
		g_array_append_vals(stage, w->spans->data, w->spans->len);
		ev->switches += w->switches;
	}
	ev->functions = function_times(stage, shift);
	ev->causes = causes_of(stage);
}

static double share(guint64 part, guint64 whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static gint cause_first_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormCause *x = a, *y = b;

	return x->first_ns < y->first_ns ? -1 : x->first_ns > y->first_ns;
}

/* The largest causes, in the order they ran: "the timer interrupt first:
 * 21.2 us in hard interrupt; then idle: 4.1 us". */
static void append_causes(GString *s, const IrqstormExplainEvent *ev)
{
	g_autoptr(GArray) top = g_array_new(FALSE, FALSE, sizeof(IrqstormCause));

	for (guint i = 0; i < MIN(IRQSTORM_EXPLAIN_LINE_TOP, ev->causes->len); i++) {
		const IrqstormCause *c = &g_array_index(ev->causes, IrqstormCause, i);

		if (i && c->ns * 20 < ev->latency_ns)
			break;	/* under 5%: a crumb */
		g_array_append_val(top, *c);
	}
	g_array_sort(top, cause_first_compare);
	for (guint i = 0; i < top->len; i++) {
		const IrqstormCause *c = &g_array_index(top, IrqstormCause, i);

		g_string_append_printf(s, "%s%s%s: %.1f us%s", i ? "; then " : " ", c->what,
				       i || top->len == 1 ? "" : " first", c->ns / 1e3,
				       c->hard_interrupt ? " in hard interrupt" : "");
	}
	g_string_append_printf(s, "; %u context switch%s", ev->switches,
			       ev->switches == 1 ? "" : "es");
}

char *irqstorm_explain_line(const IrqstormExplainEvent *ev)
{
	const guint top = IRQSTORM_EXPLAIN_LINE_TOP;
	GString *s = g_string_new(NULL);

	g_string_append_printf(s, "#%" G_GUINT64_FORMAT " %s +%.1f us:", ev->rec.seq,
			       irqstorm_stage_name(ev->stage), ev->latency_ns / 1e3);
	append_causes(s, ev);
	g_string_append(s, " (functions:");
	for (guint i = 0; i < MIN(top, ev->functions->len); i++) {
		const IrqstormFunctionTime *f =
			&g_array_index(ev->functions, IrqstormFunctionTime, i);

		g_string_append_printf(s, "%s %.0f%% %s", i ? "," : "",
				       share(f->ns, ev->latency_ns), f->function);
	}
	g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

/* Do spans a and b show the same line but for their times? */
static gboolean same_line(const IrqstormSpan *a, const IrqstormSpan *b)
{
	return a->function == b->function && a->entered == b->entered &&
	       a->context == b->context;
}

/*
 * How many times the run of spans at i repeats back to back (1: it does
 * not), and its length in *period: the shortest of up to REPEAT_MAX spans
 * that repeats at least REPEAT_MIN times (a PIO loop's 4,000 lines).
 */
#define REPEAT_MAX	8
#define REPEAT_MIN	3
static guint repeats(const GArray *spans, guint i, guint *period)
{
	const IrqstormSpan *sp = (const IrqstormSpan *)spans->data;

	for (guint p = 1; p <= REPEAT_MAX; p++) {
		guint n = 1;

		while (i + (n + 1) * p <= spans->len) {
			guint k;

			for (k = 0; k < p && same_line(&sp[i + k], &sp[i + n * p + k]); k++)
				;
			if (k < p)
				break;
			n++;
		}
		if (n >= REPEAT_MIN) {
			*period = p;
			return n;
		}
	}
	*period = 1;
	return 1;
}

/* A window's functions as a table: share, virtual ns, insns, function,
 * context; the numbers right-aligned, each column as wide as it needs. */
static void functions_table(GString *s, const IrqstormExplainWindow *w, guint64 len)
{
	g_autoptr(IrqstormTable) t = irqstorm_table_new(5);

	irqstorm_table_set_indent(t, 2);
	irqstorm_table_align_right(t, 0);
	irqstorm_table_align_left(t, 3);
	irqstorm_table_add_row(t, g_strsplit("share|virtual ns|insns|function|context", "|", -1));
	for (guint i = 0; i < w->functions->len; i++) {
		const IrqstormFunctionTime *f =
			&g_array_index(w->functions, IrqstormFunctionTime, i);
		char **row = g_new0(char *, 6);

		row[0] = g_strdup_printf("%.1f%%", share(f->ns, len));
		row[1] = g_strdup_printf("%" G_GUINT64_FORMAT, f->ns);
		row[2] = g_strdup_printf("%" G_GUINT64_FORMAT, f->insns);
		row[3] = g_strdup(f->function);
		row[4] = g_strdup(f->context);
		irqstorm_table_add_row(t, row);
	}
	irqstorm_table_render(t, s);
}

/* One window's functions as a table, and its sequence of entries. */
static void text_window(GString *s, const IrqstormExplainWindow *w, guint64 raise,
			guint cpus, const char *origin)
{
	guint64 len = w->to_ns - w->from_ns;
	g_autofree char *where = cpus > 1 ? g_strdup_printf(" on CPU %u", w->cpu) :
					    g_strdup("");

	g_string_append_printf(s, "\n%s%s  +%.3f .. +%.3f us (%.3f us): %u hard-interrupt "
			       "entr%s, %u context switch%s\n", w->name, where,
			       (w->from_ns - raise) / 1e3, (w->to_ns - raise) / 1e3,
			       len / 1e3, w->interrupts, w->interrupts == 1 ? "y" : "ies",
			       w->switches, w->switches == 1 ? "" : "es");
	functions_table(s, w, len);
	g_string_append_printf(s, "  sequence (us from %s; > entered, < returned to; "
			       "function; virtual ns in it; context; a repeated run of lines "
			       "is shown once, with its count):\n", origin);
	for (guint i = 0; i < w->spans->len;) {
		guint period, times = repeats(w->spans, i, &period);

		for (guint k = i; k < i + period; k++) {
			const IrqstormSpan *sp = &g_array_index(w->spans, IrqstormSpan, k);

			g_string_append_printf(s, "    +%10.3f  %s %-40s %8" G_GUINT64_FORMAT
					       "  %s\n", (sp->from_ns - raise) / 1e3,
					       sp->entered ? ">" : "<", sp->function,
					       sp->to_ns - sp->from_ns, sp->context);
		}
		if (times > 1) {
			const IrqstormSpan *last = &g_array_index(w->spans, IrqstormSpan,
								  i + period * times - 1);

			g_string_append_printf(s, "    ... the %u line%s above %u times in all, "
					       "to +%.3f us\n", period, period == 1 ? "" : "s",
					       times, (last->to_ns - raise) / 1e3);
		}
		i += period * times;
	}
}

char *irqstorm_explain_text(const IrqstormExplainEvent *ev, const char *held)
{
	GString *s = g_string_new(NULL);
	gboolean probe = (ev->rec.flags & IRQSTORM_REC_PROBE) != 0;

	g_string_append_printf(s, "irqstorm explain: event #%" G_GUINT64_FORMAT " (%s), "
			       "stage %s: %.3f us\n", ev->rec.seq,
			       probe ? "the probe" : "an interrupt", irqstorm_stage_name(ev->stage),
			       ev->latency_ns / 1e3);
	if (!probe)
		g_string_append_printf(s, "channel %u, raised at %" G_GUINT64_FORMAT
				       " ns of virtual time\n", ev->rec.channel, ev->rec.t_raise);
	else
		g_string_append_printf(s, "expected at %" G_GUINT64_FORMAT
				       " ns of virtual time\n", ev->rec.t_raise);
	g_string_append_printf(s, "%s\n", held);
	g_string_append_printf(s, "\nWhat the vCPU did, seen from QEMU (the guest ran no "
			       "instruction for it):\n[halted]: the vCPU was halted; [user]: user "
			       "space; context: %s.\n", ev->named ?
			       "the task that ran (its comm, pid, policy and priority, read "
			       "in guest memory at each context switch) and the IRQ a hard "
			       "interrupt handled" : "the task, as its code shows it");
	for (guint i = 0; i < ev->windows->len; i++)
		text_window(s, ev->windows->pdata[i], ev->rec.t_raise, ev->cpus,
			    irqstorm_explain_origin(ev));
	return g_string_free(s, FALSE);
}

static void json_functions(JsonBuilder *b, const char *name, const GArray *fns)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < fns->len; i++) {
		const IrqstormFunctionTime *f = &g_array_index(fns, IrqstormFunctionTime, i);

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "function", f->function);
		irqstorm_json_add_string(b, "context", f->context);
		irqstorm_json_add_int(b, "ns", f->ns);
		irqstorm_json_add_int(b, "insns", f->insns);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void json_window(JsonBuilder *b, const IrqstormExplainWindow *w)
{
	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "window", w->name);
	irqstorm_json_add_int(b, "cpu", w->cpu);
	irqstorm_json_add_int(b, "from_ns", w->from_ns);
	irqstorm_json_add_int(b, "to_ns", w->to_ns);
	irqstorm_json_add_int(b, "interrupts", w->interrupts);
	irqstorm_json_add_int(b, "context_switches", w->switches);
	json_functions(b, "functions", w->functions);
	json_builder_set_member_name(b, "sequence");
	json_builder_begin_array(b);
	for (guint i = 0; i < w->spans->len; i++) {
		const IrqstormSpan *s = &g_array_index(w->spans, IrqstormSpan, i);

		json_builder_begin_object(b);
		irqstorm_json_add_int(b, "from_ns", s->from_ns);
		irqstorm_json_add_int(b, "to_ns", s->to_ns);
		irqstorm_json_add_string(b, "function", s->function);
		irqstorm_json_add_bool(b, "entered", s->entered);
		irqstorm_json_add_string(b, "context", s->context);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void irqstorm_explain_add_json(JsonBuilder *b, const IrqstormExplainEvent *ev)
{
	g_autofree char *line = irqstorm_explain_line(ev);

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "summary", line);
	irqstorm_json_add_int(b, "seq", ev->rec.seq);
	irqstorm_json_add_int(b, "channel", ev->rec.channel);
	irqstorm_json_add_string(b, "stage", irqstorm_stage_name(ev->stage));
	irqstorm_json_add_int(b, "latency_ns", ev->latency_ns);
	irqstorm_json_add_int(b, "t_raise", ev->rec.t_raise);
	irqstorm_json_add_int(b, "context_switches", ev->switches);
	json_builder_set_member_name(b, "causes");
	json_builder_begin_array(b);
	for (guint i = 0; i < ev->causes->len; i++) {
		const IrqstormCause *c = &g_array_index(ev->causes, IrqstormCause, i);

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "what", c->what);
		irqstorm_json_add_bool(b, "hard_interrupt", c->hard_interrupt);
		irqstorm_json_add_int(b, "ns", c->ns);
		irqstorm_json_add_int(b, "first_ns", c->first_ns);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_functions(b, "functions", ev->functions);
	json_builder_set_member_name(b, "windows");
	json_builder_begin_array(b);
	for (guint i = 0; i < ev->windows->len; i++)
		json_window(b, ev->windows->pdata[i]);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* The figure's row of function f: its rank among the top, else the last. */
static guint plot_row(const IrqstormExplainEvent *ev, const char *f, guint rows)
{
	for (guint i = 0; i + 1 < rows && i < ev->functions->len; i++)
		if (g_array_index(ev->functions, IrqstormFunctionTime, i).function == f)
			return i;
	return rows - 1;
}

guint irqstorm_explain_write_plot_data(const IrqstormExplainEvent *ev,
				       const char *spans_path,
				       const char *marks_path, guint rows,
				       GError **error)
{
	g_autoptr(GString) spans = g_string_new("# from_us to_us row colour label\n");
	g_autoptr(GString) marks = g_string_new("# t_us point\n");
	guint64 raise = ev->rec.t_raise;

	rows = MAX(1, MIN(rows, ev->functions->len));
	for (guint i = 0; i < ev->windows->len; i++) {
		const IrqstormExplainWindow *w = ev->windows->pdata[i];
		g_auto(GStrv) ends = g_strsplit(w->name, "->", 2);

		if (!i)
			g_string_append_printf(marks, "%.3f %s\n", (w->from_ns - raise) / 1e3, ends[0]);
		g_string_append_printf(marks, "%.3f %s\n", (w->to_ns - raise) / 1e3, ends[1]);
		for (guint j = 0; j < w->spans->len; j++) {
			const IrqstormSpan *s = &g_array_index(w->spans, IrqstormSpan, j);
			guint row = plot_row(ev, s->function, rows);
			gboolean other = row == rows - 1 && rows < ev->functions->len;

			if (s->from_ns == s->to_ns)
				continue;
			g_string_append_printf(spans, "%.3f %.3f %u %u \"%s\"\n",
					       (s->from_ns - raise) / 1e3, (s->to_ns - raise) / 1e3,
					       row, row + 1, other ? "(other)" : s->function);
		}
	}
	if (!irqstorm_write_file(spans_path, spans->str, spans->len, error) ||
	    !irqstorm_write_file(marks_path, marks->str, marks->len, error))
		return 0;
	return rows;
}

const char *irqstorm_explain_origin(const IrqstormExplainEvent *ev)
{
	/* A probe record's t_raise is the wake-up it was due at. */
	return ev->rec.flags & IRQSTORM_REC_PROBE ? "the expected wake-up" : "the raise";
}
