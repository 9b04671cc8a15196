// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix, the report: OUT/matrix.json (written before the cells
 * run and again after), the table of how each cell ended, the tool
 * failures. See matrix.h.
 */
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "compare.h"
#include "core/json-build.h"
#include "core/output.h"

#define MATRIX_FILE IRQSTORM_MATRIX_FILE

/* The statistics matrix.json keeps of every stage, and the table shows. */
static const IrqstormStat json_stats[] = {
	IRQSTORM_STAT_P50, IRQSTORM_STAT_P99, IRQSTORM_STAT_MAX,
};
static const IrqstormStat table_stats[] = { IRQSTORM_STAT_P99, IRQSTORM_STAT_MAX };

/* ---- matrix.json ------------------------------------------------------ */

static const char *state_name(const IrqstormCellRun *r)
{
	switch (r->state) {
	case IRQSTORM_CELL_SKIPPED:
		return "skipped";
	case IRQSTORM_CELL_RUNNING:
		return "running";
	case IRQSTORM_CELL_FINISHED:
		return r->code < 0 && !r->child.pid ? "not started" : "ran";
	case IRQSTORM_CELL_OTHER_SHARD:
		return "other shard";
	case IRQSTORM_CELL_PENDING:
	default:
		return "not run";
	}
}

/* The signal that killed a cell that ran, or 0. */
static int cell_signal(const IrqstormCellRun *r)
{
	if (r->state != IRQSTORM_CELL_FINISHED || r->code >= 0 || !r->child.pid ||
	    !WIFSIGNALED(r->child.wait_status))
		return 0;
	return WTERMSIG(r->child.wait_status);
}

/* Per stage of stages (of IrqstormStageStats), the json_stats in ns
 * (null: none). */
