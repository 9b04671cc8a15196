// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm explain's run, read back and checked: see explain-source.h.
 */
#include "explain-source.h"

#include <string.h>

#include "core/fail.h"
#include "core/identity.h"
#include "core/machine.h"
#include "core/records.h"
#include "core/runfiles.h"

#define EXPLAIN_ERROR g_quark_from_static_string("irqstorm-explain")

void explain_source_free(ExplainSource *src)
{
	if (!src)
		return;
	g_free(src->dir);
	if (src->summary)
		json_node_unref(src->summary);
	if (src->scenario)
		irqstorm_scenario_free(src->scenario);
	if (src->records)
		g_array_unref(src->records);
	g_free(src);
}

/* A run explain cannot replay: the message, FALSE. */
#define refuse(error, ...) irqstorm_fail(error, EXPLAIN_ERROR, 1, __VA_ARGS__)

static JsonNode *read_json(const char *path, GError **error)
{
	g_autoptr(JsonParser) p = json_parser_new();

	if (!json_parser_load_from_file(p, path, error))
		return NULL;
	return json_node_copy(json_parser_get_root(p));
}

/*
 * Each key=value of identity file file in dir against member name of the
 * summary: the names of the keys that differ, appended to diff.
 */
static void identity_diff(JsonObject *summary, const char *name, const char *dir,
			  const char *file, GString *diff)
{
	g_auto(GStrv) id = irqstorm_identity_read(dir, file);
	JsonObject *was = json_object_has_member(summary, name) ?
			  json_object_get_object_member(summary, name) : NULL;

	if (!was || !id) {
		g_autofree char *path = g_build_filename(dir, file, NULL);

		g_string_append_printf(diff, "%s%s (no %s)", diff->len ? ", " : "",
				       name, was ? path : "identity in summary.json");
		return;
	}
	for (gsize i = 0; id[i] && id[i + 1]; i += 2) {
		const char *old = json_object_has_member(was, id[i]) ?
				  json_object_get_string_member(was, id[i]) : NULL;

		if (!old || strcmp(old, id[i + 1]))
			g_string_append_printf(diff, "%s%s (run: %s, now: %s)",
					       diff->len ? ", " : "", id[i],
					       old ? old : "none", id[i + 1]);
	}
}

/* Is the run explainable at all: complete and deterministic? */
static gboolean check_run(const ExplainSource *src, JsonObject *o, GError **error)
{
	JsonObject *sys = json_object_has_member(o, "sysinfo") ?
			  json_object_get_object_member(o, "sysinfo") : NULL;
	g_autofree char *incomplete = g_build_filename(src->dir, "INCOMPLETE", NULL);

	if (g_strcmp0(json_object_get_string_member_with_default(o, "format", ""),
		      "irqstorm-summary"))
		return refuse(error, "%s/summary.json is not an irqstorm summary", src->dir);
	if (g_file_test(incomplete, G_FILE_TEST_EXISTS) ||
	    !json_object_get_boolean_member_with_default(o, "complete", FALSE))
		return refuse(error, "%s is an incomplete run: only a complete run can "
			      "be replayed", src->dir);
	if (!sys || !json_object_get_boolean_member_with_default(sys, "deterministic", FALSE))
		return refuse(error, "%s was not a deterministic run (TCG, -icount, one "
			      "vCPU or a quantum, no changes over QMP: summary.json's "
			      "sysinfo.deterministic): a rerun would not execute the same "
			      "instructions, so it cannot explain it", src->dir);
	return TRUE;
}

gboolean explain_source_check_builds(const ExplainSource *src,
				     const char *qemu_dir, const char *kernel_dir,
				     GError **error)
{
	JsonObject *o = json_node_get_object(src->summary);
	g_autoptr(GString) diff = g_string_new(NULL);
	g_autofree char *kid = irqstorm_machine_kernel_file(src->scenario, "identity");

	identity_diff(o, "qemu", qemu_dir, IRQSTORM_QEMU_IDENTITY_FILE, diff);
	identity_diff(o, "kernel", kernel_dir, kid, diff);
	if (diff->len)
		return refuse(error, "%s was made by other builds than these, so a rerun "
			      "would not replay it: %s. Run it again with these builds "
			      "(irqstorm run %s/scenario.ini --out DIR), then explain "
			      "that.", src->dir, diff->str, src->dir);
	return TRUE;
}

