// SPDX-License-Identifier: GPL-2.0-or-later
/* The figures' way to gnuplot: see gnuplot.h. */
#include "gnuplot.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "config.h"

char *irqstorm_gnuplot_quote(const char *s)
{
	g_auto(GStrv) parts = g_strsplit(s, "'", -1);
	GString *q = g_string_sized_new(strlen(s) + 2);

	if (!parts[0] || !parts[1]) {
		g_string_append_printf(q, "'%s'", s);
		return g_string_free(q, FALSE);
	}
	/* gnuplot's own escape, a doubled quote, fails next to another
	 * quote (s = '''' is a syntax error), and a "'" makes gnuplot's
	 * @macro expansion lose track of the quoting: join the pieces with
	 * a quote made by sprintf. */
	g_string_append_c(q, '(');
	for (gsize i = 0; parts[i]; i++)
		g_string_append_printf(q, "%s'%s'", i ? " . sprintf('%c', 39) . " : "",
				       parts[i]);
	g_string_append_c(q, ')');
	return g_string_free(q, FALSE);
}

char *irqstorm_gnuplot_path(const char *path)
{
	if (g_path_is_absolute(path) || g_str_has_prefix(path, "./"))
		return g_strdup(path);
	return g_strconcat("./", path, NULL);
}

char *irqstorm_plot_safe_name(const char *name)
{
	char *s = g_strdup(*name ? name : "_");

	for (char *c = s; *c; c++)
		if (!g_ascii_isalnum(*c) && *c != '.' && *c != '_' && *c != '-')
			*c = '_';
	return s;
}

gboolean irqstorm_gnuplot_run(const IrqstormGnuplot *g, const char *script,
			      const char *params, const char *output, GError **error)
{
	g_autofree char *script_path = g_build_filename(g->scripts, script, NULL);
	g_autofree char *partial = g_strconcat(output, ".partial", NULL);
	g_autofree char *errout = NULL;
	g_autoptr(GString) e = g_string_new(params);
	int status;

	irqstorm_plot_param_path(e, "output", partial);
	{
		const char *argv[] = { g->gnuplot, "-e", e->str, script_path, NULL };

		if (!g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
				  NULL, NULL, NULL, &errout, &status, error)) {
			g_unlink(partial);
			return FALSE;
		}
	}
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_unlink(partial);
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_FAILED,
			    "gnuplot %s failed for %s:\n%s", script_path, output,
			    g_strchomp(errout));
		return FALSE;
	}
	if (g_rename(partial, output) < 0) {
		int errsv = errno;

		g_unlink(partial);
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv),
			    "cannot rename %s to %s: %s", partial, output, g_strerror(errsv));
		return FALSE;
	}
	printf("%s\n", output);
	fflush(stdout);
	return TRUE;
}

/* The -e parameters of one figure: "k='v'; k=3; ". */
void irqstorm_plot_param(GString *e, const char *key, const char *value)
{
	g_autofree char *q = irqstorm_gnuplot_quote(value);

	g_string_append_printf(e, "%s=%s; ", key, q);
}

void irqstorm_plot_param_path(GString *e, const char *key, const char *path)
{
	g_autofree char *p = irqstorm_gnuplot_path(path);

	irqstorm_plot_param(e, key, p);
}

gboolean irqstorm_gnuplot_init(IrqstormGnuplot *g, GError **error)
{
	const char *env_scripts = g_getenv("IRQSTORM_PLOTS_DIR");

	g->gnuplot = g_find_program_in_path("gnuplot");
	if (!g->gnuplot) {
		g_set_error(error, G_SPAWN_ERROR, G_SPAWN_ERROR_NOENT,
			    "gnuplot not found: apt-get install gnuplot-nox");
		return FALSE;
	}
	g->scripts = g_strdup(env_scripts && *env_scripts ? env_scripts : IRQSTORM_PLOTS_DIR);
	return TRUE;
}

void irqstorm_gnuplot_clear(IrqstormGnuplot *g)
{
	g_clear_pointer(&g->gnuplot, g_free);
	g_clear_pointer(&g->scripts, g_free);
}

gboolean irqstorm_plot_png(const char *script, const char *params,
			   const char *base, GError **error)
{
	g_auto(IrqstormGnuplot) g = { 0 };
	g_autoptr(GString) e = g_string_new(params);
	g_autofree char *output = g_strconcat(base, ".png", NULL);

	if (!irqstorm_gnuplot_init(&g, error))
		return FALSE;
	irqstorm_plot_param(e, "format", "png");
	return irqstorm_gnuplot_run(&g, script, e->str, output, error);
}
