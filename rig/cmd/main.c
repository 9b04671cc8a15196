// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm: the command table and the global help. Each command lives in
 * its own file of cmd/, parses its own options and returns an exit status
 * (cmd.h).
 */
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
	{ "matrix", "SCENARIO --vary K=V1,V2", "run every combination of scenario values",
	  irqstorm_cmd_matrix },
	{ "compare", "DIR...", "finished runs side by side, stage by stage", irqstorm_cmd_compare },
	{ "plot", "DIR...", "histograms, tails, timelines, breakdowns; runs overlaid",
	  irqstorm_cmd_plot },
};

static void print_usage(FILE *f)
{
	fprintf(f, "Usage: irqstorm COMMAND [OPTION...]\n\n"
		"irqstorm measures what interrupt storms and long or spinning\n"
		"interrupt handlers do to latency in a Linux guest, stage by stage.\n\n"
		"Commands:\n");
	for (gsize i = 0; i < G_N_ELEMENTS(commands); i++)
		fprintf(f, "  %-7s %-24s %s\n", commands[i].name, commands[i].args,
			commands[i].summary);
	fprintf(f, "\n'irqstorm COMMAND --help' explains each command.\n"
		"Version " IRQSTORM_VERSION ", ABI %u.\n", IRQSTORM_ABI_VERSION);
}

int main(int argc, char **argv)
{
	/* A write to a dead QEMU's socket must be an error, not our death. */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2) {
		print_usage(stderr);
		return IRQSTORM_EXIT_ERROR;
	}
	if (!g_strcmp0(argv[1], "--help") || !g_strcmp0(argv[1], "-h") ||
	    !g_strcmp0(argv[1], "help")) {
		print_usage(stdout);
		return IRQSTORM_EXIT_PASSED;
	}
	if (!g_strcmp0(argv[1], "--version")) {
		printf("irqstorm " IRQSTORM_VERSION "\n");
		return IRQSTORM_EXIT_PASSED;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(commands); i++) {
		if (!g_strcmp0(argv[1], commands[i].name)) {
			g_set_prgname(commands[i].name);
			return commands[i].fn(argc - 1, argv + 1);
		}
	}
	g_printerr("irqstorm: unknown command '%s'\n\n", argv[1]);
	print_usage(stderr);
	return IRQSTORM_EXIT_ERROR;
}
