// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run as a Chrome trace-event timeline (core/timeline.h), checked by the
 * format's own rules: known phases only, complete slices ("X") on each
 * track properly nested, async slices ("b"/"e") of an event balanced and
 * nested in order, each flow's start before its end, times exact to the
 * ns; and what the tracks hold: an event's points on its vCPUs' tracks,
 * explained functions nested under their context, overlapping explained
 * windows shown once; the whole run's tasks (core/tasks.h, from the
 * plugin's tasks file) with their interrupts nested and named.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core/irqentry.h"
#include "core/tasks.h"
#include "core/timeline.h"
#include "testutil.h"

/* The tracks per vCPU (core/timeline.c): its points, tasks, explained. */
#define TID_CPU(c)	 (3 * (c) + 1)
#define TID_TASKS(c)	 (3 * (c) + 2)
#define TID_EXPLAINED(c) (3 * (c) + 3)

typedef struct {
	gint64 tid;
	double from, to;
	const char *name, *cat;
} Slice;

/* ts (and dur) in ns, which the file has as us with three decimals. */
static gint64 ns_of(JsonObject *o, const char *member)
{
	double us = json_object_get_double_member(o, member);

	return (gint64)llround(us * 1000.0);
}

static gint slice_compare(gconstpointer a, gconstpointer b)
{
	const Slice *x = a, *y = b;

	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to > y->to ? -1 : x->to < y->to;	/* parents first */
}

/*
 * Every slice of evs: the complete ones ("X") and the begin/end pairs
 * ("B"/"E"), which must be, per track, in time order, each end naming the
 * innermost open slice, none left open.
 */
static GArray *slices_of(JsonArray *evs)
{
	GArray *xs = g_array_new(FALSE, FALSE, sizeof(Slice));
	g_autoptr(GHashTable) open = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
							  (GDestroyNotify)g_array_unref);
	g_autoptr(GHashTable) last = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
							  g_free);

	for (guint i = 0; i < json_array_get_length(evs); i++) {
		JsonObject *o = json_array_get_object_element(evs, i);
		const char *ph = json_object_get_string_member(o, "ph");
		Slice s = { json_object_get_int_member(o, "tid"), 0, 0,
			    json_object_get_string_member(o, "name"),
			    json_object_get_string_member_with_default(o, "cat", "") };
		GArray *st;
		gint64 *t;

		if (strcmp(ph, "X") && strcmp(ph, "B") && strcmp(ph, "E"))
			continue;
		s.from = ns_of(o, "ts");
		if (ph[0] == 'X') {
			s.to = s.from + ns_of(o, "dur");
			g_array_append_val(xs, s);
			continue;
		}
		t = g_hash_table_lookup(last, &s.tid);
		if (t)
			g_assert_cmpint(*t, <=, (gint64)s.from);	/* monotonic per track */
		else
			g_hash_table_insert(last, g_memdup2(&s.tid, sizeof(s.tid)),
					    (t = g_new(gint64, 1)));
		*t = s.from;
		st = g_hash_table_lookup(open, &s.tid);
		if (!st) {
			st = g_array_new(FALSE, FALSE, sizeof(Slice));
			g_hash_table_insert(open, g_memdup2(&s.tid, sizeof(s.tid)), st);
		}
		if (ph[0] == 'B') {
			g_array_append_val(st, s);
		} else {
			Slice top;

			g_assert_cmpuint(st->len, >, 0);
			top = g_array_index(st, Slice, st->len - 1);
			g_assert_cmpstr(top.name, ==, s.name);
			top.to = s.from;
			g_array_append_val(xs, top);
			g_array_set_size(st, st->len - 1);
		}
	}
	{
		GHashTableIter it;
		gpointer k, v;

		g_hash_table_iter_init(&it, open);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_assert_cmpuint(((GArray *)v)->len, ==, 0);
	}
	return xs;
}

/*
 * The slices of track tid nest: in start order (the longer first), each
 * lies inside the last one still open at its start, or after it.
 */
