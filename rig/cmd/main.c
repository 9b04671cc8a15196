// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm: the command table and the global help. Each command lives in
 * its own file of cmd/, parses its own options and returns an exit status
 * (cmd.h).
 */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <glib.h>

#include "cmd.h"
#include "config.h"
#include "irqstorm/abi.h"

typedef int (*CommandFunc)(int argc, char **argv);

typedef struct {
	const char *name;
	const char *args;
	const char *summary;
	CommandFunc fn;
} Command;

static const Command commands[] = {
	{ "run", "SCENARIO", "boot the guest, storm, measure, write results",
	  irqstorm_cmd_run },
	{ "matrix", "SCENARIO --vary K=V1,V2", "every combination of scenario values",
	  irqstorm_cmd_matrix },
	{ "merge", "OUT DIR...", "put the shards of a matrix (--shard I/N) together",
	  irqstorm_cmd_merge },
	{ "sweep", "SCENARIO", "aim one interrupt at every offset of a section: worst case",
	  irqstorm_cmd_sweep },
	{ "explain", "RESULT_DIR", "replay a run, name the guest code behind its outliers",
	  irqstorm_cmd_explain },
	{ "compare", "DIR...", "finished runs side by side, stage by stage", irqstorm_cmd_compare },
	{ "check", "", "short storms aimed at the kernel: verdicts in TAP",
	  irqstorm_cmd_check },
	{ "bisect-step", "SCENARIO --tree DIR", "one step of git bisect run on a kernel tree",
	  irqstorm_cmd_bisect_step },
	{ "plot", "DIR...", "histograms, tails, timelines, breakdowns; runs overlaid",
	  irqstorm_cmd_plot },
	{ "export", "DIR", "a run as a timeline for Perfetto UI or speedscope (trace.json)",
	  irqstorm_cmd_export },
};

static void print_usage(FILE *f)
{
	fprintf(f, "Usage: irqstorm COMMAND [OPTION...]\n\n"
		"irqstorm measures what interrupt storms and long or spinning\n"
		"interrupt handlers do to latency in a Linux guest, stage by stage.\n\n"
		"Commands:\n");
	for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(f, "  %-11s %-24s %s\n", commands[i].name, commands[i].args,
			commands[i].summary);
	fprintf(f, "\n'irqstorm COMMAND --help' or 'irqstorm help COMMAND' explains "
		"each command.\n"
		"Version " IRQSTORM_VERSION ", ABI %u.\n", IRQSTORM_ABI_VERSION);
}

/*
 * GLib's text (help, errors) is UTF-8: print it as it is in a UTF-8
 * locale, else transliterated ("..." for GLib's ellipsis, '"' for its
 * quotes) rather than with a '?' for each of them.
 */
static void print_text(const char *text, FILE *f)
{
	g_autofree char *ascii = g_get_charset(NULL) ? NULL : g_str_to_ascii(text, NULL);

	fputs(ascii ? ascii : text, f);
	fflush(f);
}

static void print_out(const char *text)
{
	print_text(text, stdout);
}

static void print_err(const char *text)
{
	print_text(text, stderr);
}

static const Command *find_command(const char *name)
{
	for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
		if (!g_strcmp0(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* Run a command; GLib's help calls it "irqstorm NAME", as it is typed. */
static int run_command(const Command *cmd, int argc, char **argv)
{
	g_autofree char *prgname = g_strconcat("irqstorm ", cmd->name, NULL);

	g_set_prgname(prgname);
	return cmd->fn(argc, argv);
}

/* irqstorm help [COMMAND]: the global help, or the command's. */
static int help(int argc, char **argv)
{
	const Command *cmd = argc > 2 ? find_command(argv[2]) : NULL;
	char *cmd_argv[] = { argv[2], (char *)"--help", NULL };

	if (argc <= 2) {
		print_usage(stdout);
		return IRQSTORM_EXIT_PASSED;
	}
	if (!cmd) {
		g_printerr("irqstorm: help: unknown command '%s'\n\n", argv[2]);
		print_usage(stderr);
		return IRQSTORM_EXIT_ERROR;
	}
	return run_command(cmd, 2, cmd_argv);
}

int main(int argc, char **argv)
{
	const Command *cmd;

	/* GLib's messages in the user's language and characters (its quotes
	 * and ellipses, not '?'); numbers as in C: what we print is read back. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	g_set_print_handler(print_out);
	g_set_printerr_handler(print_err);
	/* A write to a dead QEMU's socket must be an error, not our death. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		print_usage(stderr);
		return IRQSTORM_EXIT_ERROR;
	}
	if (!g_strcmp0(argv[1], "--help") || !g_strcmp0(argv[1], "-h"))
		return help(1, argv);
	if (!g_strcmp0(argv[1], "help"))
		return help(argc, argv);
	if (!g_strcmp0(argv[1], "--version")) {
		printf("irqstorm " IRQSTORM_VERSION "\n");
		return IRQSTORM_EXIT_PASSED;
	}
	cmd = find_command(argv[1]);
	if (cmd)
		return run_command(cmd, argc - 1, argv + 1);
	g_printerr("irqstorm: unknown command '%s'\n\n", argv[1]);
	print_usage(stderr);
	return IRQSTORM_EXIT_ERROR;
}
