// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm explain: rerun a deterministic run with QEMU's explain plugin
 * watching, prove the rerun equal to the run, and name the guest code
 * behind each chosen event's latency (core/explain.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "cmd.h"
#include "config.h"
#include "explain-gdb.h"
#include "explain-source.h"
#include "gnuplot.h"
#include "irqstorm/explain.h"
#include "core/explain.h"
#include "core/guest-build.h"
#include "core/identity.h"
#include "core/files.h"
#include "core/json-build.h"
#include "core/machine.h"
#include "core/irqentry.h"
#include "core/names.h"
#include "core/tasks.h"
#include "core/outdir.h"
#include "core/output.h"
#include "core/records.h"
#include "core/results.h"
#include "core/run.h"

static const char explain_description[] =
	"Reruns a finished deterministic run (its scenario.ini, on the same QEMU\n"
	"and kernel builds) with a TCG plugin of irqstorm's watching the vCPU from\n"
	"outside the guest, and breaks the latency of chosen events down into the\n"
	"guest code that ran: kernel and driver functions by symbol, [user] for\n"
	"user space, [halted] for time the vCPU was halted, each with its\n"
	"instructions and virtual ns, and the sequence of function entries.\n"
	"Each stretch of code is named by the task it ran for, read in guest\n"
	"memory at each context switch (\"irq/21-irqstorm (pid 51, FIFO 50)\"),\n"
	"and each hard interrupt by its IRQ (\"IRQ 21 (irqstorm0)\"); --no-names\n"
	"names them by their kind, from the code alone (\"IRQ thread\").\n"
	"\n"
	"The guest spends no instruction on being watched, and this is proven on\n"
	"every use: the rerun's records.csv and counts must equal the run's\n"
	"exactly, or explain fails and says where they differ.\n"
	"\n"
	"Events: --event SEQ (a seq of records.csv), else the --top N worst of\n"
	"the stage among the events the statistics cover (not the [run] warmup\n"
	"nor the stop tail: the worst the summary reports), of each channel\n"
	"apart in a run of several (one channel's long events would crowd out\n"
	"another's; --channel N|NAME: that one only). Stage: --stage,\n"
	"else that of the run's first exceeded threshold, else done. A stage's\n"
	"span is cut at the event's points, raise->hardirq->thread->bh->done\n"
	"(those it has); the probe's is expected->wake-up.\n"
	"\n"
	"Writes into RESULT_DIR/explain/: event-SEQ.txt (readable), event-SEQ.png\n"
	"(the functions on the time axis), explain.json, trace.txt (the blocks the\n"
	"plugin saw), tasks.json (named: every task each vCPU ran, the whole run,\n"
	"its hard interrupts nested: what irqstorm export draws) and rerun/ (the\n"
	"rerun's own results).\n"
	"\n"
	"With --gdb (and one --event), the rerun instead stops the guest at one\n"
	"point of that event (--at raise, hardirq, thread, bh or done; the probe's\n"
	"expected or wake-up), between two instructions, with QEMU's gdbstub\n"
	"open, and prints the gdb command to attach: stepping from there is as\n"
	"deterministic as the run.\n"
	"\n"
	"Exit status: 0 explained (or, with --gdb, the run ended), 1 error\n"
	"(including a rerun that differed).\n"
	"\n"
	"Examples:\n"
	"  irqstorm explain results/ide-pio\n"
	"  irqstorm explain results/ide-pio --stage thread --event 4711\n"
	"  irqstorm explain results/probe --stage probe --top 1\n"
	"  irqstorm explain results/ide-pio --event 4711 --gdb --at hardirq\n";

#define PLOT_ROWS 10		/* functions in a figure, the last "(other)" */

/*
 * What names the rerun's tasks, in an explain's directory: the names file
 * (names NULL: not named), the entries file and its points, the whole
 * run's tasks file the plugin writes (points NULL: no whole-run tasks).
 */
typedef struct {
	char *names, *entries, *tasks;
	GArray *points;
} ExplainNames;

