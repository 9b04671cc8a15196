// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run as a Chrome trace-event timeline: see timeline.h. The JSON is
 * written by hand, not with json-glib, so that times keep their exact
 * decimal form (json-glib writes doubles with 17 significant digits).
 */
#include "timeline.h"

#include <string.h>

#include "stages.h"

/* The tracks: the device's, then per vCPU its points, its tasks (the
 * whole run's), its explained windows; in that order by tid. */
#define PID		1
#define TID_DEVICE	0
#define TID_CPU(c)	(3 * (c) + 1)
#define TID_TASKS(c)	(3 * (c) + 2)
#define TID_EXPLAINED(c) (3 * (c) + 3)

/* ns as the format's microseconds, exactly: "9072452.944". */
static void append_us(GString *s, guint64 ns)
{
	g_string_append_printf(s, "%" G_GUINT64_FORMAT ".%03u", ns / 1000,
			       (guint)(ns % 1000));
}

/* v as a JSON string. */
static void append_str(GString *s, const char *v)
{
	g_string_append_c(s, '"');
	for (const char *p = v; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(s, "\\%c", *p);
		else if ((guchar)*p < 0x20)
			g_string_append_printf(s, "\\u%04x", (guchar)*p);
		else
			g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

/* One timed event of phase ph on track tid; extra: more members, or NULL. */
static void event(GString *s, const char *ph, guint tid, guint64 ts, const char *name,
		  const char *extra)
{
	g_string_append_printf(s, ",\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%u,\"ts\":", ph,
			       PID, tid);
	append_us(s, ts);
	g_string_append(s, ",\"name\":");
	append_str(s, name);
	if (extra)
		g_string_append(s, extra);
	g_string_append_c(s, '}');
}

/* A complete slice ("X") of [from, to) on track tid. */
static void slice(GString *s, guint tid, guint64 from, guint64 to, const char *name,
		  const char *cat)
{
	g_autoptr(GString) extra = g_string_new(",\"dur\":");

	append_us(extra, to - from);
	g_string_append_printf(extra, ",\"cat\":\"%s\"", cat);
	event(s, "X", tid, from, name, extra->str);
}

/* A metadata event ("M") naming the process or track tid. */
static void metadata(GString *s, const char *what, guint tid, const char *name,
		     gboolean first)
{
	g_string_append_printf(s, "%s{\"ph\":\"M\",\"pid\":%d,\"tid\":%u,\"name\":\"%s\","
			       "\"args\":{\"name\":", first ? "\n" : ",\n", PID, tid, what);
	append_str(s, name);
	g_string_append(s, "}}");
}

/* The track of a point's vCPU (the device's for the raise). */
static guint point_tid(guint cpu)
{
	return cpu == IRQSTORM_CPU_NONE ? TID_DEVICE : TID_CPU(cpu);
}

/*
 * Record r: an async slice from its first point to its last, cut at its
 * points; a mark (a slice of no length) at its first and last point on
 * their tracks, and a flow between them.
 */
static void record_events(GString *s, const struct irqstorm_record *r)
{
	const char *names[IRQSTORM_STAMP_COUNT + 1];
	guint64 t[IRQSTORM_STAMP_COUNT + 1];
	guint cpus[IRQSTORM_STAMP_COUNT + 1];
	gboolean probe = (r->flags & IRQSTORM_REC_PROBE) != 0;
	guint n = irqstorm_stage_event_points(r, names, t, cpus);
	g_autofree char *title = NULL, *id = NULL, *flow = NULL, *flow_end = NULL;
	guint first, last;

	if (n < 2 || t[n - 1] < t[0])
		return;		/* only its raise: nothing was handled */
	if (probe)
		cpus[0] = cpus[n - 1];	/* the probe's own CPU expected it */
	title = probe ? g_strdup_printf("probe #%" G_GUINT64_FORMAT, r->seq) :
			g_strdup_printf("ch%u #%" G_GUINT64_FORMAT, r->channel, r->seq);
	id = g_strdup_printf(",\"cat\":\"event\",\"id\":\"%" G_GUINT64_FORMAT "\"", r->seq);
	flow = g_strdup_printf(",\"cat\":\"flow\",\"id\":\"%" G_GUINT64_FORMAT "\"", r->seq);
	flow_end = g_strdup_printf("%s,\"bp\":\"e\"", flow);
	first = point_tid(cpus[0]);
	last = point_tid(cpus[n - 1]);
	slice(s, first, t[0], t[0], names[0], "point");
	slice(s, last, t[n - 1], t[n - 1], names[n - 1], "point");
	event(s, "s", first, t[0], title, flow);
	event(s, "f", last, t[n - 1], title, flow_end);
	event(s, "b", TID_DEVICE, t[0], title, id);
	for (guint i = 0; i + 1 < n; i++) {
		g_autofree char *w = NULL;

		if (t[i + 1] < t[i] || t[i] < t[0] || t[i + 1] > t[n - 1])
			continue;
		w = g_strdup_printf("%s->%s", names[i], names[i + 1]);
		event(s, "b", TID_DEVICE, t[i], w, id);
		event(s, "e", TID_DEVICE, t[i + 1], w, id);
	}
	event(s, "e", TID_DEVICE, t[n - 1], title, id);
}

static gint span_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormTimelineSpan *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->from_ns < y->from_ns ? -1 : x->from_ns > y->from_ns;
}

/*
 * The explained spans per vCPU in time order, each cut where an earlier
 * one ends (two explained events' windows may overlap: the time is shown
 * once), and empty ones dropped.
 */
static GArray *spans_sorted(const GArray *spans)
{
	g_autoptr(GArray) in = g_array_copy((GArray *)spans);
	GArray *out = g_array_new(FALSE, FALSE, sizeof(IrqstormTimelineSpan));

	g_array_sort(in, span_compare);
	for (guint i = 0; i < in->len; i++) {
		IrqstormTimelineSpan sp = g_array_index(in, IrqstormTimelineSpan, i);
		const IrqstormTimelineSpan *prev = out->len ?
			&g_array_index(out, IrqstormTimelineSpan, out->len - 1) : NULL;

		if (prev && prev->cpu == sp.cpu && sp.from_ns < prev->to_ns)
			sp.from_ns = prev->to_ns;
		if (sp.to_ns > sp.from_ns)
			g_array_append_val(out, sp);
	}
	return out;
}

/* A slice of a nested track (tasks, explained), written as "B"/"E" */
typedef struct {
	guint tid;
	guint64 from_ns, to_ns;
	const char *name, *cat;
} Nest;

static void add_nest(GArray *nests, guint tid, guint64 from, guint64 to, const char *name,
		     const char *cat)
{
	Nest n = { tid, from, to, name, cat };

	g_array_append_val(nests, n);
}

/*
 * The explained spans on their vCPUs' tracks: each run of one context
 * without a gap as a slice (the task, or a hard interrupt over it), its
 * functions as slices under it.
 */
static void span_nests(GArray *nests, const GArray *spans)
{
	g_autoptr(GArray) sorted = spans_sorted(spans);

	for (guint i = 0; i < sorted->len;) {
		const IrqstormTimelineSpan *a = &g_array_index(sorted, IrqstormTimelineSpan, i);
		guint j = i + 1;

		while (j < sorted->len) {
			const IrqstormTimelineSpan *b = &g_array_index(sorted, IrqstormTimelineSpan, j);
			const IrqstormTimelineSpan *p = b - 1;

			if (b->cpu != a->cpu || b->from_ns != p->to_ns ||
			    strcmp(b->context, a->context))
				break;
			j++;
		}
		add_nest(nests, TID_EXPLAINED(a->cpu), a->from_ns,
			 g_array_index(sorted, IrqstormTimelineSpan, j - 1).to_ns, a->context,
			 "context");
		for (guint k = i; k < j; k++) {
			const IrqstormTimelineSpan *f = &g_array_index(sorted, IrqstormTimelineSpan, k);

			add_nest(nests, TID_EXPLAINED(f->cpu), f->from_ns, f->to_ns, f->function,
				 "function");
		}
		i = j;
	}
}

/* The whole run's tasks on their vCPUs' tracks, interrupts nested. */
static void task_nests(GArray *nests, const GArray *tasks)
{
	for (guint i = 0; i < tasks->len; i++) {
		const IrqstormTaskSlice *t = &g_array_index(tasks, IrqstormTaskSlice, i);

		add_nest(nests, TID_TASKS(t->cpu), t->from_ns, t->to_ns, t->name,
			 t->interrupt ? "interrupt" : "task");
	}
}

static gint nest_compare(gconstpointer a, gconstpointer b)
{
	const Nest *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->from_ns != y->from_ns)
		return x->from_ns < y->from_ns ? -1 : 1;
	return x->to_ns > y->to_ns ? -1 : x->to_ns < y->to_ns;	/* parents first */
}

