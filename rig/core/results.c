// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Results of a run: see results.h.
 */
#include "results.h"

#include <errno.h>
#include <sys/utsname.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "irqstorm/abi.h"
#include "marker.h"
#include "output.h"
#include "stages.h"
#include "summary-keys.h"

#define RESULT_TAG "IRQSTORM-RESULT "
#define SUMMARY_FILE_VERSION 1

/* The key=value pairs of the last IRQSTORM-RESULT line, or NULL. */
GHashTable *irqstorm_parse_result_line(const char *text)
{
	const char *line = NULL;
	const char *p = text;
	g_autofree char *copy = NULL;
	g_auto(GStrv) words = NULL;
	GHashTable *kv;

	while ((p = strstr(p, RESULT_TAG))) {
		if (p == text || p[-1] == '\n')
			line = p;
		p += strlen(RESULT_TAG);
	}
	if (!line)
		return NULL;
	line += strlen(RESULT_TAG);
	copy = g_strndup(line, strcspn(line, "\r\n"));
	words = g_strsplit_set(copy, " \t", -1);
	kv = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	for (gsize i = 0; words[i]; i++) {
		char *eq = strchr(words[i], '=');

		if (eq && eq != words[i])
			g_hash_table_replace(kv, g_strndup(words[i], eq - words[i]),
					     g_strdup(eq + 1));
	}
	return kv;
}

/* The time stamp of the last kernel log line ("[   2.621317] ..."), in
 * seconds of the guest's clock: its uptime at poweroff. -1 when none. */
double irqstorm_last_printk_time(const char *text)
{
	const char *p = text;
	double last = -1;

	while ((p = strchr(p, '['))) {
		char *end = NULL;
		double t;

		if (p == text || p[-1] == '\n') {
			t = g_ascii_strtod(p + 1, &end);
			if (end && end != p + 1 && *end == ']' && t >= 0)
				last = t;
		}
		p++;
	}
	return last;
}

/*
 * Kernel log lines a latency engineer wants to know about, without their
 * time stamp: the spurious-interrupt detector disabling a line, lockups,
 * stalls, warnings and bugs.
 */
GPtrArray *irqstorm_kernel_events(const char *text)
{
	static const char *const needles[] = {
		"nobody cared", "Disabling IRQ #", "soft lockup", "hard LOCKUP",
		"rcu_preempt detected stalls", "rcu_sched detected stalls",
		"blocked for more than", "WARNING:", "BUG:", "Oops",
		"Flags mismatch", "cannot request IRQ",
	};
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	for (gsize i = 0; lines[i]; i++) {
		const char *l = lines[i];

		for (gsize k = 0; k < G_N_ELEMENTS(needles); k++) {
			g_autofree char *e = NULL;

			if (!strstr(l, needles[k]))
				continue;
			if (l[0] == '[' && strchr(l, ']'))
				l = strchr(l, ']') + 1;
			e = g_strstrip(g_strdup(l));
			/* The guest's init may show the kernel log again. */
			if (!g_ptr_array_find_with_equal_func(out, e, g_str_equal, NULL))
				g_ptr_array_add(out, g_steal_pointer(&e));
			break;
		}
	}
	return out;
}

static void read_console(IrqstormResults *res, const char *path)
{
	g_autofree char *text = NULL;

	res->guest_uptime_s = -1;
	if (path && g_file_get_contents(path, &text, NULL, NULL)) {
		res->guest = irqstorm_parse_result_line(text);
		res->guest_uptime_s = irqstorm_last_printk_time(text);
		g_ptr_array_unref(res->kernel_events);
		res->kernel_events = irqstorm_kernel_events(text);
	}
}

static const char *guest_value(const IrqstormResults *res, const char *key)
{
	return res->guest ? g_hash_table_lookup(res->guest, key) : NULL;
}

/* A guest counter as a number; FALSE if absent or not a number. */
static gboolean guest_u64(const IrqstormResults *res, const char *key, guint64 *v)
{
	const char *s = guest_value(res, key);

	return s && g_ascii_string_to_unsigned(s, 10, 0, G_MAXUINT64, v, NULL);
}

