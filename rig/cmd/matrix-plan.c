// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix, the plan: the varies of the command line made into
 * cells, each checked before anything runs. See matrix.h.
 */
#include "matrix.h"

#include <errno.h>
#include <string.h>

#include "config.h"
#include "irqstorm/identity.h"
#include "core/fail.h"
#include "core/guest-build.h"
#include "core/scenario.h"

void irqstorm_vary_free(IrqstormVary *v)
{
	if (!v)
		return;
	g_free(v->key);
	g_free(v->name);
	g_strfreev(v->values);
	g_free(v);
}

void irqstorm_cell_free(IrqstormCell *c)
{
	if (!c)
		return;
	g_free(c->name);
	g_strfreev(c->values);
	g_strfreev(c->sets);
	g_free(c);
}

/* A bad --vary: "--vary 'SPEC': ...", FALSE. */
#define bad_vary(error, spec, fmt, ...)					\
	irqstorm_fail(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,	\
		      "--vary '%s': " fmt, spec, ##__VA_ARGS__)

/* A decimal integer without sign or blanks, into *v. */
static gboolean range_end(const char *s, guint64 *v)
{
	return *s && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, v, NULL);
}

/* The item A..B as the values A, A+1, ..., B, appended to values. */
static gboolean expand_range(const char *spec, const char *item, guint n,
			     GPtrArray *values, GError **error)
{
	const char *dots = strstr(item, "..");
	g_autofree char *a_text = g_strndup(item, dots - item);
	guint64 a, b;

	if (!range_end(a_text, &a) || !range_end(dots + 2, &b))
		return bad_vary(error, spec, "item %u, '%s', is not a range A..B of "
				"integers (e.g. 1..100)", n, item);
	if (b < a)
		return bad_vary(error, spec, "item %u, '%s': the range ends before it "
				"starts (A..B needs A <= B)", n, item);
	if (b - a >= IRQSTORM_MATRIX_MAX_RANGE)
		return bad_vary(error, spec, "item %u, '%s': %" G_GUINT64_FORMAT
				" values, more than the %u a range may have (one cell "
				"each): split the sweep into several matrices", n, item,
				b - a == G_MAXUINT64 ? b - a : b - a + 1,
				IRQSTORM_MATRIX_MAX_RANGE);
	for (guint64 v = a;; v++) {
		g_ptr_array_add(values, g_strdup_printf("%" G_GUINT64_FORMAT, v));
		if (v == b)
			return TRUE;
	}
}

/* An item meant as a range A..B: it has "..", and begins as a number
 * does (so that a path such as a/../b is a value). */
static gboolean is_range(const char *item)
{
	return strstr(item, "..") && (g_ascii_isdigit(item[0]) || strchr("+-.", item[0]));
}

/* The comma-separated list, its ranges expanded: a GStrv, or NULL. */
static char **expand_values(const char *spec, const char *list, GError **error)
{
	g_auto(GStrv) items = g_strsplit(list, ",", -1);
	g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; items[i]; i++) {
		if (!*items[i]) {
			bad_vary(error, spec, "empty value (item %u of the list)", i + 1);
			return NULL;
		}
		if (!is_range(items[i]))
			g_ptr_array_add(values, g_strdup(items[i]));
		else if (!expand_range(spec, items[i], i + 1, values, error))
			return NULL;
	}
	g_ptr_array_add(values, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&values), FALSE);
}

/* One --vary; NULL with an error when it is malformed. */
static IrqstormVary *parse_one(const char *spec, GError **error)
{
	const char *eq = strchr(spec, '=');
	g_autofree char *key = NULL;
	g_auto(GStrv) values = NULL;
	const char *dot;
	IrqstormVary *v;

	if (!eq) {
		bad_vary(error, spec, "expected GROUP.KEY=VALUE1,VALUE2,... (no '=')");
		return NULL;
	}
	key = g_strndup(spec, eq - spec);
	dot = strchr(key, '.');
	if (!dot || dot == key || !dot[1] || strchr(dot + 1, '.')) {
		bad_vary(error, spec, "'%s' is not GROUP.KEY (e.g. channel0.rate)", key);
		return NULL;
	}
	if (!eq[1]) {
		bad_vary(error, spec, "empty list of values");
		return NULL;
	}
	values = expand_values(spec, eq + 1, error);
	if (!values)
		return NULL;
	for (guint i = 0; values[i]; i++) {
		for (guint j = 0; j < i; j++) {
			if (!strcmp(values[i], values[j])) {
				bad_vary(error, spec, "value '%s' is listed twice", values[i]);
				return NULL;
			}
		}
	}
	v = g_new0(IrqstormVary, 1);
	v->key = g_steal_pointer(&key);
	v->values = g_steal_pointer(&values);
	return v;
}

