// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * summary.json of a run: see summary-write.h.
 */
#include "summary-write.h"

#include <string.h>
#include <sys/utsname.h>

#include "irqstorm/abi.h"
#include "output.h"
#include "stages.h"
#include "summary-keys.h"

#define SUMMARY_FILE_VERSION 1

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
	for (guint i = 0; i < res->checks->limits->len; i++) {
		const IrqstormLimitResult *r = &g_array_index(res->checks->limits,
							      IrqstormLimitResult, i);

		json_builder_begin_object(b);
		add_str(b, "stage", r->threshold->stage);
		add_str(b, "stat", irqstorm_stat_key(r->threshold->stat));
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

/* The counters of a table that have a key, as members. */
static void add_counters(JsonBuilder *b, const IrqstormCounter *table, guint n,
			 const void *base)
{
	for (guint i = 0; i < n; i++)
		if (table[i].key)
			add_u64(b, table[i].key, irqstorm_counter_get(&table[i], base));
}

/* A channel's counters (or their total), as members. */
static void add_device_counts(JsonBuilder *b, const IrqstormDeviceCounters *c)
{
	guint n;
	const IrqstormCounter *table = irqstorm_channel_counters(&n);

	add_counters(b, table, n, c);
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
	const IrqstormDeviceState *dev = &res->outcome->device;

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
	add_double(b, "length_s", irqstorm_storm_seconds(st->start_ns, st->end_ns));
	json_builder_set_member_name(b, "guest_stop_late_s");
	if (st->guest_stop_ns)
		json_builder_add_double_value(b, irqstorm_storm_seconds(nominal_end,
							 st->guest_stop_ns));
	else
		json_builder_add_null_value(b);
	add_u64(b, "in_flight_at_end", st->backlog);
	json_builder_end_object(b);
}

/* Every stage of a tally, as an object of stage objects. */
static void add_stages(JsonBuilder *b, const IrqstormTally *t, gboolean probe)
{
	json_builder_set_member_name(b, IRQSTORM_KEY_STAGES);
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

JsonNode *irqstorm_summary_build(const IrqstormResults *res, int return_code)
{
	const IrqstormRunSettings *set = res->set;
	const IrqstormScenario *sc = set->scenario;
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree char *kid = g_strdup_printf("kernel-%s-identity", sc->flavour);
	g_autofree char *ini = irqstorm_scenario_to_ini(sc);

	json_builder_begin_object(b);
	add_u64(b, "file_version", SUMMARY_FILE_VERSION);
	add_u64(b, "abi_version", IRQSTORM_ABI_VERSION);
	add_u64(b, IRQSTORM_KEY_RETURN_CODE, return_code);
	json_builder_set_member_name(b, IRQSTORM_KEY_COMPLETE);
	json_builder_add_boolean_value(b, res->checks->complete);
	add_str(b, IRQSTORM_KEY_INCOMPLETE_REASON, res->checks->incomplete_reason);
	json_builder_set_member_name(b, IRQSTORM_KEY_FAILED_CHECKS);
	json_builder_begin_array(b);
	for (guint i = 0; i < res->checks->failed_checks->len; i++)
		json_builder_add_string_value(b, res->checks->failed_checks->pdata[i]);
	json_builder_end_array(b);
	add_thresholds(b, res);
	add_changes(b, res);
	add_strings(b, "stalls", res->checks->stalls);
	add_strings(b, "kernel_events", res->console->kernel_events);
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
	add_str(b, "irq_mode", irqstorm_console_value(res->console, "irq_mode"));
	json_builder_set_member_name(b, "guest_uptime_seconds");
	if (res->console->uptime_s >= 0)
		json_builder_add_double_value(b, res->console->uptime_s);
	else
		json_builder_add_null_value(b);

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