/* Why the run is incomplete, or NULL when it ended as planned. */
static char *incomplete_reason(const IrqstormResults *res)
{
	const char *status = guest_value(res, "status");

	if (res->outcome->stop_reason)
		return g_strdup(res->outcome->stop_reason);
	if (!res->outcome->guest_shutdown)
		return g_strdup("the guest never powered off");
	if (!status)
		return g_strdup_printf("the guest stopped (QEMU SHUTDOWN, reason "
				       "%s) without a result line; see console.log",
				       res->outcome->shutdown_reason);
	if (g_strcmp0(status, "ok")) {
		GString *why = g_string_new(NULL);

		g_string_printf(why, "the guest reported status=%s reason=%s", status,
				guest_value(res, "reason") ?: "?");
		/* What the kernel said is usually the real answer. */
		for (guint i = 0; i < res->kernel_events->len; i++)
			g_string_append_printf(why, "%s%s", i ? "; " : "; kernel: ",
					       (char *)res->kernel_events->pdata[i]);
		return g_string_free(why, FALSE);
	}
	if (!res->outcome->have_counters)
		return g_strdup_printf("device counters unreadable: %s",
				       res->outcome->counters_error ?: "?");
	if (!res->outcome->data)
		return g_strdup("the shared log was never read");
	if (res->outcome->data->error)
		return g_strdup_printf("reading the shared log failed: %s",
				       res->outcome->data->error->message);
	for (guint i = 0; i < res->outcome->changes->len; i++) {
		const IrqstormAppliedChange *a = &g_array_index(res->outcome->changes,
								IrqstormAppliedChange, i);

		if (a->error)
			return g_strdup_printf("QEMU refused the change '%s': %s",
					       a->change->assignment, a->error);
	}
	if (res->outcome->changes->len < res->set->scenario->changes->len)
		return g_strdup_printf("the storm ended before every [changes] entry "
				       "was applied (%u of %u)", res->outcome->changes->len,
				       res->set->scenario->changes->len);
	return NULL;
}

static void check_eq(IrqstormResults *res, const char *what, guint64 a,
		     const char *what_b, guint64 b)
{
	if (a != b)
		g_ptr_array_add(res->failed_checks,
				g_strdup_printf("%s = %" G_GUINT64_FORMAT " but %s = %"
						G_GUINT64_FORMAT, what, a, what_b, b));
}

/*
 * The guest's number under key must be there, and equal b, or with at_least
 * be no less than b.
 */
static void check_guest(IrqstormResults *res, const char *key, gboolean at_least,
			const char *what_b, guint64 b)
{
	guint64 v;

	if (!guest_u64(res, key, &v))
		g_ptr_array_add(res->failed_checks,
				g_strdup_printf("the guest did not report %s", key));
	else if (at_least ? v < b : v != b)
		g_ptr_array_add(res->failed_checks,
				g_strdup_printf("guest %s = %" G_GUINT64_FORMAT " but %s %s %"
						G_GUINT64_FORMAT, key, v, what_b,
						at_least ? ">=" : "=", b));
}

/* Item n of a guest value "v0,v1,...", as a number; FALSE if absent. */
static gboolean guest_item(const IrqstormResults *res, const char *key, guint n,
			   guint64 *v)
{
	const char *s = guest_value(res, key);
	g_auto(GStrv) items = s ? g_strsplit(s, ",", -1) : NULL;

	return items && n < g_strv_length(items) &&
	       g_ascii_string_to_unsigned(items[n], 10, 0, G_MAXUINT64, v, NULL);
}

/* Guest, device and host must tell the same story about channel n. */
static void check_channel(IrqstormResults *res, guint n)
{
	const IrqstormDeviceCounters *dev = &res->outcome->device.ch[n];
	const IrqstormTally *host = &res->outcome->data->ch[n];
	g_autofree char *dh = g_strdup_printf("device ch%u-handled", n);
	g_autofree char *di = NULL;
	g_autofree char *what = NULL;
	guint64 guest;

	if (!guest_item(res, "handled", n, &guest)) {
		g_ptr_array_add(res->failed_checks, g_strdup_printf(
			"the guest did not report channel %u's handled count", n));
		return;
	}
	what = g_strdup_printf("guest channel %u handled", n);
	check_eq(res, what, guest, dh, dev->handled);
	g_free(what);
	/* With stamps off there are no records: the device counts acks. */
	if (res->set->scenario->stamps) {
		what = g_strdup_printf("channel %u records with a done stamp", n);
		check_eq(res, what, host->done_records, dh, dev->handled);
		g_free(what);
		what = g_strdup_printf("channel %u records marked incomplete", n);
		di = g_strdup_printf("device ch%u-incomplete", n);
		check_eq(res, what, host->incomplete_records, di, dev->incomplete);
		g_free(what);
	}
	/* Every firing is an event, merged into one, or dropped at a full
	 * queue; every event done, left without done, or still in flight:
	 * none vanished. */
	what = g_strdup_printf("device ch%u-raised", n);
	check_eq(res, what, dev->raised,
		 "handled + coalesced + dropped + incomplete + in flight",
		 dev->handled + dev->coalesced + dev->dropped + dev->incomplete +
		 dev->in_flight);
}

/* Seconds of virtual time between two device times. */
static double storm_s(guint64 from_ns, guint64 to_ns)
{
	return ((double)to_ns - (double)from_ns) / 1e9;
}

/*
 * The livelock: the guest did not stop the storm within [run] grace of its
 * duration, so the device ended it at its bound. What it raised and what
 * became of it by then, and when (if ever) the guest's init got to stop.
 */
