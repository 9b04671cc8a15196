// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The guest's console: see console.h.
 */
#include "console.h"

#include <string.h>

#define RESULT_TAG IRQSTORM_GUEST_RESULT_TAG " "

#define KEY_NAME(key, help) #key,
static const char *const channel_keys[] = {
	IRQSTORM_GUEST_CHANNEL_ATTRS(KEY_NAME)
};
static const char *const other_keys[] = { IRQSTORM_GUEST_RESULTS(KEY_NAME) };
#undef KEY_NAME

static gboolean in(const char *const *names, gsize n, const char *key)
{
	for (gsize i = 0; i < n; i++)
		if (!strcmp(names[i], key))
			return TRUE;
	return FALSE;
}

gboolean irqstorm_result_key_per_channel(const char *key)
{
	return in(channel_keys, G_N_ELEMENTS(channel_keys), key);
}

gboolean irqstorm_result_key_known(const char *key)
{
	return irqstorm_result_key_per_channel(key) ||
	       in(other_keys, G_N_ELEMENTS(other_keys), key);
}

static gint compare_strings(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPtrArray *irqstorm_console_unknown_keys(const IrqstormConsole *con)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	GHashTableIter it;
	gpointer key;

	if (!con->result)
		return out;
	g_hash_table_iter_init(&it, con->result);
	while (g_hash_table_iter_next(&it, &key, NULL))
		if (!irqstorm_result_key_known(key))
			g_ptr_array_add(out, g_strdup(key));
	g_ptr_array_sort(out, compare_strings);
	return out;
}

/* The key=value pairs of the last IRQSTORM-RESULT line, or NULL. */
GHashTable *irqstorm_parse_result_line(const char *text)
{
	const char *line = NULL;
	const char *p = text;
	g_autofree char *copy = NULL;
	g_auto(GStrv) words = NULL;
	GHashTable *kv;

	while ((p = strstr(p, RESULT_TAG))) {
		if (p == text || p[-1] == '\n')
			line = p;
		p += strlen(RESULT_TAG);
	}
	if (!line)
		return NULL;
	line += strlen(RESULT_TAG);
	copy = g_strndup(line, strcspn(line, "\r\n"));
	words = g_strsplit_set(copy, " \t", -1);
	kv = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (gsize i = 0; words[i]; i++) {
		char *eq = strchr(words[i], '=');

		if (eq && eq != words[i])
			g_hash_table_replace(kv, g_strndup(words[i], eq - words[i]),
					     g_strdup(eq + 1));
	}
	return kv;
}

/* The time stamp of the last kernel log line ("[   2.621317] ..."), in
 * seconds of the guest's clock: its uptime at poweroff. -1 when none. */
double irqstorm_last_printk_time(const char *text)
{
	const char *p = text;
	double last = -1;

	while ((p = strchr(p, '['))) {
		char *end = NULL;
		double t;

		if (p == text || p[-1] == '\n') {
			t = g_ascii_strtod(p + 1, &end);
			if (end && end != p + 1 && *end == ']' && t >= 0)
				last = t;
		}
		p++;
	}
	return last;
}

/* The reports' lines: each title, then what became of it (kreports.h). */
static GPtrArray *report_lines(const GPtrArray *reports)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < reports->len; i++) {
		const IrqstormKreport *r = reports->pdata[i];

		g_ptr_array_add(out, g_strdup(r->title));
		for (guint k = 0; k < r->then->len; k++)
			g_ptr_array_add(out, g_strdup(r->then->pdata[k]));
	}
	return out;
}

IrqstormConsole *irqstorm_console_read(const char *path)
{
	IrqstormConsole *con = g_new0(IrqstormConsole, 1);
	g_autofree char *text = NULL;

	con->uptime_s = -1;
	if (path && g_file_get_contents(path, &text, NULL, NULL)) {
		con->result = irqstorm_parse_result_line(text);
		con->uptime_s = irqstorm_last_printk_time(text);
		con->reports = irqstorm_kreports_parse(text);
	} else {
		con->reports = irqstorm_kreports_parse("");
	}
	con->kernel_events = report_lines(con->reports);
	return con;
}

void irqstorm_console_free(IrqstormConsole *con)
{
	if (!con)
		return;
	if (con->result)
		g_hash_table_unref(con->result);
	g_ptr_array_unref(con->kernel_events);
	g_ptr_array_unref(con->reports);
	g_free(con);
}

const char *irqstorm_console_value(const IrqstormConsole *con, const char *key)
{
	return con->result ? g_hash_table_lookup(con->result, key) : NULL;
}

gboolean irqstorm_console_u64(const IrqstormConsole *con, const char *key,
			      guint64 *v)
{
	const char *s = irqstorm_console_value(con, key);

	return s && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, v, NULL);
}

gboolean irqstorm_console_item(const IrqstormConsole *con, const char *key,
			       guint n, guint64 *v)
{
	const char *s = irqstorm_console_value(con, key);
	g_auto(GStrv) items = s ? g_strsplit(s, ",", -1) : NULL;

	return items && n < g_strv_length(items) &&
	       g_ascii_string_to_unsigned(items[n], 10, 0, G_MAXUINT64, v, NULL);
}
