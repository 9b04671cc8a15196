// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.json of a run: see summary-write.h.
 */
#include "summary-write.h"

#include <math.h>
#include <string.h>
#include <sys/utsname.h>

#include "irqstorm/abi.h"
#include "identity.h"
#include "json-build.h"
#include "machine.h"
#include "output.h"
#include "results.h"
#include "stages.h"
#include "summary-keys.h"

#define SUMMARY_FILE_VERSION 1

static void add_changes(JsonBuilder *b, const IrqstormResults *res)
{
	json_builder_set_member_name(b, "changes");
	json_builder_begin_array(b);
	for (guint i = 0; i < res->outcome->changes->len; i++) {
		const IrqstormAppliedChange *a = &g_array_index(res->outcome->changes,
								IrqstormAppliedChange, i);

		json_builder_begin_object(b);
		irqstorm_json_add_double(b, "at_s", a->change->at_ns / 1e9);
		irqstorm_json_add_string(b, "set", a->change->assignment);
		irqstorm_json_add_string(b, "property", a->change->qom_property);
		irqstorm_json_add_double(b, "applied_at_virtual_s", a->applied_at_s);
		irqstorm_json_add_string(b, "error", a->error);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void add_thresholds(JsonBuilder *b, const IrqstormResults *res)
{
	json_builder_set_member_name(b, "thresholds");
	json_builder_begin_array(b);
	for (guint i = 0; i < res->checks->limits->len; i++) {
		const IrqstormLimitResult *r = &g_array_index(res->checks->limits,
							      IrqstormLimitResult, i);

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "stage", r->threshold->stage);
		irqstorm_json_add_rounded(b, "channel", r->channel == IRQSTORM_NONE ? NAN :
					  r->channel);
		irqstorm_json_add_string(b, "stat", irqstorm_stat_key(r->threshold->stat));
		irqstorm_json_add_int(b, "limit_ns", r->threshold->limit_ns);
		irqstorm_json_add_rounded(b, "value_ns",
					  r->measured ? (double)r->value_ns : NAN);
		irqstorm_json_add_bool(b, "exceeded", r->exceeded);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* An identity file (key=value lines from the build scripts) as an object. */
static void add_identity(JsonBuilder *b, const char *name, const char *dir,
			 const char *file)
{
	g_auto(GStrv) id = irqstorm_identity_read(dir, file);

	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	for (gsize i = 0; id && id[i] && id[i + 1]; i += 2)
		irqstorm_json_add_string(b, id[i], id[i + 1]);
	json_builder_end_object(b);
}

static void add_sysinfo(JsonBuilder *b, const IrqstormRunSettings *set,
			const IrqstormRunOutcome *out)
{
	const IrqstormScenario *sc = set->scenario;
	gboolean icount = sc->icount_shift != IRQSTORM_ICOUNT_OFF;
	g_autofree char *not_deterministic = irqstorm_run_not_deterministic(set);
	g_autofree char *pins = irqstorm_run_pins_differ(set);
	struct utsname u;

	json_builder_set_member_name(b, "sysinfo");
	json_builder_begin_object(b);
	if (uname(&u) == 0) {
		irqstorm_json_add_string(b, "host_sysname", u.sysname);
		irqstorm_json_add_string(b, "host_release", u.release);
		irqstorm_json_add_string(b, "host_machine", u.machine);
	}
	irqstorm_json_add_string(b, "accel", irqstorm_accel_name(sc->accel));
	irqstorm_json_add_string(b, "accel_used", irqstorm_run_accel_used(out, sc));
	irqstorm_json_add_bool(b, "accel_fell_back", out->kvm_fell_back);
	irqstorm_json_add_rounded(b, "icount_shift", icount ? sc->icount_shift : NAN);
	irqstorm_json_add_bool(b, "deterministic", !not_deterministic);
	irqstorm_json_add_string(b, "debian_pins", pins ? pins : "exact");
	irqstorm_json_add_bool(b, "smp_icount_artifacts",
			       icount && sc->cpus > 1 && !irqstorm_scenario_smp_windows(sc));
	irqstorm_json_add_int(b, "cpus", sc->cpus);
	irqstorm_json_add_int(b, "quantum_ns",
			      irqstorm_scenario_smp_windows(sc) ? sc->quantum_ns : 0);
	irqstorm_json_add_int(b, "held_irqs", out->have_held ? (gint64)out->held.count : 0);
	irqstorm_json_add_int(b, "held_irq_min_ns", out->have_held ? out->held.min_ns : 0);
	irqstorm_json_add_int(b, "held_irq_max_ns", out->have_held ? out->held.max_ns : 0);
	json_builder_end_object(b);
}

/* A tally's counts, as members of the object being built. */
static void add_tally_counts(JsonBuilder *b, const IrqstormTally *t)
{
	irqstorm_json_add_int(b, "records", t->records);
	irqstorm_json_add_int(b, "done_records", t->done_records);
	irqstorm_json_add_int(b, "incomplete_records", t->incomplete_records);
	irqstorm_json_add_int(b, "coalesced_events", t->coalesced_events);
	irqstorm_json_add_int(b, "coalesced_raises", t->coalesced_raises);
	irqstorm_json_add_int(b, "overlap_events", t->overlap_events);
	irqstorm_json_add_int(b, "work", t->work);
}

/* The counters of a table that have a key, as members. */
static void add_counters(JsonBuilder *b, const IrqstormCounter *table, guint n,
			 const void *base)
{
	for (guint i = 0; i < n; i++)
		if (table[i].key)
			irqstorm_json_add_int(b, table[i].key, irqstorm_counter_get(&table[i], base));
}

/* A channel's counters (or their total), as members. */
static void add_device_counts(JsonBuilder *b, const IrqstormDeviceCounters *c)
{
	guint n;
	const IrqstormCounter *table = irqstorm_channel_counters(&n);

	add_counters(b, table, n, c);
}

/* One item: a number if it is one, else a string. */
static void add_guest_item(JsonBuilder *b, const char *item)
{
	guint64 v;

	if (g_ascii_string_to_unsigned(item, 10, 0, G_MAXUINT64, &v, NULL))
		json_builder_add_int_value(b, (gint64)v);
	else
		json_builder_add_string_value(b, item);
}

/*
 * softirqs=NAME:N0:N1,... as { "NAME": [N0, N1], ... }: each softirq raised
 * during the storm, per CPU ("-": none, {}).
 */
static void add_guest_softirqs(JsonBuilder *b, const char *val)
{
	g_auto(GStrv) items = g_strsplit(val, ",", -1);

	json_builder_begin_object(b);
	for (gsize i = 0; strcmp(val, "-") && items[i]; i++) {
		g_auto(GStrv) f = g_strsplit(items[i], ":", -1);

		json_builder_set_member_name(b, f[0]);
		json_builder_begin_array(b);
		for (gsize c = 1; f[0] && f[c]; c++)
			add_guest_item(b, f[c]);
		json_builder_end_array(b);
	}
	json_builder_end_object(b);
}

/*
 * A guest value: a per-channel key of the protocol (a driver attribute) is
 * a list, one item per channel, and so is a per-CPU one (ksoftirqd);
 * softirqs an object (above); another is a number, a list of numbers, or
 * else a string.
 */
static void add_guest_value(JsonBuilder *b, const char *key, const char *val)
{
	g_auto(GStrv) items = g_strsplit(val, ",", -1);
	gboolean numbers = items[0] != NULL;
	gboolean list = irqstorm_result_key_per_channel(key) ||
			!strcmp(key, IRQSTORM_RESULT_KEY(ksoftirqd));
	guint64 v;

	if (!strcmp(key, IRQSTORM_RESULT_KEY(softirqs))) {
		json_builder_set_member_name(b, key);
		add_guest_softirqs(b, val);
		return;
	}

	for (gsize i = 0; items[i]; i++)
		numbers = numbers && g_ascii_string_to_unsigned(items[i], 10, 0,
								G_MAXUINT64, &v, NULL);
	json_builder_set_member_name(b, key);
	if (!list && !numbers) {
		json_builder_add_string_value(b, val);
	} else if (!list && !items[1]) {
		add_guest_item(b, val);
	} else {
		json_builder_begin_array(b);
		for (gsize i = 0; items[i]; i++)
			add_guest_item(b, items[i]);
		json_builder_end_array(b);
	}
}

static void add_counts(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormCollected *d = res->outcome->data;
	const IrqstormDeviceState *dev = &res->outcome->device;

	json_builder_set_member_name(b, IRQSTORM_KEY_HOST);
	json_builder_begin_object(b);
	if (d) {
		add_tally_counts(b, &d->all);
		irqstorm_json_add_int(b, IRQSTORM_KEY_ALL_RECORDS, d->records);
		irqstorm_json_add_int(b, "probe_records", d->probe_records);
		irqstorm_json_add_int(b, "foreign_records", d->foreign_records);
		irqstorm_json_add_int(b, "lost", d->lost);
	}
	json_builder_end_object(b);

	json_builder_set_member_name(b, "device");
	if (res->outcome->have_counters) {
		IrqstormDeviceCounters total;
		guint n;
		const IrqstormCounter *own = irqstorm_device_counters(&n);

		irqstorm_counters_total(dev, &total);
		json_builder_begin_object(b);
		add_device_counts(b, &total);
		add_counters(b, own, n, dev);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}

	json_builder_set_member_name(b, IRQSTORM_KEY_GUEST);
	json_builder_begin_object(b);
	if (res->console->result) {
		GHashTableIter it;
		gpointer k, val;

		g_hash_table_iter_init(&it, res->console->result);
		while (g_hash_table_iter_next(&it, &k, &val))
			add_guest_value(b, k, val);
	}
	json_builder_end_object(b);
}

/*
 * How the storm ended, from the device's times: who ended it, how long it
 * ran, how late past its duration the guest stopped it, and how many
 * events were still in flight then. null when the device never started.
 */
static void add_storm(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormDeviceState *st = &res->outcome->device;
	guint64 nominal_end = st->storm_start_ns + sc->duration_ms * 1000000;

	json_builder_set_member_name(b, "storm");
	if (!res->outcome->have_counters || !st->storms || !st->storm_end_ns) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	irqstorm_json_add_double(b, "duration_s", sc->duration_ms / 1e3);
	irqstorm_json_add_double(b, "grace_s", sc->grace_ms / 1e3);
	irqstorm_json_add_double(b, "bound_s", (sc->duration_ms + sc->grace_ms) / 1e3);
	irqstorm_json_add_string(b, "ended_by", st->storm_device_end ? "device" : "guest");
	irqstorm_json_add_double(b, "length_s",
				 irqstorm_storm_seconds(st->storm_start_ns, st->storm_end_ns));
	irqstorm_json_add_double(b, "guest_stop_late_s", st->guest_stop_ns ?
				 irqstorm_storm_seconds(nominal_end, st->guest_stop_ns) :
				 NAN);
	irqstorm_json_add_int(b, "in_flight_at_end", st->storm_backlog);
	json_builder_end_object(b);
}

/* Every stage of a tally, as an object of stage objects. */
static void add_stages(JsonBuilder *b, const IrqstormTally *t, gboolean probe)
{
	json_builder_set_member_name(b, IRQSTORM_KEY_STAGES);
	json_builder_begin_object(b);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		if (irqstorm_stage_is_probe(st) && !probe)
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

	json_builder_set_member_name(b, IRQSTORM_KEY_CHANNELS);
	json_builder_begin_object(b);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		const IrqstormChannelSpec *c = &sc->ch[n];
		char key[4];

		if (c->pattern == IRQSTORM_PATTERN_OFF)
			continue;
		g_snprintf(key, sizeof(key), "%u", n);
		json_builder_set_member_name(b, key);
		json_builder_begin_object(b);
		if (*c->name)
			irqstorm_json_add_string(b, IRQSTORM_KEY_CHANNEL_NAME, c->name);
		irqstorm_json_add_string(b, "pattern", irqstorm_pattern_name(c->pattern));
		irqstorm_json_add_int(b, "period_ns", c->period_ns);
		irqstorm_json_add_string(b, "threading", irqstorm_threading_name(c->threading));
		irqstorm_json_add_string(b, "work", irqstorm_work_name(c->work));
		irqstorm_json_add_string(b, "work_context",
					 irqstorm_work_context_name(c->work_context));
		irqstorm_json_add_int(b, "bh_off_us", c->bh_off_us);
		irqstorm_json_add_string(b, "plant", irqstorm_plant_name(c->plant));
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

/* The kernel's reports: each kind, title, what became of it, first frames. */
static void add_kernel_reports(JsonBuilder *b, const GPtrArray *reports)
{
	json_builder_set_member_name(b, "kernel_reports");
	json_builder_begin_array(b);
	for (guint i = 0; i < reports->len; i++) {
		const IrqstormKreport *r = reports->pdata[i];

		json_builder_begin_object(b);
		irqstorm_json_add_string(b, "kind", r->kind);
		irqstorm_json_add_bool(b, "fault", r->fault);
		irqstorm_json_add_bool(b, "expected", r->expected);
		irqstorm_json_add_string(b, "title", r->title);
		irqstorm_json_add_strings(b, "then", r->then);
		irqstorm_json_add_strings(b, "trace", r->trace);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* How the run ended, and what the checks said. */
static void add_ending(JsonBuilder *b, const IrqstormResults *res, int return_code)
{
	irqstorm_json_add_int(b, IRQSTORM_KEY_RETURN_CODE, return_code);
	irqstorm_json_add_bool(b, IRQSTORM_KEY_COMPLETE, res->checks->complete);
	irqstorm_json_add_string(b, IRQSTORM_KEY_INCOMPLETE_REASON,
				 res->checks->incomplete_reason);
	irqstorm_json_add_strings(b, IRQSTORM_KEY_FAILED_CHECKS,
				  res->checks->failed_checks);
	add_thresholds(b, res);
	add_changes(b, res);
	irqstorm_json_add_strings(b, IRQSTORM_KEY_STALLS, res->checks->stalls);
	irqstorm_json_add_strings(b, "kernel_events", res->console->kernel_events);
	irqstorm_json_add_strings(b, IRQSTORM_KEY_KERNEL_FAILURES, res->checks->kernel);
	add_kernel_reports(b, res->console->reports);
}

/* What ran: the host, the scenario, the QEMU and kernel builds. */
static void add_what_ran(JsonBuilder *b, const IrqstormRunSettings *set,
			 const IrqstormRunOutcome *out)
{
	const IrqstormScenario *sc = set->scenario;
	g_autofree char *kid = irqstorm_machine_kernel_file(sc, "identity");
	g_autofree char *iid = irqstorm_machine_kernel_file(sc, "initramfs-identity");
	g_autofree char *ini = irqstorm_scenario_to_ini(sc);

	add_sysinfo(b, set, out);
	irqstorm_json_add_int(b, "resolution_in_ns", 1);
	irqstorm_json_add_string(b, "time_base", "QEMU_CLOCK_VIRTUAL");
	irqstorm_json_add_string(b, "scenario_file", sc->path);
	irqstorm_json_add_string(b, "scenario", ini);
	add_identity(b, "qemu", set->qemu_dir, IRQSTORM_QEMU_IDENTITY_FILE);
	add_identity(b, "kernel", set->kernel_dir, kid);
	add_identity(b, "initramfs", set->initrd_dir, iid);
}

/* A part of the storm: its records and their worst values, by stage. */
static void add_window_part(JsonBuilder *b, const char *name, const IrqstormWindow *w)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_object(b);
	irqstorm_json_add_int(b, "records", w->records);
	json_builder_set_member_name(b, "cycles");
	json_builder_begin_object(b);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_json_add_int(b, irqstorm_stage_name(st), w->cycles[st]);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "max_ns");
	json_builder_begin_object(b);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		if (w->max_ns[st])
			irqstorm_json_add_int(b, irqstorm_stage_name(st), w->max_ns[st]);
	json_builder_end_object(b);
	json_builder_end_object(b);
}

/* The measurement window of the stages, and what lies outside it. */
static void add_window(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormScenario *sc = res->set->scenario;
	const IrqstormCollected *d = res->outcome->data;

	if (!d)
		return;
	json_builder_set_member_name(b, "window");
	json_builder_begin_object(b);
	irqstorm_json_add_int(b, "from_ns", sc->warmup_ms * 1000000);
	irqstorm_json_add_int(b, "to_ns", sc->duration_ms * 1000000);
	add_window_part(b, "warmup", &d->warmup);
	add_window_part(b, "tail", &d->tail);
	irqstorm_json_add_int(b, "startup_ns", IRQSTORM_STARTUP_NS);
	add_window_part(b, "startup", &d->startup);
	json_builder_end_object(b);
}

/* How long it took: wall, CPU and virtual time, the guest's uptime. */
static void add_times(JsonBuilder *b, const IrqstormResults *res)
{
	const IrqstormCollected *d = res->outcome->data;
	double uptime = res->console->uptime_s;

	irqstorm_json_add_double(b, "wall_seconds", res->outcome->wall_seconds);
	irqstorm_json_add_double(b, "qemu_cpu_seconds", res->outcome->qemu_cpu_seconds);
	if (res->outcome->qemu_sched_known) {
		irqstorm_json_add_double(b, "qemu_run_seconds", res->outcome->qemu_run_seconds);
		irqstorm_json_add_double(b, "qemu_wait_seconds", res->outcome->qemu_wait_seconds);
	}
	irqstorm_json_add_double(b, "virtual_seconds", d && d->last_raise_ns ?
				 (d->last_raise_ns - d->first_raise_ns) / 1e9 : 0.0);
	add_storm(b, res);
	add_window(b, res);
	irqstorm_json_add_string(b, "irq_mode",
				 irqstorm_console_value(res->console, IRQSTORM_RESULT_KEY(irq_mode)));
	irqstorm_json_add_double(b, "guest_uptime_seconds", uptime >= 0 ? uptime : NAN);
}

JsonNode *irqstorm_summary_build(const IrqstormResults *res, int return_code)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	json_builder_begin_object(b);
	irqstorm_json_add_string(b, IRQSTORM_KEY_FORMAT, IRQSTORM_SUMMARY_FORMAT);
	irqstorm_json_add_int(b, "file_version", SUMMARY_FILE_VERSION);
	irqstorm_json_add_int(b, "abi_version", IRQSTORM_ABI_VERSION);
	add_ending(b, res, return_code);
	add_what_ran(b, res->set, res->outcome);
	add_times(b, res);
	json_builder_set_member_name(b, IRQSTORM_KEY_COUNTS);
	json_builder_begin_object(b);
	add_counts(b, res);
	json_builder_end_object(b);
	if (res->outcome->data)
		add_stages(b, &res->outcome->data->all, TRUE);
	add_channels(b, res);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
