// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interrupts a vCPU took: see irqentry.h.
 */
#include "irqentry.h"

#include <string.h>

#include "irqstorm/explain.h"
#include "explain.h"
#include "files.h"
#include "symbols.h"

/* A hard interrupt in the words a kernel developer uses, by its entry. */
static const struct {
	const char *entry;
	const char *what;
} vectors[] = {
	{ "asm_sysvec_apic_timer_interrupt", "the timer interrupt" },
	{ IRQSTORM_IRQ_ENTRY_DEVICE, "a device interrupt" },
	{ "asm_sysvec_reschedule_ipi", "a reschedule IPI" },
	{ "asm_sysvec_call_function", "a function-call IPI" },
	{ "asm_sysvec_irq_work", "an irq_work interrupt" },
};

gboolean irqstorm_irqentry_is_entry(const char *f)
{
	return !strcmp(f, IRQSTORM_IRQ_ENTRY_DEVICE) ||
	       g_str_has_prefix(f, IRQSTORM_IRQ_ENTRY_SYSVEC);
}

const char *irqstorm_irqentry_what(const char *f)
{
	for (guint i = 0; i < G_N_ELEMENTS(vectors); i++)
		if (g_str_has_prefix(f, vectors[i].entry))
			return vectors[i].what;
	return "a hard interrupt";
}

static gint entry_by_vaddr(gconstpointer a, gconstpointer b)
{
	const IrqstormIrqEntry *x = a, *y = b;

	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

static gint entry_by_time(gconstpointer a, gconstpointer b)
{
	const IrqstormIrqEntry *x = a, *y = b;

	if (x->t_ns != y->t_ns)
		return x->t_ns < y->t_ns ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/* A text symbol: an entry point if it is one, or the exit. */
static void add_point(guint64 addr, const char *name, gpointer data)
{
	gboolean entry = irqstorm_irqentry_is_entry(name);
	IrqstormIrqEntry e = { .vaddr = addr };

	if (!entry && strcmp(name, IRQSTORM_IRQ_EXIT))
		return;
	e.what = entry ? irqstorm_irqentry_what(name) : NULL;
	e.device = !strcmp(name, IRQSTORM_IRQ_ENTRY_DEVICE);
	g_array_append_val((GArray *)data, e);
}

GArray *irqstorm_irqentry_points(const char *system_map, GError **error)
{
	g_autoptr(IrqstormSymbols) syms = irqstorm_symbols_load(system_map, error);
	g_autoptr(GArray) pts = NULL;

	if (!syms)
		return NULL;
	pts = g_array_new(FALSE, FALSE, sizeof(IrqstormIrqEntry));
	irqstorm_symbols_foreach(syms, add_point, pts);	/* by address */
	if (!pts->len) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: no %s and no %s* symbol: not an x86 kernel's System.map",
			    system_map, IRQSTORM_IRQ_ENTRY_DEVICE, IRQSTORM_IRQ_ENTRY_SYSVEC);
		return NULL;
	}
	return g_steal_pointer(&pts);
}

gboolean irqstorm_irqentry_write_points(const GArray *points, const char *path,
					GError **error)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < points->len; i++)
		g_string_append_printf(s, "%" G_GINT64_MODIFIER "x\n",
				       g_array_index(points, IrqstormIrqEntry, i).vaddr);
	return irqstorm_write_file(path, s->str, s->len, error);
}

/* One line "START_NS VADDR VCPU" into *e, named from points. */
static gboolean read_line(const char *line, const GArray *points, IrqstormIrqEntry *e)
{
	IrqstormIrqEntry key;
	const IrqstormIrqEntry *pt;
	char *end;

	key.end_ns = G_MAXUINT64;
	key.t_ns = g_ascii_strtoull(line, &end, 10);
	key.vaddr = g_ascii_strtoull(end, &end, 16);
	key.cpu = g_ascii_strtoull(end, &end, 10);
	if (*end)
		return FALSE;
	pt = bsearch(&key, points->data, points->len, sizeof(IrqstormIrqEntry),
		     entry_by_vaddr);
	if (!pt)
		return FALSE;
	*e = key;
	e->what = pt->what;
	e->device = pt->device;
	return TRUE;
}

/*
 * An exit on e->cpu: it ends the innermost interrupt open there (open: a
 * stack of indices into taken per vCPU), if any.
 */