GPtrArray *irqstorm_matrix_parse_vary(const char *const *specs, GError **error)
{
	g_autoptr(GPtrArray) varies = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_vary_free);

	for (gsize i = 0; specs && specs[i]; i++) {
		IrqstormVary *v = parse_one(specs[i], error);

		if (!v)
			return NULL;
		for (guint j = 0; j < varies->len; j++) {
			const IrqstormVary *o = varies->pdata[j];

			if (!strcmp(o->key, v->key)) {
				bad_vary(error, specs[i], "%s is varied twice: give all its "
					 "values in one --vary", v->key);
				irqstorm_vary_free(v);
				return NULL;
			}
		}
		g_ptr_array_add(varies, v);
	}
	if (!varies->len) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "no --vary: give at least one GROUP.KEY=VALUE1,VALUE2,...");
		return NULL;
	}
	/* Drop the group from the names when the key alone is unambiguous. */
	for (guint i = 0; i < varies->len; i++) {
		IrqstormVary *v = varies->pdata[i];
		const char *k = strchr(v->key, '.') + 1;
		gboolean unique = TRUE;

		for (guint j = 0; j < varies->len && unique; j++) {
			const IrqstormVary *o = varies->pdata[j];

			unique = j == i || strcmp(strchr(o->key, '.') + 1, k);
		}
		v->name = g_strdup(unique ? k : v->key);
	}
	return g_steal_pointer(&varies);
}

char *irqstorm_matrix_safe_name(const char *s)
{
	char *r = g_strdup(s);

	for (char *c = r; *c; c++)
		if (!g_ascii_isalnum(*c) && !strchr("._+=-", *c))
			*c = '_';
	return r;
}

GPtrArray *irqstorm_matrix_cells(GPtrArray *varies, GError **error)
{
	g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_cell_free);
	g_autofree guint *idx = g_new0(guint, varies->len);
	g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);

	for (;;) {
		IrqstormCell *c = g_new0(IrqstormCell, 1);
		GString *name = g_string_new(NULL);
		int k;

		c->values = g_new0(char *, varies->len + 1);
		c->sets = g_new0(char *, varies->len + 1);
		for (guint i = 0; i < varies->len; i++) {
			const IrqstormVary *v = varies->pdata[i];
			g_autofree char *safe = irqstorm_matrix_safe_name(v->values[idx[i]]);

			c->values[i] = g_strdup(v->values[idx[i]]);
			c->sets[i] = g_strconcat(v->key, "=", v->values[idx[i]], NULL);
			g_string_append_printf(name, "%s%s=%s", i ? "," : "", v->name, safe);
		}
		c->name = g_string_free(name, FALSE);
		g_ptr_array_add(cells, c);
		if (g_hash_table_contains(names, c->name)) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "two cells would share the directory '%s': values "
				    "differing only in characters outside [A-Za-z0-9._+=-]",
				    c->name);
			return NULL;
		}
		g_hash_table_add(names, c->name);

		/* The next combination: an odometer, the last vary fastest. */
		for (k = (int)varies->len - 1; k >= 0; k--) {
			const IrqstormVary *v = varies->pdata[k];

			if (v->values[++idx[k]])
				break;
			idx[k] = 0;
		}
		if (k < 0)
			break;
	}
	return g_steal_pointer(&cells);
}

/* The value of option name (--name X or --name=X) among opts, or dflt. */
static const char *option_value(char **opts, const char *name, const char *dflt)
{
	gsize len = strlen(name);
	const char *v = dflt;

	for (gsize i = 0; opts && opts[i]; i++) {
		if (!strcmp(opts[i], name) && opts[i + 1])
			v = opts[i + 1];
		else if (!strncmp(opts[i], name, len) && opts[i][len] == '=')
			v = opts[i] + len + 1;
	}
	return v;
}

