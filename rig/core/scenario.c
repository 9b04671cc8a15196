// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario files, driven by one table of keys: the same table parses
 * files, applies --set overrides and writes the effective scenario back
 * out, so the three can never disagree; the messages that help with a
 * typo. The cross-checks are scenario-check.c's, [thresholds], [changes]
 * and profiles scenario-changes.c's, the names of values and kernels
 * scenario-names.c's.
 */
#include "scenario.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "scenario-keys.h"
#include "scenario-names.h"
#include "stages.h"

G_DEFINE_QUARK(irqstorm-scenario-error-quark, irqstorm_scenario_error)

#define PROP(id) (1 + IRQSTORM_CHANNEL_PROP_##id)

#define OFF(f) offsetof(IrqstormScenario, f)
#define CH(f) offsetof(IrqstormChannelSpec, f)
#define NCH IRQSTORM_NUM_CHANNELS

static const KeyDesc keys[] = {
	{ "machine", "accel", KEY_CHOICE, OFF(accel), 0, 0, irqstorm_accel_names },
	{ "machine", "cpus", KEY_UINT, OFF(cpus), 1, 64, NULL },
	{ "machine", "memory_mb", KEY_UINT, OFF(memory_mb), 64, 65536, NULL },
	{ "machine", "icount", KEY_ICOUNT, OFF(icount_shift), 0, 10, NULL },
	{ "machine", "allow_smp_icount", KEY_BOOL, OFF(allow_smp_icount), 0, 0, NULL },
	{ "machine", "quantum_ns", KEY_UINT, OFF(quantum_ns), 0, 1000000, NULL },
	{ "machine", "seed", KEY_UINT64, OFF(seed), 0, G_MAXUINT32, NULL },
	{ "kernel", "flavour", KEY_STRING, OFF(flavour), 0, 0, irqstorm_flavour_names },
	{ "kernel", "source", KEY_SOURCE, OFF(source), 0, 0, irqstorm_source_names },
	{ "kernel", "patches", KEY_STRING, OFF(patches), 0, 0, irqstorm_patches_names },
	{ "kernel", "bh_lock", KEY_STRING, OFF(bh_lock), 0, 0, irqstorm_bh_lock_names },
	{ "kernel", "debug", KEY_BOOL, OFF(debug), 0, 0, NULL },
	{ "kernel", "cmdline", KEY_STRING, OFF(cmdline), 0, 0, NULL },
	{ "channel", "name", KEY_STRING, CH(name), 0, 0, NULL },
	{ "channel", "pattern", KEY_CHOICE, CH(pattern), 0, 0, irqstorm_pattern_names,
	  PROP(PATTERN) },
	{ "channel", "enable", KEY_BOOL, CH(enable), 0, 0, NULL, PROP(ENABLE) },
	{ "channel", "rate", KEY_RATE, CH(period_ns), 1,
	  1000000000 / IRQSTORM_MIN_PERIOD_NS, NULL, PROP(PERIOD_NS) },
	{ "channel", "burst", KEY_UINT, CH(burst), 1, IRQSTORM_MAX_BURST, NULL,
	  PROP(BURST) },
	{ "channel", "gap_us", KEY_MICROS, CH(gap_ns), IRQSTORM_MIN_PERIOD_NS,
	  IRQSTORM_MAX_NS, NULL, PROP(GAP_NS) },
	{ "channel", "seed", KEY_UINT64, CH(seed), 0, G_MAXUINT32, NULL, PROP(SEED) },
	{ "channel", "pio_words", KEY_UINT, CH(pio_words), 0, IRQSTORM_MAX_PIO_WORDS,
	  NULL, PROP(PIO_WORDS) },
	{ "channel", "ready_delay_us", KEY_MICROS, CH(ready_delay_ns), 0,
	  IRQSTORM_MAX_NS, NULL, PROP(READY_DELAY_NS) },
	{ "channel", "ready_channel", KEY_OPT_INT, CH(ready_channel), 0, NCH - 1, NULL,
	  PROP(READY_CHANNEL) },
	{ "channel", "trigger_start_ns", KEY_UINT64, CH(trigger_start_ns), 0,
	  IRQSTORM_MAX_TRIGGER_NS, NULL, PROP(TRIGGER_START_NS) },
	{ "channel", "trigger_stop_ns", KEY_UINT64, CH(trigger_stop_ns), 0,
	  IRQSTORM_MAX_TRIGGER_NS, NULL, PROP(TRIGGER_STOP_NS) },
	{ "channel", "trigger_step_ns", KEY_UINT64, CH(trigger_step_ns), 1,
	  IRQSTORM_MAX_TRIGGER_NS, NULL, PROP(TRIGGER_STEP_NS) },
	{ "channel", "threading", KEY_CHOICE, CH(threading), 0, 0, irqstorm_threading_names },
	{ "channel", "work", KEY_CHOICE, CH(work), 0, 0, irqstorm_work_names },
	{ "channel", "work_context", KEY_CHOICE, CH(work_context), 0, 0, irqstorm_work_context_names },
	{ "channel", "resched_every", KEY_UINT, CH(resched_every), 0, 1 << 24, NULL },
	{ "channel", "bh_off_us", KEY_UINT, CH(bh_off_us), 0, 100000, NULL },
	{ "channel", "plant", KEY_CHOICE, CH(plant), 0, 0, irqstorm_plant_names },
	{ "channel", "thread_prio", KEY_OPT_INT, CH(thread_prio), 1, 99, NULL },
	{ "channel", "thread_cpu", KEY_OPT_INT, CH(thread_cpu), 0, 63, NULL },
	{ "channel", "irq_cpu", KEY_OPT_INT, CH(irq_cpu), 0, 63, NULL },
	{ "guest", "irq_mode", KEY_CHOICE, OFF(irq_mode), 0, 0, irqstorm_irq_mode_names },
	{ "guest", "spin_timeout_us", KEY_UINT, OFF(spin_timeout_us), 1, 1000000, NULL },
	{ "guest", "probe", KEY_BOOL, OFF(probe), 0, 0, NULL },
	{ "guest", "probe_prio", KEY_UINT, OFF(probe_prio), 1, 99, NULL },
	{ "guest", "probe_period_us", KEY_UINT, OFF(probe_period_us), 10, 10000000, NULL },
	{ "guest", "probe_cpu", KEY_UINT, OFF(probe_cpu), 0, 63, NULL },
	{ "guest", "i8042_channel", KEY_OPT_INT, OFF(i8042_channel), 0, NCH - 1, NULL },
	{ "guest", "i8042_timeout_us", KEY_UINT, OFF(i8042_timeout_us), 1, 1000000, NULL },
	{ "guest", "free_irq", KEY_BOOL, OFF(free_irq), 0, 0, NULL },
	{ "guest", "unload", KEY_BOOL, OFF(unload), 0, 0, NULL },
	{ "guest", "handler_clock", KEY_BOOL, OFF(handler_clock), 0, 0, NULL },
	{ "guest", "cyclictest", KEY_BOOL, OFF(cyclictest), 0, 0, NULL },
	{ "guest", "cyclictest_prio", KEY_UINT, OFF(cyclictest_prio), 1, 99, NULL },
	{ "guest", "irq_cpu", KEY_OPT_INT, OFF(irq_cpu), 0, 63, NULL },
	{ "guest", "hotplug_cpu", KEY_OPT_INT, OFF(hotplug_cpu), 1, 63, NULL },
	{ "guest", "irq_flip_us", KEY_UINT, OFF(irq_flip_us), 0, 1000000, NULL },
	{ "guest", "sync_irq", KEY_STRING, OFF(sync_irq), 0, 0, NULL },
	{ "guest", "load_prio", KEY_OPT_INT, OFF(load_prio), 1, 99, NULL },
	{ "guest", "section", KEY_CHOICE, OFF(section), 0, 0, irqstorm_section_names },
	{ "guest", "section_us", KEY_UINT, OFF(section_us), 1, 1000000, NULL },
	{ "guest", "section_channel", KEY_OPT_INT, OFF(section_channel), 0, NCH - 1, NULL },
	{ "guest", "section_cpu", KEY_UINT, OFF(section_cpu), 0, 63, NULL },
	{ "guest", "section_pio_channel", KEY_OPT_INT, OFF(section_pio_channel), 0, NCH - 1, NULL },
	{ "run", "duration", KEY_SECONDS, OFF(duration_ms), 1, 3600 * 1000, NULL },
	{ "run", "warmup", KEY_SECONDS, OFF(warmup_ms), 0, 3600 * 1000, NULL },
	{ "run", "grace", KEY_SECONDS, OFF(grace_ms), 1, 3600 * 1000, NULL },
	{ "run", "timeout", KEY_UINT, OFF(timeout_s), 5, 24 * 3600, NULL },
	{ "run", "boot_timeout", KEY_UINT, OFF(boot_timeout_s), 1, 24 * 3600, NULL },
	{ "run", "bin_ns", KEY_UINT64, OFF(bin_ns), 1, 1000000000, NULL },
	{ "run", "bins", KEY_UINT, OFF(bins), 10, 10000000, NULL },
	{ "run", "log_mb", KEY_UINT, OFF(log_mb), 1, 1024, NULL },
	{ "run", "stamps", KEY_BOOL, OFF(stamps), 0, 0, NULL },
	{ "run", "kernel_expect", KEY_STRING, OFF(kernel_expect), 0, 0, NULL },
};


