// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * genirq's promises to a handler: see promises.h.
 */
#include "promises.h"

#include <string.h>

#include "irqstorm/abi.h"
#include "irqstorm/guest.h"
#include "stages.h"

/* The promises, and the kernel code that makes each. */
static const struct {
	const char *name;
	const char *source;
} sources[] = {
	{ "one-at-a-time", "kernel/irq/handle.c, chip.c: IRQD_IRQ_INPROGRESS under "
	  "desc->lock runs a hard handler on one CPU at a time; kernel/irq/manage.c "
	  "irq_thread(): one thread per action" },
	{ "handlers-called", "kernel/irq/handle.c __handle_irq_event_percpu(): every "
	  "action of the line is called" },
	{ "oneshot", "kernel/irq/chip.c handle_level_irq()/handle_fasteoi_irq() mask "
	  "an IRQF_ONESHOT line; kernel/irq/manage.c irq_finalize_oneshot() unmasks it "
	  "when the last thread has returned" },
	{ "thread-priority", "kernel/irq/manage.c irq_thread(): sched_set_fifo() "
	  "(FIFO MAX_RT_PRIO/2 = 50); a forced primary's secondary thread "
	  "sched_set_fifo_secondary() (49) where the kernel has it" },
	{ "context", "kernel/irq/handle.c handle_irq_event(): a hard handler with "
	  "interrupts off (the WARN in __handle_irq_event_percpu()); kernel/irq/manage.c "
	  "irq_forced_thread_fn(): a forced one in its thread with bottom halves off, and "
	  "interrupts off without PREEMPT_RT; irq_thread_fn(): a thread function in a plain "
	  "task; irq_thread(): at SCHED_FIFO" },
	{ "affinity", "kernel/irq/manage.c irq_set_affinity(), "
	  "irq_thread_check_affinity(): the interrupt and its thread on a CPU of "
	  "its affinity" },
};

const char *irqstorm_promise_source(const char *promise)
{
	for (gsize i = 0; i < G_N_ELEMENTS(sources); i++)
		if (!strcmp(sources[i].name, promise))
			return sources[i].source;
	return NULL;
}

typedef struct {
	const IrqstormScenario *sc;
	const IrqstormConsole *con;
	const GArray *records;
	gboolean fifo_secondary;
	GArray *out;
} Judge;

static void add(Judge *j, const char *promise, int ch, gboolean held, char *detail)
{
	IrqstormPromise p = { promise, ch, held, detail };

	g_array_append_val(j->out, p);
}

/* The guest's per-channel value of key: "v0,v1,...", item n. */
static char *item(const IrqstormConsole *con, const char *key, guint n)
{
	const char *s = irqstorm_console_value(con, key);
	g_auto(GStrv) items = s ? g_strsplit(s, ",", -1) : NULL;

	return items && n < g_strv_length(items) ? g_strdup(items[n]) : NULL;
}

/* No handler of the channel entered while it already ran (overlaps). */
static void one_at_a_time(Judge *j, guint n)
{
	guint64 v;

	if (!irqstorm_console_item(j->con, IRQSTORM_RESULT_KEY(overlaps), n, &v))
		return;
	add(j, "one-at-a-time", n, v == 0, v ? g_strdup_printf(
		"a handler of the channel was entered %" G_GUINT64_FORMAT " times while "
		"it already ran", v) : g_strdup("no handler entered while it ran"));
}

/* Each channel's handler was called: the guest handled its events. */
static void handlers_called(Judge *j, guint n)
{
	guint64 v;

	if (!irqstorm_console_item(j->con, IRQSTORM_RESULT_KEY(handled), n, &v))
		return;
	add(j, "handlers-called", n, v > 0, v ? g_strdup_printf(
		"%" G_GUINT64_FORMAT " events handled", v) :
		g_strdup("its handler handled no event: was it ever called?"));
}

/*
 * The IRQ thread's policy and priority: FIFO 50; a secondary thread (the
 * primary forced into a thread of its own) 49 where the kernel has
 * sched_set_fifo_secondary(), else 50. Not judged when the scenario sets
 * the priority itself.
 */
