// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm merge OUT DIR...: the shards of a matrix (matrix --shard I/N,
 * each in its DIR) put together into OUT, as one machine running the
 * whole matrix would have written it: the cells' directories (hard links,
 * or copies across file systems), OUT/matrix.json, the table, and a seed
 * sweep's OUT/merged/. The shards must be of one matrix (the same
 * scenario text, --set, --vary, run options, build identity and N), each
 * once, and together have run every cell. See matrix.h for the rule and
 * the format.
 */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

static const char merge_description[] =
	"Each DIR is the OUT of an irqstorm matrix --shard I/N of the same\n"
	"matrix (the same command line but I and OUT, on any machine). merge\n"
	"checks that they are shards of one matrix: the same scenario text\n"
	"(SHA-256), --set, --vary, run options after '--', build identity\n"
	"(qemu-identity and kernel-FLAVOUR-identity, as each shard found them)\n"
	"and N; that no shard is given twice or was interrupted; and that\n"
	"together they ran every cell (the missing ones are named, with their\n"
	"shard). Then it writes OUT as irqstorm matrix without --shard\n"
	"would have: every cell's directory (hard-linked, or copied across file\n"
	"systems), OUT/matrix.json, the table on stdout, and for a seed sweep\n"
	"OUT/merged/, the cells' histograms added up (irqstorm matrix --help).\n"
	"The shards may be given in any order; the result does not depend on it.\n"
	"\n"
	"Exit status: that of the whole matrix (0 every cell passed, 2 a\n"
	"threshold, 3 a stall or refusal, 4 a tool failure: irqstorm matrix\n"
	"--help); 1 the shards do not make one matrix, or OUT cannot be written.\n"
	"\n"
	"Examples:\n"
	"  irqstorm merge results/seeds results/seeds-1 results/seeds-2 results/seeds-3\n"
	"  irqstorm merge results/rates node1/rates node2/rates   # any order\n";

/* One DIR: its matrix.json. */
typedef struct {
	char *dir;
	JsonParser *parser;
	JsonObject *o;
	JsonArray *cells;
	guint index, count;
} Shard;

static void shard_free(Shard *s)
{
	g_free(s->dir);
	g_clear_object(&s->parser);
	g_free(s);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Shard, shard_free)

/* shard's index and count from "shard" (null: the whole matrix, 1/1). */
static gboolean shard_numbers(Shard *s, const char *path, GError **error)
{
	JsonNode *n = json_object_get_member(s->o, "shard");
	JsonObject *o = n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
	gint64 i = o ? json_object_get_int_member_with_default(o, "index", 0) : 1;
	gint64 c = o ? json_object_get_int_member_with_default(o, "count", 0) : 1;

	if (i < 1 || c < i || c > IRQSTORM_MATRIX_MAX_SHARDS) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: \"shard\" is not { \"index\": I, \"count\": N }", path);
		return FALSE;
	}
	s->index = (guint)i;
	s->count = (guint)c;
	return TRUE;
}

static Shard *shard_load(const char *dir, GError **error)
{
	g_autoptr(Shard) s = g_new0(Shard, 1);
	g_autofree char *path = g_build_filename(dir, IRQSTORM_MATRIX_FILE, NULL);
	JsonNode *root, *cells;

	s->dir = g_strdup(dir);
	s->parser = json_parser_new();
	if (!json_parser_load_from_file(s->parser, path, error))
		return NULL;
	root = json_parser_get_root(s->parser);
	s->o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
	if (!s->o || g_strcmp0(json_object_get_string_member_with_default(s->o, "format", NULL),
			       IRQSTORM_MATRIX_FORMAT)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not the matrix.json of a shard (no \"format\": \"%s\"; "
			    "one written before shards existed must be run again)",
			    path, IRQSTORM_MATRIX_FORMAT);
		return NULL;
	}
	cells = json_object_get_member(s->o, "cells");
	s->cells = cells && JSON_NODE_HOLDS_ARRAY(cells) ? json_node_get_array(cells) : NULL;
	if (!s->cells) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: no \"cells\"", path);
		return NULL;
	}
	if (!shard_numbers(s, path, error))
		return NULL;
	if (json_object_get_boolean_member_with_default(s->o, "interrupted", FALSE)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: shard %u of %u was interrupted: run its command again "
			    "to finish it", dir, s->index, s->count);
		return NULL;
	}
	return g_steal_pointer(&s);
}

