// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a finished run back: see summary.h.
 */
#include "summary.h"

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include "fail.h"
#include "identity.h"
#include "runfiles.h"
#include "stages.h"

G_DEFINE_QUARK(irqstorm-summary-error-quark, irqstorm_summary_error)

static void stage_free(gpointer p)
{
	IrqstormStageStats *st = p;

	g_free(st->name);
	g_free(st);
}

static void channel_free(gpointer p)
{
	IrqstormChannelStats *c = p;

	g_free(c->name);
	if (c->stages)
		g_ptr_array_unref(c->stages);
	g_free(c);
}

void irqstorm_summary_free(IrqstormSummary *s)
{
	if (!s)
		return;
	g_free(s->dir);
	g_free(s->path);
	g_free(s->label);
	g_free(s->incomplete_reason);
	g_free(s->guest_status);
	g_free(s->guest_reason);
	g_free(s->kernel_failure);
	g_free(s->stall);
	g_free(s->kernel);
	if (s->stages)
		g_ptr_array_unref(s->stages);
	if (s->channels)
		g_ptr_array_unref(s->channels);
	g_free(s);
}

/* An IRQSTORM_SUMMARY_ERROR_INVALID error "path: ...", FALSE. */
#define invalid(error, path, fmt, ...)					\
	irqstorm_fail(error, IRQSTORM_SUMMARY_ERROR, IRQSTORM_SUMMARY_ERROR_INVALID, \
		      "%s: " fmt, path, ##__VA_ARGS__)

static gboolean is_number(JsonNode *n)
{
	GType t;

	if (!JSON_NODE_HOLDS_VALUE(n))
		return FALSE;
	t = json_node_get_value_type(n);
	return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}

/* A statistic: a number, or null/absent (NAN). */
static gboolean read_stat(JsonObject *o, const char *stage, const char *key,
			  const char *path, double *v, GError **error)
{
	JsonNode *n = json_object_get_member(o, key);

	if (!n || JSON_NODE_HOLDS_NULL(n)) {
		*v = NAN;
		return TRUE;
	}
	if (!is_number(n))
		return invalid(error, path, "%s.%s: expected a number or null", stage, key);
	*v = json_node_get_double(n);
	return TRUE;
}

/* A non-negative integer member, or 0 when it is absent or not one. */
static guint64 count_member(JsonObject *o, const char *key)
{
	JsonNode *n = json_object_get_member(o, key);

	if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
		return 0;
	return (guint64)MAX(json_node_get_int(n), 0);
}

static IrqstormStageStats *read_stage(JsonNode *node, const char *name,
				      const char *path, GError **error)
{
	g_autoptr(GPtrArray) hold = g_ptr_array_new_with_free_func(stage_free);
	IrqstormStageStats *st;
	JsonObject *o;
	JsonNode *cycles;

	if (!JSON_NODE_HOLDS_OBJECT(node)) {
		invalid(error, path, "%s: expected an object", name);
		return NULL;
	}
	o = json_node_get_object(node);
	cycles = json_object_get_member(o, IRQSTORM_KEY_CYCLES);
	if (!cycles || !JSON_NODE_HOLDS_VALUE(cycles) ||
	    json_node_get_value_type(cycles) != G_TYPE_INT64 ||
	    json_node_get_int(cycles) < 0) {
		invalid(error, path, "%s.cycles: expected a count", name);
		return NULL;
	}
	st = g_new0(IrqstormStageStats, 1);
	g_ptr_array_add(hold, st);
	st->name = g_strdup(name);
	st->cycles = (guint64)json_node_get_int(cycles);
	st->bin_ns = count_member(o, IRQSTORM_KEY_BIN_NS);
	st->percentiles_exact = json_object_get_boolean_member_with_default(
		o, IRQSTORM_KEY_PERCENTILES_EXACT, FALSE);
	for (int i = 0; i < IRQSTORM_STAT_COUNT; i++)
		if (!read_stat(o, name, irqstorm_stat_key(i), path, &st->v[i], error))
			return NULL;
	return g_ptr_array_steal_index(hold, 0);
}

/* A string member of obj, copied, or NULL. */
/* The first string of the array member name, or NULL ("?" if not a string). */
static char *first_string(JsonObject *root, const char *name)
{
	JsonNode *n = json_object_get_member(root, name);
	JsonNode *first;

	if (!n || !JSON_NODE_HOLDS_ARRAY(n) || !json_array_get_length(json_node_get_array(n)))
		return NULL;
	first = json_array_get_element(json_node_get_array(n), 0);
	return g_strdup(JSON_NODE_HOLDS_VALUE(first) &&
			json_node_get_value_type(first) == G_TYPE_STRING ?
			json_node_get_string(first) : "?");
}

static char *string_member(JsonObject *obj, const char *name)
{
	JsonNode *n = obj ? json_object_get_member(obj, name) : NULL;

	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return g_strdup(json_node_get_string(n));
}

/* counts.<name>, an object, or NULL. */
static JsonObject *counts_member(JsonObject *root, const char *name)
{
	JsonNode *n = json_object_get_member(root, IRQSTORM_KEY_COUNTS);

	if (!n || !JSON_NODE_HOLDS_OBJECT(n))
		return NULL;
	n = json_object_get_member(json_node_get_object(n), name);
	return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* The guest's own verdict, counts.guest.status and .reason, if any; and
 * how many records the host read, counts.host.all_records. */
static void read_counts(IrqstormSummary *s, JsonObject *root)
{
	JsonObject *guest = counts_member(root, IRQSTORM_KEY_GUEST);
	JsonObject *host = counts_member(root, IRQSTORM_KEY_HOST);
	JsonNode *n = host ? json_object_get_member(host, IRQSTORM_KEY_ALL_RECORDS) : NULL;

	s->guest_status = string_member(guest, "status");
	s->guest_reason = string_member(guest, "reason");
	s->records = n && JSON_NODE_HOLDS_VALUE(n) &&
		     json_node_get_value_type(n) == G_TYPE_INT64 ? json_node_get_int(n) : -1;
}

/* A summary's identity object as irqstorm_identity_read() gives a file. */
static char **identity_of(JsonObject *o)
{
	g_autoptr(GStrvBuilder) id = g_strv_builder_new();
	g_autoptr(GList) members = o ? json_object_get_members(o) : NULL;

	for (GList *m = members; m; m = m->next) {
		JsonNode *v = json_object_get_member(o, m->data);

		if (JSON_NODE_HOLDS_VALUE(v) && json_node_get_value_type(v) == G_TYPE_STRING) {
			g_strv_builder_add(id, m->data);
			g_strv_builder_add(id, json_node_get_string(v));
		}
	}
	return g_strv_builder_end(id);
}

/* The kernel identity (member "kernel") in words, and sysinfo's
 * deterministic, cpus and quantum_ns: what a comparison must show. */
static void read_identity(IrqstormSummary *s, JsonObject *root)
{
	JsonNode *k = json_object_get_member(root, "kernel");
	JsonNode *sys = json_object_get_member(root, "sysinfo");
	JsonObject *o = k && JSON_NODE_HOLDS_OBJECT(k) ? json_node_get_object(k) : NULL;
	g_auto(GStrv) id = identity_of(o);
	g_autofree char *source = irqstorm_identity_kernel_source(id);
	const char *flavour = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_FLAVOUR);
	const char *key = irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_CACHE_KEY);
	const char *driver = irqstorm_identity_get(id, IRQSTORM_ID_DRIVER);

	if (source)
		s->kernel = g_strdup_printf("%s, %s, build %s, driver %s", source,
					    flavour ? flavour : "?", key ? key : "?",
					    driver ? driver : "?");
	s->cpus = 1;
	if (sys && JSON_NODE_HOLDS_OBJECT(sys)) {
		JsonObject *so = json_node_get_object(sys);

		s->deterministic = json_object_get_boolean_member_with_default(
			so, "deterministic", FALSE);
		s->cpus = json_object_get_int_member_with_default(so, "cpus", 1);
		s->quantum_ns = json_object_get_int_member_with_default(so, "quantum_ns", 0);
	}
}