static void scenario_defaults(IrqstormScenario *sc)
{
	sc->accel = IRQSTORM_ACCEL_TCG;
	sc->cpus = 1;
	sc->quantum_ns = IRQSTORM_QUANTUM_NS_DEFAULT;
	sc->memory_mb = 256;
	sc->icount_shift = 3;
	sc->seed = 1;
	sc->flavour = g_strdup("rt");
	sc->source = g_strdup("debian-6.12");
	sc->patches = g_strdup("default");
	sc->bh_lock = g_strdup("default");
	sc->cmdline = g_strdup("");
	for (guint n = 0; n < NCH; n++) {
		IrqstormChannelSpec *c = &sc->ch[n];

		c->name = g_strdup("");
		c->pattern = n ? IRQSTORM_PATTERN_OFF : IRQSTORM_PATTERN_PERIODIC;
		c->enable = TRUE;
		c->period_ns = 1000000;		/* 1 kHz */
		c->burst = 1;
		c->gap_ns = 1000000;
		c->seed = n + 1;
		c->ready_channel = IRQSTORM_NONE;
		c->threading = IRQSTORM_THREADING_THREADED;
		c->thread_prio = IRQSTORM_NONE;
		c->thread_cpu = IRQSTORM_NONE;
		c->irq_cpu = IRQSTORM_NONE;
		c->trigger_step_ns = 8;		/* one instruction at icount 3 */
	}
	sc->irq_mode = IRQSTORM_IRQS_INTX;
	sc->spin_timeout_us = 10000;
	sc->probe_prio = 80;
	sc->probe_period_us = 1000;
	sc->cyclictest_prio = 79;
	sc->irq_cpu = IRQSTORM_NONE;
	sc->hotplug_cpu = IRQSTORM_NONE;
	sc->sync_irq = g_strdup("");
	sc->kernel_expect = g_strdup("");
	sc->load_prio = IRQSTORM_NONE;
	sc->section_us = 50;
	sc->section_pio_channel = IRQSTORM_NONE;
	sc->i8042_channel = IRQSTORM_NONE;
	sc->i8042_timeout_us = 20000;
	sc->thresholds = g_array_new(FALSE, TRUE, sizeof(IrqstormThreshold));
	sc->changes = g_array_new(FALSE, TRUE, sizeof(IrqstormChange));
	sc->profiles = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
					     (GDestroyNotify)g_ptr_array_unref);
	sc->overrides = g_ptr_array_new_with_free_func(g_free);
	sc->duration_ms = 1000;
	sc->grace_ms = 100;
	sc->timeout_s = 300;
	sc->boot_timeout_s = 30;
	sc->bin_ns = 1000;
	sc->bins = 10000;
	sc->log_mb = 16;
	sc->stamps = TRUE;
}