static char *livelock_text(const IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormDeviceStorm *st = &res->outcome->device.storm;
	double bound = (sc->duration_ms + sc->grace_ms) / 1e3;
	double length = storm_s(st->start_ns, st->end_ns);
	IrqstormDeviceCounters sum = { 0 };
	GString *t = g_string_new(NULL);

	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		sum.raised += res->outcome->device.ch[n].raised;
		sum.coalesced += res->outcome->device.ch[n].coalesced;
		sum.dropped += res->outcome->device.ch[n].dropped;
		sum.incomplete += res->outcome->device.ch[n].incomplete;
	}
	g_string_printf(t, "livelock: the guest did not stop the storm within "
			"%.3f s of its %.3f s ([run] grace); the device ended it "
			"%.3f s after it began", sc->grace_ms / 1e3,
			sc->duration_ms / 1e3, length);
	if (length > bound + 1e-6)
		g_string_append_printf(t, " (its bound was %.3f s: QEMU ran behind "
				       "the storm's schedule)", bound);
	g_string_append_printf(t, "; of the %" G_GUINT64_FORMAT " firings, %"
			       G_GUINT64_FORMAT " were handled during the storm, %"
			       G_GUINT64_FORMAT " dropped at a full queue, %"
			       G_GUINT64_FORMAT " merged into others and %"
			       G_GUINT64_FORMAT " still waiting at its end; ",
			       sum.raised, sum.raised - sum.dropped - sum.coalesced -
			       sum.incomplete - st->backlog, sum.dropped,
			       sum.coalesced, st->backlog);
	if (st->guest_stop_ns)
		g_string_append_printf(t, "the guest's init got to stop it %.3f s "
				       "after its end", storm_s(st->end_ns,
								 st->guest_stop_ns));
	else
		g_string_append(t, "the guest's init never got to stop it");
	return g_string_free(t, FALSE);
}

/* Cross-checks between the three witnesses: guest, device and host. */
static void run_checks(IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;
	guint mask = irqstorm_scenario_channel_mask(sc);

	check_eq(res, "records lost by the ring", d->lost, "expected", 0);
	check_eq(res, "device log-lost", res->outcome->device.lost, "the log header's lost", d->lost);
	check_eq(res, "records read by the host", d->records,
		 "records published by the device", res->outcome->device.published);
	check_eq(res, "records of unknown channels", d->foreign_records, "expected", 0);
	check_eq(res, "device guest-errors", res->outcome->device.guest_errors, "expected", 0);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (mask & 1u << n)
			check_channel(res, n);
	check_eq(res, "probe records read", d->probe_records, "device probes",
		 res->outcome->device.probes);
	if (sc->probe)
		check_guest(res, "probe_samples", FALSE, "device probes", res->outcome->device.probes);
	/* cyclictest runs from before the storm to after it. */
	if (sc->cyclictest)
		check_guest(res, "cyclictest_cycles", TRUE, "the storm's whole periods",
			    irqstorm_scenario_cyclictest_min_cycles(sc));
}

/* The guest stalled: a spin-wait that gave up, or a line the kernel shut. */
static gboolean check_stalls(IrqstormResults *res)
{
	const char *i8042 = guest_value(res, "i8042");
	guint64 v;

	if (i8042 && g_str_has_prefix(i8042, "timeout"))
		g_ptr_array_add(res->stalls, g_strdup_printf(
			"the i8042 region timed out (%s ns): the interrupt it waited for "
			"was not handled while it spun with preemption disabled",
			i8042 + strlen("timeout:")));
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (guest_item(res, "spin_timeouts", n, &v) && v)
			g_ptr_array_add(res->stalls, g_strdup_printf(
				"channel %u: %" G_GUINT64_FORMAT " spin work items timed "
				"out", n, v));
	if (res->outcome->device.storm.device_end)
		g_ptr_array_add(res->stalls, livelock_text(res));
	for (guint i = 0; i < res->kernel_events->len; i++) {
		const char *e = res->kernel_events->pdata[i];

		if (strstr(e, "Disabling IRQ #"))
			g_ptr_array_add(res->stalls, g_strdup_printf(
				"the kernel disabled an interrupt line: %s", e));
	}
	return res->stalls->len > 0;
}

/* Each scenario threshold against the all-channel stage it bounds;
 * TRUE if any was exceeded. */
static gboolean check_thresholds(IrqstormResults *res)
{
	const GArray *ts = res->set->scenario->thresholds;
	gboolean any = FALSE;

	for (guint i = 0; i < ts->len; i++) {
		IrqstormLimitResult r = {
			.threshold = &g_array_index(ts, IrqstormThreshold, i),
		};
		IrqstormStage st;
		const IrqstormHist *h;

		if (!irqstorm_stage_from_name(r.threshold->stage, &st))
			continue;	/* the parser admits stage names only */
		h = res->outcome->data->all.hist[st];
		r.measured = irqstorm_hist_count(h) > 0;
		if (r.measured) {
			switch (r.threshold->stat) {
			case IRQSTORM_LIMIT_MAX:
				r.value_ns = irqstorm_hist_max(h);
				break;
			case IRQSTORM_LIMIT_P99:
				r.value_ns = irqstorm_hist_percentile(h, 99.0);
				break;
			case IRQSTORM_LIMIT_P99_9:
				r.value_ns = irqstorm_hist_percentile(h, 99.9);
				break;
			case IRQSTORM_LIMIT_AVG:
			case IRQSTORM_LIMIT_COUNT:
				r.value_ns = (guint64)irqstorm_hist_avg(h);
				break;
			}
			r.exceeded = r.value_ns > r.threshold->limit_ns;
		}
		any |= r.exceeded;
		g_array_append_val(res->limits, r);
	}
	return any;
}

