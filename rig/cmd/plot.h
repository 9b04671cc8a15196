/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm plot: the figures of finished runs, drawn by the gnuplot scripts
 * in plots/ (one script per figure); irqstorm_cmd_plot() (cmd.h) is the
 * command. Everything handed to gnuplot goes through the two functions
 * below, so that no file or run name can become a gnuplot command.
 */
#ifndef IRQSTORM_PLOT_H
#define IRQSTORM_PLOT_H

#include <glib.h>

G_BEGIN_DECLS

/*
 * s as a gnuplot string expression: 'text' in single quotes, inside which
 * gnuplot interprets nothing (no backslash escapes, no `command`
 * substitution, no @macros), with any single quote of s joined in by
 * sprintf: ('it' . sprintf('%c', 39) . 's'). Any string without a NUL
 * round-trips exactly. (gnuplot's own escape, a doubled quote, fails next
 * to another quote, and a "'" upsets its @macro expansion.)
 */
char *irqstorm_gnuplot_quote(const char *s);

/*
 * path in a form gnuplot reads as a plain file: relative paths get a "./"
 * prefix, because gnuplot runs a command for a data file named "<cmd" or
 * an output named "|cmd", reads stdin for "-", and a datablock for "$name".
 */
char *irqstorm_gnuplot_path(const char *path);

/* Append the -e parameter key='value' (a string), or key='path' (a file). */
void irqstorm_plot_param(GString *e, const char *key, const char *value);
void irqstorm_plot_param_path(GString *e, const char *key, const char *path);

/*
 * One figure for another command: plots/<script> (or $IRQSTORM_PLOTS_DIR's)
 * drawn by gnuplot with the -e parameters params into base.png, written
 * whole or not at all; prints its path.
 */
gboolean irqstorm_plot_png(const char *script, const char *params,
			   const char *base, GError **error);

/* name with every character outside [A-Za-z0-9._-] replaced by '_'. */
char *irqstorm_plot_safe_name(const char *name);

G_END_DECLS

#endif /* IRQSTORM_PLOT_H */