/* Channel n of a group name "channelN", or -1 if it is no channel group. */
int irqstorm_scenario_channel_of_group(const char *group)
{
	const char *d = group + strlen("channel");

	G_STATIC_ASSERT(NCH <= 10);
	if (!g_str_has_prefix(group, "channel") || !g_ascii_isdigit(d[0]) || d[1] ||
	    (guint)(d[0] - '0') >= NCH)
		return -1;
	return d[0] - '0';
}

/* The key's descriptor, and in *base what its offset applies to. */
const KeyDesc *irqstorm_scenario_find_key(IrqstormScenario *sc, const char *group,
			       const char *key, void **base)
{
	int n = irqstorm_scenario_channel_of_group(group);
	const char *g = n >= 0 ? "channel" : group;

	/* "channel" alone names no channel: its keys need channel0..3. */
	if (n < 0 && !g_strcmp0(group, "channel"))
		return NULL;
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		if (!g_strcmp0(keys[i].group, g) && !g_strcmp0(keys[i].key, key)) {
			*base = n >= 0 ? (void *)&sc->ch[n] : (void *)sc;
			return &keys[i];
		}
	}
	return NULL;
}

static gboolean known_group(const char *group)
{
	if (irqstorm_scenario_channel_of_group(group) >= 0 || !g_strcmp0(group, "thresholds") ||
	    !g_strcmp0(group, "changes") || g_str_has_prefix(group, "profile."))
		return TRUE;
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (!g_strcmp0(keys[i].group, group) && g_strcmp0(group, "channel"))
			return TRUE;
	return FALSE;
}

static char *choices_list(const char *const *choices)
{
	return g_strjoinv(", ", (char **)choices);
}

/* ---- messages that help -------------------------------------------------- */

#define MAX_NAME 64	/* longer names are no typo of ours */

/*
 * The optimal string alignment distance of a and b: insertions, deletions,
 * substitutions and swaps of two neighbours, each one edit.
 */
static guint edit_distance(const char *a, const char *b)
{
	gsize la = strlen(a), lb = strlen(b);
	guint d[MAX_NAME + 1][MAX_NAME + 1];

	if (la > MAX_NAME || lb > MAX_NAME)
		return G_MAXUINT;
	for (gsize i = 0; i <= la; i++)
		d[i][0] = i;
	for (gsize j = 0; j <= lb; j++)
		d[0][j] = j;
	for (gsize i = 1; i <= la; i++) {
		for (gsize j = 1; j <= lb; j++) {
			d[i][j] = MIN(MIN(d[i - 1][j], d[i][j - 1]) + 1,
				      d[i - 1][j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				d[i][j] = MIN(d[i][j], d[i - 2][j - 2] + 1);
		}
	}
	return d[la][lb];
}

/* Of names (NULL-terminated), the nearest to name if it is near enough to
 * be a typo of it (an edit per three characters), else NULL. */
static const char *nearest_name(const char *name, const char *const *names)
{
	guint limit = MAX(1, strlen(name) / 3), best = G_MAXUINT;
	const char *found = NULL;

	for (gsize i = 0; names[i]; i++) {
		guint d = edit_distance(name, names[i]);

		if (d <= limit && d < best) {
			best = d;
			found = names[i];
		}
	}
	return found;
}

/* The keys of a group of the table ("channel" for channelN), in its
 * order, NULL-terminated; the strings are the table's. */
static const char **group_keys(const char *key_group)
{
	GPtrArray *names = g_ptr_array_new();

	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (!g_strcmp0(keys[i].group, key_group))
			g_ptr_array_add(names, (char *)keys[i].key);
	if (!g_strcmp0(key_group, "run"))
		g_ptr_array_add(names, (char *)"profile");
	g_ptr_array_add(names, NULL);
	return (const char **)g_ptr_array_free(names, FALSE);
}

/* An unknown key of a known group: the key it is a typo of, or the keys. */
static gboolean unknown_key(GError **error, const char *where, const char *group,
			    const char *key)
{
	g_autofree const char **names = group_keys(irqstorm_scenario_channel_of_group(group) >= 0 ?
						   "channel" : group);
	const char *near = nearest_name(key, names);
	g_autofree char *list = g_strjoinv(", ", (char **)names);

	if (near)
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN,
			    "%s: [%s] unknown key '%s' (did you mean '%s'?)", where,
			    group, key, near);
	else
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN,
			    "%s: [%s] unknown key '%s' (keys of [%s]: %s)", where,
			    group, key, group, list);
	return FALSE;
}