static void add_stage_stats(JsonBuilder *b, const GPtrArray *stages)
{
	json_builder_set_member_name(b, "stages");
	json_builder_begin_object(b);
	for (guint i = 0; stages && i < stages->len; i++) {
		const IrqstormStageStats *st = stages->pdata[i];

		json_builder_set_member_name(b, st->name);
		json_builder_begin_object(b);
		for (gsize k = 0; k < G_N_ELEMENTS(json_stats); k++)
			irqstorm_json_add_rounded(b, irqstorm_stat_key(json_stats[k]),
						  st->cycles ? st->v[json_stats[k]] : NAN);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

/* The cell's stages, pooled, and each channel's ("channels": {"0": {
 * "name", "stages"}}), as its summary.json has them. */
static void add_cell_stages(JsonBuilder *b, const IrqstormSummary *s)
{
	add_stage_stats(b, s ? s->stages : NULL);
	json_builder_set_member_name(b, IRQSTORM_KEY_CHANNELS);
	json_builder_begin_object(b);
	for (guint i = 0; s && i < s->channels->len; i++) {
		const IrqstormChannelStats *c = s->channels->pdata[i];
		char key[12];

		g_snprintf(key, sizeof(key), "%d", c->index);
		json_builder_set_member_name(b, key);
		json_builder_begin_object(b);
		irqstorm_json_add_string(b, IRQSTORM_KEY_CHANNEL_NAME, c->name);
		add_stage_stats(b, c->stages);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

static void add_cell(JsonBuilder *b, const IrqstormCellRun *r, GPtrArray *varies)
{
	gboolean exited = r->state == IRQSTORM_CELL_SKIPPED ||
			  (r->state == IRQSTORM_CELL_FINISHED && r->code >= 0);

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "dir", r->cell->name);
	json_builder_set_member_name(b, "values");
	json_builder_begin_object(b);
	for (guint i = 0; i < varies->len; i++)
		irqstorm_json_add_string(b, ((IrqstormVary *)varies->pdata[i])->key,
					 r->cell->values[i]);
	json_builder_end_object(b);
	irqstorm_json_add_string(b, "status", state_name(r));
	irqstorm_json_add_rounded(b, "exit_status", exited ? r->code : NAN);
	irqstorm_json_add_rounded(b, "signal", cell_signal(r) ? cell_signal(r) : NAN);
	irqstorm_json_add_bool(b, "complete", r->summary && r->summary->complete);
	irqstorm_json_add_string(b, "ended", irqstorm_cell_end_name(r->end));
	irqstorm_json_add_bool(b, "outcome", irqstorm_cell_end_is_outcome(r->end));
	irqstorm_json_add_string(b, "reason", r->why);
	add_cell_stages(b, r->summary);
	json_builder_end_object(b);
}

static JsonNode *matrix_json(const IrqstormMatrixRun *m)
{
	const IrqstormMatrixPlan *plan = m->plan;
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "format", IRQSTORM_MATRIX_FORMAT);
	irqstorm_json_add_string(b, "scenario", plan->scenario);
	irqstorm_json_add_string(b, "scenario_sha256", plan->scenario_sha256);
	json_builder_set_member_name(b, "build");
	if (plan->identity)
		json_builder_add_value(b, json_node_copy(plan->identity));
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "shard");
	if (plan->shards) {
		json_builder_begin_object(b);
		irqstorm_json_add_int(b, "index", plan->shard);
		irqstorm_json_add_int(b, "count", plan->shards);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	irqstorm_json_add_strv(b, "set", (const char *const *)plan->sets);
	irqstorm_json_add_strv(b, "run_options", (const char *const *)plan->passthrough);
	json_builder_set_member_name(b, "vary");
	json_builder_begin_array(b);
	for (guint i = 0; i < plan->varies->len; i++) {
		const IrqstormVary *v = plan->varies->pdata[i];

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "key", v->key);
		irqstorm_json_add_strv(b, "values", (const char *const *)v->values);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	irqstorm_json_add_bool(b, "interrupted", m->interrupted);
	json_builder_set_member_name(b, "cells");
	json_builder_begin_array(b);
	for (guint c = 0; c < m->n; c++)
		add_cell(b, &m->runs[c], plan->varies);
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gboolean irqstorm_matrix_write_json(const IrqstormMatrixRun *m, GError **error)
{
	g_autofree char *path = g_build_filename(m->plan->out, MATRIX_FILE, NULL);
	g_autoptr(JsonNode) root = matrix_json(m);

	return irqstorm_write_json_file(path, root, error);
}

char **irqstorm_matrix_json_strv(JsonObject *o, const char *name)
{
	JsonNode *n = json_object_get_member(o, name);
	GPtrArray *a;
	JsonArray *arr;

	if (!n || !JSON_NODE_HOLDS_ARRAY(n))
		return NULL;
	arr = json_node_get_array(n);
	a = g_ptr_array_new();
	for (guint i = 0; i < json_array_get_length(arr); i++) {
		const char *s = json_array_get_string_element(arr, i);

		g_ptr_array_add(a, g_strdup(s ? s : ""));
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

static gboolean strv_same(char **a, char **b)
{
	static char *empty[] = { NULL };

	return g_strv_equal((const char *const *)(a ? a : empty),
			    (const char *const *)(b ? b : empty));
}

/* Is the matrix of o (a matrix.json) the same shard as plan's? A file
 * written before shards existed has no "shard": the whole matrix. */
static gboolean shard_same(JsonObject *o, const IrqstormMatrixPlan *plan)
{
	JsonNode *n = json_object_get_member(o, "shard");
	JsonObject *shard = n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;

	if (!shard)
		return !plan->shards;
	return json_object_get_int_member_with_default(shard, "index", 0) == plan->shard &&
	       json_object_get_int_member_with_default(shard, "count", 0) == plan->shards;
}

gboolean irqstorm_matrix_check_same(const IrqstormMatrixPlan *plan, GError **error)
{
	g_autofree char *path = g_build_filename(plan->out, MATRIX_FILE, NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) sets = NULL, opts = NULL;
	JsonNode *root;
	JsonObject *o;
	const char *scenario;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	if (!json_parser_load_from_file(parser, path, &err)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: %s (remove it, or choose another --out)", path, err->message);
		return FALSE;
	}
	root = json_parser_get_root(parser);
	o = root && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
	scenario = o ? json_object_get_string_member_with_default(o, "scenario", NULL) : NULL;
	sets = o ? irqstorm_matrix_json_strv(o, "set") : NULL;
	opts = o ? irqstorm_matrix_json_strv(o, "run_options") : NULL;
	if (!scenario || !sets || !opts) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "%s: not a matrix file (remove it, or choose another --out)", path);
		return FALSE;
	}
	if (!shard_same(o, plan)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s holds another shard of this matrix (or the whole of it): "
			    "give each shard its own --out", plan->out);
		return FALSE;
	}
	if (strcmp(scenario, plan->scenario) || !strv_same(sets, plan->sets) ||
	    !strv_same(opts, plan->passthrough)) {
		g_autofree char *was_sets = g_strjoinv(" ", sets);
		g_autofree char *was_opts = g_strjoinv(" ", opts);

		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
			    "%s holds a matrix of another invocation (scenario %s, "
			    "--set [%s], run options [%s]); its finished cells would "
			    "be taken for this one's: choose another --out, or remove "
			    "it to start over", plan->out, scenario, was_sets, was_opts);
		return FALSE;
	}
	return TRUE;
}

/* Which of OUT/matrix.json's recorded inputs differs from plan's: its
 * scenario's text or its build's identity files; NULL when none does. */
static const char *resume_differs(JsonObject *o, const IrqstormMatrixPlan *plan)
{
	const char *sha = json_object_get_string_member_with_default(o, "scenario_sha256", NULL);
	JsonNode *build = json_object_get_member(o, "build");

	if (sha && plan->scenario_sha256 && strcmp(sha, plan->scenario_sha256))
		return "the scenario file's text changed";
	if (build && !JSON_NODE_HOLDS_NULL(build) && plan->identity &&
	    !json_node_equal(build, plan->identity))
		return "the build changed (QEMU's or a kernel's identity file)";
	return NULL;
}

gboolean irqstorm_matrix_check_resume(const IrqstormMatrixPlan *plan, GError **error)
{
	g_autofree char *path = g_build_filename(plan->out, MATRIX_FILE, NULL);
	g_autoptr(JsonParser) parser = json_parser_new();
	JsonNode *root;
	const char *why;

	if (!g_file_test(path, G_FILE_TEST_EXISTS) ||
	    !json_parser_load_from_file(parser, path, NULL))
		return TRUE;	/* none, or refused already by check_same */
	root = json_parser_get_root(parser);
	if (!root || !JSON_NODE_HOLDS_OBJECT(root))
		return TRUE;
	why = resume_differs(json_node_get_object(root), plan);
	if (!why)
		return TRUE;
	g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
		    "%s holds cells of this matrix run before %s: resuming would mix "
		    "their results with new ones; choose another --out, or remove it "
		    "to start over", plan->out, why);
	return FALSE;
}

