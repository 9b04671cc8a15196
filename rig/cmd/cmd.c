// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the commands share: see cmd.h.
 */
#include "cmd.h"

#include <stdio.h>
#include <string.h>

#include "config.h"
#include "irqstorm/explain.h"
#include "core/json-build.h"
#include "core/machine.h"
#include "core/outdir.h"
#include "core/report.h"
#include "core/results.h"
#include "core/run.h"
#include "core/runfiles.h"

int irqstorm_exit_code(IrqstormVerdict verdict)
{
	static const int codes[] = {
		[IRQSTORM_VERDICT_PASSED] = IRQSTORM_EXIT_PASSED,
		[IRQSTORM_VERDICT_ERROR] = IRQSTORM_EXIT_ERROR,
		[IRQSTORM_VERDICT_THRESHOLD] = IRQSTORM_EXIT_THRESHOLD,
		[IRQSTORM_VERDICT_STALL] = IRQSTORM_EXIT_STALL,
		[IRQSTORM_VERDICT_KERNEL] = IRQSTORM_EXIT_KERNEL,
	};

	return codes[verdict];
}

/* ---- options and errors ---------------------------------------------- */

GOptionContext *irqstorm_cmd_options(const char *parameters,
				     const GOptionEntry *entries,
				     const char *description)
{
	GOptionContext *ctx = g_option_context_new(parameters);

	g_option_context_add_main_entries(ctx, entries, NULL);
	g_option_context_set_description(ctx, description);
	return ctx;
}

gboolean irqstorm_cmd_parse(GOptionContext *ctx, int *argc, char ***argv)
{
	g_autoptr(GError) err = NULL;

	if (g_option_context_parse(ctx, argc, argv, &err))
		return TRUE;
	irqstorm_usage_error(ctx, "%s", err->message);
	return FALSE;
}

/* The message, the usage line and where the rest is: not every option
 * under a one-line mistake. */
int irqstorm_usage_error(GOptionContext *ctx, const char *fmt, ...)
{
	g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);
	g_auto(GStrv) parts = g_strsplit(help, "\n\n", 2);
	g_autofree char *usage = g_strstrip(g_strdup(parts[0]));
	g_autofree char *msg = NULL;
	g_autofree char *cmd = NULL;
	const char *u = strstr(usage, "irqstorm");
	va_list ap;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	cmd = g_strndup(u ? u : "irqstorm", u ? strcspn(u, "[") : strlen("irqstorm"));
	g_strchomp(cmd);
	g_printerr("irqstorm: %s\n%s\nSee '%s --help' for every option, with examples.\n",
		   msg, usage, cmd);
	return IRQSTORM_EXIT_ERROR;
}

int irqstorm_cmd_failv(const char *fmt, va_list ap)
{
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);

	g_printerr("irqstorm: %s\n", msg);
	return IRQSTORM_EXIT_ERROR;
}

int irqstorm_cmd_fail(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = irqstorm_cmd_failv(fmt, ap);
	va_end(ap);
	return ret;
}

gboolean irqstorm_cmd_check_labels(GOptionContext *ctx, char **labels, guint n)
{
	if (!labels || g_strv_length(labels) == n)
		return TRUE;
	irqstorm_usage_error(ctx, "%u --label for %u DIRs: give one per DIR, or none",
			     g_strv_length(labels), n);
	return FALSE;
}

char *irqstorm_cmd_default_out(const char *scenario, const char *suffix)
{
	g_autofree char *base = g_path_get_basename(scenario);
	char *dot = strrchr(base, '.');

	if (dot && dot != base)
		*dot = '\0';
	return g_strdup_printf("results/%s%s", base, suffix);
}

void irqstorm_cmd_print_json(JsonNode *root)
{
	g_autofree char *text = irqstorm_json_text(root);

	fputs(text, stdout);
}

IrqstormGuestBuilder irqstorm_cmd_guest_builder(void)
{
	return (IrqstormGuestBuilder) {
		.source_dir = IRQSTORM_SOURCE_DIR, .build_dir = IRQSTORM_BUILD_DIR,
	};
}

/*
 * The run, then its results judged, written (summary.json records the
 * exit status) and, unless quiet, printed.
 */
