// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A failed check as a GError: see fail.h.
 */
#include "fail.h"

gboolean irqstorm_fail(GError **error, GQuark domain, gint code, const char *fmt, ...)
{
	va_list ap;

	if (!error)
		return FALSE;
	va_start(ap, fmt);
	g_propagate_error(error, g_error_new_valist(domain, code, fmt, ap));
	va_end(ap);
	return FALSE;
}