/* "channel" and digits: a channel number the device may not have. */
static gboolean is_channel_number(const char *group)
{
	const char *d = group + strlen("channel");

	if (!g_str_has_prefix(group, "channel") || !*d)
		return FALSE;
	for (; *d; d++)
		if (!g_ascii_isdigit(*d))
			return FALSE;
	return TRUE;
}

/* An unknown group, in a file or in --set: the group it is a typo of, and
 * the groups there are. */
static gboolean unknown_group(GError **error, const char *where, const char *group)
{
	static const char *const fixed[] = {
		"machine", "kernel", "guest", "run", "thresholds", "changes",
	};
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *hint = NULL;
	const char *near;

	for (gsize i = 0; i < G_N_ELEMENTS(fixed); i++)
		g_ptr_array_add(names, g_strdup(fixed[i]));
	for (guint n = 0; n < NCH; n++)
		g_ptr_array_add(names, g_strdup_printf("channel%u", n));
	g_ptr_array_add(names, NULL);
	near = is_channel_number(group) ? NULL :
	       nearest_name(group, (const char *const *)names->pdata);
	if (near)
		hint = g_strdup_printf("did you mean [%s]? ", near);
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN,
		    "%s: unknown group [%s] (%sknown: machine, kernel, channel0..channel%u, "
		    "guest, run, thresholds, changes, profile.NAME)", where, group,
		    hint ? hint : "", NCH - 1);
	return FALSE;
}

/* Set a value error naming where it came from. */
static gboolean value_error(GError **error, const char *where, const char *group,
			    const KeyDesc *k, const char *value, const char *why)
{
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
		    "%s: [%s] %s = '%s': %s", where, group, k->key, value, why);
	return FALSE;
}

/* Parse an unsigned decimal integer in [min, max]. */
static gboolean parse_uint(const char *value, guint64 min, guint64 max,
			   guint64 *out, char **why)
{
	guint64 v;

	if (!g_ascii_string_to_unsigned(value, 10, min, max, &v, NULL)) {
		*why = g_strdup_printf("expected an integer from %" G_GUINT64_FORMAT
				       " to %" G_GUINT64_FORMAT, min, max);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

/* Parse a finite decimal number, positive (or zero if allowed). */
static gboolean parse_decimal(const char *value, gboolean zero_ok, double *out,
			      char **why)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = g_ascii_strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v) || v < 0 ||
	    (v == 0 && !zero_ok)) {
		*why = g_strdup(zero_ok ? "expected a decimal number >= 0" :
				"expected a positive decimal number");
		return FALSE;
	}
	*out = v;
	return TRUE;
}

static int choice_index(const char *const *choices, const char *value)
{
	for (int i = 0; choices[i]; i++)
		if (!g_strcmp0(choices[i], value))
			return i;
	return -1;
}

/* One of the key's choices, as its index. */
static gboolean parse_choice(const KeyDesc *k, const char *value, int *idx,
			     char **why)
{
	g_autofree char *list = NULL;

	*idx = choice_index(k->choices, value);
	if (*idx >= 0)
		return TRUE;
	list = choices_list(k->choices);
	*why = g_strdup_printf("expected one of: %s", list);
	return FALSE;
}

/* A string: one line, and one of the key's choices if it has them. */
static gboolean check_string(const KeyDesc *k, const char *value, char **why)
{
	int idx;

	if (strpbrk(value, "\n\r")) {
		*why = g_strdup("must be a single line");
		return FALSE;
	}
	return !k->choices || parse_choice(k, value, &idx, why);
}

/*
 * A kernel source: one of the names, or a path to the user's tree (it
 * has a '/': "./linux" for one in the current directory), kept absolute
 * so that the effective scenario names the same tree from anywhere. The
 * tree itself is checked by the build (scripts/build-kernel.sh).
 */
/*
 * A tree's path, absolute and canonical; where it exists, with its
 * symbolic links resolved: a link to a tree is that tree, one build.
 */
static char *tree_path(const char *value)
{
	g_autofree char *abs = g_canonicalize_filename(value, NULL);
	char *real = realpath(abs, NULL);
	char *path;

	if (!real)
		return g_steal_pointer(&abs);
	path = g_strdup(real);
	free(real);
	return path;
}