/* Every member of a stages object into stages, in the file's order
 * (json-glib keeps it); where prefixes the names in messages. */
static gboolean read_stages(JsonObject *o, const char *where, const char *path,
			    GPtrArray *stages, GError **error)
{
	g_autoptr(GList) members = json_object_get_members(o);

	for (GList *l = members; l; l = l->next) {
		g_autofree char *name = g_strconcat(where, l->data, NULL);
		IrqstormStageStats *st = read_stage(json_object_get_member(o, l->data),
						    name, path, error);

		if (!st)
			return FALSE;
		g_free(st->name);
		st->name = g_strdup(l->data);
		g_ptr_array_add(stages, st);
	}
	return TRUE;
}

/* Channel N's object: its name and stages (none in files written before
 * channels had stages). */
static IrqstormChannelStats *read_channel(JsonNode *node, const char *key,
					  const char *path, GError **error)
{
	g_autofree char *where = g_strdup_printf("channels.%s.stages.", key);
	g_autoptr(GPtrArray) stages = g_ptr_array_new_with_free_func(stage_free);
	IrqstormChannelStats *c;
	JsonNode *n;
	char *end;
	guint64 index = g_ascii_strtoull(key, &end, 10);

	if (*end || end == key || index >= G_MAXINT || !JSON_NODE_HOLDS_OBJECT(node)) {
		invalid(error, path, "channels.%s: expected a channel's number and object", key);
		return NULL;
	}
	n = json_object_get_member(json_node_get_object(node), IRQSTORM_KEY_STAGES);
	if (n && JSON_NODE_HOLDS_OBJECT(n) &&
	    !read_stages(json_node_get_object(n), where, path, stages, error))
		return NULL;
	c = g_new0(IrqstormChannelStats, 1);
	c->index = (int)index;
	c->name = string_member(json_node_get_object(node), IRQSTORM_KEY_CHANNEL_NAME);
	c->stages = g_steal_pointer(&stages);
	return c;
}