static void thread_priority(Judge *j, guint n)
{
	g_autofree char *sched = item(j->con, IRQSTORM_RESULT_KEY(thread_sched), n);
	g_autofree char *primary = item(j->con, IRQSTORM_RESULT_KEY(primary_pid), n);
	gboolean secondary = primary && strcmp(primary, "0");
	g_autofree char *want = NULL;

	if (!sched || !strcmp(sched, "-") || j->sc->ch[n].thread_prio != IRQSTORM_NONE ||
	    irqstorm_scenario_cmdline_has(j->sc, "irqthread.prio"))
		return;
	want = g_strdup_printf("1:%d", secondary && j->fifo_secondary ? 49 : 50);
	add(j, "thread-priority", n, !strcmp(sched, want), g_strdup_printf(
		"its %sthread runs at policy:priority %s; the kernel promises %s",
		secondary ? "secondary " : "", sched, want));
}

/* What a context must be, and must not: IRQSTORM_CTX_* flags; in a task, FIFO. */
typedef struct {
	guint must, must_not;
	gboolean task;
	const char *what;
} ContextWant;

static const ContextWant want_hard = {
	IRQSTORM_CTX_HARDIRQ | IRQSTORM_CTX_IRQS_OFF, 0, FALSE,
	"hard interrupt context, interrupts off"
};
static const ContextWant want_thread = {
	0, IRQSTORM_CTX_HARDIRQ | IRQSTORM_CTX_SOFTIRQ | IRQSTORM_CTX_BH_OFF |
	IRQSTORM_CTX_IRQS_OFF, TRUE, "a SCHED_FIFO task, bottom halves and interrupts on"
};
static const ContextWant want_forced = {
	IRQSTORM_CTX_BH_OFF | IRQSTORM_CTX_IRQS_OFF, IRQSTORM_CTX_HARDIRQ |
	IRQSTORM_CTX_SOFTIRQ, TRUE, "a SCHED_FIFO task, bottom halves and interrupts off"
};
static const ContextWant want_forced_rt = {
	IRQSTORM_CTX_BH_OFF, IRQSTORM_CTX_HARDIRQ | IRQSTORM_CTX_SOFTIRQ |
	IRQSTORM_CTX_IRQS_OFF, TRUE, "a SCHED_FIFO task, bottom halves off, interrupts on "
	"(PREEMPT_RT)"
};

/* Does the kernel run handlers without IRQF_NO_THREAD in threads? */
static gboolean forces_threads(const IrqstormScenario *sc)
{
	return !strcmp(sc->flavour, "rt") || irqstorm_scenario_cmdline_has(sc, "threadirqs");
}

/*
 * What genirq promises channel n's handler of role: its threading mode's
 * context, on this kernel. A forced primary is one without IRQF_ONESHOT
 * (not INTx: irqstorm_request()) on a kernel that forces threads.
 */
static const ContextWant *context_want(Judge *j, guint n, guint role)
{
	const char *mode = irqstorm_console_value(j->con, IRQSTORM_RESULT_KEY(irq_mode));
	gboolean forced = forces_threads(j->sc);
	const ContextWant *fwant = strcmp(j->sc->flavour, "rt") ? &want_forced :
				   &want_forced_rt;

	if (role == IRQSTORM_ROLE_PRIMARY)
		return forced && mode && strcmp(mode, "intx") ? fwant : &want_hard;
	switch (j->sc->ch[n].threading) {
	case IRQSTORM_THREADING_HARDIRQ:
		return &want_hard;
	case IRQSTORM_THREADING_THREADED:
		return &want_thread;
	case IRQSTORM_THREADING_FORCED:
		return forced ? fwant : &want_hard;
	}
	return &want_hard;
}

/* A context's flags and task, in words: "hardirq+irqsoff", "task FIFO 50". */
static char *context_words(guint flags, const char *policy, const char *prio)
{
	static const char *const names[] = {
#define FLAG_NAME(id, bit, name, help) [bit] = name,
		IRQSTORM_CONTEXT_FLAGS(FLAG_NAME)
#undef FLAG_NAME
	};
	GString *s = g_string_new(strcmp(policy, "-") ? "task" : "");

	for (guint b = 0; b < G_N_ELEMENTS(names); b++)
		if (flags & 1u << b)
			g_string_append_printf(s, "%s%s", s->len ? "+" : "", names[b]);
	if (strcmp(policy, "-"))
		g_string_append_printf(s, " policy %s prio %s", policy, prio);
	return g_string_free(s, FALSE);
}

/*
 * An IRQ thread's policy (SCHED_*): FIFO, as irq_thread() sets it; any
 * where the scenario sets it itself with the series' irqthread.prio=
 * (fifo, rr or other).
 */
static gboolean policy_kept(const IrqstormScenario *sc, const char *policy)
{
	return !strcmp(policy, "1") || irqstorm_scenario_cmdline_has(sc, "irqthread.prio");
}