/* The state a matrix.json "status" names (not "other shard", not "not run"). */
static gboolean parse_state(const char *status, IrqstormCellState *state)
{
	if (!g_strcmp0(status, "skipped"))
		*state = IRQSTORM_CELL_SKIPPED;
	else if (!g_strcmp0(status, "ran") || !g_strcmp0(status, "not started"))
		*state = IRQSTORM_CELL_FINISHED;
	else
		return FALSE;
	return TRUE;
}

/* The IrqstormCellEnd that irqstorm_cell_end_name() calls name. */
static gboolean parse_end(const char *name, IrqstormCellEnd *end)
{
	for (int e = IRQSTORM_CELL_NOT_RUN; e <= IRQSTORM_CELL_INTERRUPTED; e++) {
		if (!g_strcmp0(name, irqstorm_cell_end_name(e))) {
			*end = e;
			return TRUE;
		}
	}
	return FALSE;
}

gboolean irqstorm_matrix_cell_restore(IrqstormCellRun *r, JsonObject *cell,
				      GError **error)
{
	const char *status = json_object_get_string_member_with_default(cell, "status", NULL);
	const char *ended = json_object_get_string_member_with_default(cell, "ended", NULL);
	const char *reason = json_object_get_string_member_with_default(cell, "reason", NULL);
	JsonNode *code = json_object_get_member(cell, "exit_status");

	if (!parse_state(status, &r->state) || !parse_end(ended, &r->end)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			    "cell %s: status '%s', ended '%s': not a cell that ran",
			    r->cell->name, status, ended);
		return FALSE;
	}
	r->code = code && JSON_NODE_HOLDS_VALUE(code) ? json_node_get_int(code) : -1;
	/* A cell that ran has had a child; one killed, the signal as its
	 * wait status. Nothing is ever sent to this pid: it is not running. */
	if (!strcmp(status, "ran")) {
		r->child.pid = 1;
		r->child.exited = TRUE;
		r->child.wait_status = (int)json_object_get_int_member_with_default(cell,
										      "signal", 0);
	}
	g_free(r->why);
	r->why = g_strdup(reason);
	irqstorm_summary_free(r->summary);
	r->summary = irqstorm_summary_load(r->dir, NULL);
	return TRUE;
}