static void explain_names_clear(ExplainNames *nm)
{
	g_clear_pointer(&nm->names, g_free);
	g_clear_pointer(&nm->entries, g_free);
	g_clear_pointer(&nm->tasks, g_free);
	g_clear_pointer(&nm->points, g_array_unref);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(ExplainNames, explain_names_clear)

/* The plugin's arguments for QEMU (include/irqstorm/explain.h). */
static GStrv plugin_args(const char *windows, const char *trace, int shift,
			 const ExplainNames *nm)
{
	g_autofree char *shift_s = g_strdup_printf("%d", shift);
	const char *values[IRQSTORM_EXPLAIN_ARG_COUNT] = {
		[IRQSTORM_EXPLAIN_ARG_WINDOWS] = windows,
		[IRQSTORM_EXPLAIN_ARG_OUT] = trace,
		[IRQSTORM_EXPLAIN_ARG_SHIFT] = shift_s,
		[IRQSTORM_EXPLAIN_ARG_NAMES] = nm->names,
		[IRQSTORM_EXPLAIN_ARG_ENTRIES] = nm->points ? nm->entries : NULL,
		[IRQSTORM_EXPLAIN_ARG_TASKS] = nm->points ? nm->tasks : NULL,
	};

	return irqstorm_cmd_plugin_args(values);
}

/*
 * The names file for the run's kernel (its System.map, map, and its
 * identity's kernel-layout) at path; FALSE with the reason where the kernel
 * cannot be named (built before kernel-layout): explain then names kinds
 * of tasks.
 */
static gboolean write_names(const IrqstormScenario *sc, const char *map, const char *path,
			    GError **error)
{
	g_autofree char *id_name = irqstorm_machine_kernel_file(sc, "identity");
	g_auto(GStrv) id = irqstorm_identity_read(IRQSTORM_KERNEL_DIR, id_name);
	const char *layout = id ? irqstorm_identity_get(id, IRQSTORM_ID_KERNEL_LAYOUT) : NULL;

	if (!layout || !*layout) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_NOENT, "the kernel's identity "
			    "has no kernel-layout (a build of an older irqstorm)");
		return FALSE;
	}
	return irqstorm_names_write(map, layout, path, error);
}

/*
 * nm's files in dir for sc's kernel: the names file, and the entries file
 * for the whole run's tasks; each left NULL after saying why it cannot be
 * (explain then names kinds of tasks, or draws no whole-run tasks).
 */
static void name_files(const IrqstormScenario *sc, const char *dir, ExplainNames *nm)
{
	g_autofree char *map = irqstorm_cmd_kernel_path(sc, "System.map");
	g_autoptr(GError) err = NULL;

	nm->names = g_build_filename(dir, "names.txt", NULL);
	if (!write_names(sc, map, nm->names, &err)) {
		fprintf(stderr, "explain: tasks and interrupts by their kind, not their "
			"names: %s\n", err->message);
		g_clear_pointer(&nm->names, g_free);
		return;
	}
	nm->entries = g_build_filename(dir, "entries.txt", NULL);
	nm->tasks = g_build_filename(dir, "tasks.txt", NULL);
	nm->points = irqstorm_irqentry_points(map, &err);
	if (!nm->points || !irqstorm_irqentry_write_points(nm->points, nm->entries, &err)) {
		fprintf(stderr, "explain: no whole-run tasks for export: %s\n", err->message);
		g_clear_pointer(&nm->points, g_array_unref);
	}
}

/* Every event's span for the plugin, in time order: "FROM TO" lines. */
static gboolean write_windows(GPtrArray *events, const char *path, GError **error)
{
	g_autoptr(GArray) w = g_array_new(FALSE, FALSE, sizeof(guint64) * 2);
	g_autoptr(GString) s = g_string_new(NULL);

	for (guint i = 0; i < events->len; i++) {
		guint64 span[2];

		irqstorm_explain_event_span(events->pdata[i], &span[0], &span[1]);
		g_array_append_val(w, span);
	}
	g_array_sort(w, (GCompareFunc)irqstorm_explain_source_compare_u64);
	for (guint i = 0; i < w->len; i++) {
		const guint64 *span = &g_array_index(w, guint64, 2 * i);

		g_string_append_printf(s, "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n",
				       span[0], span[1]);
	}
	return g_file_set_contents(path, s->str, s->len, error);
}