/* Do the cells take their guest parts from the build directory (and so
 * get them built on first use)? Not with a directory option after "--", nor
 * when another irqstorm runs the cells: it builds what it needs. */
static gboolean own_parts(char **passthrough)
{
	const char *env = g_getenv("IRQSTORM_RUN_BINARY");

	return !(env && *env) &&
	       !option_value(passthrough, "--qemu-dir", NULL) &&
	       !option_value(passthrough, "--kernel-dir", NULL) &&
	       !option_value(passthrough, "--initrd-dir", NULL);
}

/* Add sc's kernel to build when its parts are missing, or when it is
 * built from a user's tree (checked, and built again where it changed). */
static void note_missing(GPtrArray *build, const IrqstormScenario *sc)
{
	const IrqstormRunSettings set = {
		.scenario = sc, .qemu_dir = IRQSTORM_QEMU_DIR,
		.kernel_dir = IRQSTORM_KERNEL_DIR, .initrd_dir = IRQSTORM_INITRD_DIR,
	};
	g_autofree char *missing = irqstorm_guest_missing(&set);
	g_autofree char *k = irqstorm_scenario_kernel_name(sc);
	const char *tree = irqstorm_scenario_kernel_tree(sc);
	g_autofree char *spec = tree ? g_strdup_printf("%s=%s", k, tree) : g_strdup(k);

	if ((missing || tree) &&
	    !g_ptr_array_find_with_equal_func(build, spec, g_str_equal, NULL))
		g_ptr_array_insert(build, build->len - 1, g_strdup(spec));
}

/* Every cell's scenario must load, so that a typo fails now and not after
 * hours of the cells before it. Its --set and --vary values are applied as
 * `irqstorm run` applies them, and then checked together. */
static gboolean validate_cells(const char *scenario, char **sets, GPtrArray *cells,
			       GPtrArray *build, GPtrArray *flavours, GError **error)
{
	for (guint c = 0; c < cells->len; c++) {
		const IrqstormCell *cell = cells->pdata[c];
		g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load(scenario, error);
		g_autofree char *where = g_strdup_printf("cell %s: --set", cell->name);
		g_autofree char *k = NULL;

		if (!sc)
			return FALSE;
		for (gsize i = 0; sets && sets[i]; i++)
			if (!irqstorm_scenario_override(sc, sets[i], "--set", error))
				return FALSE;
		for (gsize i = 0; cell->sets[i]; i++)
			if (!irqstorm_scenario_override(sc, cell->sets[i], where, error))
				return FALSE;
		if (!irqstorm_scenario_check(sc, where, error))
			return FALSE;
		if (build)
			note_missing(build, sc);
		k = irqstorm_scenario_kernel_name(sc);
		if (!g_ptr_array_find_with_equal_func(flavours, k, g_str_equal, NULL))
			g_ptr_array_add(flavours, g_strdup(k));
	}
	return TRUE;
}

void irqstorm_matrix_plan_free(IrqstormMatrixPlan *plan)
{
	if (!plan)
		return;
	g_free(plan->scenario);
	g_free(plan->out);
	g_strfreev(plan->sets);
	g_strfreev(plan->passthrough);
	g_strfreev(plan->channels);
	if (plan->varies)
		g_ptr_array_unref(plan->varies);
	if (plan->cells)
		g_ptr_array_unref(plan->cells);
	g_free(plan->binary);
	if (plan->build)
		g_ptr_array_unref(plan->build);
	g_free(plan->scenario_sha256);
	if (plan->flavours)
		g_ptr_array_unref(plan->flavours);
	if (plan->identity)
		json_node_unref(plan->identity);
	g_free(plan);
}

/* The irqstorm that runs the cells: $IRQSTORM_RUN_BINARY, or this one. */
static char *find_binary(GError **error)
{
	const char *env = g_getenv("IRQSTORM_RUN_BINARY");
	g_autoptr(GError) err = NULL;
	char *self;

	if (env && *env)
		return g_strdup(env);
	self = g_file_read_link("/proc/self/exe", &err);
	if (!self)
		g_set_error(error, err->domain, err->code,
			    "cannot find my own executable: %s", err->message);
	return self;
}

