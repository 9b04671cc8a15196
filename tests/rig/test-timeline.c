// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A run as a Chrome trace-event timeline (core/timeline.h), checked by the
 * format's own rules: known phases only, complete slices ("X") on each
 * track properly nested, async slices ("b"/"e") of an event balanced and
 * nested in order, each flow's start before its end, times exact to the
 * ns; and what the tracks hold: an event's points on its vCPUs' tracks,
 * explained functions nested under their context, overlapping explained
 * windows shown once.
 */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "core/timeline.h"

typedef struct {
	double from, to;
	const char *name;
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
 * The X slices of track tid nest: in start order (the longer first), each
 * lies inside the last one still open at its start, or after it.
 */
static void check_nesting(JsonArray *evs, gint64 tid)
{
	g_autoptr(GArray) xs = g_array_new(FALSE, FALSE, sizeof(Slice));
	g_autoptr(GArray) stack = g_array_new(FALSE, FALSE, sizeof(Slice));

	for (guint i = 0; i < json_array_get_length(evs); i++) {
		JsonObject *o = json_array_get_object_element(evs, i);
		Slice s;

		if (strcmp(json_object_get_string_member(o, "ph"), "X") ||
		    json_object_get_int_member(o, "tid") != tid)
			continue;
		s.from = ns_of(o, "ts");
		s.to = s.from + ns_of(o, "dur");
		s.name = json_object_get_string_member(o, "name");
		g_array_append_val(xs, s);
	}
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

		g_assert_true(strchr("MXbesf", ph[0]) && !ph[1]);
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

/* The X slice named name on track tid, or NULL. */
static JsonObject *find_x(JsonArray *evs, gint64 tid, const char *name)
{
	for (guint i = 0; i < json_array_get_length(evs); i++) {
		JsonObject *o = json_array_get_object_element(evs, i);

		if (!strcmp(json_object_get_string_member(o, "ph"), "X") &&
		    json_object_get_int_member(o, "tid") == tid &&
		    !strcmp(json_object_get_string_member(o, "name"), name))
			return o;
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
	JsonArray *evs;
	JsonObject *ctx;

	g_array_append_vals(records, recs, G_N_ELEMENTS(recs));
	g_array_append_vals(spans, sp, G_N_ELEMENTS(sp));
	json = irqstorm_timeline_json(records, 2, spans, "a \"run\"");
	/* Exact times: the ns are the decimals. */
	g_assert_nonnull(strstr(json, "\"ts\":1000.001"));
	g_assert_nonnull(strstr(json, "\"ts\":1002.003"));
	evs = parse(p, json);
	check_rules(evs);
	for (gint64 tid = 0; tid <= 2; tid++)
		check_nesting(evs, tid);
	/* The raise on the device's track, the done on CPU 1's, a flow between. */
	g_assert_nonnull(find_x(evs, 0, "raise"));
	g_assert_nonnull(find_x(evs, 2, "done"));
	/* The probe's expected and wake-up on its CPU's track. */
	g_assert_nonnull(find_x(evs, 2, "expected"));
	g_assert_nonnull(find_x(evs, 2, "wake-up"));
	/* The context holds its functions; the overlap is shown once. */
	ctx = find_x(evs, 2, "IRQ thread");
	g_assert_nonnull(ctx);
	g_assert_cmpint(ns_of(ctx, "ts"), ==, 1002003);
	g_assert_cmpint(ns_of(ctx, "dur"), ==, 1009000 - 1002003);
	g_assert_nonnull(find_x(evs, 2, "irqstorm_thread"));
	g_assert_null(strstr(json, "#4"));	/* unhandled: not an event */
}

/* One vCPU, no explained windows: the default run's shape. */
static void test_one_vcpu(void)
{
	g_autoptr(GArray) records = g_array_new(FALSE, FALSE, sizeof(struct irqstorm_record));
	g_autoptr(JsonParser) p = json_parser_new();
	g_autofree char *json = NULL;
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
	json = irqstorm_timeline_json(records, 1, NULL, "default");
	evs = parse(p, json);
	check_rules(evs);
	check_nesting(evs, 0);
	check_nesting(evs, 1);
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

		check_nesting(evs, 1);
		return;
	}
	g_test_trap_subprocess(NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
	g_test_trap_assert_failed();
	g_test_trap_assert_stderr("*b [2000, 4000) overlaps a [1000, 3000) without nesting*");
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/timeline/checker", test_checker);
	g_test_add_func("/timeline/two-vcpus", test_two_vcpus);
	g_test_add_func("/timeline/one-vcpu", test_one_vcpu);
	return g_test_run();
}