static void check_nesting(const GArray *all, gint64 tid)
{
	g_autoptr(GArray) xs = g_array_new(FALSE, FALSE, sizeof(Slice));
	g_autoptr(GArray) stack = g_array_new(FALSE, FALSE, sizeof(Slice));

	for (guint i = 0; i < all->len; i++)
		if (g_array_index(all, Slice, i).tid == tid)
			g_array_append_val(xs, g_array_index(all, Slice, i));
	g_array_sort(xs, slice_compare);
	for (guint i = 0; i < xs->len; i++) {
		const Slice *c = &g_array_index(xs, Slice, i);
		const Slice *top;

		while (stack->len) {
			top = &g_array_index(stack, Slice, stack->len - 1);
			if (top->to > c->from || (top->from == c->from && top->to == c->to))
				break;
			g_array_set_size(stack, stack->len - 1);
		}
		if (stack->len) {
			top = &g_array_index(stack, Slice, stack->len - 1);
			if (!(top->from <= c->from && c->to <= top->to))
				g_error("track %" G_GINT64_FORMAT ": %s [%.0f, %.0f) overlaps %s "
					"[%.0f, %.0f) without nesting", tid, c->name, c->from,
					c->to, top->name, top->from, top->to);
		}
		g_array_append_val(stack, *c);
	}
}

/* Every phase known; async slices balanced per id, ends not before starts;
 * each flow's end not before its start. */
static void check_rules(JsonArray *evs)
{
	g_autoptr(GHashTable) open = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
							  (GDestroyNotify)g_ptr_array_unref);
	g_autoptr(GHashTable) flows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; i < json_array_get_length(evs); i++) {
		JsonObject *o = json_array_get_object_element(evs, i);
		const char *ph = json_object_get_string_member(o, "ph");
		const char *id = json_object_get_string_member_with_default(o, "id", "");
		GPtrArray *st;

		g_assert_true(strchr("MXBEbesf", ph[0]) && !ph[1]);
		g_assert_cmpint(json_object_get_int_member(o, "pid"), ==, 1);
		if (ph[0] == 'M')
			continue;
		if (ph[0] == 'b' || ph[0] == 'e') {
			st = g_hash_table_lookup(open, id);
			if (!st) {
				st = g_ptr_array_new_with_free_func(g_free);
				g_hash_table_insert(open, g_strdup(id), st);
			}
			if (ph[0] == 'b') {
				g_ptr_array_add(st, g_strdup_printf("%s@%" G_GINT64_FORMAT,
					json_object_get_string_member(o, "name"), ns_of(o, "ts")));
			} else {
				const char *top = st->len ? st->pdata[st->len - 1] : "";
				g_autofree char *name = g_strdup(top);
				char *at = strrchr(name, '@');

				g_assert_nonnull(at);
				*at = 0;
				g_assert_cmpstr(name, ==, json_object_get_string_member(o, "name"));
				g_assert_cmpint(g_ascii_strtoll(at + 1, NULL, 10), <=, ns_of(o, "ts"));
				g_ptr_array_remove_index(st, st->len - 1);
			}
		} else if (ph[0] == 's') {
			g_hash_table_insert(flows, g_strdup(id), GSIZE_TO_POINTER(ns_of(o, "ts") + 1));
		} else if (ph[0] == 'f') {
			gsize s = GPOINTER_TO_SIZE(g_hash_table_lookup(flows, id));

			g_assert_cmpuint(s, >, 0);
			g_assert_cmpint((gint64)s - 1, <=, ns_of(o, "ts"));
		}
	}
	{
		GHashTableIter it;
		gpointer k, v;

		g_hash_table_iter_init(&it, open);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_assert_cmpuint(((GPtrArray *)v)->len, ==, 0);
	}
}

static JsonArray *parse(JsonParser *p, const char *json)
{
	g_autoptr(GError) err = NULL;
	JsonObject *root;

	g_assert_true(json_parser_load_from_data(p, json, -1, &err));
	g_assert_no_error(err);
	root = json_node_get_object(json_parser_get_root(p));
	g_assert_cmpstr(json_object_get_string_member(json_object_get_object_member(root,
			"otherData"), "clock"), ==, "QEMU_CLOCK_VIRTUAL");
	return json_object_get_array_member(root, "traceEvents");
}

/* The slice named name on track tid, or NULL. */
static const Slice *find_x(const GArray *xs, gint64 tid, const char *name)
{
	for (guint i = 0; i < xs->len; i++) {
		const Slice *x = &g_array_index(xs, Slice, i);

		if (x->tid == tid && !strcmp(x->name, name))
			return x;
	}
	return NULL;
}

/*
 * Two vCPUs: an event whose thread ran on CPU 1 (overlapping the next
 * event's raise), a probe record, an unhandled one; two explained windows
 * that overlap on CPU 1.
 */
