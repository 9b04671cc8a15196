/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one way the rig's checks fail: a GError made from a format, and
 * FALSE to return. Each module names its domain and code once, in a macro
 * of its own (conflict() in scenario.c, refuse() in explain-source.c, ...).
 */
#ifndef IRQSTORM_RIG_FAIL_H
#define IRQSTORM_RIG_FAIL_H

#include <glib.h>

G_BEGIN_DECLS

/* Set *error (if error is not NULL) to domain and code with the message
 * fmt...; return FALSE. */
gboolean irqstorm_fail(GError **error, GQuark domain, gint code, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

G_END_DECLS

#endif
