// SPDX-License-Identifier: GPL-2.0-or-later
/* The whole run's tasks per vCPU, from the plugin's tasks file: tasks.h. */
#include "tasks.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "explain.h"
#include "irqentry.h"
#include "json-build.h"
#include "names.h"
#include "output.h"

#define TASKS_FORMAT	"irqstorm-tasks"

/* A names line where and what: a switch to a task, or an irq's handling */
typedef struct {
	guint64 t_ns;
	guint cpu;
	const char *words;
} Mark;

/* What the file's lines say per vCPU: its switches and irqs in its time
 * order (the file's, per vCPU), and the last time a line names. */
typedef struct {
	GArray *switches[IRQSTORM_TRACE_VCPUS], *irqs[IRQSTORM_TRACE_VCPUS];	/* of Mark */
	guint64 last[IRQSTORM_TRACE_VCPUS];
} Lines;

static void lines_clear(Lines *l)
{
	for (guint c = 0; c < IRQSTORM_TRACE_VCPUS; c++) {
		g_clear_pointer(&l->switches[c], g_array_unref);
		g_clear_pointer(&l->irqs[c], g_array_unref);
	}
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Lines, lines_clear)

static void add_mark(GArray **marks, const Mark *m)
{
	if (!*marks)
		*marks = g_array_new(FALSE, FALSE, sizeof(Mark));
	g_array_append_val(*marks, *m);
}

/* One line into l: a names line, or an entry's ("START VADDR VCPU"). */
static gboolean read_line(Lines *l, const char *line)
{
	Mark m;
	gboolean task;
	char *end;

	if (g_ascii_isalpha(line[0])) {
		if (!irqstorm_names_line(line, &task, &m.t_ns, &m.cpu, &m.words) ||
		    m.cpu >= IRQSTORM_TRACE_VCPUS)
			return FALSE;
		add_mark(task ? &l->switches[m.cpu] : &l->irqs[m.cpu], &m);
	} else {
		m.t_ns = g_ascii_strtoull(line, &end, 10);
		g_ascii_strtoull(end, &end, 16);
		m.cpu = g_ascii_strtoull(end, &end, 10);
		if (*end || m.cpu >= IRQSTORM_TRACE_VCPUS)
			return FALSE;
	}
	l->last[m.cpu] = MAX(l->last[m.cpu], m.t_ns);
	return TRUE;
}

/* The file's lines into l. */
static gboolean read_lines(Lines *l, char **lines, const char *path, GError **error)
{
	for (guint i = 0; lines[i]; i++) {
		if (!*lines[i] || lines[i][0] == '#')
			continue;
		if (!read_line(l, lines[i])) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s:%u: not a line of the plugin's tasks file", path, i + 1);
			return FALSE;
		}
	}
	return TRUE;
}

/* The first of marks (in time order, or NULL) at or after t, or NULL. */
static const Mark *mark_at(const GArray *marks, guint64 t)
{
	guint lo = 0, hi = marks ? marks->len : 0;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(marks, Mark, mid).t_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (marks ? marks->len : 0) ? &g_array_index(marks, Mark, lo) : NULL;
}

/* Each vCPU's tasks: from each switch to the next, the last to its end. */
static void add_tasks(GArray *out, const Lines *l)
{
	for (guint c = 0; c < IRQSTORM_TRACE_VCPUS; c++) {
		for (guint i = 0; l->switches[c] && i < l->switches[c]->len; i++) {
			const Mark *m = &g_array_index(l->switches[c], Mark, i);
			guint64 end = i + 1 < l->switches[c]->len ? m[1].t_ns : l->last[c];
			IrqstormTaskSlice s = { c, m->t_ns, end, m->words, FALSE };

			if (end > m->t_ns)
				g_array_append_val(out, s);
		}
	}
}

/* "the timer interrupt" -> "timer interrupt": the name of a slice */
static const char *bare(const char *what)
{
	static const char *const articles[] = { "the ", "an ", "a " };

	for (guint i = 0; i < G_N_ELEMENTS(articles); i++)
		if (g_str_has_prefix(what, articles[i]))
			return g_intern_string(what + strlen(articles[i]));
	return g_intern_string(what);
}