static gboolean parse_source(const KeyDesc *k, const char *value, char **out,
			     char **why)
{
	g_autofree char *list = NULL;

	if (strpbrk(value, "\n\r")) {
		*why = g_strdup("must be a single line");
		return FALSE;
	}
	if (!strchr(value, '/') && choice_index(k->choices, value) < 0) {
		list = choices_list(k->choices);
		*why = g_strdup_printf("expected one of: %s, or the path of a kernel "
				       "source tree (with a '/', e.g. ./linux)", list);
		return FALSE;
	}
	g_free(*out);
	*out = strchr(value, '/') ? tree_path(value) : g_strdup(value);
	return TRUE;
}

/* "off" (icount) or "none", as IRQSTORM_ICOUNT_OFF or IRQSTORM_NONE, or
 * an integer in the key's range. */
static gboolean parse_opt_int(const KeyDesc *k, const char *value, int *out,
			      char **why)
{
	const char *unset = k->type == KEY_ICOUNT ? "off" : "none";
	guint64 u;

	if (!g_strcmp0(value, unset)) {
		*out = k->type == KEY_ICOUNT ? IRQSTORM_ICOUNT_OFF : IRQSTORM_NONE;
		return TRUE;
	}
	if (!g_ascii_string_to_unsigned(value, 10, k->min, k->max, &u, NULL)) {
		*why = g_strdup_printf("expected '%s' or an integer from %"
				       G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
				       unset, k->min, k->max);
		return FALSE;
	}
	*out = u;
	return TRUE;
}

/*
 * A decimal value scaled to an integer unit, within the key's range; what
 * is not such a number gets the range too: "expected a number of seconds
 * from 0.001 to 3600".
 */
static gboolean parse_scaled(const char *value, const KeyDesc *k, double scale,
			     guint64 *out, char **why)
{
	double d;

	if (parse_decimal(value, k->min == 0, &d, why)) {
		d = round(d * scale);
		if (d >= k->min && d <= k->max) {
			*out = (guint64)d;
			return TRUE;
		}
	}
	g_free(*why);
	*why = g_strdup_printf("expected a number of %s from %.10g to %.10g",
			       k->type == KEY_SECONDS ? "seconds" : "microseconds",
			       k->min / scale, k->max / scale);
	return FALSE;
}

/* A rate in Hz within the key's range, as a period in ns. */
static gboolean parse_rate(const char *value, const KeyDesc *k, guint64 *out,
			   char **why)
{
	double d;

	if (parse_decimal(value, FALSE, &d, why) && d >= k->min && d <= k->max) {
		*out = (guint64)llround(1e9 / d);
		return TRUE;
	}
	g_free(*why);
	*why = g_strdup_printf("rate in Hz must be from %" G_GUINT64_FORMAT " to %"
			       G_GUINT64_FORMAT, k->min, k->max);
	return FALSE;
}

/* Store one key's value, or say precisely why not. */
gboolean irqstorm_scenario_apply_key(void *base, const char *group, const KeyDesc *k,
			  const char *value, const char *where, GError **error)
{
	g_autofree char *why = NULL;
	guint64 u;
	int idx;

	switch (k->type) {
	case KEY_UINT:
	case KEY_UINT64:
		if (!parse_uint(value, k->min, k->max, &u, &why))
			break;
		if (k->type == KEY_UINT)
			*FIELD(base, k, guint) = u;
		else
			*FIELD(base, k, guint64) = u;
		return TRUE;
	case KEY_BOOL:
		if (g_strcmp0(value, "true") && g_strcmp0(value, "false")) {
			why = g_strdup("expected true or false");
			break;
		}
		*FIELD(base, k, gboolean) = !g_strcmp0(value, "true");
		return TRUE;
	case KEY_STRING:
		if (!check_string(k, value, &why))
			break;
		g_free(*FIELD(base, k, char *));
		*FIELD(base, k, char *) = g_strdup(value);
		return TRUE;
	case KEY_SOURCE:
		if (!parse_source(k, value, FIELD(base, k, char *), &why))
			break;
		return TRUE;
	case KEY_CHOICE:
		if (!parse_choice(k, value, &idx, &why))
			break;
		*FIELD(base, k, int) = idx;
		return TRUE;
	case KEY_ICOUNT:
	case KEY_OPT_INT:
		if (!parse_opt_int(k, value, &idx, &why))
			break;
		*FIELD(base, k, int) = idx;
		return TRUE;
	case KEY_RATE:
		if (!parse_rate(value, k, &u, &why))
			break;
		*FIELD(base, k, guint64) = u;
		return TRUE;
	case KEY_SECONDS:	/* to ms */
	case KEY_MICROS:	/* to ns */
		if (!parse_scaled(value, k, 1e3, &u, &why))
			break;
		*FIELD(base, k, guint64) = u;
		return TRUE;
	}
	return value_error(error, where, group, k, value, why);
}

