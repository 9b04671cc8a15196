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

int irqstorm_exit_code(IrqstormVerdict verdict)
{
	static const int codes[] = {
		[IRQSTORM_VERDICT_PASSED] = IRQSTORM_EXIT_PASSED,
		[IRQSTORM_VERDICT_ERROR] = IRQSTORM_EXIT_ERROR,
		[IRQSTORM_VERDICT_THRESHOLD] = IRQSTORM_EXIT_THRESHOLD,
		[IRQSTORM_VERDICT_STALL] = IRQSTORM_EXIT_STALL,
	};

	return codes[verdict];
}