/* The rerun, the plugin loaded, its results written to dir. */
static gboolean rerun(const ExplainSource *src, const char *dir,
		      const char *const *qemu_args, GError **error)
{
	IrqstormRunSettings set = {
		.scenario = src->scenario, .out_dir = dir, .qemu_dir = IRQSTORM_QEMU_DIR,
		.kernel_dir = IRQSTORM_KERNEL_DIR, .initrd_dir = IRQSTORM_INITRD_DIR,
		.quiet = TRUE, .csv = TRUE, .qemu_args = qemu_args,
	};
	g_autoptr(IrqstormResults) res = NULL;
	int code;

	fprintf(stderr, "explain: rerunning %s with the explain plugin into %s\n",
		src->dir, dir);
	res = irqstorm_cmd_run_results(&set, &code, error);
	if (!res)
		return FALSE;
	if (!res->checks->complete) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_FAILED,
			    "the rerun did not complete (%s): nothing is explained; its "
			    "results are in %s", res->checks->incomplete_reason, dir);
		return FALSE;
	}
	return TRUE;
}

static gint worst_first(gconstpointer a, gconstpointer b)
{
	const IrqstormExplainEvent *x = *(IrqstormExplainEvent *const *)a;
	const IrqstormExplainEvent *y = *(IrqstormExplainEvent *const *)b;

	if (x->latency_ns != y->latency_ns)
		return x->latency_ns > y->latency_ns ? -1 : 1;
	return x->rec.seq < y->rec.seq ? -1 : 1;
}

/*
 * The channels --top looks at, as a mask of bits: those of want (each a
 * number or a [channelN] name of an active channel), else every active
 * channel; an error names the channels there are.
 */
static guint channels_wanted(const IrqstormScenario *sc, char **want, GError **error)
{
	guint active = irqstorm_scenario_channel_mask(sc), mask = 0;

	for (gsize k = 0; want && want[k]; k++) {
		guint bit = 0;

		for (guint n = 0; n < IRQSTORM_NUM_CHANNELS && !bit; n++) {
			char num[4];

			g_snprintf(num, sizeof(num), "%u", n);
			if ((active & 1u << n) &&
			    (!strcmp(want[k], num) || !strcmp(want[k], sc->ch[n].name)))
				bit = 1u << n;
		}
		if (!bit) {
			g_autoptr(GString) list = g_string_new(NULL);

			for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
				if (active & 1u << n)
					g_string_append_printf(list, "%s%u%s%s%s", list->len ? ", " : "",
							       n, *sc->ch[n].name ? " (" : "",
							       sc->ch[n].name,
							       *sc->ch[n].name ? ")" : "");
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--channel %s: the run has no such channel (channels: %s)",
				    want[k], list->str);
			return 0;
		}
		mask |= bit;
	}
	return mask ? mask : active;
}

/*
 * The worst top events of stage st among recs (those of channel ch; any:
 * -1) that the statistics cover: not the warm-up nor the stop tail (the
 * worst the summary reports; records.csv has those too), appended to evs.
 */
static void worst_events(const GArray *recs, const IrqstormScenario *sc, IrqstormStage st,
			 int ch, guint top, GPtrArray *evs)
{
	g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_explain_event_free);
	guint64 start = recs->len ? g_array_index(recs, struct irqstorm_record, 0).t_raise : 0;
	guint64 warmup = sc->warmup_ms * G_GUINT64_CONSTANT(1000000);
	guint64 duration = sc->duration_ms * G_GUINT64_CONSTANT(1000000);
	const char *why;

	for (guint i = 0; i < recs->len; i++) {
		const struct irqstorm_record *r = &g_array_index(recs, struct irqstorm_record, i);
		IrqstormExplainEvent *ev;

		if (!irqstorm_in_window(start, r->t_raise, warmup, duration) ||
		    (ch >= 0 && r->channel != (guint)ch))
			continue;
		ev = irqstorm_explain_event_new(r, st, &why);
		if (ev)
			g_ptr_array_add(all, ev);
	}
	g_ptr_array_sort(all, worst_first);
	for (guint i = 0; i < top && all->len; i++)
		g_ptr_array_add(evs, g_ptr_array_steal_index(all, 0));
}