/* A member as compact JSON, cut short for a message. */
static char *member_text(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);
	g_autofree char *text = n ? json_to_string(n, FALSE) : g_strdup("(none)");

	if (strlen(text) > 160)
		return g_strdup_printf("%.150s...", text);
	return g_steal_pointer(&text);
}

/* The first member of two "build" objects whose text differs, or NULL. */
static const char *identity_differs(JsonObject *a, JsonObject *b)
{
	JsonNode *na = json_object_get_member(a, "build");
	JsonNode *nb = json_object_get_member(b, "build");
	g_autoptr(GList) names = NULL;

	if (!na || !nb || !JSON_NODE_HOLDS_OBJECT(na) || !JSON_NODE_HOLDS_OBJECT(nb))
		return na && nb && json_node_equal(na, nb) ? NULL : "build";
	if (json_node_equal(na, nb))
		return NULL;
	names = json_object_get_members(json_node_get_object(na));
	for (GList *l = names; l; l = l->next) {
		JsonNode *x = json_object_get_member(json_node_get_object(na), l->data);
		JsonNode *y = json_object_get_member(json_node_get_object(nb), l->data);

		if (!y || !json_node_equal(x, y))
			return l->data;
	}
	return "build";	/* b has a file a lacks */
}

/* Are a and b shards of one matrix? The error says how they differ. */
static gboolean check_alike(const Shard *a, const Shard *b, GError **error)
{
	static const struct {
		const char *member, *what;
	} same[] = {
		{ "scenario_sha256", "a different scenario (its text's SHA-256)" },
		{ "vary", "a different --vary" },
		{ "set", "a different --set" },
		{ "run_options", "different run options (after '--')" },
	};
	const char *file;

	for (gsize i = 0; i < G_N_ELEMENTS(same); i++) {
		JsonNode *x = json_object_get_member(a->o, same[i].member);
		JsonNode *y = json_object_get_member(b->o, same[i].member);

		if (x && y && json_node_equal(x, y))
			continue;
		g_autofree char *tx = member_text(a->o, same[i].member);
		g_autofree char *ty = member_text(b->o, same[i].member);

		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s and %s are not shards of one matrix: %s (%s against %s)",
			    a->dir, b->dir, same[i].what, tx, ty);
		return FALSE;
	}
	if ((file = identity_differs(a->o, b->o))) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s and %s are not shards of one matrix: different builds, "
			    "their %s differ (\"build\" in their matrix.json); build the "
			    "same sources on every machine, or run the shards again",
			    a->dir, b->dir, file);
		return FALSE;
	}
	if (a->count != b->count) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s is shard %u of %u, %s shard %u of %u: a different N "
			    "cuts the cells differently", a->dir, a->index, a->count,
			    b->dir, b->index, b->count);
		return FALSE;
	}
	if (a->index == b->index) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s and %s are both shard %u of %u: give each shard once",
			    a->dir, b->dir, a->index, a->count);
		return FALSE;
	}
	return TRUE;
}

/* The plan of the whole matrix, from a shard's matrix.json, into out. */
static IrqstormMatrixPlan *whole_plan(const Shard *s, const char *out, GError **error)
{
	g_autoptr(IrqstormMatrixPlan) plan = g_new0(IrqstormMatrixPlan, 1);
	JsonNode *vn = json_object_get_member(s->o, "vary");
	JsonArray *vary = vn && JSON_NODE_HOLDS_ARRAY(vn) ? json_node_get_array(vn) : NULL;
	g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func(g_free);

	plan->scenario = g_strdup(json_object_get_string_member_with_default(s->o, "scenario",
									      ""));
	plan->scenario_sha256 = g_strdup(json_object_get_string_member_with_default(
		s->o, "scenario_sha256", ""));
	plan->sets = irqstorm_matrix_json_strv(s->o, "set");
	plan->passthrough = irqstorm_matrix_json_strv(s->o, "run_options");
	plan->identity = json_node_copy(json_object_get_member(s->o, "build"));
	plan->out = g_strdup(out);
	plan->jobs = 1;
	for (guint i = 0; vary && i < json_array_get_length(vary); i++) {
		JsonObject *v = json_array_get_object_element(vary, i);
		g_auto(GStrv) values = v ? irqstorm_matrix_json_strv(v, "values") : NULL;
		g_autofree char *list = values ? g_strjoinv(",", values) : NULL;
		const char *key = v ? json_object_get_string_member_with_default(v, "key", "") : "";

		g_ptr_array_add(specs, g_strconcat(key, "=", list, NULL));
	}
	g_ptr_array_add(specs, NULL);
	plan->varies = irqstorm_matrix_parse_vary((const char *const *)specs->pdata, error);
	if (!plan->varies || !(plan->cells = irqstorm_matrix_cells(plan->varies, error)))
		return NULL;
	return g_steal_pointer(&plan);
}

