/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Guest code addresses to names: the kernel's text symbols from its
 * System.map and the irqstorm module's from its .ko. The module's load
 * address is not known outside the guest (no KASLR, but module memory is
 * allocated at run time); it is placed at the page where the blocks seen
 * executing in module space start at the most of its functions' entries
 * (its text is allocated in whole pages, .text first).
 */
#ifndef IRQSTORM_RIG_SYMBOLS_H
#define IRQSTORM_RIG_SYMBOLS_H

#include <glib.h>

G_BEGIN_DECLS

/* Names for what is not a symbol's code. */
#define IRQSTORM_SYM_USER "[user]"		/* user space */
#define IRQSTORM_SYM_HALTED "[halted]"		/* the vCPU was halted */
#define IRQSTORM_SYM_UNKNOWN "[unknown]"	/* kernel space, no symbol */

typedef struct IrqstormSymbols IrqstormSymbols;

/* The text symbols of a System.map. */
IrqstormSymbols *irqstorm_symbols_load(const char *system_map, GError **error);
void irqstorm_symbols_free(IrqstormSymbols *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormSymbols, irqstorm_symbols_free)

/* fn(address, name, data) for each of the kernel's text symbols, by address. */
void irqstorm_symbols_foreach(const IrqstormSymbols *s,
			      void (*fn)(guint64 addr, const char *name, gpointer data),
			      gpointer data);

/* The .text functions of a kernel module (read with nm), not yet placed. */
gboolean irqstorm_symbols_add_module(IrqstormSymbols *s, const char *ko,
				     GError **error);

/*
 * Place the module from the start addresses of blocks seen executing (n of
 * them): at the page address where the most of them are its functions'
 * entries.
 * Returns the number that are; 0 leaves it unplaced (its code then reads
 * as [unknown]).
 */
guint irqstorm_symbols_place_module(IrqstormSymbols *s, const guint64 *starts,
				    guint n);

/* The module's load address, 0 if unplaced. */
guint64 irqstorm_symbols_module_base(const IrqstormSymbols *s);

/*
 * The function vaddr is in (owned by s), or one of the names above; *start
 * (if not NULL) its address, or vaddr itself for the names above.
 */
const char *irqstorm_symbols_lookup(const IrqstormSymbols *s, guint64 vaddr,
				    guint64 *start);

G_END_DECLS

#endif /* IRQSTORM_RIG_SYMBOLS_H */