/* Every channel of "channels", in the file's order (by number). */
static gboolean read_channels(JsonObject *root, const char *path, GPtrArray *channels,
			      GError **error)
{
	JsonNode *n = json_object_get_member(root, IRQSTORM_KEY_CHANNELS);
	g_autoptr(GList) members = NULL;
	JsonObject *o;

	if (!n || !JSON_NODE_HOLDS_OBJECT(n))
		return TRUE;
	o = json_node_get_object(n);
	members = json_object_get_members(o);
	for (GList *l = members; l; l = l->next) {
		IrqstormChannelStats *c = read_channel(json_object_get_member(o, l->data),
						       l->data, path, error);

		if (!c)
			return FALSE;
		g_ptr_array_add(channels, c);
	}
	return TRUE;
}

/* window.from_ns and .to_ns, -1 where absent. */
static void read_window(IrqstormSummary *s, JsonObject *root)
{
	JsonNode *n = json_object_get_member(root, "window");
	JsonObject *w = n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;

	s->window_from_ns = w ? json_object_get_int_member_with_default(w, "from_ns", -1) : -1;
	s->window_to_ns = w ? json_object_get_int_member_with_default(w, "to_ns", -1) : -1;
}

/* "format", when there is one (files before it had none), must be ours. */
static gboolean check_format(JsonObject *root, const char *path, GError **error)
{
	JsonNode *n = json_object_get_member(root, IRQSTORM_KEY_FORMAT);

	if (!n)
		return TRUE;
	if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
		return invalid(error, path, "not an irqstorm summary (\"format\" is not a string)");
	if (strcmp(json_node_get_string(n), IRQSTORM_SUMMARY_FORMAT))
		return invalid(error, path, "not an irqstorm summary (\"format\": \"%s\", expected \"%s\")",
			       json_node_get_string(n), IRQSTORM_SUMMARY_FORMAT);
	return TRUE;
}