/* One key's current value the way the parser reads it back. */
static char *format_key(const void *base, const KeyDesc *k)
{
	int i;

	switch (k->type) {
	case KEY_UINT:
		return g_strdup_printf("%u", *FIELD(base, k, const guint));
	case KEY_UINT64:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *FIELD(base, k, const guint64));
	case KEY_BOOL:
		return g_strdup(*FIELD(base, k, const gboolean) ? "true" : "false");
	case KEY_STRING:
	case KEY_SOURCE:
		return g_strdup(*FIELD(base, k, char *const));
	case KEY_CHOICE:
		return g_strdup(k->choices[*FIELD(base, k, const int)]);
	case KEY_ICOUNT:
	case KEY_OPT_INT:
		i = *FIELD(base, k, const int);
		if (i < 0)
			return g_strdup(k->type == KEY_ICOUNT ? "off" : "none");
		return g_strdup_printf("%d", i);
	case KEY_RATE:
		return g_strdup_printf("%.9g", 1e9 / (double)*FIELD(base, k, const guint64));
	case KEY_SECONDS:
		return g_strdup_printf("%.3f", *FIELD(base, k, const guint64) / 1e3);
	case KEY_MICROS:
		return g_strdup_printf("%.3f", *FIELD(base, k, const guint64) / 1e3);
	}
	g_assert_not_reached();
}



/* Does a value hold what its writer meant as a comment: a '#' first or
 * after a blank ("rate = 2000 # note")? GKeyFile takes only whole lines
 * starting with '#' as comments. */
static gboolean comment_in(const char *value)
{
	for (const char *h = strchr(value, '#'); h; h = strchr(h + 1, '#'))
		if (h == value || g_ascii_isspace(h[-1]))
			return TRUE;
	return FALSE;
}

/*
 * A key's value as a string, or NULL with an error naming the file, group
 * and key. GLib returns a string even when it also reports an error (a
 * value ending in a lone backslash): that value is refused, not used.
 */
char *irqstorm_scenario_key_string(GKeyFile *kf, const char *group, const char *key,
			const char *where, GError **error)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *v = g_key_file_get_string(kf, group, key, &err);

	if (err) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [%s] %s: %s", where, group, key, err->message);
		return NULL;
	}
	if (comment_in(v)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [%s] %s = '%s': comments need their own line (a '#' "
			    "after a value is part of the value)", where, group, key,
			    g_strstrip(v));
		return NULL;
	}
	return g_steal_pointer(&v);
}


/* Apply every key of a parsed key file; unknown groups and keys are errors. */
static gboolean scenario_apply_keyfile(IrqstormScenario *sc, GKeyFile *kf,
				       const char *where, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	g_autofree char *profile = NULL;

	if (!irqstorm_scenario_collect_profiles(sc, kf, where, error))
		return FALSE;
	for (gsize g = 0; groups[g]; g++) {
		g_auto(GStrv) names = NULL;
		int n = irqstorm_scenario_channel_of_group(groups[g]);

		if (g_str_has_prefix(groups[g], "profile."))
			continue;

		if (!known_group(groups[g]))
			return unknown_group(error, where, groups[g]);
		/* A channel that is written about storms, unless it says not. */
		if (n >= 0 && !g_key_file_has_key(kf, groups[g], "pattern", NULL))
			sc->ch[n].pattern = IRQSTORM_PATTERN_PERIODIC;
		names = g_key_file_get_keys(kf, groups[g], NULL, NULL);
		for (gsize i = 0; names && names[i]; i++) {
			void *base = NULL;
			const KeyDesc *k = irqstorm_scenario_find_key(sc, groups[g], names[i], &base);
			g_autofree char *value = NULL;

			if (!g_strcmp0(groups[g], "run") && !g_strcmp0(names[i], "profile")) {
				/* Applied after every group: it overrides them.
				 * A key given twice is listed twice: the last wins. */
				g_free(profile);
				profile = irqstorm_scenario_key_string(kf, groups[g], names[i], where, error);
				if (!profile)
					return FALSE;
				continue;
			}
			if (!g_strcmp0(groups[g], "thresholds") ||
			    !g_strcmp0(groups[g], "changes")) {
				value = irqstorm_scenario_key_string(kf, groups[g], names[i], where, error);
				if (!value)
					return FALSE;
				if (!(groups[g][0] == 't' ?
				      irqstorm_scenario_apply_threshold(sc, names[i], g_strstrip(value), where, error) :
				      irqstorm_scenario_apply_changes(sc, names[i], g_strstrip(value), where, error)))
					return FALSE;
				continue;
			}
			if (!k)
				return unknown_key(error, where, groups[g], names[i]);
			value = irqstorm_scenario_key_string(kf, groups[g], names[i], where, error);
			if (!value)
				return FALSE;
			if (!irqstorm_scenario_apply_key(base, groups[g], k, g_strstrip(value), where, error))
				return FALSE;
		}
	}
	return !profile || irqstorm_scenario_apply_profile(sc, g_strstrip(profile), where, error);
}

/*
 * A key given twice in one group (across repeated [group] headers too):
 * GKeyFile keeps the last silently, so that a copy-and-paste slip would
 * run another scenario than the one read. Refused, naming both lines.
 */