static void test_two_vcpus(void)
{
	const struct irqstorm_record recs[] = {
		{ .seq = 1, .channel = 0, .t_raise = 1000001, .t_hardirq = 1002003,
		  .t_thread = 1009000, .t_done = 1009400, .cpu_hardirq = 0, .cpu_thread = 1,
		  .cpu_done = 1, .cpu_bh = 0xff,
		  .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD | IRQSTORM_REC_DONE },
		{ .seq = 2, .channel = 0, .t_raise = 1005000, .t_hardirq = 1006000,
		  .t_done = 1006500, .cpu_hardirq = 0, .cpu_done = 0, .cpu_thread = 0xff,
		  .cpu_bh = 0xff, .flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_DONE },
		{ .seq = 3, .t_raise = 2000000, .t_done = 2000750, .cpu_done = 1,
		  .cpu_hardirq = 0xff, .cpu_thread = 0xff, .cpu_bh = 0xff,
		  .flags = IRQSTORM_REC_PROBE | IRQSTORM_REC_DONE },
		{ .seq = 4, .t_raise = 3000000, .flags = IRQSTORM_REC_INCOMPLETE },
	};
	const IrqstormTimelineSpan sp[] = {
		{ 1, 1002003, 1004000, "__schedule", "IRQ thread" },
		{ 1, 1004000, 1009000, "irq_thread_fn", "IRQ thread" },
		{ 1, 1003000, 1005000, "__schedule", "IRQ thread" },	/* overlaps */
		{ 1, 1009000, 1009400, "irqstorm_thread", "hard interrupt over IRQ thread" },
	};
	g_autoptr(GArray) records = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	g_autoptr(GArray) spans = g_array_new(FALSE, FALSE, sizeof(IrqstormTimelineSpan));
	g_autoptr(JsonParser) p = json_parser_new();
	g_autofree char *json = NULL;
	g_autoptr(GArray) xs = NULL;
	JsonArray *evs;
	const Slice *ctx, *sch;
	guint n = 0;

	g_array_append_vals(records, recs, G_N_ELEMENTS(recs));
	g_array_append_vals(spans, sp, G_N_ELEMENTS(sp));
	json = irqstorm_timeline_json(records, 2, spans, NULL, "a \"run\"");
	/* Exact times: the ns are the decimals. */
	g_assert_nonnull(strstr(json, "\"ts\":1000.001"));
	g_assert_nonnull(strstr(json, "\"ts\":1002.003"));
	evs = parse(p, json);
	check_rules(evs);
	xs = slices_of(evs);
	for (gint64 tid = 0; tid <= TID_EXPLAINED(1); tid++)
		check_nesting(xs, tid);
	/* The raise on the device's track, the done on CPU 1's, a flow between. */
	g_assert_nonnull(find_x(xs, 0, "raise"));
	g_assert_nonnull(find_x(xs, TID_CPU(1), "done"));
	/* The probe's expected and wake-up on its CPU's track. */
	g_assert_nonnull(find_x(xs, TID_CPU(1), "expected"));
	g_assert_nonnull(find_x(xs, TID_CPU(1), "wake-up"));
	/* The context holds its functions; the overlap is shown once. */
	ctx = find_x(xs, TID_EXPLAINED(1), "IRQ thread");
	g_assert_nonnull(ctx);
	g_assert_cmpint(ctx->from, ==, 1002003);
	g_assert_cmpint(ctx->to, ==, 1009000);
	g_assert_nonnull(find_x(xs, TID_EXPLAINED(1), "irqstorm_thread"));
	/* __schedule, then its overlap's rest right after it: one slice. */
	sch = find_x(xs, TID_EXPLAINED(1), "__schedule");
	g_assert_cmpint(sch->from, ==, 1002003);
	g_assert_cmpint(sch->to, ==, 1005000);
	for (guint i = 0; i < xs->len; i++)
		n += !strcmp(g_array_index(xs, Slice, i).name, "__schedule");
	g_assert_cmpuint(n, ==, 1);
	g_assert_nonnull(strstr(json, "\"CPU 1 explained\""));
	g_assert_null(strstr(json, "\"CPU 0 explained\""));
	g_assert_null(strstr(json, "tasks\""));
	g_assert_null(strstr(json, "#4"));	/* unhandled: not an event */
}