/* ---- the table -------------------------------------------------------- */

static char *cell_exit_text(const IrqstormCellRun *r)
{
	const char *mark = r->summary && !r->summary->complete ? " INCOMPLETE" :
			   !r->summary ? " no summary" : "";

	switch (r->state) {
	case IRQSTORM_CELL_PENDING:
		return g_strdup("not run");
	case IRQSTORM_CELL_RUNNING:
		return g_strdup("running");
	case IRQSTORM_CELL_SKIPPED:
	case IRQSTORM_CELL_FINISHED:
	default:
		if (r->code >= 0)
			return g_strdup_printf("%d%s", r->code, mark);
		if (!r->child.pid)
			return g_strdup("not started");
		if (WIFSIGNALED(r->child.wait_status))
			return g_strdup_printf("killed (%s)", strsignal(WTERMSIG(r->child.wait_status)));
		return g_strdup("?");
	}
}

static char *us_text(const IrqstormStageStats *st, IrqstormStat s)
{
	if (!st || !st->cycles || isnan(st->v[s]))
		return g_strdup("-");
	return g_strdup_printf("%.3f", st->v[s] / 1e3);
}

/*
 * The table's column groups (CompareBlock, cmd/compare.h): every stage
 * any cell has, per channel when the cells have several (each group
 * titled with its channel: a pooled number would hide one channel's
 * latency under the other's), the probe once.
 */
static GPtrArray *matrix_blocks(const IrqstormMatrixRun *m)
{
	g_autoptr(GPtrArray) summaries = g_ptr_array_new();
	g_autoptr(GArray) channels = NULL;
	g_autoptr(GError) err = NULL;

	for (guint c = 0; c < m->n; c++)
		if (m->runs[c].summary)
			g_ptr_array_add(summaries, m->runs[c].summary);
	channels = irqstorm_summaries_channels((IrqstormSummary *const *)summaries->pdata,
					       summaries->len,
					       (const char *const *)m->plan->channels, FALSE,
					       &err);
	/* A --channel no cell has: said, and every channel shown. */
	if (!channels) {
		g_printerr("irqstorm: %s: the table shows every channel\n", err->message);
		channels = irqstorm_summaries_channels(
			(IrqstormSummary *const *)summaries->pdata, summaries->len, NULL,
			FALSE, NULL);
	}
	return irqstorm_compare_blocks((IrqstormSummary *const *)summaries->pdata,
				       summaries->len, NULL, channels);
}

/* The header row: the varied keys' names, exit, ended, each stage's stats. */
static char **header_row(const IrqstormMatrixRun *m, guint nstages)
{
	GPtrArray *row = g_ptr_array_new();
	GPtrArray *varies = m->plan->varies;

	for (guint i = 0; i < varies->len; i++)
		g_ptr_array_add(row, g_strdup(((IrqstormVary *)varies->pdata[i])->name));
	g_ptr_array_add(row, g_strdup("exit"));
	g_ptr_array_add(row, g_strdup("ended"));
	for (guint s = 0; s < nstages; s++)
		for (gsize k = 0; k < G_N_ELEMENTS(table_stats); k++)
			g_ptr_array_add(row, g_strdup(irqstorm_stat_title(table_stats[k])));
	g_ptr_array_add(row, NULL);
	return (char **)g_ptr_array_free(row, FALSE);
}