ExplainSource *explain_source_load(const char *dir, GError **error)
{
	g_autoptr(ExplainSource) src = g_new0(ExplainSource, 1);
	g_autofree char *summary = g_build_filename(dir, "summary.json", NULL);
	g_autofree char *scenario = irqstorm_run_path(dir, IRQSTORM_FILE_SCENARIO);
	g_autofree char *records = irqstorm_run_path(dir, IRQSTORM_FILE_RECORDS);
	JsonObject *o;

	src->dir = g_strdup(dir);
	if (!g_file_test(summary, G_FILE_TEST_EXISTS)) {
		refuse(error, "%s: no summary.json: not a run's result directory", dir);
		return NULL;
	}
	src->summary = read_json(summary, error);
	if (!src->summary)
		return NULL;
	if (!JSON_NODE_HOLDS_OBJECT(src->summary)) {
		refuse(error, "%s is not an irqstorm summary", summary);
		return NULL;
	}
	o = json_node_get_object(src->summary);
	if (!check_run(src, o, error))
		return NULL;
	src->scenario = irqstorm_scenario_load(scenario, error);
	if (!src->scenario)
		return NULL;
	if (!g_file_test(records, G_FILE_TEST_EXISTS)) {
		refuse(error, "%s: no records.csv (the run had --no-csv): run it "
		       "again without", dir);
		return NULL;
	}
	src->records = irqstorm_records_read(records, FALSE, error);
	return src->records ? g_steal_pointer(&src) : NULL;
}

const char *explain_source_default_stage(const ExplainSource *src)
{
	JsonObject *o = json_node_get_object(src->summary);
	JsonArray *t = json_object_has_member(o, "thresholds") ?
		       json_object_get_array_member(o, "thresholds") : NULL;

	for (guint i = 0; t && i < json_array_get_length(t); i++) {
		JsonObject *lim = json_array_get_object_element(t, i);

		if (json_object_get_boolean_member_with_default(lim, "exceeded", FALSE))
			return json_object_get_string_member(lim, "stage");
	}
	return "done";
}

/* The first line where two texts differ, 1-based; 0 if they do not. */
static guint first_difference(const char *a, const char *b)
{
	guint line = 1;

	for (; *a && *a == *b; a++, b++)
		line += *a == '\n';
	return *a == *b ? 0 : line;
}

/* member counts of summary.json in dir, as compact JSON text. */
static char *counts_text(const char *dir, GError **error)
{
	g_autofree char *path = g_build_filename(dir, "summary.json", NULL);
	g_autoptr(JsonNode) root = read_json(path, error);
	JsonObject *o;

	if (!root)
		return NULL;
	o = json_node_get_object(root);
	if (!json_object_has_member(o, "counts")) {
		refuse(error, "%s has no counts", path);
		return NULL;
	}
	return json_to_string(json_object_get_member(o, "counts"), FALSE);
}

gboolean explain_source_check_rerun(const ExplainSource *src,
				    const char *rerun_dir, char **held,
				    GError **error)
{
	g_autofree char *a_path = irqstorm_run_path(src->dir, IRQSTORM_FILE_RECORDS);
	g_autofree char *b_path = irqstorm_run_path(rerun_dir, IRQSTORM_FILE_RECORDS);
	g_autofree char *a = NULL, *b = NULL, *ca = NULL, *cb = NULL;
	guint line;

	if (!g_file_get_contents(a_path, &a, NULL, error) ||
	    !g_file_get_contents(b_path, &b, NULL, error))
		return FALSE;
	line = first_difference(a, b);
	if (line)
		return refuse(error, "zero perturbation did NOT hold: the rerun's "
			      "records differ from the run's from line %u of records.csv "
			      "(%s against %s), so what the plugin saw is not what the run "
			      "did; nothing is explained", line, b_path, a_path);
	ca = counts_text(src->dir, error);
	cb = ca ? counts_text(rerun_dir, error) : NULL;
	if (!cb)
		return FALSE;
	if (strcmp(ca, cb))
		return refuse(error, "zero perturbation did NOT hold: the rerun's counts "
			      "(%s/summary.json) differ from the run's; nothing is "
			      "explained", rerun_dir);
	*held = g_strdup_printf("Zero perturbation held: the rerun's %u records "
				"(records.csv) and counts equal the run's exactly.",
				src->records->len);
	return TRUE;
}

gint irqstorm_explain_source_compare_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}
