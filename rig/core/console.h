/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the guest said on its console (console.log): its IRQSTORM-RESULT
 * line, the kernel log lines that matter, and its uptime at poweroff.
 */
#ifndef IRQSTORM_CONSOLE_H
#define IRQSTORM_CONSOLE_H

#include <glib.h>

#include "irqstorm/guest.h"
#include "kreports.h"

/*
 * The result line's keys: include/irqstorm/guest.h. IRQSTORM_RESULT_KEY(k)
 * is the key k as a string, and does not compile unless the protocol
 * declares k.
 */
#define IRQSTORM_RESULT_ENUM(key, help) IRQSTORM_RESULT_##key,
enum {
	IRQSTORM_GUEST_CHANNEL_ATTRS(IRQSTORM_RESULT_ENUM)
	IRQSTORM_GUEST_RESULTS(IRQSTORM_RESULT_ENUM)
	IRQSTORM_RESULT_KEY_COUNT
};
#undef IRQSTORM_RESULT_ENUM
#define IRQSTORM_RESULT_KEY(k) ((void)IRQSTORM_RESULT_##k, #k)

typedef struct {
	GHashTable *result;		/* the result line's key=value, or NULL */
	double uptime_s;		/* last kernel log time stamp, or -1 */
	GPtrArray *kernel_events;	/* the reports' lines (char *): each title,
					 * then what became of it */
	GPtrArray *reports;		/* the kernel's reports (IrqstormKreport *),
					 * kreports.h */
} IrqstormConsole;

/* Read the console at path; an unreadable one (or NULL) says nothing. */
IrqstormConsole *irqstorm_console_read(const char *path);
void irqstorm_console_free(IrqstormConsole *con);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormConsole, irqstorm_console_free)

/* Is key one of the result line's keys the protocol declares? A
 * per-channel one (a driver attribute: a list, one item per channel)? */
gboolean irqstorm_result_key_known(const char *key);
gboolean irqstorm_result_key_per_channel(const char *key);

/* The keys of the result line the protocol does not declare, sorted. */
GPtrArray *irqstorm_console_unknown_keys(const IrqstormConsole *con);

/* The result line's value of key, or NULL. */
const char *irqstorm_console_value(const IrqstormConsole *con, const char *key);

/* The value of key as a number; FALSE if absent or not a number. */
gboolean irqstorm_console_u64(const IrqstormConsole *con, const char *key,
			      guint64 *v);

/* Item n of a value "v0,v1,..." as a number; FALSE if absent. */
gboolean irqstorm_console_item(const IrqstormConsole *con, const char *key,
			       guint n, guint64 *v);

/* The parsers, on a console's text: the key=value pairs of the last
 * IRQSTORM-RESULT line (or NULL), the time stamp of the last kernel log
 * line (-1 when none). */
GHashTable *irqstorm_parse_result_line(const char *console_text);
double irqstorm_last_printk_time(const char *console_text);

#endif /* IRQSTORM_CONSOLE_H */