/* One context item against what its role is promised: NULL when kept. */
static char *context_broken(Judge *j, guint n, gchar **f)
{
	guint role = !strcmp(f[0], "primary") ? IRQSTORM_ROLE_PRIMARY : IRQSTORM_ROLE_HANDLER;
	const ContextWant *w = context_want(j, n, role);
	guint flags = (guint)g_ascii_strtoull(f[1], NULL, 10);
	gboolean task = strcmp(f[3], "-") != 0;
	g_autofree char *seen = NULL;

	if ((flags & w->must) == w->must && !(flags & w->must_not) && task == w->task &&
	    (!task || policy_kept(j->sc, f[3])))
		return NULL;
	seen = context_words(flags, f[3], f[4]);
	return g_strdup_printf("its %s ran in %s on CPU %s (%s runs, the first: event %s); "
			       "%s %s is promised %s", f[0], seen, f[2], f[5], f[6],
			       irqstorm_threading_name(j->sc->ch[n].threading),
			       role == IRQSTORM_ROLE_PRIMARY ? "primary" : "handler", w->what);
}

/*
 * The contexts the channel's handlers ran in (the driver's contexts
 * value), each against what its threading mode is promised here.
 */
static void context(Judge *j, guint n)
{
	g_autofree char *v = item(j->con, IRQSTORM_RESULT_KEY(contexts), n);
	g_auto(GStrv) items = v && strcmp(v, "-") ? g_strsplit(v, ":", -1) : NULL;
	g_autoptr(GString) ok = g_string_new(NULL);
	g_autofree char *broken = NULL;

	for (guint i = 0; items && items[i] && !broken; i++) {
		g_auto(GStrv) f = g_strsplit(items[i], ".", -1);

		if (g_strv_length(f) == 2 && !strcmp(f[0], "more")) {
			g_string_append_printf(ok, "%s%s runs past the driver's slots, not judged",
					       ok->len ? "; " : "", f[1]);
			continue;
		}
		if (g_strv_length(f) != 7) {
			broken = g_strdup_printf("the driver's contexts item '%s' is not %s",
						 items[i], IRQSTORM_GUEST_CONTEXT_ITEM);
			break;
		}
		broken = context_broken(j, n, f);
		if (!broken) {
			g_autofree char *seen = context_words((guint)g_ascii_strtoull(f[1],
							      NULL, 10), f[3], f[4]);

			g_string_append_printf(ok, "%s%s %s on CPU %s x%s", ok->len ? "; " : "",
					       f[0], seen, f[2], f[5]);
		}
	}
	if (!items)
		return;
	if (broken)
		add(j, "context", n, FALSE, g_steal_pointer(&broken));
	else
		add(j, "context", n, TRUE, g_strdup_printf("as promised: %s", ok->str));
}

/* Stamp p (IRQSTORM_STAMP_*) of record r: its time and vCPU; FALSE when
 * r lacks it. */
static gboolean stamp_of(const struct irqstorm_record *r, guint p, guint64 *t, guint *cpu)
{
	const struct irqstorm_stamp_desc *d = irqstorm_stamp(p);

	if (!(r->flags & d->flag))
		return FALSE;
	if (t)
		memcpy(t, (const char *)r + d->time, sizeof(*t));
	if (cpu)
		*cpu = *((const guint8 *)r + d->cpu);
	return TRUE;
}

static gint compare_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