/* The events asked for (seqs), else the top worst of stage st: of each
 * channel of mask apart when the run has several (one channel's slow
 * events would crowd out another's), the probe's once. */
static GPtrArray *pick_events(const GArray *recs, const IrqstormScenario *sc,
			      IrqstormStage st, char **seqs, guint top, guint mask,
			      GError **error)
{
	g_autoptr(GPtrArray) evs = g_ptr_array_new_with_free_func(
		(GDestroyNotify)irqstorm_explain_event_free);
	const char *why;

	for (guint i = 0; seqs && seqs[i]; i++) {
		guint64 seq;
		const struct irqstorm_record *r;
		IrqstormExplainEvent *ev;

		if (!g_ascii_string_to_unsigned(seqs[i], 10, 1, G_MAXUINT64, &seq, NULL) ||
		    !(r = irqstorm_records_find(recs, seq))) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--event %s: no such seq in records.csv", seqs[i]);
			return NULL;
		}
		ev = irqstorm_explain_event_new(r, st, &why);
		if (!ev) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
				    "--event %s has no %s stage: %s", seqs[i],
				    irqstorm_stage_name(st), why);
			return NULL;
		}
		g_ptr_array_add(evs, ev);
	}
	if (seqs && seqs[0])
		return g_steal_pointer(&evs);
	if (irqstorm_stage_is_probe(st) ||
	    (mask == irqstorm_scenario_channel_mask(sc) && !(mask & (mask - 1)))) {
		worst_events(recs, sc, st, -1, top, evs);
	} else {
		for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
			if (mask & 1u << n)
				worst_events(recs, sc, st, (int)n, top, evs);
	}
	if (!evs->len)
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "no event of the run has the %s stage", irqstorm_stage_name(st));
	return evs->len ? g_steal_pointer(&evs) : NULL;
}

/* Symbols for the run's kernel and driver, the module placed from trace. */
static IrqstormSymbols *load_symbols(const IrqstormScenario *sc, const GArray *trace,
				     GError **error)
{
	g_autofree char *map = irqstorm_cmd_kernel_path(sc, "System.map");
	g_autofree char *ko = irqstorm_cmd_kernel_path(sc, "ko");
	g_autoptr(IrqstormSymbols) syms = irqstorm_symbols_load(map, error);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_int64_hash, g_int64_equal);
	g_autoptr(GArray) starts = g_array_new(FALSE, FALSE, sizeof(guint64));

	if (!syms || !irqstorm_symbols_add_module(syms, ko, error))
		return NULL;
	for (guint i = 0; i < trace->len; i++) {
		const IrqstormBlock *b = &g_array_index(trace, IrqstormBlock, i);

		if (g_hash_table_add(seen, (gpointer)&b->vaddr))
			g_array_append_val(starts, b->vaddr);
	}
	irqstorm_symbols_place_module(syms, (const guint64 *)starts->data, starts->len);
	return g_steal_pointer(&syms);
}