IrqstormSummary *irqstorm_summary_parse(const char *dir, const char *path,
					const char *text, gssize len,
					GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(IrqstormSummary) s = g_new0(IrqstormSummary, 1);
	g_autoptr(GError) err = NULL;
	JsonObject *root;
	JsonNode *n;

	s->dir = g_strdup(dir);
	s->path = g_strdup(path);
	s->label = g_path_get_basename(dir);
	s->return_code = -1;
	s->stages = g_ptr_array_new_with_free_func(stage_free);
	s->channels = g_ptr_array_new_with_free_func(channel_free);

	if (!json_parser_load_from_data(parser, text, len, &err)) {
		invalid(error, path, "not valid JSON: %s", err->message);
		return NULL;
	}
	n = json_parser_get_root(parser);
	if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
		invalid(error, path, "not an irqstorm summary (expected a JSON object)");
		return NULL;
	}
	root = json_node_get_object(n);
	if (!check_format(root, path, error))
		return NULL;

	n = json_object_get_member(root, IRQSTORM_KEY_COMPLETE);
	if (!n || !JSON_NODE_HOLDS_VALUE(n) ||
	    json_node_get_value_type(n) != G_TYPE_BOOLEAN) {
		invalid(error, path, "not an irqstorm summary (no boolean \"complete\")");
		return NULL;
	}
	s->complete = json_node_get_boolean(n);
	if (!s->complete) {
		const char *why = json_object_get_string_member_with_default(
			root, IRQSTORM_KEY_INCOMPLETE_REASON, NULL);

		s->incomplete_reason = g_strdup(why ? why : "the run did not finish");
	}

	n = json_object_get_member(root, IRQSTORM_KEY_RETURN_CODE);
	if (n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_INT64)
		s->return_code = (int)json_node_get_int(n);
	n = json_object_get_member(root, IRQSTORM_KEY_FAILED_CHECKS);
	if (n && JSON_NODE_HOLDS_ARRAY(n))
		s->failed_checks = json_array_get_length(json_node_get_array(n));
	s->kernel_failure = first_string(root, IRQSTORM_KEY_KERNEL_FAILURES);
	s->stall = first_string(root, IRQSTORM_KEY_STALLS);
	read_counts(s, root);
	read_identity(s, root);
	read_window(s, root);

	n = json_object_get_member(root, IRQSTORM_KEY_STAGES);
	/* A run that ended before it collected anything (QEMU did not
	 * start) has no stages: that is its summary. */
	if (!n && !s->complete)
		return g_steal_pointer(&s);
	if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
		invalid(error, path, "not an irqstorm summary (no \"stages\" object)");
		return NULL;
	}
	if (!read_stages(json_node_get_object(n), "stages.", path, s->stages, error) ||
	    !read_channels(root, path, s->channels, error))
		return NULL;
	return g_steal_pointer(&s);
}

/* The first line of DIR/INCOMPLETE, or a generic reason. */
static char *marker_reason(const char *marker)
{
	g_autofree char *text = NULL;

	if (!g_file_get_contents(marker, &text, NULL, NULL) || !*g_strstrip(text))
		return g_strdup("INCOMPLETE marker present");
	text[strcspn(text, "\n")] = '\0';
	return g_strdup(text);
}

IrqstormSummary *irqstorm_summary_load(const char *dir, GError **error)
{
	g_autofree char *path = irqstorm_run_path(dir, IRQSTORM_FILE_SUMMARY);
	g_autofree char *marker = irqstorm_run_path(dir, IRQSTORM_FILE_MARKER);
	g_autofree char *text = NULL;
	g_autoptr(GError) err = NULL;
	gsize len = 0;
	IrqstormSummary *s;

	if (!g_file_get_contents(path, &text, &len, &err)) {
		if (g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
			if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
				g_set_error(error, IRQSTORM_SUMMARY_ERROR,
					    IRQSTORM_SUMMARY_ERROR_MISSING,
					    "%s: no such directory", dir);
			else
				g_set_error(error, IRQSTORM_SUMMARY_ERROR,
					    IRQSTORM_SUMMARY_ERROR_MISSING,
					    "%s: no such file (%s)", path,
					    g_file_test(marker, G_FILE_TEST_EXISTS) ?
					    "the run is still going, or died early: see INCOMPLETE" :
					    "not an irqstorm result directory?");
		} else {
			g_set_error(error, IRQSTORM_SUMMARY_ERROR,
				    IRQSTORM_SUMMARY_ERROR_MISSING, "%s", err->message);
		}
		return NULL;
	}
	s = irqstorm_summary_parse(dir, path, text, (gssize)len, error);
	if (s && g_file_test(marker, G_FILE_TEST_EXISTS) && s->complete) {
		s->complete = FALSE;
		s->incomplete_reason = marker_reason(marker);
	}
	return s;
}