/* A cell's row: its values, exit, how it ended, each block's stats (us). */
static char **cell_row(const IrqstormCellRun *r, GPtrArray *blocks)
{
	GPtrArray *row = g_ptr_array_new();

	for (guint i = 0; i < r->m->plan->varies->len; i++)
		g_ptr_array_add(row, g_strdup(r->cell->values[i]));
	g_ptr_array_add(row, cell_exit_text(r));
	g_ptr_array_add(row, g_strdup(r->state == IRQSTORM_CELL_RUNNING ? "running" :
				      irqstorm_cell_end_name(r->end)));
	for (guint s = 0; s < blocks->len; s++) {
		const CompareBlock *blk = blocks->pdata[s];
		const IrqstormStageStats *st = r->summary ?
			irqstorm_summary_channel_stage(r->summary, blk->channel, blk->stage) :
			NULL;

		for (gsize k = 0; k < G_N_ELEMENTS(table_stats); k++)
			g_ptr_array_add(row, us_text(st, table_stats[k]));
	}
	g_ptr_array_add(row, NULL);
	return (char **)g_ptr_array_free(row, FALSE);
}

/*
 * One row per cell: the varied values (left-aligned), the exit and how
 * the cell ended, then p99 and max (us, right-aligned) of every stage any
 * cell has (of each channel, when the cells have several: "channel 0
 * (critical) done"), its name over its columns, three spaces before it.
 */
static GString *matrix_table(const IrqstormMatrixRun *m)
{
	g_autoptr(GPtrArray) blocks = matrix_blocks(m);
	guint s0 = m->plan->varies->len + 2, per = G_N_ELEMENTS(table_stats);
	g_autoptr(IrqstormTable) t = irqstorm_table_new(s0 + per * blocks->len);
	GString *out = g_string_new(NULL);

	irqstorm_table_align_right(t, s0);
	for (guint s = 0; s < blocks->len; s++) {
		const CompareBlock *blk = blocks->pdata[s];
		g_autofree char *head = blk->title ? g_strdup_printf("%s %s", blk->title,
								     blk->stage) :
				       g_strdup(blk->stage);

		irqstorm_table_set_gap(t, s0 + per * s, 3);
		irqstorm_table_add_heading(t, s0 + per * s, per, head);
	}
	irqstorm_table_add_row(t, header_row(m, blocks->len));
	for (guint c = 0; c < m->n; c++)
		if (m->runs[c].state != IRQSTORM_CELL_OTHER_SHARD)
			irqstorm_table_add_row(t, cell_row(&m->runs[c], blocks));
	/* Without stages (no cell has a summary) there is no stage header. */
	if (blocks->len)
		g_string_append(out, "p99 and max in us of virtual time from the raise\n");
	irqstorm_table_render(t, out);
	return out;
}

/* On stderr: every cell that ended in a tool failure, and why. */
static void report_tool_failures(const IrqstormMatrixRun *m)
{
	guint n = 0;

	for (guint c = 0; c < m->n; c++)
		n += m->runs[c].end == IRQSTORM_CELL_TOOL_FAILURE;
	if (!n || m->interrupted)	/* ^C stopped them: rerun to resume */
		return;
	g_printerr("irqstorm: %u of %u cell%s ended in a tool failure, not an "
		   "outcome of the scenario:\n", n, m->n, m->n == 1 ? "" : "s");
	for (guint c = 0; c < m->n; c++) {
		const IrqstormCellRun *r = &m->runs[c];

		if (r->end == IRQSTORM_CELL_TOOL_FAILURE)
			g_printerr("  %s: %s\n", r->cell->name, r->why);
	}
}

void irqstorm_matrix_report(const IrqstormMatrixRun *m)
{
	g_autoptr(GString) table = matrix_table(m);

	printf("\n%s", table->str);
	printf("\n%s/%s%s\n", m->plan->out, MATRIX_FILE,
	       m->interrupted ? " (interrupted: run the same command again to resume)" : "");
	report_tool_failures(m);
}