static gboolean no_duplicate_keys(const char *name, const char *data, GError **error)
{
	g_auto(GStrv) lines = g_strsplit(data, "\n", -1);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *group = g_strdup("");

	for (guint i = 0; lines[i]; i++) {
		g_autofree char *line = g_strstrip(g_strdup(lines[i]));
		char *eq = strchr(line, '=');
		g_autofree char *id = NULL;
		gpointer first;

		if (*line == '[' && strchr(line, ']')) {
			g_free(group);
			group = g_strndup(line + 1, strcspn(line + 1, "]"));
			continue;
		}
		if (!eq || *line == '#' || *line == ';')
			continue;
		*eq = '\0';
		id = g_strdup_printf("%s\n%s", group, g_strstrip(line));
		if (g_hash_table_lookup_extended(seen, id, NULL, &first)) {
			g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
				    "%s:%u: [%s] %s is given twice (first on line %u): only "
				    "one can be meant", name, i + 1, group, line,
				    GPOINTER_TO_UINT(first));
			return FALSE;
		}
		g_hash_table_insert(seen, g_steal_pointer(&id), GUINT_TO_POINTER(i + 1));
	}
	return TRUE;
}

/* Parse scenario text; name is used in every message. */
IrqstormScenario *irqstorm_scenario_load_data(const char *name, const char *data,
					      GError **error)
{
	g_autoptr(IrqstormScenario) sc = g_new0(IrqstormScenario, 1);
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) err = NULL;
	g_auto(GStrv) groups = NULL;

	scenario_defaults(sc);
	sc->path = g_strdup(name);
	if (!g_key_file_load_from_data(kf, data, -1, G_KEY_FILE_NONE, &err)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "%s: %s", name, err->message);
		return NULL;
	}
	if (!no_duplicate_keys(name, data, error))
		return NULL;
	/* An empty file is more likely a mistake (a wrong path, a truncated
	 * copy) than a wish for every default, which one group says. */
	groups = g_key_file_get_groups(kf, NULL);
	if (!groups[0]) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "%s: no groups: the file is empty or only comments. For "
			    "every default, say so with one group, e.g. [run]", name);
		return NULL;
	}
	if (!scenario_apply_keyfile(sc, kf, name, error))
		return NULL;
	if (!irqstorm_scenario_check(sc, name, error))
		return NULL;
	return g_steal_pointer(&sc);
}

/* Read and parse a scenario file. */
IrqstormScenario *irqstorm_scenario_load(const char *path, GError **error)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) err = NULL;

	if (!g_file_get_contents(path, &data, NULL, &err)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "cannot read scenario: %s", err->message);
		return NULL;
	}
	return irqstorm_scenario_load_data(path, data, error);
}

/* Apply one override "group.key=value" given by where (an option, or a
 * profile), without the cross-key checks. */
gboolean irqstorm_scenario_set_one(IrqstormScenario *sc, const char *assignment,
			const char *where, GError **error)
{
	const char *eq = strchr(assignment, '=');
	const char *dot = eq ? memchr(assignment, '.', eq - assignment) : NULL;
	g_autofree char *group = NULL;
	g_autofree char *key = NULL;
	const KeyDesc *k;
	void *base = NULL;

	if (!eq || !dot) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "%s '%s': expected group.key=value, e.g. run.duration=2",
			    where, assignment);
		return FALSE;
	}
	group = g_strndup(assignment, dot - assignment);
	key = g_strndup(dot + 1, eq - dot - 1);
	if (!g_strcmp0(group, "thresholds"))
		return irqstorm_scenario_apply_threshold(sc, key, eq + 1, where, error);
	if (!g_strcmp0(group, "changes"))
		return irqstorm_scenario_apply_changes(sc, key, eq + 1, where, error);
	if (!g_strcmp0(group, "run") && !g_strcmp0(key, "profile"))
		return irqstorm_scenario_apply_profile(sc, eq + 1, where, error);
	if (!known_group(group))
		return unknown_group(error, where, group);
	k = irqstorm_scenario_find_key(sc, group, key, &base);
	if (!k)
		return unknown_key(error, where, group, key);
	return irqstorm_scenario_apply_key(base, group, k, eq + 1, where, error);
}

/* The channel keys the device can change while it runs, comma-separated. */
char *irqstorm_scenario_live_keys(void)
{
	GString *s = g_string_new(NULL);

	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (keys[i].prop)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "",
					       keys[i].key);
	return g_string_free(s, FALSE);
}

/*
 * On the command line, a kernel source that is not one of the names is a
 * path, resolved against the current directory whatever it looks like
 * ("--tree ." in a tree, "kernel.source=linux"): "./" makes it one. A
 * scenario file keeps the rule that a path has a '/'.
 */
static char *command_line_assignment(const char *assignment)
{
	static const char prefix[] = "kernel.source=";
	const char *v = assignment + strlen(prefix);

	if (!g_str_has_prefix(assignment, prefix) || !*v || strchr(v, '/') ||
	    choice_index(irqstorm_source_names, v) >= 0)
		return g_strdup(assignment);
	return g_strdup_printf("%s./%s", prefix, v);
}

gboolean irqstorm_scenario_override(IrqstormScenario *sc, const char *assignment,
				    const char *where, GError **error)
{
	g_autofree char *a = command_line_assignment(assignment);

	if (!irqstorm_scenario_set_one(sc, a, where, error))
		return FALSE;
	g_ptr_array_add(sc->overrides, g_strdup(assignment));
	return TRUE;
}




gboolean irqstorm_scenario_smp_windows(const IrqstormScenario *sc)
{
	return sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->cpus > 1 && sc->quantum_ns;
}