/* Each interrupt that ended, cut at its vCPU's next switch, named. */
static void add_interrupts(GArray *out, const Lines *l, const GArray *taken)
{
	for (guint i = 0; i < taken->len; i++) {
		const IrqstormIrqEntry *e = &g_array_index(taken, IrqstormIrqEntry, i);
		const Mark *sw, *irq;
		IrqstormTaskSlice s = { e->cpu, e->t_ns, e->end_ns, bare(e->what), TRUE };

		if (e->end_ns == G_MAXUINT64 || e->cpu >= IRQSTORM_TRACE_VCPUS)
			continue;	/* still running as the run ended */
		sw = mark_at(l->switches[e->cpu], e->t_ns + 1);
		irq = e->device ? mark_at(l->irqs[e->cpu], e->t_ns) : NULL;
		if (sw && sw->t_ns < s.to_ns)
			s.to_ns = sw->t_ns;
		if (irq && irq->t_ns < s.to_ns)
			s.name = irq->words;
		if (s.to_ns > s.from_ns)
			g_array_append_val(out, s);
	}
}

static gint slice_compare(gconstpointer a, gconstpointer b)
{
	const IrqstormTaskSlice *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->from_ns != y->from_ns)
		return x->from_ns < y->from_ns ? -1 : 1;
	return x->to_ns > y->to_ns ? -1 : x->to_ns < y->to_ns;	/* parents first */
}

GArray *irqstorm_tasks_read(const char *path, const GArray *points, GError **error)
{
	g_auto(GStrv) lines = irqstorm_explain_trace_lines(path, error);
	g_auto(Lines) l = { 0 };
	g_autoptr(GArray) taken = NULL;
	GArray *out;

	if (!lines || !read_lines(&l, lines, path, error) ||
	    !(taken = irqstorm_irqentry_from_lines(lines, path, points, error)))
		return NULL;
	out = g_array_new(FALSE, FALSE, sizeof(IrqstormTaskSlice));
	add_tasks(out, &l);
	add_interrupts(out, &l, taken);
	g_array_sort(out, slice_compare);
	return out;
}

gboolean irqstorm_tasks_write(const GArray *slices, const char *path, GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "format", TASKS_FORMAT);
	irqstorm_json_add_int(b, "file_version", 1);
	irqstorm_json_add_string(b, "clock", "QEMU_CLOCK_VIRTUAL");
	json_builder_set_member_name(b, "slices");
	json_builder_begin_array(b);
	for (guint i = 0; i < slices->len; i++) {
		const IrqstormTaskSlice *s = &g_array_index(slices, IrqstormTaskSlice, i);

		json_builder_begin_object(b);
		irqstorm_json_add_int(b, "cpu", s->cpu);
		irqstorm_json_add_int(b, "from_ns", s->from_ns);
		irqstorm_json_add_int(b, "to_ns", s->to_ns);
		irqstorm_json_add_string(b, "kind", s->interrupt ? "interrupt" : "task");
		irqstorm_json_add_string(b, "name", s->name);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return irqstorm_write_json_file(path, root, error);
}

GArray *irqstorm_tasks_load(const char *path, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(IrqstormTaskSlice));
	JsonObject *root;
	JsonArray *slices;

	if (!json_parser_load_from_file(parser, path, error))
		return NULL;
	root = JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser)) ?
	       json_node_get_object(json_parser_get_root(parser)) : NULL;
	slices = root ? json_object_get_array_member(root, "slices") : NULL;
	if (!slices || g_strcmp0(json_object_get_string_member_with_default(root, "format", ""),
				 TASKS_FORMAT)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not irqstorm explain's tasks.json", path);
		return NULL;
	}
	for (guint i = 0; i < json_array_get_length(slices); i++) {
		JsonObject *o = json_array_get_object_element(slices, i);
		IrqstormTaskSlice s = {
			json_object_get_int_member_with_default(o, "cpu", 0),
			json_object_get_int_member_with_default(o, "from_ns", 0),
			json_object_get_int_member_with_default(o, "to_ns", 0),
			g_intern_string(json_object_get_string_member_with_default(o, "name", "?")),
			!g_strcmp0(json_object_get_string_member_with_default(o, "kind", ""),
				   "interrupt"),
		};

		if (s.to_ns < s.from_ns) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s: slice %u ends before it starts", path, i);
			return NULL;
		}
		g_array_append_val(out, s);
	}
	return g_steal_pointer(&out);
}
