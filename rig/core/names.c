// SPDX-License-Identifier: GPL-2.0-or-later
/* Names for explain: the plugin's names file, its reads in words (names.h). */
#include "names.h"

#include <stdio.h>
#include <string.h>

#include "irqstorm/explain.h"

/* The address of function fn in a System.map's text, or 0. */
static guint64 map_address(const char *const *lines, const char *fn)
{
	for (guint i = 0; lines[i]; i++) {
		char type, name[256];
		guint64 a;

		if (sscanf(lines[i], "%" G_GINT64_MODIFIER "x %c %255s", &a, &type, name) == 3 &&
		    (type == 'T' || type == 't') && !strcmp(name, fn))
			return a;
	}
	return 0;
}

/* The value of name in layout ("NAME:VALUE,..."), or -1. */
static gint64 layout_value(char *const *pairs, const char *name)
{
	gsize n = strlen(name);

	for (guint i = 0; pairs[i]; i++)
		if (!strncmp(pairs[i], name, n) && pairs[i][n] == ':')
			return g_ascii_strtoll(pairs[i] + n + 1, NULL, 10);
	return -1;
}

gboolean irqstorm_names_write(const char *system_map, const char *layout,
			      const char *path, GError **error)
{
	static const char *const names[] = {
		IRQSTORM_EXPLAIN_NAMES(IRQSTORM_EXPLAIN_NAME_STRING)
	};
	g_autofree char *map = NULL;
	g_auto(GStrv) lines = NULL;
	g_auto(GStrv) pairs = g_strsplit(layout ? layout : "", ",", -1);
	g_autoptr(GString) out = g_string_new(NULL);
	const char *fns[] = { IRQSTORM_EXPLAIN_SWITCH_FN, IRQSTORM_EXPLAIN_IRQ_FN };

	if (!g_file_get_contents(system_map, &map, NULL, error))
		return FALSE;
	lines = g_strsplit(map, "\n", -1);
	/* The two functions first (names[0], names[1]), then the offsets. */
	for (guint i = 0; i < G_N_ELEMENTS(fns); i++) {
		guint64 a = map_address((const char *const *)lines, fns[i]);

		if (!a) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the kernel has "
				    "no %s to name tasks by (%s)", fns[i], system_map);
			return FALSE;
		}
		g_string_append_printf(out, "%s 0x%" G_GINT64_MODIFIER "x\n", names[i], a);
	}
	for (guint i = G_N_ELEMENTS(fns); i < G_N_ELEMENTS(names); i++) {
		gint64 v = layout_value(pairs, names[i]);

		if (v < 0) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "the kernel's "
				    "identity has no %s in its kernel-layout", names[i]);
			return FALSE;
		}
		g_string_append_printf(out, "%s %" G_GINT64_FORMAT "\n", names[i], v);
	}
	return g_file_set_contents(path, out->str, out->len, error);
}

/* SCHED_* by number (include/uapi/linux/sched.h) */
static const char *policy_name(guint p)
{
	static const char *const names[] = { "OTHER", "FIFO", "RR", "BATCH", NULL,
					     "IDLE", "DEADLINE", "EXT" };

	return p < G_N_ELEMENTS(names) && names[p] ? names[p] : "policy?";
}

const char *irqstorm_names_task(const char *fields)
{
	int pid, static_prio, n = 0;
	guint policy, rt_priority;
	g_autofree char *s = NULL;

	if (sscanf(fields, "%d %u %u %d %n", &pid, &policy, &rt_priority, &static_prio,
		   &n) != 4 || !n || !fields[n])
		return NULL;
	if (pid < 0)
		s = g_strdup("a task (unreadable)");
	else if (pid == 0)
		s = g_strdup_printf("%s (idle, pid 0)", fields + n);
	else if (policy == 1 || policy == 2)
		s = g_strdup_printf("%s (pid %d, %s %u)", fields + n, pid, policy_name(policy),
				    rt_priority);
	else
		s = g_strdup_printf("%s (pid %d, %s nice %d)", fields + n, pid,
				    policy_name(policy), static_prio - 120);
	return g_intern_string(s);
}

const char *irqstorm_names_irq(const char *fields)
{
	guint irq;
	int n = 0;
	g_autofree char *s = NULL;

	if (sscanf(fields, "%u %n", &irq, &n) != 1 || !n || !fields[n])
		return NULL;
	s = g_strdup_printf("IRQ %u (%s)", irq, fields + n);
	return g_intern_string(s);
}

gboolean irqstorm_names_line(const char *line, gboolean *task, guint64 *t_ns, guint *vcpu,
			     const char **words)
{
	const char *p;
	char *end;
	guint64 v;

	*task = g_str_has_prefix(line, IRQSTORM_EXPLAIN_TASK_LINE " ");
	if (!*task && !g_str_has_prefix(line, IRQSTORM_EXPLAIN_IRQ_LINE " "))
		return FALSE;
	p = line + strlen(*task ? IRQSTORM_EXPLAIN_TASK_LINE : IRQSTORM_EXPLAIN_IRQ_LINE) + 1;
	*t_ns = g_ascii_strtoull(p, &end, 10);
	if (end == p || *end != ' ')
		return FALSE;
	p = end + 1;
	v = g_ascii_strtoull(p, &end, 10);
	if (end == p || *end != ' ' || v > G_MAXUINT)
		return FALSE;
	*vcpu = v;
	*words = *task ? irqstorm_names_task(end + 1) : irqstorm_names_irq(end + 1);
	return *words != NULL;
}
