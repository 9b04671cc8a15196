/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm matrix: one scenario run for every combination of some of its
 * values. The parsing and naming below are separate from the running
 * (irqstorm_cmd_matrix(), cli.h) so that they can be tested alone.
 */
#ifndef IRQSTORM_MATRIX_H
#define IRQSTORM_MATRIX_H

#include <glib.h>

G_BEGIN_DECLS

/* One --vary GROUP.KEY=V1,V2,... */
typedef struct {
	char *key;		/* "channel0.rate" */
	char *name;		/* in cell names: "rate", or the key when ambiguous */
	char **values;		/* GStrv, in the order given */
} IrqstormVary;

void irqstorm_vary_free(IrqstormVary *v);

/* One combination of values: a run. */
typedef struct {
	char *name;		/* its directory: "rate=1000,threading=hardirq" */
	char **values;		/* GStrv: one value per IrqstormVary */
	char **sets;		/* GStrv: "channel0.rate=1000", ... for --set */
} IrqstormCell;

void irqstorm_cell_free(IrqstormCell *c);

/*
 * Parse the --vary options into a GPtrArray of IrqstormVary. Errors
 * (G_OPTION_ERROR_BAD_VALUE) for: no '=', a key that is not GROUP.KEY, an
 * empty list, an empty value, a value twice in one list, a key in two
 * --vary. A vary's name is its KEY without the GROUP when no other vary
 * has the same KEY, else GROUP.KEY.
 */
GPtrArray *irqstorm_matrix_parse_vary(const char *const *specs, GError **error);

/*
 * The cartesian product, as a GPtrArray of IrqstormCell: the first vary
 * changes slowest, the last fastest. A cell's name is its NAME=VALUE pairs
 * joined with ',', each value made filesystem-safe (every character outside
 * [A-Za-z0-9._+=-] becomes '_'). Fails when two cells get the same name.
 */
GPtrArray *irqstorm_matrix_cells(GPtrArray *varies, GError **error);

/* s with every character outside [A-Za-z0-9._+=-] replaced by '_'. */
char *irqstorm_matrix_safe_name(const char *s);

/*
 * The matrix's exit status from its cells' (-1: not run, killed or not
 * started): 0 when every cell exited 0; 2 when some exited 2 (a threshold)
 * and every other 0; else 1.
 */
int irqstorm_matrix_exit_code(const int *codes, guint n);

G_END_DECLS

#endif /* IRQSTORM_MATRIX_H */
