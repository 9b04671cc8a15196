// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Result writers: see output.h.
 */
#include "output.h"

#include <string.h>

#include "files.h"
#include "json-build.h"
#include "summary-keys.h"

/* Write contents to path via a temporary file and rename. */
static gboolean write_atomically(const char *path, const char *contents,
				 gsize len, GError **error)
{
	return irqstorm_write_file(path, contents, (gssize)len, error);
}

/* Add statistic s of h in ns, or null when the histogram is empty. */
static void json_add_stat(JsonBuilder *b, const IrqstormHist *h,
			  IrqstormStat s, gboolean empty)
{
	json_builder_set_member_name(b, irqstorm_stat_key(s));
	if (empty)
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, (gint64)irqstorm_stat_value(h, s));
}

/* Build the JSON summary of one stage; see output.h. */
JsonNode *irqstorm_summary_stage_json(const IrqstormHist *h)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	gboolean empty = irqstorm_hist_count(h) == 0;
	guint64 bin_ns = irqstorm_hist_bin_ns(h);
	guint i;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, IRQSTORM_KEY_CYCLES);
	json_builder_add_int_value(b, (gint64)irqstorm_hist_count(h));
	json_add_stat(b, h, IRQSTORM_STAT_MIN, empty);
	json_builder_set_member_name(b, irqstorm_stat_key(IRQSTORM_STAT_AVG));
	if (empty)
		json_builder_add_null_value(b);
	else
		json_builder_add_double_value(b, irqstorm_hist_avg(h));
	json_add_stat(b, h, IRQSTORM_STAT_MAX, empty);
	for (i = 0; i < IRQSTORM_STAT_COUNT; i++)
		if (irqstorm_stat_percentile(i) > 0)
			json_add_stat(b, h, i, empty);
	json_builder_set_member_name(b, "overflows");
	json_builder_add_int_value(b, (gint64)irqstorm_hist_overflows(h));
	json_builder_set_member_name(b, IRQSTORM_KEY_BIN_NS);
	json_builder_add_int_value(b, (gint64)bin_ns);
	json_builder_set_member_name(b, IRQSTORM_KEY_PERCENTILES_EXACT);
	json_builder_add_boolean_value(b, irqstorm_hist_values_kept(h));

	json_builder_set_member_name(b, "histogram");
	json_builder_begin_object(b);
	for (i = 0; i < irqstorm_hist_nbins(h); i++) {
		guint64 c = irqstorm_hist_bin_count(h, i);
		char key[24];

		if (!c)
			continue;
		g_snprintf(key, sizeof(key), "%" G_GUINT64_FORMAT,
			   (guint64)i * bin_ns);
		json_builder_set_member_name(b, key);
		json_builder_add_int_value(b, (gint64)c);
	}
	json_builder_end_object(b);

	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* Write a JSON document pretty-printed, via a temporary file and rename. */
gboolean irqstorm_write_json_file(const char *path, JsonNode *root,
				  GError **error)
{
	g_autofree char *text = NULL;

	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(root != NULL, FALSE);

	text = irqstorm_json_text(root);
	return write_atomically(path, text, strlen(text), error);
}

/* ---- rt-tests.json ---------------------------------------------------- */

/* s as a JSON string, quoted and escaped. */
static void append_json_string(GString *out, const char *s)
{
	g_autoptr(JsonNode) n = json_node_new(JSON_NODE_VALUE);
	g_autofree char *text = NULL;

	json_node_set_string(n, s ? s : "");
	text = json_to_string(n, FALSE);
	g_string_append(out, text);
}

/* A time as rt-tests writes it, strftime's "%a, %d %b %Y %T %z" in the C
 * locale, whatever the locale here. */
static char *rt_tests_time(GDateTime *t)
{
	static const char *const days[] = {
		"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
	};
	static const char *const months[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun",
		"Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
	};
	gint64 off = g_date_time_get_utc_offset(t) / G_TIME_SPAN_MINUTE;

	return g_strdup_printf("%s, %02d %s %04d %02d:%02d:%02d %c%02d%02d",
			       days[g_date_time_get_day_of_week(t) - 1],
			       g_date_time_get_day_of_month(t),
			       months[g_date_time_get_month(t) - 1],
			       g_date_time_get_year(t), g_date_time_get_hour(t),
			       g_date_time_get_minute(t), g_date_time_get_second(t),
			       off < 0 ? '-' : '+', (int)(ABS(off) / 60),
			       (int)(ABS(off) % 60));
}

/* The members before the threads, in rt-tests' order and spelling (its
 * "cmdline:" and "rt_test_version:" have a colon in the name). */