const IrqstormStageStats *irqstorm_summary_stage(const IrqstormSummary *s,
						 const char *name)
{
	for (guint i = 0; i < s->stages->len; i++) {
		const IrqstormStageStats *st = s->stages->pdata[i];

		if (!strcmp(st->name, name))
			return st;
	}
	return NULL;
}

const IrqstormStageStats *irqstorm_summary_stage_sampled(const IrqstormSummary *s,
							 const char *name)
{
	const IrqstormStageStats *st = irqstorm_summary_stage(s, name);

	return st && st->cycles > 0 ? st : NULL;
}

const IrqstormChannelStats *irqstorm_summary_channel(const IrqstormSummary *s, int n)
{
	for (guint i = 0; s->channels && i < s->channels->len; i++) {
		const IrqstormChannelStats *c = s->channels->pdata[i];

		if (c->index == n)
			return c;
	}
	return NULL;
}

const IrqstormStageStats *irqstorm_summary_channel_stage(const IrqstormSummary *s,
							 int n, const char *name)
{
	const IrqstormChannelStats *c;

	if (n == IRQSTORM_CHANNELS_POOLED || !strcmp(name, irqstorm_stage_name(IRQSTORM_STAGE_PROBE)))
		return irqstorm_summary_stage(s, name);
	c = irqstorm_summary_channel(s, n);
	for (guint i = 0; c && i < c->stages->len; i++) {
		const IrqstormStageStats *st = c->stages->pdata[i];

		if (!strcmp(st->name, name))
			return st;
	}
	return NULL;
}

const IrqstormStageStats *irqstorm_summary_channel_stage_sampled(const IrqstormSummary *s,
								 int n, const char *name)
{
	const IrqstormStageStats *st = irqstorm_summary_channel_stage(s, n, name);

	return st && st->cycles > 0 ? st : NULL;
}

/* dir without trailing slashes (but "/" stays "/"). */
static char *trim_slashes(const char *dir)
{
	char *d = g_strdup(dir);
	gsize n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	return d;
}

char **irqstorm_run_labels(const char *const *dirs, guint n,
			   const char *const *labels)
{
	char **out = g_new0(char *, n + 1);

	for (guint i = 0; i < n; i++) {
		gboolean clash = FALSE;

		if (labels) {
			out[i] = g_strdup(labels[i]);
			continue;
		}
		out[i] = g_path_get_basename(dirs[i]);
		for (guint j = 0; j < n && !clash; j++) {
			g_autofree char *other = g_path_get_basename(dirs[j]);

			clash = j != i && !strcmp(other, out[i]) && strcmp(dirs[j], dirs[i]);
		}
		if (clash) {
			g_free(out[i]);
			out[i] = trim_slashes(dirs[i]);
		}
	}
	return out;
}

void irqstorm_summaries_label(IrqstormSummary *const *runs, guint n,
			      const char *const *labels)
{
	g_autofree const char **dirs = g_new0(const char *, n + 1);
	g_auto(GStrv) names = NULL;

	for (guint i = 0; i < n; i++)
		dirs[i] = runs[i]->dir;
	names = irqstorm_run_labels(dirs, n, labels);
	for (guint i = 0; i < n; i++) {
		g_free(runs[i]->label);
		runs[i]->label = g_strdup(names[i]);
	}
}

GPtrArray *irqstorm_summaries_stage_names(IrqstormSummary *const *runs,
					  guint n)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < n; i++) {
		for (guint j = 0; j < runs[i]->stages->len; j++) {
			const IrqstormStageStats *st = runs[i]->stages->pdata[j];

			if (!g_ptr_array_find_with_equal_func(names, st->name,
							      g_str_equal, NULL))
				g_ptr_array_add(names, g_strdup(st->name));
		}
	}
	return names;
}

GPtrArray *irqstorm_summaries_channel_stage_names(IrqstormSummary *const *runs,
						  guint n, int c)
{
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);

	if (c == IRQSTORM_CHANNELS_POOLED) {
		g_ptr_array_unref(names);
		return irqstorm_summaries_stage_names(runs, n);
	}
	for (guint i = 0; i < n; i++) {
		const IrqstormChannelStats *ch = irqstorm_summary_channel(runs[i], c);

		for (guint j = 0; ch && j < ch->stages->len; j++) {
			const IrqstormStageStats *st = ch->stages->pdata[j];

			if (!g_ptr_array_find_with_equal_func(names, st->name,
							      g_str_equal, NULL))
				g_ptr_array_add(names, g_strdup(st->name));
		}
	}
	return names;
}