/* The cells of every shard are the plan's, by name and in order. */
static gboolean check_cells(GPtrArray *shards, GPtrArray *cells, GError **error)
{
	for (guint k = 0; k < shards->len; k++) {
		const Shard *s = shards->pdata[k];
		gboolean same = json_array_get_length(s->cells) == cells->len;

		for (guint c = 0; same && c < cells->len; c++) {
			JsonObject *o = json_array_get_object_element(s->cells, c);

			same = o && !g_strcmp0(json_object_get_string_member_with_default(o, "dir",
											    NULL),
					       ((IrqstormCell *)cells->pdata[c])->name);
		}
		if (!same) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
				    "%s/%s: its cells are not those of its --vary",
				    s->dir, IRQSTORM_MATRIX_FILE);
			return FALSE;
		}
	}
	return TRUE;
}

/* A cell's status in a shard's matrix.json. */
static const char *cell_status(const Shard *s, guint c)
{
	JsonObject *o = json_array_get_object_element(s->cells, c);

	return json_object_get_string_member_with_default(o, "status", "");
}

/*
 * The shard that ran each cell (the rule of matrix.h), or an error that
 * names the missing cells: of a shard not given, or not run in its DIR.
 */
static Shard **owners(GPtrArray *shards, GPtrArray *cells, GError **error)
{
	guint n = ((Shard *)shards->pdata[0])->count;
	g_autofree Shard **by_index = g_new0(Shard *, n + 1);
	g_autofree Shard **owner = g_new0(Shard *, cells->len);
	g_autoptr(GString) missing = g_string_new(NULL);
	guint nmissing = 0;

	for (guint k = 0; k < shards->len; k++)
		by_index[((Shard *)shards->pdata[k])->index] = shards->pdata[k];
	for (guint c = 0; c < cells->len; c++) {
		guint i = irqstorm_matrix_shard_of(c, n);
		Shard *s = by_index[i];
		const char *name = ((IrqstormCell *)cells->pdata[c])->name;
		const char *status = s ? cell_status(s, c) : NULL;

		if (s && (!strcmp(status, "ran") || !strcmp(status, "skipped") ||
			  !strcmp(status, "not started"))) {
			owner[c] = s;
			continue;
		}
		g_string_append_printf(missing, "\n  %s: shard %u of %u, %s", name, i, n,
				       s ? "not run in " : "not given");
		if (s)
			g_string_append(missing, s->dir);
		nmissing++;
	}
	if (nmissing) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%u of the matrix's %u cells are missing:%s", nmissing,
			    cells->len, missing->str);
		return NULL;
	}
	return g_steal_pointer(&owner);
}

/* A file: hard-linked, or copied where a link cannot be (another file
 * system); a symbolic link as one. */
static gboolean copy_file(const char *src, const char *dst, GError **error)
{
	g_autoptr(GFile) from = NULL, to = NULL;

	if (g_file_test(src, G_FILE_TEST_IS_SYMLINK) || link(src, dst) < 0) {
		from = g_file_new_for_path(src);
		to = g_file_new_for_path(dst);
		return g_file_copy(from, to, G_FILE_COPY_NOFOLLOW_SYMLINKS |
				   G_FILE_COPY_ALL_METADATA, NULL, NULL, NULL, error);
	}
	return TRUE;
}