/* Does n continue open[top] (same name, from where it ends, inside the
 * slice under it)? Then it is one slice: a viewer must not nest them. */
static gboolean continues(const GArray *open, const Nest *n)
{
	const Nest *top = &g_array_index(open, Nest, open->len - 1);

	return top->to_ns == n->from_ns && !strcmp(top->name, n->name) &&
	       !strcmp(top->cat, n->cat) &&
	       (open->len == 1 || g_array_index(open, Nest, open->len - 2).to_ns >= n->to_ns);
}

/*
 * The nested tracks' slices as "B" and "E" events, per track in time
 * order, every end before a begin at the same time, inner ends first: one
 * decimal string per boundary, so no viewer adding ts and dur in floating
 * point sees a slice end after the next one begins (speedscope would nest
 * them). A slice that continues another of its name is merged with it.
 */
static void nest_events(GString *s, GArray *nests)
{
	g_autoptr(GArray) open = g_array_new(FALSE, FALSE, sizeof(Nest));
	g_autofree char *cat = NULL;

	g_array_sort(nests, nest_compare);
	for (guint i = 0; i <= nests->len; i++) {
		const Nest *n = i < nests->len ? &g_array_index(nests, Nest, i) : NULL;
		gboolean merged = FALSE;

		while (open->len) {
			Nest *top = &g_array_index(open, Nest, open->len - 1);

			if (n && top->tid == n->tid && top->to_ns > n->from_ns)
				break;
			if (n && top->tid == n->tid && continues(open, n)) {
				top->to_ns = n->to_ns;
				merged = TRUE;
				break;
			}
			event(s, "E", top->tid, top->to_ns, top->name, NULL);
			g_array_set_size(open, open->len - 1);
		}
		if (!n || merged)
			continue;
		g_free(cat);
		cat = g_strdup_printf(",\"cat\":\"%s\"", n->cat);
		event(s, "B", n->tid, n->from_ns, n->name, cat);
		g_array_append_val(open, *n);
	}
}

