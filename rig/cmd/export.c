// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm export DIR: a finished run as a Chrome trace-event timeline
 * (core/timeline.h), with the windows irqstorm explain explained in it.
 */
#include "cmd.h"

#include <string.h>

#include "core/files.h"
#include "core/records.h"
#include "core/summary.h"
#include "core/tasks.h"
#include "core/timeline.h"
#include "core/runfiles.h"

static const char export_description[] =
	"Writes DIR/trace.json (or --out FILE): the run in the Chrome\n"
	"trace-event format, which Perfetto UI (ui.perfetto.dev: Open trace\n"
	"file), chrome://tracing and speedscope open. Tracks: the device's\n"
	"raises and the events, then per vCPU \"CPU N\" (where events\n"
	"ended). Each event of records.csv is a slice from its raise to its\n"
	"last point, cut at its points (raise->hardirq->thread->bh->done; the\n"
	"probe's expected->wake-up), with a flow from the raise to the vCPU of\n"
	"its last point. When DIR has been explained (irqstorm explain DIR),\n"
	"also per vCPU \"CPU N tasks\": every task it ran, the whole run, by\n"
	"name, pid and priority, with its hard interrupts nested in it (by IRQ\n"
	"and handler name, or the timer interrupt, an IPI); and \"CPU N\n"
	"explained\": the explained windows' tasks and hard interrupts, each\n"
	"with its functions nested under it. Times are QEMU_CLOCK_VIRTUAL,\n"
	"exact to the ns (the format's microseconds with three decimals);\n"
	"docs/export.md.\n"
	"\n"
	"A run that did not finish is drawn as far as it got, as plot draws it,\n"
	"its name marked [INCOMPLETE] (and said on stderr).\n"
	"\n"
	"Exit status: 0 written, 1 DIR is not a run (or an incomplete one\n"
	"without records), or FILE cannot be written.\n"
	"\n"
	"Examples:\n"
	"  irqstorm export results/default\n"
	"  irqstorm explain results/ide-pio --top 1 && irqstorm export results/ide-pio\n";

/*
 * The functions of every window of explain.json's events (an absent file:
 * none), into spans; the names live in parser.
 */
static gboolean explained_spans(const char *dir, JsonParser *parser, GArray *spans,
				GError **error)
{
	g_autofree char *path = g_build_filename(dir, irqstorm_run_file(IRQSTORM_FILE_EXPLAIN),
						"explain.json", NULL);
	JsonArray *events;

	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	if (!json_parser_load_from_file(parser, path, error))
		return FALSE;
	events = json_object_get_array_member(json_node_get_object(
		json_parser_get_root(parser)), "events");
	for (guint e = 0; events && e < json_array_get_length(events); e++) {
		JsonArray *ws = json_object_get_array_member(
			json_array_get_object_element(events, e), "windows");

		for (guint w = 0; ws && w < json_array_get_length(ws); w++) {
			JsonObject *win = json_array_get_object_element(ws, w);
			JsonArray *seq = json_object_get_array_member(win, "sequence");
			guint cpu = json_object_get_int_member_with_default(win, "cpu", 0);

			for (guint i = 0; seq && i < json_array_get_length(seq); i++) {
				JsonObject *o = json_array_get_object_element(seq, i);
				IrqstormTimelineSpan sp = {
					cpu, json_object_get_int_member(o, "from_ns"),
					json_object_get_int_member(o, "to_ns"),
					json_object_get_string_member(o, "function"),
					json_object_get_string_member(o, "context"),
				};

				g_array_append_val(spans, sp);
			}
		}
	}
	return TRUE;
}

/* explain's tasks.json in dir, or NULL in *tasks where there is none. */
static gboolean explained_tasks(const char *dir, GArray **tasks, GError **error)
{
	g_autofree char *path = g_build_filename(dir, irqstorm_run_file(IRQSTORM_FILE_EXPLAIN),
						"tasks.json", NULL);

	*tasks = NULL;
	if (!g_file_test(path, G_FILE_TEST_EXISTS))
		return TRUE;
	*tasks = irqstorm_tasks_load(path, error);
	return *tasks != NULL;
}

int irqstorm_cmd_export(int argc, char **argv)
{
	g_autofree char *out = NULL, *records_path = NULL, *label = NULL, *json = NULL;
	const GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "The file to write (default: DIR/trace.json)", "FILE" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"DIR - a finished run as a timeline for Perfetto UI or speedscope",
		entries, export_description);
	g_autoptr(IrqstormSummary) sum = NULL;
	g_autoptr(GArray) recs = NULL, tasks = NULL;
	g_autoptr(GArray) spans = g_array_new(FALSE, FALSE, sizeof(IrqstormTimelineSpan));
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) err = NULL;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc != 2)
		return irqstorm_usage_error(ctx, "export needs one result DIR");
	sum = irqstorm_summary_load(argv[1], &err);
	if (!sum)
		return irqstorm_cmd_fail("%s", err->message);
	records_path = irqstorm_run_path(argv[1], IRQSTORM_FILE_RECORDS);
	/* What an incomplete run collected is drawn, as plot draws it,
	 * marked: its name says so in the viewer. */
	if (!sum->complete && !g_file_test(records_path, G_FILE_TEST_EXISTS))
		return irqstorm_cmd_fail("%s is an incomplete run (%s) without records: "
					 "nothing to export", argv[1], sum->incomplete_reason);
	if (!sum->complete)
		g_printerr("irqstorm: %s is an incomplete run (%s): its timeline holds what it "
			   "collected, marked [INCOMPLETE]\n", argv[1], sum->incomplete_reason);
	recs = irqstorm_records_read(records_path, FALSE, &err);
	if (!recs || !explained_spans(argv[1], parser, spans, &err) ||
	    !explained_tasks(argv[1], &tasks, &err))
		return irqstorm_cmd_fail("%s", err->message);
	label = g_path_get_basename(argv[1]);
	if (!sum->complete) {
		char *marked = g_strconcat(label, " [INCOMPLETE]", NULL);

		g_free(label);
		label = marked;
	}
	json = irqstorm_timeline_json(recs, MAX(sum->cpus, 1), spans, tasks, label);
	if (!out)
		out = irqstorm_run_path(argv[1], IRQSTORM_FILE_TRACE);
	if (!irqstorm_write_file(out, json, -1, &err))
		return irqstorm_cmd_fail("%s", err->message);
	printf("%s\n", out);
	return IRQSTORM_EXIT_PASSED;
}