/* The SHA-256 of the scenario file's text: what shards must agree on. */
static char *scenario_sha256(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize len;

	if (!g_file_get_contents(path, &text, &len, error))
		return NULL;
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
}

gboolean irqstorm_matrix_plan(IrqstormMatrixPlan *plan, GError **error)
{
	if (own_parts(plan->passthrough)) {
		plan->build = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(plan->build, NULL);
	}
	plan->flavours = g_ptr_array_new_with_free_func(g_free);
	plan->cells = irqstorm_matrix_cells(plan->varies, error);
	if (!plan->cells ||
	    !validate_cells(plan->scenario, plan->sets, plan->cells, plan->build,
			    plan->flavours, error))
		return FALSE;
	plan->scenario_sha256 = scenario_sha256(plan->scenario, error);
	if (!plan->scenario_sha256)
		return FALSE;
	plan->binary = find_binary(error);
	if (!plan->binary)
		return FALSE;
	if (g_mkdir_with_parents(plan->out, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", plan->out, g_strerror(errno));
		return FALSE;
	}
	return irqstorm_matrix_check_same(plan, error);
}

/* Member file of identity: the text of dir/file, or null. */
static void add_identity_file(JsonObject *identity, const char *dir, const char *file)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autofree char *text = NULL;

	if (g_file_get_contents(path, &text, NULL, NULL))
		json_object_set_string_member(identity, file, text);
	else
		json_object_set_null_member(identity, file);
}

void irqstorm_matrix_read_identity(IrqstormMatrixPlan *plan)
{
	const char *qemu = option_value(plan->passthrough, "--qemu-dir", IRQSTORM_QEMU_DIR);
	const char *kernel = option_value(plan->passthrough, "--kernel-dir",
					  IRQSTORM_KERNEL_DIR);
	const char *initrd = option_value(plan->passthrough, "--initrd-dir",
					  IRQSTORM_INITRD_DIR);
	JsonObject *identity = json_object_new();

	add_identity_file(identity, qemu, IRQSTORM_QEMU_IDENTITY_FILE);
	for (guint i = 0; i < plan->flavours->len; i++) {
		g_autofree char *file = g_strdup_printf(IRQSTORM_KERNEL_IDENTITY_FILE_FMT,
							(char *)plan->flavours->pdata[i]);

		g_autofree char *ifile = g_strdup_printf(IRQSTORM_INITRAMFS_IDENTITY_FILE_FMT,
							 (char *)plan->flavours->pdata[i]);

		add_identity_file(identity, kernel, file);
		add_identity_file(identity, initrd, ifile);
	}
	if (plan->identity)
		json_node_unref(plan->identity);
	plan->identity = json_node_init_object(json_node_alloc(), identity);
	json_object_unref(identity);
}

gboolean irqstorm_matrix_is_seed_sweep(GPtrArray *varies)
{
	for (guint i = 0; i < varies->len; i++) {
		const IrqstormVary *v = varies->pdata[i];

		if (strcmp(strchr(v->key, '.') + 1, "seed"))
			return FALSE;
	}
	return varies->len > 0;
}

guint irqstorm_matrix_shard_of(guint c, guint n)
{
	return c % n + 1;
}

gboolean irqstorm_matrix_parse_shard(const char *s, guint *index, guint *count,
				     GError **error)
{
	g_auto(GStrv) parts = g_strsplit(s, "/", -1);
	guint64 i, n;

	if (g_strv_length(parts) != 2 ||
	    !g_ascii_string_to_unsigned(parts[0], 10, 0, G_MAXUINT, &i, NULL) ||
	    !g_ascii_string_to_unsigned(parts[1], 10, 1, IRQSTORM_MATRIX_MAX_SHARDS, &n,
					NULL)) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--shard '%s': expected I/N, this shard's number I of N shards, "
			    "1 <= I <= N <= %u (e.g. --shard 1/4)", s,
			    IRQSTORM_MATRIX_MAX_SHARDS);
		return FALSE;
	}
	if (i < 1 || i > n) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--shard '%s': shard %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
			    " does not exist: shards are numbered from 1 to N (a 0-based "
			    "index such as $SLURM_ARRAY_TASK_ID needs +1)", s, i, n);
		return FALSE;
	}
	*index = (guint)i;
	*count = (guint)n;
	return TRUE;
}
