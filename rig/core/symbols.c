// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guest code addresses to names: see symbols.h.
 */
#include "symbols.h"

#include <stdlib.h>
#include <string.h>

/* x86-64: user space ends here; kernel modules live above MODULES_VADDR. */
#define USER_END 0x0000800000000000ull
#define MODULES_VADDR 0xffffffffa0000000ull
#define PAGE 4096ull

typedef struct {
	guint64 addr;		/* kernel: address; module: offset in .text */
	char *name;
} Sym;

struct IrqstormSymbols {
	GArray *kernel;		/* of Sym, by address */
	guint64 text_start, text_end;
	GArray *module;		/* of Sym, by offset */
	guint64 module_size;	/* of its .text */
	guint64 module_base;	/* 0: not placed */
};

static void sym_clear(gpointer p)
{
	g_free(((Sym *)p)->name);
}

static gint sym_compare(gconstpointer a, gconstpointer b)
{
	const Sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void irqstorm_symbols_free(IrqstormSymbols *s)
{
	if (!s)
		return;
	g_array_unref(s->kernel);
	g_array_unref(s->module);
	g_free(s);
}

static IrqstormSymbols *symbols_new(void)
{
	IrqstormSymbols *s = g_new0(IrqstormSymbols, 1);

	s->kernel = g_array_new(FALSE, FALSE, sizeof(Sym));
	g_array_set_clear_func(s->kernel, sym_clear);
	s->module = g_array_new(FALSE, FALSE, sizeof(Sym));
	g_array_set_clear_func(s->module, sym_clear);
	return s;
}

/* One System.map line: "ADDR TYPE NAME"; text symbols are kept. */
static void symbols_map_line(IrqstormSymbols *s, const char *line)
{
	g_auto(GStrv) f = g_strsplit(line, " ", 3);
	Sym sym;

	if (g_strv_length(f) != 3 || !strchr("tTwW", f[1][0]) || f[1][1])
		return;
	sym.addr = g_ascii_strtoull(f[0], NULL, 16);
	if (!strcmp(f[2], "_stext"))
		s->text_start = sym.addr;
	else if (!strcmp(f[2], "_etext"))
		s->text_end = sym.addr;
	sym.name = g_strdup(f[2]);
	g_array_append_val(s->kernel, sym);
}

IrqstormSymbols *irqstorm_symbols_load(const char *system_map, GError **error)
{
	g_autoptr(IrqstormSymbols) s = symbols_new();
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	if (!g_file_get_contents(system_map, &text, NULL, error))
		return NULL;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		symbols_map_line(s, lines[i]);
	if (!s->text_start || s->text_end <= s->text_start) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: no _stext and _etext: not a kernel's System.map",
			    system_map);
		return NULL;
	}
	g_array_sort(s->kernel, sym_compare);
	return g_steal_pointer(&s);
}

void irqstorm_symbols_foreach(const IrqstormSymbols *s,
			      void (*fn)(guint64 addr, const char *name, gpointer data),
			      gpointer data)
{
	for (guint i = 0; i < s->kernel->len; i++) {
		const Sym *sym = &g_array_index(s->kernel, Sym, i);

		fn(sym->addr, sym->name, data);
	}
}

/* One line of nm -f sysv: "NAME|VALUE|CLASS|TYPE|SIZE|LINE|SECTION". */
static void symbols_nm_line(IrqstormSymbols *s, const char *line)
{
	g_auto(GStrv) f = g_strsplit(line, "|", -1);
	Sym sym;

	if (g_strv_length(f) != 7 || strcmp(g_strstrip(f[6]), ".text") ||
	    strcmp(g_strstrip(f[3]), "FUNC"))
		return;
	sym.addr = g_ascii_strtoull(f[1], NULL, 16);
	s->module_size = MAX(s->module_size,
			     sym.addr + g_ascii_strtoull(f[4], NULL, 16));
	sym.name = g_strdup(g_strstrip(f[0]));
	g_array_append_val(s->module, sym);
}

gboolean irqstorm_symbols_add_module(IrqstormSymbols *s, const char *ko,
				     GError **error)
{
	const char *argv[] = { "nm", "-f", "sysv", "--defined-only", ko, NULL };
	g_autofree char *out = NULL, *err = NULL;
	g_auto(GStrv) lines = NULL;
	int status;

	if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
			  &out, &err, &status, error))
		return FALSE;
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
			    "nm %s: %s", ko, g_strstrip(err));
		return FALSE;
	}
	lines = g_strsplit(out, "\n", -1);
	for (guint i = 0; lines[i]; i++)
		symbols_nm_line(s, lines[i]);
	g_array_sort(s->module, sym_compare);
	return TRUE;
}

/* The symbol at or below key in a sorted array, or NULL. */
static const Sym *symbols_below(const GArray *syms, guint64 key)
{
	guint lo = 0, hi = syms->len;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		if (g_array_index(syms, Sym, mid).addr <= key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &g_array_index(syms, Sym, lo - 1) : NULL;
}

/* How many of the starts are a module function's entry if it is at base. */
static guint symbols_score(const IrqstormSymbols *s, guint64 base,
			   const guint64 *starts, guint n)
{
	guint hits = 0;

	for (guint i = 0; i < n; i++) {
		const Sym *f;

		if (starts[i] < base || starts[i] - base >= s->module_size)
			continue;
		f = symbols_below(s->module, starts[i] - base);
		hits += f && f->addr == starts[i] - base;
	}
	return hits;
}

guint irqstorm_symbols_place_module(IrqstormSymbols *s, const guint64 *starts,
				    guint n)
{
	guint best = 0;

	for (guint i = 0; i < n; i++) {
		if (starts[i] < MODULES_VADDR)
			continue;
		for (guint j = 0; j < s->module->len; j++) {
			guint64 off = g_array_index(s->module, Sym, j).addr;
			guint64 base = starts[i] - off;
			guint hits;

			/* The module's text is allocated in whole pages and
			 * its .text comes first: only a page can be its base. */
			if (off > starts[i] || base < MODULES_VADDR || (base & (PAGE - 1)))
				continue;
			hits = symbols_score(s, base, starts, n);
			if (hits > best) {
				best = hits;
				s->module_base = base;
			}
		}
	}
	return best;
}

guint64 irqstorm_symbols_module_base(const IrqstormSymbols *s)
{
	return s->module_base;
}

/* The name of f, its address into *start; or name at vaddr. */
static const char *symbols_found(const Sym *f, guint64 base, const char *name,
				 guint64 vaddr, guint64 *start)
{
	if (start)
		*start = f ? base + f->addr : vaddr;
	return f ? f->name : name;
}

const char *irqstorm_symbols_lookup(const IrqstormSymbols *s, guint64 vaddr,
				    guint64 *start)
{
	if (vaddr < USER_END)
		return symbols_found(NULL, 0, IRQSTORM_SYM_USER, vaddr, start);
	if (s->module_base && vaddr >= s->module_base &&
	    vaddr - s->module_base < s->module_size)
		return symbols_found(symbols_below(s->module, vaddr - s->module_base),
				     s->module_base, IRQSTORM_SYM_UNKNOWN, vaddr, start);
	if (vaddr < s->text_start || vaddr >= s->text_end)
		return symbols_found(NULL, 0, IRQSTORM_SYM_UNKNOWN, vaddr, start);
	return symbols_found(symbols_below(s->kernel, vaddr), 0, IRQSTORM_SYM_UNKNOWN,
			     vaddr, start);
}