/* The tracks' names: the device's, and per vCPU those it has. */
static void track_names(GString *s, guint cpus, const GArray *spans, const GArray *tasks,
			const char *label)
{
	g_autofree guint8 *has = g_new0(guint8, cpus);	/* 1: tasks, 2: explained */

	for (guint i = 0; tasks && i < tasks->len; i++) {
		guint c = g_array_index(tasks, IrqstormTaskSlice, i).cpu;

		if (c < cpus)
			has[c] |= 1;
	}
	for (guint i = 0; spans && i < spans->len; i++) {
		guint c = g_array_index(spans, IrqstormTimelineSpan, i).cpu;

		if (c < cpus)
			has[c] |= 2;
	}
	metadata(s, "process_name", TID_DEVICE, label, TRUE);
	metadata(s, "thread_name", TID_DEVICE, "device (raises) and events", FALSE);
	for (guint c = 0; c < cpus; c++) {
		g_autofree char *name = g_strdup_printf("CPU %u", c);
		g_autofree char *tname = g_strdup_printf("CPU %u tasks", c);
		g_autofree char *ename = g_strdup_printf("CPU %u explained", c);

		metadata(s, "thread_name", TID_CPU(c), name, FALSE);
		if (has[c] & 1)
			metadata(s, "thread_name", TID_TASKS(c), tname, FALSE);
		if (has[c] & 2)
			metadata(s, "thread_name", TID_EXPLAINED(c), ename, FALSE);
	}
}

char *irqstorm_timeline_json(const GArray *records, guint cpus, const GArray *spans,
			     const GArray *tasks, const char *label)
{
	g_autoptr(GArray) nests = g_array_new(FALSE, FALSE, sizeof(Nest));
	GString *s = g_string_new("{\"displayTimeUnit\":\"ns\",\"otherData\":{"
				  "\"clock\":\"QEMU_CLOCK_VIRTUAL\",\"time\":\"virtual: ts "
				  "and dur are us with three decimals, every ns exact\","
				  "\"run\":");

	append_str(s, label);
	g_string_append(s, "},\n\"traceEvents\":[");
	track_names(s, cpus, spans, tasks, label);
	for (guint i = 0; i < records->len; i++)
		record_events(s, &g_array_index(records, struct irqstorm_record, i));
	if (tasks)
		task_nests(nests, tasks);
	if (spans)
		span_nests(nests, spans);
	nest_events(s, nests);
	g_string_append(s, "\n]}\n");
	return g_string_free(s, FALSE);
}
