/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The subcommands that live outside main.c. Each parses its own options
 * with GOptionContext (argv[0] is the command's name) and returns an
 * IRQSTORM_EXIT_* code.
 */
#ifndef IRQSTORM_CLI_H
#define IRQSTORM_CLI_H

#include <glib.h>

G_BEGIN_DECLS

int irqstorm_cmd_compare(int argc, char **argv);	/* compare.c */
int irqstorm_cmd_plot(int argc, char **argv);		/* plot.c */
int irqstorm_cmd_matrix(int argc, char **argv);	/* matrix.c */

/* Print "irqstorm: msg" and the context's help to stderr; returns 1. */
int irqstorm_usage_error(GOptionContext *ctx, const char *msg);

G_END_DECLS

#endif /* IRQSTORM_CLI_H */