static void rt_tests_head(GString *s, const IrqstormRtTestsInfo *info, guint n)
{
	g_autofree char *start = rt_tests_time(info->start);
	g_autofree char *end = rt_tests_time(info->end);
	const struct {
		const char *key, *value;
	} strings[] = {
		{ "cmdline:", info->cmdline },
		{ "rt_test_version:", IRQSTORM_RT_TESTS_LAYOUT },
		{ "start_time", start },
		{ "end_time", end },
	}, sys[] = {
		{ "sysname", info->sysname }, { "nodename", info->nodename },
		{ "release", info->release }, { "version", info->version },
		{ "machine", info->machine },
	};

	g_string_append(s, "{\n  \"file_version\": 1,\n");
	for (gsize i = 0; i < G_N_ELEMENTS(strings); i++) {
		g_string_append_printf(s, "  \"%s\": ", strings[i].key);
		append_json_string(s, strings[i].value);
		g_string_append(s, ",\n");
	}
	g_string_append_printf(s, "  \"return_code\": %d,\n  \"sysinfo\": {\n",
			       info->return_code);
	for (gsize i = 0; i < G_N_ELEMENTS(sys); i++) {
		g_string_append_printf(s, "    \"%s\": ", sys[i].key);
		append_json_string(s, sys[i].value);
		g_string_append(s, ",\n");
	}
	g_string_append_printf(s, "    \"realtime\": %d\n  },\n", info->realtime ? 1 : 0);
	g_string_append_printf(s, "  \"num_threads\": %u,\n  \"resolution_in_ns\": 0,\n", n);
}

/* A stage's histogram in 1 us buckets keyed by whole us, like cyclictest's:
 * each bin counts in the bucket of its lower edge. */
static void rt_tests_histogram(GString *s, const IrqstormHist *h)
{
	guint64 bin_ns = irqstorm_hist_bin_ns(h), key = 0, count = 0;
	const char *sep = "";

	g_string_append(s, "      \"histogram\": {");
	for (guint i = 0; i <= irqstorm_hist_nbins(h); i++) {
		guint64 c = i < irqstorm_hist_nbins(h) ? irqstorm_hist_bin_count(h, i) : 0;
		guint64 k = (guint64)i * bin_ns / 1000;

		if ((k != key || i == irqstorm_hist_nbins(h)) && count) {
			g_string_append_printf(s, "%s\n        \"%" G_GUINT64_FORMAT "\": %"
					       G_GUINT64_FORMAT, sep, key, count);
			sep = ",";
			count = 0;
		}
		key = k;
		count += c;
	}
	/* cyclictest: "{      }," when empty */
	g_string_append(s, *sep ? "\n      },\n" : "      },\n");
}

/* One thread: a stage, in us (min and max truncated, as cyclictest's). */
static void rt_tests_thread(GString *s, guint i, const IrqstormHist *h,
			    const char *name, const IrqstormRtTestsInfo *info,
			    gboolean last)
{
	char avg[G_ASCII_DTOSTR_BUF_SIZE];

	g_ascii_formatd(avg, sizeof(avg), "%.2f", irqstorm_hist_avg(h) / 1000);
	g_string_append_printf(s, "    \"%u\": {\n", i);
	rt_tests_histogram(s, h);
	g_string_append_printf(s, "      \"cycles\": %" G_GUINT64_FORMAT ",\n"
			       "      \"min\": %" G_GUINT64_FORMAT ",\n"
			       "      \"max\": %" G_GUINT64_FORMAT ",\n"
			       "      \"avg\": %s,\n      \"cpu\": %d,\n      \"node\": 0,\n",
			       irqstorm_hist_count(h), irqstorm_hist_min(h) / 1000,
			       irqstorm_hist_max(h) / 1000, avg, info->cpu);
	g_string_append(s, "      \"name\": ");
	append_json_string(s, name);
	g_string_append_printf(s, "\n    }%s\n", last ? "" : ",");
}

/* The text of rt-tests.json; see output.h. */
char *irqstorm_rt_tests_json(IrqstormHist *const *hists, const char *const *names,
			     guint n, const IrqstormRtTestsInfo *info)
{
	GString *s = g_string_new(NULL);

	rt_tests_head(s, info, n);
	g_string_append(s, "  \"thread\": {\n");
	for (guint i = 0; i < n; i++)
		rt_tests_thread(s, i, hists[i], names[i], info, i + 1 == n);
	g_string_append(s, "  }\n}\n");
	return g_string_free(s, FALSE);
}

gboolean irqstorm_write_rt_tests_json(const char *path, IrqstormHist *const *hists,
				      const char *const *names, guint n,
				      const IrqstormRtTestsInfo *info, GError **error)
{
	g_autofree char *text = irqstorm_rt_tests_json(hists, names, n, info);

	return write_atomically(path, text, strlen(text), error);
}