/* Channel c's name in the first run that names it, or NULL. */
static const char *channel_name(IrqstormSummary *const *runs, guint n, int c)
{
	for (guint i = 0; i < n; i++) {
		const IrqstormChannelStats *ch = irqstorm_summary_channel(runs[i], c);

		if (ch && ch->name)
			return ch->name;
	}
	return NULL;
}

/* "0, 1 (bulk)": the channels of the runs, for messages. */
static char *channel_list(IrqstormSummary *const *runs, guint n, const GArray *all)
{
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < all->len; i++) {
		int c = g_array_index(all, int, i);
		const char *name = channel_name(runs, n, c);

		g_string_append_printf(s, "%s%d", i ? ", " : "", c);
		if (name)
			g_string_append_printf(s, " (%s)", name);
	}
	return g_strdup(s->len ? s->str : "none");
}

static gint int_cmp(gconstpointer a, gconstpointer b)
{
	return *(const int *)a - *(const int *)b;
}

static gboolean has_int(const GArray *a, int v)
{
	for (guint i = 0; i < a->len; i++)
		if (g_array_index(a, int, i) == v)
			return TRUE;
	return FALSE;
}

/* Every active channel of any run, by number. */
static GArray *all_channels(IrqstormSummary *const *runs, guint n)
{
	GArray *all = g_array_new(FALSE, FALSE, sizeof(int));

	for (guint i = 0; i < n; i++)
		for (guint j = 0; j < runs[i]->channels->len; j++) {
			int c = ((IrqstormChannelStats *)runs[i]->channels->pdata[j])->index;

			if (!has_int(all, c))
				g_array_append_val(all, c);
		}
	g_array_sort(all, int_cmp);
	return all;
}

/* want (a number or a name) as a channel of the runs, or -2. */
static int channel_wanted(IrqstormSummary *const *runs, guint n, const GArray *all,
			  const char *want)
{
	char *end;
	guint64 v = g_ascii_strtoull(want, &end, 10);

	for (guint i = 0; i < all->len; i++) {
		int c = g_array_index(all, int, i);
		const char *name = channel_name(runs, n, c);

		if ((*want && !*end && v == (guint64)c) || !g_strcmp0(name, want))
			return c;
	}
	return -2;
}

GArray *irqstorm_summaries_channels(IrqstormSummary *const *runs, guint n,
				    const char *const *want, gboolean pooled,
				    GError **error)
{
	g_autoptr(GArray) all = all_channels(runs, n);
	g_autoptr(GArray) out = g_array_new(FALSE, FALSE, sizeof(int));
	const int all_pooled = IRQSTORM_CHANNELS_POOLED;
	guint most = 0;

	for (guint i = 0; i < n; i++)
		most = MAX(most, runs[i]->channels->len);
	for (gsize k = 0; want && want[k]; k++) {
		int c = channel_wanted(runs, n, all, want[k]);

		if (c < -1) {
			g_autofree char *list = channel_list(runs, n, all);

			g_set_error(error, IRQSTORM_SUMMARY_ERROR, IRQSTORM_SUMMARY_ERROR_CHANNEL,
				    "no run has a channel '%s' (channels: %s)", want[k], list);
			return NULL;
		}
		if (!has_int(out, c))
			g_array_append_val(out, c);
	}
	if (!out->len && most > 1)
		g_array_append_vals(out, all->data, all->len);
	if (pooled || !out->len)
		g_array_append_val(out, all_pooled);
	return g_steal_pointer(&out);
}

gboolean irqstorm_channels_split(const GArray *channels)
{
	return channels->len > 1 ||
	       (channels->len == 1 && g_array_index(channels, int, 0) != IRQSTORM_CHANNELS_POOLED);
}

char *irqstorm_summaries_channel_title(IrqstormSummary *const *runs, guint n, int c)
{
	const char *name = channel_name(runs, n, c);

	if (c == IRQSTORM_CHANNELS_POOLED)
		return g_strdup("all channels, pooled");
	return name ? g_strdup_printf("channel %d (%s)", c, name) : g_strdup_printf("channel %d", c);
}