/* Apply a command-line override "group.key=value", then recheck the whole. */
gboolean irqstorm_scenario_set(IrqstormScenario *sc, const char *assignment,
			       GError **error)
{
	return irqstorm_scenario_override(sc, assignment, "--set", error) &&
	       irqstorm_scenario_check(sc, "--set", error);
}

/* Append one group's keys, as the parser reads them back. */
static void append_group(GString *out, const char *group, const char *key_group,
			 const void *base)
{
	g_string_append_printf(out, "\n[%s]\n", group);
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_autofree char *v = NULL;

		if (g_strcmp0(keys[i].group, key_group))
			continue;
		v = format_key(base, &keys[i]);
		g_string_append_printf(out, "%s = %s\n", keys[i].key, v);
	}
}

/* The effective scenario as INI text: every key, every channel. */
char *irqstorm_scenario_to_ini(const IrqstormScenario *sc)
{
	static const char *const groups[] = { "machine", "kernel" };
	static const char *const tail_groups[] = { "guest", "run" };
	GString *out = g_string_new("# Effective scenario, as run (irqstorm).\n");

	if (sc->profile)
		g_string_append_printf(out, "# Profile %s of %s is applied below.\n",
				       sc->profile, sc->path);
	for (gsize i = 0; i < G_N_ELEMENTS(groups); i++)
		append_group(out, groups[i], groups[i], sc);
	for (guint n = 0; n < NCH; n++) {
		g_autofree char *g = g_strdup_printf("channel%u", n);

		append_group(out, g, "channel", &sc->ch[n]);
	}
	for (gsize i = 0; i < G_N_ELEMENTS(tail_groups); i++)
		append_group(out, tail_groups[i], tail_groups[i], sc);
	g_string_append(out, "\n[thresholds]\n");
	for (guint i = 0; i < sc->thresholds->len; i++) {
		const IrqstormThreshold *t = &g_array_index(sc->thresholds,
							    IrqstormThreshold, i);

		g_string_append_printf(out, "%s_%s_us = %.3f\n", t->stage,
				       irqstorm_stat_key(t->stat), t->limit_ns / 1e3);
	}
	g_string_append(out, "\n[changes]\n");
	for (guint i = 0; i < sc->changes->len; i++) {
		const IrqstormChange *c = &g_array_index(sc->changes, IrqstormChange, i);
		gboolean first = !i || g_array_index(sc->changes, IrqstormChange,
						     i - 1).at_ns != c->at_ns;
		gboolean last = i + 1 == sc->changes->len ||
				g_array_index(sc->changes, IrqstormChange, i + 1).at_ns != c->at_ns;

		if (first)
			g_string_append_printf(out, "%.9g = ", c->at_ns / 1e9);
		g_string_append_printf(out, "%s%s", c->assignment, last ? "\n" : "; ");
	}
	return g_string_free(out, FALSE);
}

void irqstorm_scenario_free(IrqstormScenario *sc)
{
	if (!sc)
		return;
	g_free(sc->path);
	g_free(sc->flavour);
	g_free(sc->source);
	g_free(sc->patches);
	g_free(sc->bh_lock);
	g_free(sc->cmdline);
	g_free(sc->sync_irq);
	g_free(sc->kernel_expect);
	for (guint n = 0; n < NCH; n++)
		g_free(sc->ch[n].name);
	for (guint i = 0; sc->thresholds && i < sc->thresholds->len; i++)
		g_free(g_array_index(sc->thresholds, IrqstormThreshold, i).stage);
	if (sc->thresholds)
		g_array_unref(sc->thresholds);
	for (guint i = 0; sc->changes && i < sc->changes->len; i++) {
		IrqstormChange *c = &g_array_index(sc->changes, IrqstormChange, i);

		g_free(c->assignment);
		g_free(c->qom_property);
		g_free(c->qom_json);
	}
	if (sc->changes)
		g_array_unref(sc->changes);
	if (sc->profiles)
		g_hash_table_unref(sc->profiles);
	if (sc->overrides)
		g_ptr_array_unref(sc->overrides);
	g_free(sc->profile);
	g_free(sc);
}

/* A word of the command line is opt, or opt=VALUE. */
gboolean irqstorm_scenario_cmdline_has(const IrqstormScenario *sc, const char *opt)
{
	g_auto(GStrv) words = g_strsplit_set(sc->cmdline ? sc->cmdline : "", " \t", -1);
	size_t n = strlen(opt);

	for (guint i = 0; words[i]; i++)
		if (!strncmp(words[i], opt, n) && (!words[i][n] || words[i][n] == '='))
			return TRUE;
	return FALSE;
}

/* Bit n set: channel n storms. */
guint irqstorm_scenario_channel_mask(const IrqstormScenario *sc)
{
	guint mask = 0;

	for (guint n = 0; n < NCH; n++)
		if (sc->ch[n].pattern != IRQSTORM_PATTERN_OFF)
			mask |= 1u << n;
	return mask;
}

/* The fewest cycles cyclictest can have run in the guest: it starts before
 * the storm and is stopped after it, so at least the storm's whole periods. */
guint64 irqstorm_scenario_cyclictest_min_cycles(const IrqstormScenario *sc)
{
	return sc->duration_ms * 1000 / sc->probe_period_us;
}







