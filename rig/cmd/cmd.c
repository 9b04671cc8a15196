// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the commands share: see cmd.h.
 */
#include "cmd.h"

int irqstorm_usage_error(GOptionContext *ctx, const char *msg)
{
	g_autofree char *help = g_option_context_get_help(ctx, TRUE, NULL);

	g_printerr("irqstorm: %s\n\n%s", msg, help);
	return IRQSTORM_EXIT_ERROR;
}