/* dst, created, gets everything under src. */
static gboolean copy_tree(const char *src, const char *dst, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(src, 0, error);
	const char *name;

	if (!d)
		return FALSE;
	if (g_mkdir(dst, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", dst, g_strerror(errno));
		return FALSE;
	}
	while ((name = g_dir_read_name(d))) {
		g_autofree char *from = g_build_filename(src, name, NULL);
		g_autofree char *to = g_build_filename(dst, name, NULL);
		gboolean dir = g_file_test(from, G_FILE_TEST_IS_DIR) &&
			       !g_file_test(from, G_FILE_TEST_IS_SYMLINK);

		if (!(dir ? copy_tree(from, to, error) : copy_file(from, to, error)))
			return FALSE;
	}
	return TRUE;
}

/* OUT: new, or empty, and none of the shards. */
static gboolean make_out(const char *out, GPtrArray *shards, GError **error)
{
	g_autoptr(GDir) d = NULL;

	for (guint k = 0; k < shards->len; k++) {
		const Shard *s = shards->pdata[k];
		g_autofree char *a = g_canonicalize_filename(out, NULL);
		g_autofree char *b = g_canonicalize_filename(s->dir, NULL);

		if (!strcmp(a, b)) {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
				    "OUT %s is one of the shards: merge into a new directory", out);
			return FALSE;
		}
	}
	if (g_mkdir_with_parents(out, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", out, g_strerror(errno));
		return FALSE;
	}
	d = g_dir_open(out, 0, error);
	if (d && g_dir_read_name(d)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s is not empty: merge into a new directory", out);
		return FALSE;
	}
	return d != NULL;
}

/* Each cell's directory from the shard that ran it into OUT, and its
 * state from that shard's matrix.json. */
static gboolean gather_cells(IrqstormMatrixRun *m, Shard **owner, GError **error)
{
	for (guint c = 0; c < m->n; c++) {
		IrqstormCellRun *r = &m->runs[c];
		g_autofree char *src = g_build_filename(owner[c]->dir, r->cell->name, NULL);
		JsonObject *cell = json_array_get_object_element(owner[c]->cells, c);

		if (g_file_test(src, G_FILE_TEST_IS_DIR) && !copy_tree(src, r->dir, error))
			return FALSE;
		if (!irqstorm_matrix_cell_restore(r, cell, error)) {
			g_prefix_error(error, "%s/%s: ", owner[c]->dir, IRQSTORM_MATRIX_FILE);
			return FALSE;
		}
	}
	return TRUE;
}

/* Every DIR's matrix.json, checked against the first's. */
static GPtrArray *load_shards(char **dirs, GError **error)
{
	g_autoptr(GPtrArray) shards = g_ptr_array_new_with_free_func((GDestroyNotify)shard_free);

	for (gsize i = 0; dirs[i]; i++) {
		Shard *s = shard_load(dirs[i], error);

		if (!s)
			return NULL;
		g_ptr_array_add(shards, s);
		for (guint k = 0; k + 1 < shards->len; k++)
			if (!check_alike(shards->pdata[k], s, error))
				return NULL;
	}
	return g_steal_pointer(&shards);
}

/* The shards put together in out; the whole matrix's exit status. */
static int merge(const char *out, char **dirs)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(GPtrArray) shards = load_shards(dirs, &err);
	g_autoptr(IrqstormMatrixPlan) plan = NULL;
	g_autoptr(IrqstormMatrixRun) m = NULL;
	g_autofree Shard **owner = NULL;
	int code;

	if (!shards || !(plan = whole_plan(shards->pdata[0], out, &err)) ||
	    !check_cells(shards, plan->cells, &err) ||
	    !(owner = owners(shards, plan->cells, &err)) || !make_out(out, shards, &err))
		return irqstorm_cmd_fail("%s", err->message);
	m = irqstorm_matrix_run_new(plan);
	if (!gather_cells(m, owner, &err) || !irqstorm_matrix_write_json(m, &err))
		return irqstorm_cmd_fail("%s", err->message);
	printf("irqstorm: %u shard%s of %u, %u cells, merged into %s\n", shards->len,
	       shards->len == 1 ? "" : "s", ((Shard *)shards->pdata[0])->count, m->n, out);
	code = irqstorm_matrix_run_exit_code(m);
	irqstorm_matrix_report(m);
	if (irqstorm_matrix_is_seed_sweep(plan->varies) && !irqstorm_matrix_write_merged(m, &err))
		code = irqstorm_cmd_fail("%s", err->message);
	return code;
}

int irqstorm_cmd_merge(int argc, char **argv)
{
	const GOptionEntry entries[] = { { NULL } };
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"OUT DIR... - put the shards of a matrix together", entries,
		merge_description);

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc < 3)
		return irqstorm_usage_error(ctx, "merge needs OUT and at least one shard DIR");
	return merge(argv[1], argv + 2);
}