/* One vCPU, no explained windows: the default run's shape. */
static void test_one_vcpu(void)
{
	g_autoptr(GArray) records = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	g_autoptr(JsonParser) p = json_parser_new();
	g_autofree char *json = NULL;
	g_autoptr(GArray) xs = NULL;
	JsonArray *evs;

	for (guint64 i = 1; i <= 100; i++) {
		struct irqstorm_record r = {
			.seq = i, .t_raise = i * 500000, .t_hardirq = i * 500000 + 3000 + i * 7,
			.t_thread = i * 500000 + 17000, .t_done = i * 500000 + 17400,
			.cpu_bh = 0xff,
			.flags = IRQSTORM_REC_HARDIRQ | IRQSTORM_REC_THREAD | IRQSTORM_REC_DONE,
		};

		g_array_append_val(records, r);
	}
	json = irqstorm_timeline_json(records, 1, NULL, NULL, "default");
	evs = parse(p, json);
	check_rules(evs);
	xs = slices_of(evs);
	check_nesting(xs, 0);
	check_nesting(xs, 1);
	g_assert_null(strstr(json, "\"CPU 1\""));
	g_assert_nonnull(strstr(json, "\"CPU 0\""));
}

/* The nesting check can fail: two slices that overlap without nesting. */
static void test_checker(void)
{
	if (g_test_subprocess()) {
		g_autoptr(JsonParser) p = json_parser_new();
		JsonArray *evs = parse(p, "{\"otherData\":{\"clock\":\"QEMU_CLOCK_VIRTUAL\"},"
			"\"traceEvents\":["
			"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":1.000,\"dur\":2.000,\"name\":\"a\"},"
			"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":2.000,\"dur\":2.000,\"name\":\"b\"}]}");
		g_autoptr(GArray) xs = slices_of(evs);

		check_nesting(xs, 1);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*b [2000, 4000) overlaps a [1000, 3000) without nesting*");
}

/*
 * The whole run's tasks: the plugin's tasks file (switches, entries and
 * exits, irq lines) into slices, tasks from switch to switch with their
 * interrupts nested and named; on the tasks' tracks of the timeline.
 */
static void test_tasks(void)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *map = g_build_filename(dir, "System.map", NULL);
	g_autofree char *path = g_build_filename(dir, "tasks.txt", NULL);
	g_autofree char *json = NULL;
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) pts = NULL, tasks = NULL;
	g_autoptr(GArray) records = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	g_autoptr(JsonParser) p = json_parser_new();
	g_autoptr(GArray) xs = NULL;
	JsonArray *evs;
	const Slice *o;

	g_assert_true(g_file_set_contents(map,
		"ffffffff81000000 T _stext\n"
		"ffffffff81400b40 T asm_common_interrupt\n"
		"ffffffff81400bf0 T asm_sysvec_apic_timer_interrupt\n"
		"ffffffff81400d00 T irqentry_exit\n"
		"ffffffff81600000 T _etext\n", -1, NULL));
	pts = irqstorm_irqentry_points(map, &err);
	g_assert_no_error(err);
	/* CPU 0: idle, a device interrupt (IRQ 21) with the timer nested in
	 * it, the IRQ thread, an exception's exit, idle again; CPU 1: one
	 * task, a timer interrupt still running as the run ends. */
	g_assert_true(g_file_set_contents(path,
		"# irqstorm tasks: start_ns vaddr vcpu; task and irq lines\n"
		"task 1000 0 0 0 0 120 swapper/0\n"
		"task 1005 1 30 0 0 120 sh\n"
		"2000 ffffffff81400b40 0\n"
		"irq 2100 0 21 irqstorm0\n"
		"2200 ffffffff81400bf0 0\n"
		"2300 ffffffff81400d00 0\n"
		"2400 ffffffff81400d00 0\n"
		"task 2500 0 51 1 50 120 irq/21-irqstorm0\n"
		"2600 ffffffff81400d00 0\n"
		"task 3000 0 0 0 0 120 swapper/0\n"
		"3500 ffffffff81400bf0 1\n"
		"4000 ffffffff81400bf0 0\n"
		"4100 ffffffff81400d00 0\n"
		"# end 14 lines\n", -1, NULL));
	tasks = irqstorm_tasks_read(path, pts, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(tasks->len, ==, 7);
	/* By vCPU, then time, a parent before what nests in it. */
	{
		const IrqstormTaskSlice want[] = {
			{ 0, 1000, 2500, "swapper/0 (idle, pid 0)", FALSE },
			{ 0, 2000, 2400, "IRQ 21 (irqstorm0)", TRUE },
			{ 0, 2200, 2300, "timer interrupt", TRUE },
			{ 0, 2500, 3000, "irq/21-irqstorm0 (pid 51, FIFO 50)", FALSE },
			{ 0, 3000, 4100, "swapper/0 (idle, pid 0)", FALSE },
			{ 0, 4000, 4100, "timer interrupt", TRUE },
			{ 1, 1005, 3500, "sh (pid 30, OTHER nice 0)", FALSE },
		};

		for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
			const IrqstormTaskSlice *t = &g_array_index(tasks, IrqstormTaskSlice, i);

			g_assert_cmpuint(t->cpu, ==, want[i].cpu);
			g_assert_cmpuint(t->from_ns, ==, want[i].from_ns);
			g_assert_cmpuint(t->to_ns, ==, want[i].to_ns);
			g_assert_cmpstr(t->name, ==, want[i].name);
			g_assert_cmpint(t->interrupt, ==, want[i].interrupt);
		}
	}
	/* Written and read back the same; on the tasks' tracks, nested. */
	{
		g_autofree char *tj = g_build_filename(dir, "tasks.json", NULL);
		g_autoptr(GArray) back = NULL;

		g_assert_true(irqstorm_tasks_write(tasks, tj, &err));
		back = irqstorm_tasks_load(tj, &err);
		g_assert_no_error(err);
		g_assert_cmpuint(back->len, ==, tasks->len);
		for (guint i = 0; i < back->len; i++) {
			const IrqstormTaskSlice *x = &g_array_index(back, IrqstormTaskSlice, i);
			const IrqstormTaskSlice *y = &g_array_index(tasks, IrqstormTaskSlice, i);

			g_assert_true(x->cpu == y->cpu && x->from_ns == y->from_ns &&
				      x->to_ns == y->to_ns && x->name == y->name &&
				      x->interrupt == y->interrupt);	/* names interned */
		}
	}
	json = irqstorm_timeline_json(records, 2, NULL, tasks, "tasks");
	evs = parse(p, json);
	check_rules(evs);
	xs = slices_of(evs);
	for (gint64 tid = 0; tid <= TID_EXPLAINED(1); tid++)
		check_nesting(xs, tid);
	o = find_x(xs, TID_TASKS(0), "IRQ 21 (irqstorm0)");
	g_assert_nonnull(o);
	g_assert_cmpstr(o->cat, ==, "interrupt");
	g_assert_cmpint(o->from, ==, 2000);
	g_assert_cmpint(o->to, ==, 2400);
	g_assert_nonnull(find_x(xs, TID_TASKS(1), "sh (pid 30, OTHER nice 0)"));
	g_assert_nonnull(strstr(json, "\"CPU 1 tasks\""));
	/* A file QEMU did not finish is refused. */
	g_assert_true(g_file_set_contents(path, "# irqstorm tasks\ntask 1 0 0 0 0 120 a\n",
					  -1, NULL));
	g_assert_null(irqstorm_tasks_read(path, pts, &err));
	g_assert_error(err, G_FILE_ERROR, G_FILE_ERROR_INVAL);
}

/* The begin/end check can fail: an end that is not the innermost's. */
static void test_checker_ends(void)
{
	if (g_test_subprocess()) {
		g_autoptr(JsonParser) p = json_parser_new();
		JsonArray *evs = parse(p, "{\"otherData\":{\"clock\":\"QEMU_CLOCK_VIRTUAL\"},"
			"\"traceEvents\":["
			"{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":1.000,\"name\":\"a\"},"
			"{\"ph\":\"B\",\"pid\":1,\"tid\":2,\"ts\":2.000,\"name\":\"b\"},"
			"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":3.000,\"name\":\"a\"},"
			"{\"ph\":\"E\",\"pid\":1,\"tid\":2,\"ts\":4.000,\"name\":\"b\"}]}");
		g_autoptr(GArray) xs = slices_of(evs);

		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*top.name == s.name*");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/timeline/checker", test_checker);
	g_test_add_func("/timeline/checker-ends", test_checker_ends);
	g_test_add_func("/timeline/two-vcpus", test_two_vcpus);
	g_test_add_func("/timeline/one-vcpu", test_one_vcpu);
	g_test_add_func("/timeline/tasks", test_tasks);
	return g_test_run();
}
