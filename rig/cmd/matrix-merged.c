// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm matrix and merge: a seed sweep's distribution, OUT/merged/,
 * the cells' histogram files added up (core/histfile.h). See matrix.h.
 */
#include "matrix.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/histfile.h"
#include "core/json-build.h"
#include "core/output.h"
#include "core/runfiles.h"

#define MERGED_DIR "merged"
#define MERGED_FILE "merged.json"

/* Why the cells make no distribution (a cell without a complete run), or NULL. */
static char *not_mergeable(const IrqstormMatrixRun *m)
{
	for (guint c = 0; c < m->n; c++) {
		const IrqstormCellRun *r = &m->runs[c];

		if (!irqstorm_cell_end_is_outcome(r->end) || !r->summary || !r->summary->complete)
			return g_strdup_printf("cell %s ended %s, without a complete run",
					       r->cell->name, irqstorm_cell_end_name(r->end));
	}
	return NULL;
}

/* The histogram files of a cell's directory (histogram*.txt), sorted. */
static GPtrArray *histogram_files(const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, error);
	GPtrArray *names;
	const char *name;

	if (!d)
		return NULL;
	names = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(d)))
		if (g_str_has_prefix(name, "histogram") && g_str_has_suffix(name, ".txt"))
			g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	if (!names->len)
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT,
			    "%s: no histogram file to add up", dir);
	return names;
}

/* File name of every cell, added up. */
static IrqstormHistfile *sum_file(const IrqstormMatrixRun *m, const char *name,
				  GError **error)
{
	g_autoptr(IrqstormHistfile) sum = NULL;

	for (guint c = 0; c < m->n; c++) {
		g_autofree char *path = g_build_filename(m->runs[c].dir, name, NULL);
		g_autoptr(IrqstormHistfile) f = irqstorm_histfile_load(path, error);

		if (!f)
			return NULL;
		if (!sum)
			sum = g_steal_pointer(&f);
		else if (!irqstorm_histfile_add(sum, f, error))
			return NULL;
	}
	return g_steal_pointer(&sum);
}

/* A stage of the sum: summary.json's statistics, and which of them are
 * upper bounds (ranks among overflows, whose values no file keeps). */
static JsonNode *stage_json(const IrqstormHist *h)
{
	JsonNode *node = irqstorm_summary_stage_json(h);
	JsonArray *bounds = json_array_new();

	for (int s = 0; s < IRQSTORM_STAT_COUNT; s++) {
		double p = irqstorm_stat_percentile(s);

		if (p > 0 && !irqstorm_hist_percentile_exact(h, p))
			json_array_add_string_element(bounds, irqstorm_stat_key(s));
	}
	json_object_set_array_member(json_node_get_object(node), "upper_bounds", bounds);
	return node;
}

/* The file's sum into dir, and its stages into b (a member per stage). */
static gboolean write_sum(JsonBuilder *b, const IrqstormHistfile *sum, const char *dir,
			  const char *name, GError **error)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	if (!irqstorm_write_histfile(path, (IrqstormHist *const *)sum->hists->pdata,
				     (const char *const *)sum->names, sum->hists->len, error))
		return FALSE;
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	for (guint j = 0; j < sum->hists->len; j++) {
		json_builder_set_member_name(b, sum->names[j]);
		json_builder_add_value(b, stage_json(sum->hists->pdata[j]));
	}
	json_builder_end_object(b);
	return TRUE;
}

/* A statistic in us, "<=" before an upper bound, "-" without samples. */
static char *stat_text(const IrqstormHist *h, IrqstormStat s)
{
	double p = irqstorm_stat_percentile(s);

	if (!irqstorm_hist_count(h))
		return g_strdup("-");
	return g_strdup_printf("%s%.3f", p > 0 && !irqstorm_hist_percentile_exact(h, p) ?
			       "<=" : "", irqstorm_stat_value(h, s) / 1e3);
}

