/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The figures' one way to gnuplot, for every command that draws (plot,
 * sweep, explain): the scripts of plots/ (one per figure) run with their
 * parameters given by -e, each output written whole or not at all.
 * Everything handed to gnuplot goes through the quoting below, so that no
 * file or run name can become a gnuplot command.
 */
#ifndef IRQSTORM_GNUPLOT_H
#define IRQSTORM_GNUPLOT_H

#include <glib.h>

G_BEGIN_DECLS

/* gnuplot, found in PATH, and the scripts' directory (plots/, or
 * $IRQSTORM_PLOTS_DIR). */
typedef struct {
	char *gnuplot;
	char *scripts;
} IrqstormGnuplot;

/* g found; an error saying how to install gnuplot when it is missing. */
gboolean irqstorm_gnuplot_init(IrqstormGnuplot *g, GError **error);
void irqstorm_gnuplot_clear(IrqstormGnuplot *g);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(IrqstormGnuplot, irqstorm_gnuplot_clear)

/*
 * Run plots/<script> with the -e parameters params (which end with
 * output's): gnuplot writes output.partial, renamed to output only when it
 * succeeded; output's path printed on stdout.
 */
gboolean irqstorm_gnuplot_run(const IrqstormGnuplot *g, const char *script,
			      const char *params, const char *output, GError **error);

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
 * One figure for another command: plots/<script> drawn with the -e
 * parameters params into base.png, written whole or not at all; prints its
 * path.
 */
gboolean irqstorm_plot_png(const char *script, const char *params,
			   const char *base, GError **error);

/* name with every character outside [A-Za-z0-9._-] replaced by '_'. */
char *irqstorm_plot_safe_name(const char *name);

G_END_DECLS

#endif /* IRQSTORM_GNUPLOT_H */