/* event-SEQ.txt, its figure, and its member of explain.json. */
static gboolean write_event(const IrqstormExplainEvent *ev, const char *dir,
			    const char *held, JsonBuilder *b, GError **error)
{
	g_autofree char *base = g_strdup_printf("%s/event-%" G_GUINT64_FORMAT, dir,
						ev->rec.seq);
	g_autofree char *txt_path = g_strconcat(base, ".txt", NULL);
	g_autofree char *spans = g_strconcat(base, ".spans", NULL);
	g_autofree char *marks = g_strconcat(base, ".marks", NULL);
	g_autofree char *text = irqstorm_explain_text(ev, held);
	g_autofree char *title = g_strdup_printf("event #%" G_GUINT64_FORMAT ", %s +%.1f us",
						 ev->rec.seq, irqstorm_stage_name(ev->stage),
						 ev->latency_ns / 1e3);
	g_autoptr(GString) e = g_string_new(NULL);
	guint n;

	if (!g_file_set_contents(txt_path, text, -1, error))
		return FALSE;
	irqstorm_explain_add_json(b, ev);
	n = irqstorm_explain_write_plot_data(ev, spans, marks, PLOT_ROWS, error);
	if (!n)
		return FALSE;
	irqstorm_plot_param_path(e, "spans", spans);
	irqstorm_plot_param_path(e, "marks", marks);
	irqstorm_plot_param(e, "title", title);
	irqstorm_plot_param(e, "origin", irqstorm_explain_origin(ev));
	g_string_append_printf(e, "rows=%u; ", n);
	return irqstorm_plot_png("explain.gp", e->str, base, error);
}

/*
 * The parts a rerun of scenario sc needs, built if missing: QEMU with
 * the plugin, the kernel with its System.map, the initramfs.
 */
static gboolean ensure_parts(const IrqstormScenario *sc, GError **error)
{
	const IrqstormGuestBuilder builder = irqstorm_cmd_guest_builder();
	IrqstormRunSettings set = {
		.scenario = sc, .qemu_dir = IRQSTORM_QEMU_DIR,
		.kernel_dir = IRQSTORM_KERNEL_DIR, .initrd_dir = IRQSTORM_INITRD_DIR,
	};

	return irqstorm_guest_ensure(&builder, &set, error);
}

/* The events analysed from the trace, written, and printed a line each. */
static gboolean report(const ExplainSource *src, GPtrArray *evs, const char *dir,
		       const char *trace_path, const char *held, GError **error)
{
	g_autoptr(GArray) trace = irqstorm_explain_read_trace(trace_path, error);
	g_autoptr(IrqstormSymbols) syms = NULL;
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree char *json_path = g_build_filename(dir, "explain.json", NULL);
	g_autofree char *module_base = NULL;

	if (!trace || !(syms = load_symbols(src->scenario, trace, error)))
		return FALSE;
	json_builder_begin_object(b);
	irqstorm_json_add_string(b, "format", "irqstorm-explain");
	irqstorm_json_add_int(b, "file_version", 1);
	irqstorm_json_add_string(b, "result", src->dir);
	irqstorm_json_add_bool(b, "zero_perturbation", TRUE);
	irqstorm_json_add_string(b, "zero_perturbation_check", held);
	irqstorm_json_add_int(b, "trace_blocks", trace->len);
	module_base = g_strdup_printf("0x%" G_GINT64_MODIFIER "x",
				      irqstorm_symbols_module_base(syms));
	irqstorm_json_add_string(b, "module_base", module_base);
	json_builder_set_member_name(b, "events");
	json_builder_begin_array(b);
	printf("%s\n", held);
	for (guint i = 0; i < evs->len; i++) {
		IrqstormExplainEvent *ev = evs->pdata[i];
		g_autofree char *line = NULL;

		ev->cpus = src->scenario->cpus;
		irqstorm_explain_analyse(ev, trace, syms, src->scenario->icount_shift);
		if (!write_event(ev, dir, held, b, error))
			return FALSE;
		line = irqstorm_explain_line(ev);
		printf("%s\n", line);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	return irqstorm_write_json_file(json_path, root, error);
}

/*
 * dir made or emptied of an earlier explain's outputs: no file of another
 * event is left to be taken for this one's.
 */
static gboolean clear_outputs(const char *dir, GError **error)
{
	static const char *const suffixes[] = { ".txt", ".png", ".spans", ".marks" };
	g_autoptr(GDir) d = NULL;
	const char *name;

	if (g_mkdir_with_parents(dir, 0755) < 0) {
		g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno),
			    "cannot create %s: %s", dir, g_strerror(errno));
		return FALSE;
	}
	d = g_dir_open(dir, 0, error);
	if (!d)
		return FALSE;
	while ((name = g_dir_read_name(d))) {
		gboolean ours = !strcmp(name, "explain.json") || !strcmp(name, "trace.txt") ||
				!strcmp(name, "windows.txt") || !strcmp(name, "names.txt") ||
				!strcmp(name, "entries.txt") || !strcmp(name, "tasks.txt") ||
				!strcmp(name, "tasks.json");

		for (gsize i = 0; i < G_N_ELEMENTS(suffixes); i++)
			ours |= g_str_has_prefix(name, "event-") &&
				g_str_has_suffix(name, suffixes[i]);
		if (ours) {
			g_autofree char *path = g_build_filename(dir, name, NULL);

			g_unlink(path);
		}
	}
	return TRUE;
}

