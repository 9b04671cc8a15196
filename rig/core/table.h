/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text tables, the one way the rig lays out columns: the commands' tables
 * (compare, matrix, merge) and the engine's (a run's stages, explain's
 * functions).
 */
#ifndef IRQSTORM_RIG_TABLE_H
#define IRQSTORM_RIG_TABLE_H

#include <glib.h>

G_BEGIN_DECLS

/*
 * Columns of text, each as wide as its widest cell (in characters),
 * left-aligned unless aligned right, two spaces apart unless given another
 * gap; headings may span several columns above them (and widen the last
 * when they need to). No line has trailing blanks.
 */
typedef struct IrqstormTable IrqstormTable;

IrqstormTable *irqstorm_table_new(guint ncols);
void irqstorm_table_free(IrqstormTable *t);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormTable, irqstorm_table_free)

/* Columns from first on are aligned right; or left (the default) again. */
void irqstorm_table_align_right(IrqstormTable *t, guint first);
void irqstorm_table_align_left(IrqstormTable *t, guint first);

/* The spaces before every line (default 0). */
void irqstorm_table_set_indent(IrqstormTable *t, guint spaces);

/* The spaces before column col (default 2). */
void irqstorm_table_set_gap(IrqstormTable *t, guint col, guint spaces);

/* A heading over columns col .. col + n - 1, on a line of its own. */
void irqstorm_table_add_heading(IrqstormTable *t, guint col, guint n,
				const char *title);

/* Add a row of ncols cells (a GStrv, taken); returns its index. */
guint irqstorm_table_add_row(IrqstormTable *t, char **cells);

/* The line of headings, if there are any, then each row in order. */
void irqstorm_table_render(IrqstormTable *t, GString *out);

/* Only row i, as a line. */
void irqstorm_table_render_row(IrqstormTable *t, guint i, GString *out);

G_END_DECLS

#endif
