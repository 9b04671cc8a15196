// SPDX-License-Identifier: GPL-2.0-or-later
/* The interrupts held to a window's end, from QEMU's trace (held.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "held.h"

/* The event's fields, ev pointing at its name in a line ("icount_window_irq
 * cpu C KIND 0xW sent at S ns raised at R ns", after an optional
 * "PID@TIME:" prefix of -msg timestamp). */
static gboolean held_line(const char *ev, gint64 *sent, gint64 *raised)
{
	int cpu, n = 0;
	unsigned what;
	char kind[16];

	return sscanf(ev + strlen(IRQSTORM_HELD_TRACE_EVENT),
		      " cpu %d %15s 0x%x sent at %" SCNd64 " ns raised at %" SCNd64 " ns%n",
		      &cpu, kind, &what, sent, raised, &n) == 5 && n > 0;
}

gboolean irqstorm_held_irqs_read(const char *path, guint quantum_ns,
				 IrqstormHeldIrqs *held, GError **error)
{
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	memset(held, 0, sizeof(*held));
	if (!g_file_get_contents(path, &text, NULL, error))
		return FALSE;
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i]; i++) {
		const char *ev = strstr(lines[i], IRQSTORM_HELD_TRACE_EVENT " ");
		gint64 sent, raised, d;

		if (!ev)
			continue;
		if (!held_line(ev, &sent, &raised)) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s:%u: not a %s line: %s", path, i + 1,
				    IRQSTORM_HELD_TRACE_EVENT, lines[i]);
			return FALSE;
		}
		d = raised - sent;
		if (!held->count || d < held->min_ns)
			held->min_ns = d;
		if (!held->count || d > held->max_ns)
			held->max_ns = d;
		if (d < 0 || d > (gint64)quantum_ns)
			held->outside++;
		held->count++;
	}
	return TRUE;
}