/* Rerun with the plugin into dir/rerun, check it, explain evs into dir;
 * with named, tasks and interrupts by name where the kernel allows. */
static int explain_into(const ExplainSource *src, GPtrArray *evs, const char *dir,
			gboolean named)
{
	g_autofree char *rerun_dir = g_build_filename(dir, "rerun", NULL);
	g_autofree char *windows = g_build_filename(dir, "windows.txt", NULL);
	g_autofree char *trace = g_build_filename(dir, "trace.txt", NULL);
	g_autofree char *tasks_json = g_build_filename(dir, "tasks.json", NULL);
	g_auto(ExplainNames) nm = { 0 };
	g_auto(GStrv) args = NULL;
	g_autofree char *held = NULL;
	g_autoptr(GArray) tasks = NULL;
	g_autoptr(GError) err = NULL;

	if (!clear_outputs(dir, &err))
		return irqstorm_cmd_fail("%s", err->message);
	if (named)
		name_files(src->scenario, dir, &nm);
	args = plugin_args(windows, trace, src->scenario->icount_shift, &nm);
	if (!write_windows(evs, windows, &err) ||
	    !rerun(src, rerun_dir, (const char *const *)args, &err) ||
	    !explain_source_check_rerun(src, rerun_dir, &held, &err) ||
	    !report(src, evs, dir, trace, held, &err))
		return irqstorm_cmd_fail("%s", err->message);
	if (nm.points && (!(tasks = irqstorm_tasks_read(nm.tasks, nm.points, &err)) ||
			  !irqstorm_tasks_write(tasks, tasks_json, &err)))
		return irqstorm_cmd_fail("the whole run's tasks: %s", err->message);
	return IRQSTORM_EXIT_PASSED;
}

/*
 * Rerun with the plugin into dir/rerun, check it, explain evs. An earlier
 * explain of the run (its explain.json) is replaced only by one that ends
 * well: until then this one is written beside it (core/outdir.h).
 */
static int explain(const ExplainSource *src, GPtrArray *evs, gboolean named)
{
	g_autofree char *target = g_build_filename(src->dir, "explain", NULL);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormOutDir) od = irqstorm_outdir_open(target, "explain.json", TRUE, &err);
	int code;

	if (!od)
		return irqstorm_cmd_fail("%s", err->message);
	code = explain_into(src, evs, od->write, named);
	if (code == IRQSTORM_EXIT_PASSED && !irqstorm_outdir_commit(od, TRUE, &err))
		return irqstorm_cmd_fail("%s", err->message);
	if (code != IRQSTORM_EXIT_PASSED && g_strcmp0(od->write, od->target))
		fprintf(stderr, "irqstorm explain: the earlier explain in %s/ is as it was; "
			"this one's files are in %s/\n", od->target, od->write);
	return code;
}