static void pair_exit(GArray *taken, GHashTable *open, const IrqstormIrqEntry *e)
{
	GArray *stack = g_hash_table_lookup(open, GUINT_TO_POINTER(e->cpu));

	if (!stack || !stack->len)
		return;		/* an exception's: no interrupt open */
	g_array_index(taken, IrqstormIrqEntry,
		      g_array_index(stack, guint, stack->len - 1)).end_ns = e->t_ns;
	g_array_set_size(stack, stack->len - 1);
}

/* An entry on e->cpu: taken, and open there until its exit. */
static void push_entry(GArray *taken, GHashTable *open, const IrqstormIrqEntry *e)
{
	GArray *stack = g_hash_table_lookup(open, GUINT_TO_POINTER(e->cpu));
	guint i = taken->len;

	if (!stack) {
		stack = g_array_new(FALSE, FALSE, sizeof(guint));
		g_hash_table_insert(open, GUINT_TO_POINTER(e->cpu), stack);
	}
	g_array_append_val(taken, *e);
	g_array_append_val(stack, i);
}

GArray *irqstorm_irqentry_read(const char *trace, const GArray *points,
			       GError **error)
{
	g_auto(GStrv) lines = irqstorm_explain_trace_lines(trace, error);

	return lines ? irqstorm_irqentry_from_lines(lines, trace, points, error) : NULL;
}

GArray *irqstorm_irqentry_from_lines(char **lines, const char *trace, const GArray *points,
				     GError **error)
{
	g_autoptr(GArray) taken = g_array_new(FALSE, FALSE, sizeof(IrqstormIrqEntry));
	g_autoptr(GHashTable) open = g_hash_table_new_full(NULL, NULL, NULL,
							   (GDestroyNotify)g_array_unref);

	for (guint i = 0; lines[i]; i++) {
		IrqstormIrqEntry e;

		/* Comments, and the names lines of a tasks file (tasks.h) */
		if (!*lines[i] || lines[i][0] == '#' || g_ascii_isalpha(lines[i][0]))
			continue;
		if (!read_line(lines[i], points, &e)) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s:%u: not a line of the plugin's interrupts "
				    "trace, or no interrupt entry's", trace, i + 1);
			return NULL;
		}
		if (e.what)
			push_entry(taken, open, &e);
		else
			pair_exit(taken, open, &e);
	}
	g_array_sort(taken, entry_by_time);
	for (guint i = 0; i < taken->len; i++) {
		IrqstormIrqEntry *e = &g_array_index(taken, IrqstormIrqEntry, i);

		e->reach_ns = MAX(e->end_ns, i ? e[-1].reach_ns : 0);
	}
	return g_steal_pointer(&taken);
}

/* The index of the first interrupt taken at or after t. */
static guint first_at(const GArray *taken, guint64 t)
{
	guint lo = 0, hi = taken->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(taken, IrqstormIrqEntry, mid).t_ns < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index of the first interrupt that may still run at t: none
 * taken before it, on any vCPU, ends after t. */
static guint first_running_at(const GArray *taken, guint64 t)
{
	guint i = first_at(taken, t);

	while (i > 0 && g_array_index(taken, IrqstormIrqEntry, i - 1).reach_ns > t)
		i--;
	return i;
}

/* The index of the event's own interrupt: the first device interrupt on
 * cpu (any: G_MAXUINT) taken at or after its raise; G_MAXUINT if none. */
static guint own_index(const GArray *taken, guint64 raise_ns, guint cpu)
{
	for (guint i = first_at(taken, raise_ns); i < taken->len; i++) {
		const IrqstormIrqEntry *e = &g_array_index(taken, IrqstormIrqEntry, i);

		if (e->device && (cpu == G_MAXUINT || e->cpu == cpu))
			return i;
	}
	return G_MAXUINT;
}

guint irqstorm_irqentry_others(const GArray *taken, guint64 from, guint64 to,
			       guint cpu, guint64 raise_ns, guint64 trigger_ns,
			       const char **first)
{
	guint own = raise_ns == G_MAXUINT64 ? G_MAXUINT : own_index(taken, raise_ns, cpu);
	guint n = 0;

	if (first)
		*first = NULL;
	for (guint i = first_running_at(taken, from); i < taken->len; i++) {
		const IrqstormIrqEntry *e = &g_array_index(taken, IrqstormIrqEntry, i);

		if (e->t_ns >= to)
			break;
		if (i == own || e->end_ns <= from || (cpu != G_MAXUINT && e->cpu != cpu))
			continue;
		if (trigger_ns != G_MAXUINT64 && e->t_ns <= trigger_ns && e->end_ns > trigger_ns)
			continue;	/* the section's own: it armed the trigger */
		if (first && !n)
			*first = e->what;
		n++;
	}
	return n;
}