/* On stdout: the stages of the summed histogram.txt, a row each. */
static void print_sum(const IrqstormHistfile *sum, const char *dir)
{
	static const IrqstormStat shown[] = {
		IRQSTORM_STAT_MIN, IRQSTORM_STAT_P50, IRQSTORM_STAT_P99,
		IRQSTORM_STAT_P99_9, IRQSTORM_STAT_MAX,
	};
	g_autoptr(IrqstormTable) t = irqstorm_table_new(2 + G_N_ELEMENTS(shown));
	g_autoptr(GString) out = g_string_new(NULL);
	GPtrArray *row = g_ptr_array_new();

	irqstorm_table_align_right(t, 1);
	g_ptr_array_add(row, g_strdup("stage"));
	g_ptr_array_add(row, g_strdup("samples"));
	for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
		g_ptr_array_add(row, g_strdup(irqstorm_stat_title(shown[k])));
	g_ptr_array_add(row, NULL);
	irqstorm_table_add_row(t, (char **)g_ptr_array_free(row, FALSE));
	for (guint j = 0; j < sum->hists->len; j++) {
		const IrqstormHist *h = sum->hists->pdata[j];

		row = g_ptr_array_new();
		g_ptr_array_add(row, g_strdup(sum->names[j]));
		g_ptr_array_add(row, g_strdup_printf("%" G_GUINT64_FORMAT,
						     irqstorm_hist_count(h)));
		for (gsize k = 0; k < G_N_ELEMENTS(shown); k++)
			g_ptr_array_add(row, stat_text(h, shown[k]));
		g_ptr_array_add(row, NULL);
		irqstorm_table_add_row(t, (char **)g_ptr_array_free(row, FALSE));
	}
	irqstorm_table_render(t, out);
	printf("\nthe %u cells as one distribution, in us of virtual time (%s/):\n%s",
	       sum->files, dir, out->str);
	if (sum->hists->len && strstr(out->str, "<="))
		printf("  <= an upper bound: the cells' histogram files keep counts, not "
		       "samples:\n  their sum's percentile is its bin's upper edge, at most "
		       "%.3f us above the\n  sample ([run] bin_ns), or the max past the last "
		       "bin; min and max are exact,\n  each cell's own summary.json exact\n",
		       irqstorm_hist_bin_ns(sum->hists->pdata[0]) / 1e3);
}

gboolean irqstorm_matrix_write_merged(const IrqstormMatrixRun *m, GError **error)
{
	g_autofree char *dir = g_build_filename(m->plan->out, MERGED_DIR, NULL);
	g_autofree char *json = g_build_filename(dir, MERGED_FILE, NULL);
	g_autofree char *why = not_mergeable(m);
	g_autoptr(GPtrArray) names = NULL;
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;

	if (why) {
		g_printerr("irqstorm: no merged distribution of the seeds: %s\n", why);
		return TRUE;
	}
	names = histogram_files(m->runs[0].dir, error);
	if (!names || !names->len)
		return FALSE;
	if (g_mkdir_with_parents(dir, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", dir, g_strerror(errno));
		return FALSE;
	}
	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "format", "irqstorm-merged");
	json_builder_set_member_name(b, "cells");
	json_builder_begin_array(b);
	for (guint c = 0; c < m->n; c++)
		json_builder_add_string_value(b, m->runs[c].cell->name);
	json_builder_end_array(b);
	json_builder_set_member_name(b, "files");
	json_builder_begin_object(b);
	for (guint i = 0; i < names->len; i++) {
		g_autoptr(IrqstormHistfile) sum = sum_file(m, names->pdata[i], error);

		if (!sum || !write_sum(b, sum, dir, names->pdata[i], error))
			return FALSE;
		if (!strcmp(names->pdata[i], irqstorm_run_file(IRQSTORM_FILE_HISTOGRAM)))
			print_sum(sum, dir);
	}
	json_builder_end_object(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return irqstorm_write_json_file(json, root, error);
}