/* --gdb: the event's record, then the replay stopped at its point. */
static int gdb_event(const ExplainSource *src, const char *seq_arg, const char *at)
{
	const struct irqstorm_record *r = NULL;
	guint64 seq;

	if (g_ascii_string_to_unsigned(seq_arg, 10, 1, G_MAXUINT64, &seq, NULL))
		r = irqstorm_records_find(src->records, seq);
	if (!r)
		return irqstorm_cmd_fail("--event %s: no such seq in records.csv", seq_arg);
	if (r->flags & IRQSTORM_REC_PROBE) {
		/* The probe's points, by the names its windows use. */
		if (!strcmp(at, "expected"))
			at = "raise";
		else if (!strcmp(at, "wake-up"))
			at = "done";
	}
	return explain_gdb(src, r, at);
}

/* irqstorm explain RESULT_DIR [options] */
int irqstorm_cmd_explain(int argc, char **argv)
{
	g_auto(GStrv) seqs = NULL;
	g_autofree char *stage = NULL, *at = NULL;
	gboolean gdb = FALSE, no_names = FALSE;
	gint top = 5;
	g_auto(GStrv) channel_args = NULL;
	guint mask;
	const GOptionEntry entries[] = {
		{ "event", 'e', 0, G_OPTION_ARG_STRING_ARRAY, &seqs,
		  "Explain the event with this seq of records.csv (repeatable)", "SEQ" },
		{ "top", 't', 0, G_OPTION_ARG_INT, &top,
		  "Without --event, the N worst events of the stage (default 5), of "
		  "each channel", "N" },
		IRQSTORM_CMD_OPTION_CHANNEL(&channel_args),
		{ "stage", 0, 0, G_OPTION_ARG_STRING, &stage,
		  "The stage to explain (default: the first exceeded threshold's, "
		  "else done)", "STAGE" },
		{ "no-names", 0, 0, G_OPTION_ARG_NONE, &no_names,
		  "Name tasks and interrupts by their kind, from the code alone", NULL },
		{ "gdb", 0, 0, G_OPTION_ARG_NONE, &gdb,
		  "Stop the rerun at a point of the --event, for gdb (see below)", NULL },
		{ "at", 0, 0, G_OPTION_ARG_STRING, &at,
		  "With --gdb: raise (default), hardirq, thread, bh, done; the probe's "
		  "expected, wake-up", "POINT" },
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options("RESULT_DIR - why an event "
							     "took what it took", entries,
							     explain_description);
	g_autoptr(GError) err = NULL;
	g_autoptr(ExplainSource) src = NULL;
	g_autoptr(GPtrArray) evs = NULL;
	IrqstormStage st;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc != 2)
		return irqstorm_usage_error(ctx, "explain needs exactly one RESULT_DIR");
	if (top < 1)
		return irqstorm_usage_error(ctx, "--top must be at least 1, not %d", top);
	if (gdb && (!seqs || !seqs[0] || seqs[1]))
		return irqstorm_usage_error(ctx, "--gdb needs exactly one --event");
	if (at && !gdb)
		return irqstorm_usage_error(ctx, "--at is for --gdb");
	src = explain_source_load(argv[1], &err);
	if (!src || !ensure_parts(src->scenario, &err) ||
	    !explain_source_check_builds(src, IRQSTORM_QEMU_DIR, IRQSTORM_KERNEL_DIR, &err))
		return irqstorm_cmd_fail("%s", err->message);
	if (!stage)
		stage = g_strdup(explain_source_default_stage(src));
	if (!irqstorm_stage_from_name(stage, &st)) {
		g_autofree char *names = irqstorm_stage_names(TRUE);

		return irqstorm_usage_error(ctx, "--stage %s: no such stage (%s)", stage, names);
	}
	if (gdb)
		return gdb_event(src, seqs[0], at ? at : "raise");
	mask = channels_wanted(src->scenario, channel_args, &err);
	if (!mask)
		return irqstorm_usage_error(ctx, "%s", err->message);
	evs = pick_events(src->records, src->scenario, st, seqs, top, mask, &err);
	if (!evs)
		return irqstorm_cmd_fail("%s", err->message);
	return explain(src, evs, !no_names);
}