/* Is a time of sorted strictly between from and to? */
static gboolean hard_within(const GArray *sorted, guint64 from, guint64 to)
{
	guint lo = 0, hi = sorted->len;

	while (lo < hi) {	/* the first time > from */
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(sorted, guint64, mid) <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sorted->len && g_array_index(sorted, guint64, lo) < to;
}

/*
 * An IRQF_ONESHOT line (INTx, threaded) stays masked until its threads
 * have returned: no hard handler of the line stamps while a thread of it
 * is between an event's thread and done stamps. The records of all such
 * channels of the line together.
 */
static void oneshot(Judge *j, guint mask)
{
	g_autoptr(GArray) hard = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint64 broke = 0, windows = 0, at = 0;
	guint first = IRQSTORM_NUM_CHANNELS;

	for (guint i = 0; i < j->records->len; i++) {
		const struct irqstorm_record *r = &g_array_index(j->records,
			struct irqstorm_record, i);

		guint64 t;

		if (r->channel < IRQSTORM_NUM_CHANNELS && (mask & 1u << r->channel) &&
		    stamp_of(r, IRQSTORM_STAMP_HARDIRQ, &t, NULL))
			g_array_append_val(hard, t);
	}
	g_array_sort(hard, compare_u64);
	for (guint i = 0; i < j->records->len; i++) {
		const struct irqstorm_record *r = &g_array_index(j->records,
			struct irqstorm_record, i);
		guint64 from, to;

		if (r->channel >= IRQSTORM_NUM_CHANNELS || !(mask & 1u << r->channel) ||
		    !stamp_of(r, IRQSTORM_STAMP_THREAD, &from, NULL) ||
		    !stamp_of(r, IRQSTORM_STAMP_DONE, &to, NULL))
			continue;
		windows++;
		if (hard_within(hard, from, to) && !broke++) {
			at = r->seq;
			first = r->channel;
		}
	}
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (mask & 1u << n)
			add(j, "oneshot", n, !broke, broke ? g_strdup_printf(
				"a hard handler of the line ran while a thread of it worked "
				"on %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events "
				"(the first: channel %u, event %" G_GUINT64_FORMAT ")",
				broke, windows, first, at) : g_strdup_printf(
				"no hard handler of the line ran while a thread of it worked "
				"(%" G_GUINT64_FORMAT " events)", windows));
}

/* The vCPU the channel's interrupt is routed to before the storm, or -1. */
static int irq_cpu_of(const IrqstormScenario *sc, guint n)
{
	if (sc->cpus < 2 || sc->irq_flip_us || sc->hotplug_cpu != IRQSTORM_NONE)
		return -1;
	return sc->ch[n].irq_cpu != IRQSTORM_NONE ? sc->ch[n].irq_cpu : sc->irq_cpu;
}

/* Every hard handler and thread stamp of the channel on its IRQ's CPU. */
static void affinity(Judge *j, guint n, int cpu)
{
	guint64 off = 0, seen = 0, at = 0;
	int where = -1;

	for (guint i = 0; i < j->records->len; i++) {
		const struct irqstorm_record *r = &g_array_index(j->records,
			struct irqstorm_record, i);
		guint h, t;
		int c = -1;

		if (r->channel != n)
			continue;
		if (stamp_of(r, IRQSTORM_STAMP_HARDIRQ, NULL, &h) && (int)h != cpu)
			c = h;
		else if (stamp_of(r, IRQSTORM_STAMP_THREAD, NULL, &t) && (int)t != cpu)
			c = t;
		seen++;
		if (c >= 0 && !off++) {
			at = r->seq;
			where = c;
		}
	}
	add(j, "affinity", n, !off, off ? g_strdup_printf(
		"%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events handled off CPU %d "
		"(the first: event %" G_GUINT64_FORMAT ", on CPU %d)", off, seen, cpu, at,
		where) : g_strdup_printf("its %" G_GUINT64_FORMAT " events handled on CPU %d",
					 seen, cpu));
}

GArray *irqstorm_promises_always(const IrqstormScenario *sc, const IrqstormConsole *con)
{
	Judge j = { sc, con, NULL, FALSE, g_array_new(FALSE, TRUE, sizeof(IrqstormPromise)) };
	guint mask = irqstorm_scenario_channel_mask(sc);

	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		if (!(mask & 1u << n))
			continue;
		one_at_a_time(&j, n);
		context(&j, n);
	}
	return j.out;
}

GArray *irqstorm_promises_judge(const IrqstormScenario *sc, const IrqstormConsole *con,
				const GArray *records, gboolean fifo_secondary)
{
	Judge j = { sc, con, records, fifo_secondary, irqstorm_promises_always(sc, con) };
	guint mask = irqstorm_scenario_channel_mask(sc), oneshot_mask = 0;

	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		const IrqstormChannelSpec *c = &sc->ch[n];

		if (!(mask & 1u << n))
			continue;
		if (c->work != IRQSTORM_WORK_IGNORE)
			handlers_called(&j, n);
		thread_priority(&j, n);
		if (sc->irq_mode == IRQSTORM_IRQS_INTX &&
		    c->threading == IRQSTORM_THREADING_THREADED &&
		    c->work_context == IRQSTORM_CONTEXT_HANDLER)
			oneshot_mask |= 1u << n;
		if (records && irq_cpu_of(sc, n) >= 0)
			affinity(&j, n, irq_cpu_of(sc, n));
	}
	if (records && oneshot_mask)
		oneshot(&j, oneshot_mask);
	return j.out;
}