/* ---- summary.json ----------------------------------------------------- */

static void add_u64(JsonBuilder *b, const char *name, guint64 v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, (gint64)v);
}

static void add_str(JsonBuilder *b, const char *name, const char *v)
{
	json_builder_set_member_name(b, name);
	if (v)
		json_builder_add_string_value(b, v);
	else
		json_builder_add_null_value(b);
}

static void add_strings(JsonBuilder *b, const char *name, const GPtrArray *a)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < a->len; i++)
		json_builder_add_string_value(b, a->pdata[i]);
	json_builder_end_array(b);
}

static void add_changes(JsonBuilder *b, const IrqstormResults *res)
{
	json_builder_set_member_name(b, "changes");
	json_builder_begin_array(b);
	for (guint i = 0; i < res->outcome->changes->len; i++) {
		const IrqstormAppliedChange *a = &g_array_index(res->outcome->changes,
								IrqstormAppliedChange, i);

		json_builder_begin_object(b);
		json_builder_set_member_name(b, "at_s");
		json_builder_add_double_value(b, a->change->at_ns / 1e9);
		add_str(b, "set", a->change->assignment);
		add_str(b, "property", a->change->qom_property);
		json_builder_set_member_name(b, "applied_at_virtual_s");
		json_builder_add_double_value(b, a->applied_at_s);
		add_str(b, "error", a->error);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void add_thresholds(JsonBuilder *b, const IrqstormResults *res)
{
	json_builder_set_member_name(b, "thresholds");
	json_builder_begin_array(b);
	for (guint i = 0; i < res->limits->len; i++) {
		const IrqstormLimitResult *r = &g_array_index(res->limits,
							      IrqstormLimitResult, i);

		json_builder_begin_object(b);
		add_str(b, "stage", r->threshold->stage);
		add_str(b, "stat", irqstorm_limit_stat_name(r->threshold->stat));
		add_u64(b, "limit_ns", r->threshold->limit_ns);
		json_builder_set_member_name(b, "value_ns");
		if (r->measured)
			json_builder_add_int_value(b, r->value_ns);
		else
			json_builder_add_null_value(b);
		json_builder_set_member_name(b, "exceeded");
		json_builder_add_boolean_value(b, r->exceeded);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* An identity file (key=value lines from the build scripts) as an object. */
static void add_identity(JsonBuilder *b, const char *name, const char *dir,
			 const char *file)
{
	g_autofree char *path = g_build_filename(dir, file, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;

	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	if (g_file_get_contents(path, &text, NULL, NULL)) {
		lines = g_strsplit(text, "\n", -1);
		for (gsize i = 0; lines[i]; i++) {
			char *eq = strchr(lines[i], '=');

			if (!eq)
				continue;
			*eq = '\0';
			add_str(b, lines[i], eq + 1);
		}
	}
	json_builder_end_object(b);
}

static void add_sysinfo(JsonBuilder *b, const IrqstormScenario *sc)
{
	struct utsname u;

	json_builder_set_member_name(b, "sysinfo");
	json_builder_begin_object(b);
	if (uname(&u) == 0) {
		add_str(b, "host_sysname", u.sysname);
		add_str(b, "host_release", u.release);
		add_str(b, "host_machine", u.machine);
	}
	add_str(b, "accel", irqstorm_accel_name(sc->accel));
	json_builder_set_member_name(b, "icount_shift");
	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF)
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, sc->icount_shift);
	/* Changes over QMP land when QEMU's main loop gets to them: in
	 * virtual time that is not reproducible. */
	json_builder_set_member_name(b, "deterministic");
	json_builder_add_boolean_value(b, sc->icount_shift != IRQSTORM_ICOUNT_OFF &&
				       sc->cpus == 1 && !sc->changes->len);
	json_builder_set_member_name(b, "smp_icount_artifacts");
	json_builder_add_boolean_value(b, sc->icount_shift != IRQSTORM_ICOUNT_OFF &&
				       sc->cpus > 1);
	add_u64(b, "cpus", sc->cpus);
	json_builder_end_object(b);
}

/* A tally's counts, as members of the object being built. */
static void add_tally_counts(JsonBuilder *b, const IrqstormTally *t)
{
	add_u64(b, "records", t->records);
	add_u64(b, "done_records", t->done_records);
	add_u64(b, "incomplete_records", t->incomplete_records);
	add_u64(b, "coalesced_events", t->coalesced_events);
	add_u64(b, "coalesced_raises", t->coalesced_raises);
	add_u64(b, "overlap_events", t->overlap_events);
	add_u64(b, "work", t->work);
}

static void add_device_counts(JsonBuilder *b, const IrqstormDeviceCounters *c)
{
	add_u64(b, "raised", c->raised);
	add_u64(b, "coalesced", c->coalesced);
	add_u64(b, "overlapped", c->overlapped);
	add_u64(b, "dropped", c->dropped);
	add_u64(b, "handled", c->handled);
	add_u64(b, "incomplete", c->incomplete);
	add_u64(b, "in_flight", c->in_flight);
	add_u64(b, "queue_max", c->queue_max);
	add_u64(b, "pio_reads", c->pio_reads);
	add_u64(b, "ready_polls", c->ready_polls);
}

/* A guest value: a number, a list of numbers, or else a string. */
static void add_guest_value(JsonBuilder *b, const char *key, const char *val)
{
	g_auto(GStrv) items = g_strsplit(val, ",", -1);
	gboolean numbers = items[0] != NULL;
	guint64 v;

	for (gsize i = 0; items[i]; i++)
		numbers = numbers && g_ascii_string_to_unsigned(items[i], 10, 0,
								G_MAXUINT64, &v, NULL);
	json_builder_set_member_name(b, key);
	if (!numbers) {
		json_builder_add_string_value(b, val);
	} else if (!items[1]) {
		json_builder_add_int_value(b, g_ascii_strtoull(val, NULL, 10));
	} else {
		json_builder_begin_array(b);
		for (gsize i = 0; items[i]; i++)
			json_builder_add_int_value(b, g_ascii_strtoull(items[i], NULL, 10));
		json_builder_end_array(b);
	}
}

static void add_counts(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormCollected *d = res->outcome->data;
	IrqstormDeviceCounters total = { 0 };

	json_builder_set_member_name(b, "host");
	json_builder_begin_object(b);
	if (d) {
		add_tally_counts(b, &d->all);
		add_u64(b, "all_records", d->records);
		add_u64(b, "probe_records", d->probe_records);
		add_u64(b, "foreign_records", d->foreign_records);
		add_u64(b, "lost", d->lost);
	}
	json_builder_end_object(b);

	json_builder_set_member_name(b, "device");
	if (res->outcome->have_counters) {
		for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
			const IrqstormDeviceCounters *c = &res->outcome->device.ch[n];

			total.raised += c->raised;
			total.coalesced += c->coalesced;
			total.overlapped += c->overlapped;
			total.dropped += c->dropped;
			total.handled += c->handled;
			total.incomplete += c->incomplete;
			total.in_flight += c->in_flight;
			total.queue_max = MAX(total.queue_max, c->queue_max);
			total.pio_reads += c->pio_reads;
			total.ready_polls += c->ready_polls;
		}
		json_builder_begin_object(b);
		add_device_counts(b, &total);
		add_u64(b, "published", res->outcome->device.published);
		add_u64(b, "lost", res->outcome->device.lost);
		add_u64(b, "guest_errors", res->outcome->device.guest_errors);
		add_u64(b, "probes", res->outcome->device.probes);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}

	json_builder_set_member_name(b, "guest");
	json_builder_begin_object(b);
	if (res->guest) {
		GHashTableIter it;
		gpointer k, val;

		g_hash_table_iter_init(&it, res->guest);
		while (g_hash_table_iter_next(&it, &k, &val))
			add_guest_value(b, k, val);
	}
	json_builder_end_object(b);
}

static void add_double(JsonBuilder *b, const char *name, double v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_double_value(b, v);
}

/*
 * How the storm ended, from the device's times: who ended it, how long it
 * ran, how late past its duration the guest stopped it, and how many
 * events were still in flight then. null when the device never started.
 */
static void add_storm(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormDeviceStorm *st = &res->outcome->device.storm;
	guint64 nominal_end = st->start_ns + sc->duration_ms * 1000000;

	json_builder_set_member_name(b, "storm");
	if (!res->outcome->have_counters || !st->storms || !st->end_ns) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	add_double(b, "duration_s", sc->duration_ms / 1e3);
	add_double(b, "grace_s", sc->grace_ms / 1e3);
	add_double(b, "bound_s", (sc->duration_ms + sc->grace_ms) / 1e3);
	add_str(b, "ended_by", st->device_end ? "device" : "guest");
	add_double(b, "length_s", storm_s(st->start_ns, st->end_ns));
	json_builder_set_member_name(b, "guest_stop_late_s");
	if (st->guest_stop_ns)
		json_builder_add_double_value(b, storm_s(nominal_end,
							 st->guest_stop_ns));
	else
		json_builder_add_null_value(b);
	add_u64(b, "in_flight_at_end", st->backlog);
	json_builder_end_object(b);
}

/* Every stage of a tally, as an object of stage objects. */
static void add_stages(JsonBuilder *b, const IrqstormTally *t, gboolean probe)
{
	json_builder_set_member_name(b, "stages");
	json_builder_begin_object(b);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		if (st == IRQSTORM_STAGE_PROBE && !probe)
			continue;
		json_builder_set_member_name(b, irqstorm_stage_name(st));
		json_builder_add_value(b, irqstorm_summary_stage_json(t->hist[st]));
	}
	json_builder_end_object(b);
}

/* Each active channel: its settings, counts and stages. */
static void add_channels(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;

	json_builder_set_member_name(b, "channels");
	json_builder_begin_object(b);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		const IrqstormChannelSpec *c = &sc->ch[n];
		char key[4];

		if (c->pattern == IRQSTORM_PATTERN_OFF)
			continue;
		g_snprintf(key, sizeof(key), "%u", n);
		json_builder_set_member_name(b, key);
		json_builder_begin_object(b);
		add_str(b, "pattern", irqstorm_pattern_name(c->pattern));
		add_u64(b, "period_ns", c->period_ns);
		add_str(b, "threading", irqstorm_threading_name(c->threading));
		add_str(b, "work", irqstorm_work_name(c->work));
		json_builder_set_member_name(b, "host");
		json_builder_begin_object(b);
		if (res->outcome->data)
			add_tally_counts(b, &res->outcome->data->ch[n]);
		json_builder_end_object(b);
		json_builder_set_member_name(b, "device");
		json_builder_begin_object(b);
		if (res->outcome->have_counters)
			add_device_counts(b, &res->outcome->device.ch[n]);
		json_builder_end_object(b);
		if (res->outcome->data)
			add_stages(b, &res->outcome->data->ch[n], FALSE);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

static JsonNode *summary_json(const IrqstormResults *res, int return_code)
{
	const IrqstormRunSettings *set = res->set;
	const IrqstormScenario *sc = set->scenario;
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *kid = g_strdup_printf("kernel-%s-identity", sc->flavour);
	g_autofree char *ini = irqstorm_scenario_to_ini(sc);

	json_builder_begin_object(b);
	add_u64(b, "file_version", SUMMARY_FILE_VERSION);
	add_u64(b, "abi_version", IRQSTORM_ABI_VERSION);
	add_u64(b, "return_code", return_code);
	json_builder_set_member_name(b, "complete");
	json_builder_add_boolean_value(b, res->complete);
	add_str(b, "incomplete_reason", res->incomplete_reason);
	json_builder_set_member_name(b, "failed_checks");
	json_builder_begin_array(b);
	for (guint i = 0; i < res->failed_checks->len; i++)
		json_builder_add_string_value(b, res->failed_checks->pdata[i]);
	json_builder_end_array(b);
	add_thresholds(b, res);
	add_changes(b, res);
	add_strings(b, "stalls", res->stalls);
	add_strings(b, "kernel_events", res->kernel_events);
	add_sysinfo(b, sc);
	add_u64(b, "resolution_in_ns", 1);
	add_str(b, "time_base", "QEMU_CLOCK_VIRTUAL");
	add_str(b, "scenario_file", sc->path);
	add_str(b, "scenario", ini);
	add_identity(b, "qemu", set->qemu_dir, "qemu-identity");
	add_identity(b, "kernel", set->kernel_dir, kid);
	json_builder_set_member_name(b, "wall_seconds");
	json_builder_add_double_value(b, res->outcome->wall_seconds);
	json_builder_set_member_name(b, "qemu_cpu_seconds");
	json_builder_add_double_value(b, res->outcome->qemu_cpu_seconds);
	json_builder_set_member_name(b, "virtual_seconds");
	json_builder_add_double_value(b, res->outcome->data && res->outcome->data->last_raise_ns ?
		(res->outcome->data->last_raise_ns - res->outcome->data->first_raise_ns) / 1e9 : 0.0);
	add_storm(b, res);
	add_str(b, "irq_mode", guest_value(res, "irq_mode"));
	json_builder_set_member_name(b, "guest_uptime_seconds");
	if (res->guest_uptime_s >= 0)
		json_builder_add_double_value(b, res->guest_uptime_s);
	else
		json_builder_add_null_value(b);

	json_builder_set_member_name(b, "counts");
	json_builder_begin_object(b);
	add_counts(b, res);
	json_builder_end_object(b);

	if (res->outcome->data)
		add_stages(b, &res->outcome->data->all, TRUE);
	add_channels(b, res);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* histogram.txt (all channels, with the probe), and histogram-chN.txt for
 * each channel when more than one stormed. */
static gboolean write_histfiles(const IrqstormResults *res, GError **error)
{
	guint mask = irqstorm_scenario_channel_mask(res->set->scenario);
	g_autofree char *all = g_build_filename(res->set->out_dir, "histogram.txt", NULL);
	const char *names[IRQSTORM_STAGE_COUNT];

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		names[st] = irqstorm_stage_name(st);
	if (!irqstorm_write_histfile(all, res->outcome->data->all.hist, names,
				     IRQSTORM_STAGE_COUNT, error))
		return FALSE;
	if (!(mask & (mask - 1)))
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		g_autofree char *name = g_strdup_printf("histogram-ch%u.txt", n);
		g_autofree char *path = g_build_filename(res->set->out_dir, name, NULL);

		if ((mask & 1u << n) &&
		    !irqstorm_write_histfile(path, res->outcome->data->ch[n].hist, names,
					     IRQSTORM_STAGE_PROBE, error))
			return FALSE;
	}
	return TRUE;
}

/* Complete? Consistent? Stalled? Within the thresholds? */
static IrqstormVerdict judge(IrqstormResults *res)
{
	gboolean stalled, exceeded;

	res->incomplete_reason = incomplete_reason(res);
	res->complete = !res->incomplete_reason;
	if (res->complete)
		run_checks(res);
	if (!res->complete || res->failed_checks->len)
		return IRQSTORM_VERDICT_ERROR;
	stalled = check_stalls(res);
	exceeded = check_thresholds(res);
	return stalled ? IRQSTORM_VERDICT_STALL :
	       exceeded ? IRQSTORM_VERDICT_THRESHOLD : IRQSTORM_VERDICT_PASSED;
}

IrqstormResults *irqstorm_results_evaluate(const IrqstormRunSettings *set,
					   IrqstormRunOutcome *outcome)
{
	IrqstormResults *res = g_new0(IrqstormResults, 1);

	res->set = set;
	res->outcome = outcome;
	res->failed_checks = g_ptr_array_new_with_free_func(g_free);
	res->limits = g_array_new(FALSE, TRUE, sizeof(IrqstormLimitResult));
	res->kernel_events = g_ptr_array_new_with_free_func(g_free);
	res->stalls = g_ptr_array_new_with_free_func(g_free);
	read_console(res, outcome->console_path);
	res->verdict = judge(res);
	return res;
}

void irqstorm_results_free(IrqstormResults *res)
{
	if (!res)
		return;
	irqstorm_run_outcome_free(res->outcome);
	g_free(res->incomplete_reason);
	if (res->guest)
		g_hash_table_unref(res->guest);
	g_ptr_array_unref(res->failed_checks);
	g_array_unref(res->limits);
	g_ptr_array_unref(res->kernel_events);
	g_ptr_array_unref(res->stalls);
	g_free(res);
}

gboolean irqstorm_results_write(const IrqstormResults *res, int return_code,
				GError **error)
{
	const char *dir = res->set->out_dir;
	g_autofree char *json_path = g_build_filename(dir, IRQSTORM_SUMMARY_FILE, NULL);
	g_autoptr(JsonNode) root = NULL;

	if (res->outcome->data && !write_histfiles(res, error))
		return FALSE;
	root = summary_json(res, return_code);
	if (!irqstorm_write_json_file(json_path, root, error))
		return FALSE;
	if (!res->complete)
		return irqstorm_marker_set(dir, res->incomplete_reason, error);
	return irqstorm_marker_clear(dir, error);
}

/* One line per stage of a tally that has samples. */
static void print_stages(FILE *out, const char *indent, const IrqstormTally *t)
{
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		const IrqstormHist *h = t->hist[st];

		if (!irqstorm_hist_count(h))
			continue;
		fprintf(out, "%s%-8s %9" G_GUINT64_FORMAT " %10.2f %10.2f %10.2f %10.2f\n",
			indent, irqstorm_stage_name(st), irqstorm_hist_count(h),
			irqstorm_hist_min(h) / 1e3, irqstorm_hist_avg(h) / 1e3,
			irqstorm_hist_percentile(h, 99.0) / 1e3,
			irqstorm_hist_max(h) / 1e3);
	}
}

/* Who ended the storm, and when, by the device's clock. */
static void print_storm(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormDeviceStorm *st = &res->outcome->device.storm;

	if (!res->outcome->have_counters || !st->storms || !st->end_ns)
		return;
	if (st->device_end)
		fprintf(out, "  storm: %.3f s asked; the guest did not stop it, the "
			"device ended it after %.3f s (see STALL)\n",
			sc->duration_ms / 1e3, storm_s(st->start_ns, st->end_ns));
	else
		fprintf(out, "  storm: %.3f s asked; the guest stopped it after "
			"%.6f s\n", sc->duration_ms / 1e3,
			storm_s(st->start_ns, st->end_ns));
}

/* The human summary: how it ended, the counts, per channel its stages. */
void irqstorm_results_print(const IrqstormResults *res, FILE *out)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;
	g_autofree char *mode =
		sc->icount_shift == IRQSTORM_ICOUNT_OFF ?
			g_strdup("no icount: not deterministic") :
		sc->cpus > 1 ?
			g_strdup_printf("icount shift=%d on %u vCPUs: cross-CPU "
					"latencies are artifacts", sc->icount_shift, sc->cpus) :
		sc->changes->len ?
			g_strdup_printf("icount shift=%d, but changes over QMP are "
					"not reproducible", sc->icount_shift) :
			g_strdup_printf("icount shift=%d, deterministic", sc->icount_shift);
	const char *s;
	guint64 ns, handled;

	fprintf(out, "irqstorm: %s run of %s (%s, %s) in %.1f s wall\n",
		res->complete ? "complete" : "INCOMPLETE", sc->path,
		irqstorm_accel_name(sc->accel), mode, res->outcome->wall_seconds);
	if (!res->complete)
		fprintf(out, "  incomplete: %s\n", res->incomplete_reason);
	if (d)
		fprintf(out, "  host: %" G_GUINT64_FORMAT " records read, %" G_GUINT64_FORMAT
			" lost; guest interrupts: %s\n", d->records, d->lost,
			guest_value(res, "irq_mode") ?: "?");
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		const IrqstormChannelSpec *c = &sc->ch[n];
		const IrqstormDeviceCounters *dev = &res->outcome->device.ch[n];

		if (c->pattern == IRQSTORM_PATTERN_OFF)
			continue;
		fprintf(out, "  channel %u: %s %.6g Hz, %s, work %s", n,
			irqstorm_pattern_name(c->pattern), 1e9 / c->period_ns,
			irqstorm_threading_name(c->threading), irqstorm_work_name(c->work));
		if (res->outcome->have_counters)
			fprintf(out, "; %" G_GUINT64_FORMAT " raised, %" G_GUINT64_FORMAT
				" coalesced, %" G_GUINT64_FORMAT " dropped, %"
				G_GUINT64_FORMAT " handled", dev->raised,
				dev->coalesced, dev->dropped, dev->handled);
		fputc('\n', out);
		if (sc->handler_clock && guest_item(res, "handler_ns", n, &ns) &&
		    guest_item(res, "handled", n, &handled) && handled)
			fprintf(out, "    guest handler time: %.1f ns per event (%s)\n",
				(double)ns / handled,
				sc->icount_shift == IRQSTORM_ICOUNT_OFF ?
				"guest clock" : "virtual time");
		if (d && !sc->stamps) {
			fprintf(out, "    stamps off: no records, no latencies\n");
		} else if (d) {
			fprintf(out, "    %-8s %9s %10s %10s %10s %10s  (us of virtual time)\n",
				"stage", "count", "min", "avg", "p99", "max");
			print_stages(out, "    ", &d->ch[n]);
		}
	}
	print_storm(res, out);
	if (d && d->probe_records) {
		const IrqstormHist *h = d->all.hist[IRQSTORM_STAGE_PROBE];

		fprintf(out, "  probe task: %" G_GUINT64_FORMAT " wake-ups, late by "
			"avg %.2f us, max %.2f us\n", irqstorm_hist_count(h),
			irqstorm_hist_avg(h) / 1e3, irqstorm_hist_max(h) / 1e3);
	}
	if (sc->cyclictest && guest_value(res, "cyclictest_cycles"))
		fprintf(out, "  cyclictest (guest, FIFO %u, every %u us): %s cycles, late by "
			"min %s us, avg %s us, max %s us\n", sc->cyclictest_prio,
			sc->probe_period_us, guest_value(res, "cyclictest_cycles"),
			guest_value(res, "cyclictest_min_us") ?: "?",
			guest_value(res, "cyclictest_avg_us") ?: "?",
			guest_value(res, "cyclictest_max_us") ?: "?");
	if ((s = guest_value(res, "i8042")) && g_strcmp0(s, "none"))
		fprintf(out, "  i8042 region: %s\n", s);
	for (guint i = 0; i < res->kernel_events->len; i++)
		fprintf(out, "  kernel: %s\n", (char *)res->kernel_events->pdata[i]);
	for (guint i = 0; i < res->stalls->len; i++)
		fprintf(out, "  STALL: %s\n", (char *)res->stalls->pdata[i]);
	for (guint i = 0; i < res->failed_checks->len; i++)
		fprintf(out, "  CHECK FAILED: %s\n", (char *)res->failed_checks->pdata[i]);
	for (guint i = 0; i < res->limits->len; i++) {
		const IrqstormLimitResult *r = &g_array_index(res->limits,
							      IrqstormLimitResult, i);

		fprintf(out, "  threshold %s %s <= %.3f us: ", r->threshold->stage,
			irqstorm_limit_stat_name(r->threshold->stat),
			r->threshold->limit_ns / 1e3);
		if (!r->measured)
			fprintf(out, "no samples\n");
		else
			fprintf(out, "%.3f us, %s\n", r->value_ns / 1e3,
				r->exceeded ? "EXCEEDED" : "met");
	}
	fprintf(out, "  results: %s/\n", res->set->out_dir);
}