IrqstormResults *irqstorm_cmd_run_results(const IrqstormRunSettings *set, int *code,
					  GError **error)
{
	g_autoptr(IrqstormResults) res = NULL;
	IrqstormRunOutcome *outcome = irqstorm_run(set, error);

	if (!outcome)
		return NULL;
	res = irqstorm_results_evaluate(set, outcome);
	*code = irqstorm_exit_code(res->checks->verdict);
	if (!irqstorm_results_write(res, *code, error)) {
		/* What was measured is still worth seeing. */
		if (!set->quiet)
			irqstorm_results_print(res, stdout);
		return NULL;
	}
	return g_steal_pointer(&res);
}

/* The guest parts set lacks built (with builder, if given), then the run
 * and its results; NULL after saying why, *code the exit status either way. */
static IrqstormResults *build_and_run(const IrqstormRunSettings *set,
				      const IrqstormGuestBuilder *builder, int *code)
{
	g_autoptr(GError) err = NULL;
	IrqstormResults *res = NULL;

	if (builder && !irqstorm_guest_ensure(builder, set, &err))
		*code = irqstorm_cmd_fail("%s", err->message);
	else if (!(res = irqstorm_cmd_run_results(set, code, &err)))
		*code = irqstorm_cmd_fail("%s", err->message);
	return res;
}

int irqstorm_cmd_run_into(IrqstormRunSettings *set, const IrqstormGuestBuilder *builder,
			  const char *target, gboolean replace)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormResults) res = NULL;
	g_autoptr(IrqstormOutDir) od = irqstorm_outdir_open(target,
							    irqstorm_run_file(IRQSTORM_FILE_SUMMARY),
							    replace, &err);
	int code;

	if (!od)
		return irqstorm_cmd_fail("%s", err->message);
	set->out_dir = od->write;
	res = build_and_run(set, builder, &code);
	if (!res)
		return code;
	if (!irqstorm_outdir_commit(od, res->checks->complete, &err))
		code = irqstorm_cmd_fail("%s", err->message);
	set->out_dir = od->write;
	if (!set->quiet)
		irqstorm_results_print(res, stdout);
	if (g_strcmp0(od->write, od->target))
		fprintf(stderr, "irqstorm: this run did not complete, so it replaced nothing: "
			"its files are in %s/, and %s/ keeps the complete result it had\n",
			od->write, od->target);
	return code;
}

int irqstorm_cmd_run_and_report(const IrqstormRunSettings *set,
				const IrqstormGuestBuilder *builder)
{
	int code;
	g_autoptr(IrqstormResults) res = build_and_run(set, builder, &code);

	if (res && !set->quiet)
		irqstorm_results_print(res, stdout);
	return code;
}

char *irqstorm_cmd_kernel_path(const IrqstormScenario *sc, const char *what)
{
	g_autofree char *name = irqstorm_machine_kernel_file(sc, what);

	return g_build_filename(IRQSTORM_KERNEL_DIR, name, NULL);
}

GStrv irqstorm_cmd_plugin_args(const char *const *values)
{
	static const struct irqstorm_explain_arg_desc args[] = {
		IRQSTORM_EXPLAIN_ARGS(IRQSTORM_EXPLAIN_ARG_DESC)
	};
	g_autofree char *so = g_build_filename(IRQSTORM_QEMU_DIR,
					       IRQSTORM_EXPLAIN_PLUGIN, NULL);
	GString *opt = g_string_new(so);
	GStrv a = g_new0(char *, 3);

	for (gsize i = 0; i < G_N_ELEMENTS(args); i++)
		if (values[i])
			g_string_append_printf(opt, ",%s=%s", args[i].name, values[i]);
	a[0] = g_strdup("-plugin");
	a[1] = g_string_free(opt, FALSE);
	return a;
}

GArray *irqstorm_cmd_channels(IrqstormSummary *const *runs, guint n, char **want,
			      gboolean pooled)
{
	g_autoptr(GError) e = NULL;
	GArray *channels = irqstorm_summaries_channels(runs, n, (const char *const *)want,
						       pooled, &e);

	if (!channels)
		irqstorm_cmd_fail("%s", e->message);
	return channels;
}
