// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario parsing and validation, driven by one table of keys: the same
 * table parses files, applies --set overrides and writes the effective
 * scenario back out, so the three can never disagree.
 */
#include "scenario.h"

#include "fail.h"
#include "stages.h"
#include "irqstorm/guest.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

G_DEFINE_QUARK(irqstorm-scenario-error-quark, irqstorm_scenario_error)

typedef enum {
	KEY_UINT,	/* guint in [min, max] */
	KEY_UINT64,	/* guint64 in [min, max] */
	KEY_BOOL,
	KEY_STRING,	/* free text, no newlines */
	KEY_CHOICE,	/* int index into choices */
	KEY_ICOUNT,	/* "off" or a shift in [min, max] */
	KEY_RATE,	/* Hz -> period_ns (guint64) */
	KEY_SECONDS,	/* decimal seconds -> ms (guint64) */
	KEY_MICROS,	/* decimal microseconds -> ns (guint64) */
	KEY_OPT_INT,	/* "none" (IRQSTORM_NONE) or an int in [min, max] */
	KEY_SOURCE,	/* one of choices, or a path (with a '/'), made absolute */
} KeyType;

typedef struct {
	const char *group;	/* "channel" stands for channel0..channel3 */
	const char *key;
	KeyType type;
	gsize offset;		/* in IrqstormScenario, or IrqstormChannelSpec */
	guint64 min, max;
	const char *const *choices;
	int prop;		/* 1 + the channel property it sets, when the
				 * device can change it while the storm runs
				 * (irqstorm/device.h); 0 when it cannot */
} KeyDesc;

static const char *const accel_names[] = { "tcg", "kvm", "auto", NULL };
#define PATTERN_NAME(id, name, help) name,
static const char *const pattern_names[] = {
	IRQSTORM_PATTERNS(PATTERN_NAME) NULL
};
#undef PATTERN_NAME

#define PROP_NAME(id, field, name, type, min, max, dflt, timing, help) name,
static const char *const prop_names[] = { IRQSTORM_CHANNEL_PROPS(PROP_NAME) };
#undef PROP_NAME
#define PROP(id) (1 + IRQSTORM_CHANNEL_PROP_##id)
static const char *const threading_names[] = {
	"hardirq", "threaded", "forced", NULL
};
static const char *const work_names[] = { "none", "pio", "spin", "ignore", NULL };
#define WORK_CONTEXT_NAME(id, name, help) name,
static const char *const work_context_names[] = {
	IRQSTORM_WORK_CONTEXTS(WORK_CONTEXT_NAME) NULL
};
#undef WORK_CONTEXT_NAME
static const char *const irq_mode_names[] = { "auto", "intx", "msi", "msix", NULL };
static const char *const flavour_names[] = { "rt", "dyn", NULL };
/*
 * Debian's kernel sources ([kernel] source), by name: the suffix of their
 * kernels' names (scripts/build-kernel.sh), whether kernel-series/ is
 * applied by default (it is made for 6.12 and ported to 7.3), whether they
 * have PREEMPT_RT (merged in 6.12) and BH workqueues (6.9), and whether
 * their PREEMPT_RT's per-CPU BH lock is a choice (PREEMPT_RT_NEEDS_BH_LOCK,
 * off by default, on 7.x; 6.12's always takes it).
 *
 * X(name, suffix, series, rt, bh_workqueue, bh_lock_choice)
 */
#define DEBIAN_SOURCES(X)					\
	X("debian-6.12", "", TRUE, TRUE, TRUE, FALSE)		\
	X("debian-6.1", "-6.1", FALSE, FALSE, FALSE, FALSE)	\
	X("debian-7.3", "-7.3", TRUE, TRUE, TRUE, TRUE)

#define DEBIAN_SOURCE_NAME(name, suffix, series, rt, bh, lock) name,
static const char *const source_names[] = { DEBIAN_SOURCES(DEBIAN_SOURCE_NAME) NULL };
#undef DEBIAN_SOURCE_NAME

#define DEBIAN_SOURCE_ROW(name, suffix, series, rt, bh, lock) \
	{ name, suffix, series, rt, bh, lock },
static const struct {
	const char *name, *suffix;
	gboolean series, rt, bh_workqueue, bh_lock_choice;
} debian_sources[] = { DEBIAN_SOURCES(DEBIAN_SOURCE_ROW) };
#undef DEBIAN_SOURCE_ROW

/* sc's Debian source's row in debian_sources, or G_MAXUINT for a tree. */
static guint debian_source(const IrqstormScenario *sc)
{
	for (guint i = 0; i < G_N_ELEMENTS(debian_sources); i++)
		if (!strcmp(sc->source, debian_sources[i].name))
			return i;
	return G_MAXUINT;
}
static const char *const patches_names[] = { "default", "ours", "none", NULL };
static const char *const bh_lock_names[] = { "default", "on", "off", NULL };
/* "none", then the guest's section kinds: index = IRQSTORM_SECTION_* + 1. */
#define SECTION_NAME(id, name, help) name,
static const char *const section_names[] = {
	"none", IRQSTORM_GUEST_SECTIONS(SECTION_NAME) NULL
};
#undef SECTION_NAME

#define OFF(f) offsetof(IrqstormScenario, f)
#define CH(f) offsetof(IrqstormChannelSpec, f)
#define NCH IRQSTORM_NUM_CHANNELS

static const KeyDesc keys[] = {
	{ "machine", "accel", KEY_CHOICE, OFF(accel), 0, 0, accel_names },
	{ "machine", "cpus", KEY_UINT, OFF(cpus), 1, 64, NULL },
	{ "machine", "memory_mb", KEY_UINT, OFF(memory_mb), 64, 65536, NULL },
	{ "machine", "icount", KEY_ICOUNT, OFF(icount_shift), 0, 10, NULL },
	{ "machine", "allow_smp_icount", KEY_BOOL, OFF(allow_smp_icount), 0, 0, NULL },
	{ "machine", "quantum_ns", KEY_UINT, OFF(quantum_ns), 0, 1000000, NULL },
	{ "machine", "seed", KEY_UINT64, OFF(seed), 0, G_MAXUINT32, NULL },
	{ "kernel", "flavour", KEY_STRING, OFF(flavour), 0, 0, flavour_names },
	{ "kernel", "source", KEY_SOURCE, OFF(source), 0, 0, source_names },
	{ "kernel", "patches", KEY_STRING, OFF(patches), 0, 0, patches_names },
	{ "kernel", "bh_lock", KEY_STRING, OFF(bh_lock), 0, 0, bh_lock_names },
	{ "kernel", "cmdline", KEY_STRING, OFF(cmdline), 0, 0, NULL },
	{ "channel", "pattern", KEY_CHOICE, CH(pattern), 0, 0, pattern_names,
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
	{ "channel", "threading", KEY_CHOICE, CH(threading), 0, 0, threading_names },
	{ "channel", "work", KEY_CHOICE, CH(work), 0, 0, work_names },
	{ "channel", "work_context", KEY_CHOICE, CH(work_context), 0, 0, work_context_names },
	{ "channel", "resched_every", KEY_UINT, CH(resched_every), 0, 1 << 24, NULL },
	{ "channel", "bh_off_us", KEY_UINT, CH(bh_off_us), 0, 100000, NULL },
	{ "channel", "thread_prio", KEY_OPT_INT, CH(thread_prio), 1, 99, NULL },
	{ "channel", "thread_cpu", KEY_OPT_INT, CH(thread_cpu), 0, 63, NULL },
	{ "channel", "irq_cpu", KEY_OPT_INT, CH(irq_cpu), 0, 63, NULL },
	{ "guest", "irq_mode", KEY_CHOICE, OFF(irq_mode), 0, 0, irq_mode_names },
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
	{ "guest", "section", KEY_CHOICE, OFF(section), 0, 0, section_names },
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
};

/* The field key k stands for, in the scenario or in channel ch's spec. */
#define FIELD(base, k, type) ((type *)((char *)(base) + (k)->offset))

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
static int channel_of_group(const char *group)
{
	const char *d = group + strlen("channel");

	G_STATIC_ASSERT(NCH <= 10);
	if (!g_str_has_prefix(group, "channel") || !g_ascii_isdigit(d[0]) || d[1] ||
	    (guint)(d[0] - '0') >= NCH)
		return -1;
	return d[0] - '0';
}

/* The key's descriptor, and in *base what its offset applies to. */
static const KeyDesc *find_key(IrqstormScenario *sc, const char *group,
			       const char *key, void **base)
{
	int n = channel_of_group(group);
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
	if (channel_of_group(group) >= 0 || !g_strcmp0(group, "thresholds") ||
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
	g_autofree const char **names = group_keys(channel_of_group(group) >= 0 ?
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
static gboolean apply_key(void *base, const char *group, const KeyDesc *k,
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

/* Keys that cannot go together: the message, FALSE. */
#define conflict(error, ...)						\
	irqstorm_fail(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT, \
		      __VA_ARGS__)

/* A channel's settings must make sense together and with the others. */
static gboolean channel_check(const IrqstormScenario *sc, guint n,
			      const char *where, GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[n];
	guint active = irqstorm_scenario_channel_mask(sc);

	if (c->pattern == IRQSTORM_PATTERN_OFF)
		return TRUE;
	if (!sc->stamps && (c->work == IRQSTORM_WORK_PIO || c->work == IRQSTORM_WORK_SPIN))
		return conflict(error, "%s: [channel%u] work = %s needs [run] stamps = "
				"true: the device hands out work per tracked event",
				where, n, irqstorm_work_name(c->work));
	if (c->work == IRQSTORM_WORK_PIO && !c->pio_words)
		return conflict(error, "%s: [channel%u] work = pio needs pio_words > 0",
				where, n);
	if (c->ready_channel != IRQSTORM_NONE &&
	    (c->ready_channel == (int)n || !(active & 1u << c->ready_channel)))
		return conflict(error, "%s: [channel%u] ready_channel = %d must be "
				"another active channel", where, n, c->ready_channel);
	if (c->threading == IRQSTORM_THREADING_HARDIRQ &&
	    (c->thread_prio != IRQSTORM_NONE || c->thread_cpu != IRQSTORM_NONE))
		return conflict(error, "%s: [channel%u] threading = hardirq has no "
				"IRQ thread for thread_prio/thread_cpu", where, n);
	if (c->threading == IRQSTORM_THREADING_HARDIRQ && c->bh_off_us)
		return conflict(error, "%s: [channel%u] bh_off_us is a section of the "
				"IRQ thread, and threading = hardirq has none", where, n);
	if (c->thread_cpu != IRQSTORM_NONE && (guint)c->thread_cpu >= sc->cpus)
		return conflict(error, "%s: [channel%u] thread_cpu = %d, but the "
				"machine has %u CPUs", where, n, c->thread_cpu, sc->cpus);
	if (c->irq_cpu != IRQSTORM_NONE && (guint)c->irq_cpu >= sc->cpus)
		return conflict(error, "%s: [channel%u] irq_cpu = %d, but the "
				"machine has %u CPUs", where, n, c->irq_cpu, sc->cpus);
	if (c->irq_cpu != IRQSTORM_NONE && sc->irq_cpu != IRQSTORM_NONE)
		return conflict(error, "%s: [channel%u] irq_cpu routes this channel's "
				"IRQ, [guest] irq_cpu every channel's: not both", where, n);
	return TRUE;
}

/* [guest] sync_irq = "CH:OTHER": two distinct active channels, CH threaded. */
static gboolean sync_irq_check(const IrqstormScenario *sc, const char *where,
			       GError **error)
{
	guint active = irqstorm_scenario_channel_mask(sc);
	unsigned ch, other;
	char end;

	if (!*sc->sync_irq)
		return TRUE;
	if (sscanf(sc->sync_irq, "%u:%u%c", &ch, &other, &end) != 2 ||
	    ch >= NCH || other >= NCH || ch == other)
		return conflict(error, "%s: [guest] sync_irq = '%s': expected CH:OTHER, "
				"two different channels 0..%u", where, sc->sync_irq,
				NCH - 1);
	if (!(active & 1u << ch) || !(active & 1u << other) ||
	    sc->ch[ch].threading != IRQSTORM_THREADING_THREADED)
		return conflict(error, "%s: [guest] sync_irq = '%s': both channels "
				"must storm, and channel %u be threaded", where,
				sc->sync_irq, ch);
	return TRUE;
}

guint64 irqstorm_scenario_offsets(const IrqstormChannelSpec *c)
{
	if (c->pattern != IRQSTORM_PATTERN_TRIGGERED)
		return 0;
	return irqstorm_trigger_offsets(c->trigger_start_ns, c->trigger_stop_ns,
					c->trigger_step_ns);
}

/* A triggered channel's sweep: where it is aimed, and that it can be. */
static gboolean trigger_check(const IrqstormScenario *sc, guint n,
			      const char *where, GError **error)
{
	const IrqstormChannelSpec *c = &sc->ch[n];

	if (sc->icount_shift == IRQSTORM_ICOUNT_OFF)
		return conflict(error, "%s: [channel%u] pattern = triggered needs "
				"[machine] icount: an offset in virtual time means "
				"an instruction only when virtual time counts them",
				where, n);
	if (c->trigger_stop_ns < c->trigger_start_ns)
		return conflict(error, "%s: [channel%u] trigger_stop_ns = %" G_GUINT64_FORMAT
				" is before trigger_start_ns = %" G_GUINT64_FORMAT
				": the sweep would be empty", where, n,
				c->trigger_stop_ns, c->trigger_start_ns);
	if (sc->section == 0 || sc->section_channel != (int)n)
		return conflict(error, "%s: [channel%u] pattern = triggered fires only "
				"when a section arms it: set [guest] section (e.g. "
				"irqs_off) and section_channel = %u", where, n, n);
	if (c->trigger_stop_ns > (guint64)sc->section_us * 1000)
		return conflict(error, "%s: [channel%u] trigger_stop_ns = %" G_GUINT64_FORMAT
				" is beyond the section: [guest] section_us = %u "
				"ends at %u000 ns", where, n, c->trigger_stop_ns,
				sc->section_us, sc->section_us);
	return TRUE;
}

/*
 * section = pio: the section is another channel's PIO loop, which arms
 * the trigger each time it starts: a periodic pio channel whose period
 * outlasts the offsets (a trigger must fire before the next one).
 */
static gboolean pio_section_check(const IrqstormScenario *sc, const char *where,
				  GError **error)
{
	int p = sc->section_pio_channel;
	const IrqstormChannelSpec *c;

	if (sc->section != 1 + IRQSTORM_SECTION_PIO)
		return p == IRQSTORM_NONE ? TRUE :
		       conflict(error, "%s: [guest] section_pio_channel is for section = pio",
				where);
	if (p == IRQSTORM_NONE || p == sc->section_channel)
		return conflict(error, "%s: [guest] section = pio needs section_pio_channel: "
				"the channel whose handler's PIO loop is the section, "
				"another than section_channel", where);
	c = &sc->ch[p];
	if (c->pattern != IRQSTORM_PATTERN_PERIODIC || c->work != IRQSTORM_WORK_PIO ||
	    !c->pio_words)
		return conflict(error, "%s: [channel%d] must be periodic with work = pio "
				"for section = pio", where, p);
	if (sc->section_channel != IRQSTORM_NONE &&
	    sc->ch[sc->section_channel].trigger_stop_ns >= c->period_ns)
		return conflict(error, "%s: [channel%d] trigger_stop_ns = %" G_GUINT64_FORMAT
				" must be shorter than [channel%d]'s period (%" G_GUINT64_FORMAT
				" ns): each PIO loop triggers once, after the last firing",
				where, sc->section_channel,
				sc->ch[sc->section_channel].trigger_stop_ns, p, c->period_ns);
	return TRUE;
}

/* [guest] section: a section sweeps a triggered channel, on a CPU there is. */
static gboolean section_check(const IrqstormScenario *sc, const char *where,
			      GError **error)
{
	for (guint n = 0; n < NCH; n++)
		if (sc->ch[n].pattern == IRQSTORM_PATTERN_TRIGGERED &&
		    !trigger_check(sc, n, where, error))
			return FALSE;
	if (sc->section == 0)
		return TRUE;
	if (sc->section_channel != IRQSTORM_NONE &&
	    sc->ch[sc->section_channel].pattern != IRQSTORM_PATTERN_TRIGGERED)
		return conflict(error, "%s: [guest] section = %s arms channel %d's "
				"trigger, but [channel%d] pattern is not triggered "
				"(section_channel = none: sections with no trigger)",
				where, section_names[sc->section], sc->section_channel,
				sc->section_channel);
	if (sc->section_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] section_cpu = %u, but the machine "
				"has %u CPUs", where, sc->section_cpu, sc->cpus);
	if (!pio_section_check(sc, where, error))
		return FALSE;
	if (sc->i8042_channel != IRQSTORM_NONE || sc->hotplug_cpu != IRQSTORM_NONE)
		return conflict(error, "%s: [guest] section takes the storm's place: "
				"no i8042 region or hotplug_cpu beside it", where);
	return TRUE;
}

/* INTx: one line for every channel, routed to one CPU. */
static gboolean intx_irq_cpu_check(const IrqstormScenario *sc, const char *where,
				   GError **error)
{
	int first = IRQSTORM_NONE;

	if (sc->irq_mode != IRQSTORM_IRQS_INTX)
		return TRUE;
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		int cpu = sc->ch[n].irq_cpu;

		if (sc->ch[n].pattern == IRQSTORM_PATTERN_OFF || cpu == IRQSTORM_NONE)
			continue;
		if (first != IRQSTORM_NONE && cpu != first)
			return conflict(error, "%s: [channel%u] irq_cpu = %d, but irq_mode = "
					"intx gives every channel one line, routed to CPU %d "
					"for another channel", where, n, cpu, first);
		first = cpu;
	}
	return TRUE;
}

/* The [guest] keys of tests beyond one vCPU: CPUs the machine has. */
static gboolean guest_check(const IrqstormScenario *sc, const char *where,
			    GError **error)
{
	if (sc->irq_cpu != IRQSTORM_NONE && (guint)sc->irq_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] irq_cpu = %d, but the machine "
				"has %u CPUs", where, sc->irq_cpu, sc->cpus);
	if (sc->hotplug_cpu != IRQSTORM_NONE && (guint)sc->hotplug_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] hotplug_cpu = %d, but the machine "
				"has %u CPUs (CPU 0 cannot go offline)", where,
				sc->hotplug_cpu, sc->cpus);
	if (sc->irq_flip_us && sc->cpus < 2)
		return conflict(error, "%s: [guest] irq_flip_us moves interrupts "
				"between CPUs: it needs [machine] cpus >= 2", where);
	if (sc->probe && sc->probe_cpu >= sc->cpus)
		return conflict(error, "%s: [guest] probe_cpu = %u, but the machine "
				"has %u CPUs", where, sc->probe_cpu, sc->cpus);
	if (sc->unload && (sc->section || sc->i8042_channel != IRQSTORM_NONE ||
			   sc->irq_flip_us))
		return conflict(error, "%s: [guest] unload removes the driver while "
				"the device storms: no section, i8042 region or "
				"irq_flip_us beside it (they need the driver to the end)",
				where);
	return sync_irq_check(sc, where, error) && section_check(sc, where, error) &&
	       intx_irq_cpu_check(sc, where, error);
}

/* The [kernel] group's combinations that cannot be built or would mislead. */
/*
 * [kernel] bh_lock: PREEMPT_RT's per-CPU BH lock, where the source makes it
 * a choice (7.x: PREEMPT_RT_NEEDS_BH_LOCK, off by default; a tree: tried).
 * 6.12's PREEMPT_RT always takes it: on is its own kernel, off cannot be.
 */
static gboolean bh_lock_check(const IrqstormScenario *sc, const char *where,
			      GError **error)
{
	guint d = debian_source(sc);

	if (!strcmp(sc->bh_lock, "default"))
		return TRUE;
	if (strcmp(sc->flavour, "rt"))
		return conflict(error, "%s: [kernel] bh_lock = %s with flavour = %s: the "
				"BH lock is PREEMPT_RT's (flavour = rt); without it "
				"local_bh_disable() keeps softirqs off the CPU, no lock",
				where, sc->bh_lock, sc->flavour);
	if (d != G_MAXUINT && !debian_sources[d].bh_lock_choice &&
	    !strcmp(sc->bh_lock, "off"))
		return conflict(error, "%s: [kernel] bh_lock = off with source = %s: its "
				"PREEMPT_RT always serialises a CPU's bottom halves with the "
				"per-CPU BH lock (PREEMPT_RT_NEEDS_BH_LOCK, which makes it a "
				"choice, came in 7.x: source = debian-7.3)", where, sc->source);
	return TRUE;
}

/* Whether the kernel is built with PREEMPT_RT_NEEDS_BH_LOCK=y: a name suffix. */
static gboolean bh_lock_built(const IrqstormScenario *sc)
{
	guint d = debian_source(sc);

	return !strcmp(sc->bh_lock, "on") && (d == G_MAXUINT || debian_sources[d].bh_lock_choice);
}

static gboolean kernel_check(const IrqstormScenario *sc, const char *where,
			     GError **error)
{
	const char *patches = irqstorm_scenario_patches(sc);
	static const char *const needs_series[] = { "irqthread.prio=", "threadirqs=single" };
	guint d = debian_source(sc);

	if (d != G_MAXUINT && !debian_sources[d].rt && strcmp(sc->flavour, "dyn"))
		return conflict(error, "%s: [kernel] source = %s with flavour = %s: "
				"Debian's linux-source-%s has no PREEMPT_RT (merged in "
				"6.12); use flavour = dyn", where, sc->source, sc->flavour,
				sc->source + strlen("debian-"));
	if (d != G_MAXUINT && !debian_sources[d].series && !strcmp(patches, "ours"))
		return conflict(error, "%s: [kernel] source = %s with patches = ours: "
				"kernel-series/ is made for linux-source-6.12 and 7.3 and is "
				"not applied to %s; use patches = none (its default)", where,
				sc->source, sc->source + strlen("debian-"));
	for (guint n = 0; d != G_MAXUINT && !debian_sources[d].bh_workqueue && n < NCH; n++)
		if (sc->ch[n].pattern != IRQSTORM_PATTERN_OFF &&
		    sc->ch[n].work_context == IRQSTORM_CONTEXT_BH_WORKQUEUE)
			return conflict(error, "%s: [channel%u] work_context = bh_workqueue with "
					"[kernel] source = %s: BH workqueues (WQ_BH) came "
					"in Linux 6.9; use tasklet, the softirq they replace",
					where, n, sc->source);
	if (!bh_lock_check(sc, where, error))
		return FALSE;
	for (gsize i = 0; !strcmp(patches, "none") && i < G_N_ELEMENTS(needs_series); i++)
		if (strstr(sc->cmdline, needs_series[i]))
			return conflict(error, "%s: [kernel] cmdline has %s, which only "
					"kernel-series/ gives the kernel, but the kernel is built "
					"with patches = none (set [kernel] patches = ours, on "
					"debian-6.12, debian-7.3 or a tree they apply to)",
					where, needs_series[i]);
	return TRUE;
}

/* Cross-key rules: combinations that cannot give trustworthy results. */
static gboolean scenario_check(const IrqstormScenario *sc, const char *where,
			       GError **error)
{
	guint active = irqstorm_scenario_channel_mask(sc);

	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->accel == IRQSTORM_ACCEL_KVM)
		return conflict(error, "%s: [machine] icount needs accel = tcg: KVM runs "
				"the guest on the host CPU and cannot count "
				"instructions (set icount = off for KVM)", where);
	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->cpus > 1 &&
	    !irqstorm_scenario_smp_windows(sc) && !sc->allow_smp_icount)
		return conflict(error, "%s: [machine] icount with cpus = %u and quantum_ns = 0: "
				"all vCPUs then share one virtual clock round-robin, so a "
				"busy vCPU delays the others in virtual time and "
				"cross-CPU latencies become artifacts "
				"(docs/determinism.md). Leave quantum_ns at its default or set "
				"it (windows of virtual time, every vCPU at full speed, "
				"exact), or use cpus = 1, "
				"or icount = off, or set allow_smp_icount = true to accept "
				"flagged results", where, sc->cpus);
	if (!kernel_check(sc, where, error))
		return FALSE;
	if (sc->log_mb & (sc->log_mb - 1)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [run] log_mb = %u: must be a power of two", where,
			    sc->log_mb);
		return FALSE;
	}
	if (!active)
		return conflict(error, "%s: every channel has pattern = off: nothing "
				"would storm", where);
	if (sc->warmup_ms >= sc->duration_ms)
		return conflict(error, "%s: [run] warmup (%.3f s) must be shorter than "
				"duration (%.3f s)", where, sc->warmup_ms / 1e3,
				sc->duration_ms / 1e3);
	for (guint n = 0; n < NCH; n++)
		if (!channel_check(sc, n, where, error))
			return FALSE;
	for (guint i = 0; i < sc->changes->len; i++) {
		const IrqstormChange *c = &g_array_index(sc->changes, IrqstormChange, i);

		if (!(active & 1u << c->channel))
			return conflict(error, "%s: [changes] '%s': channel %u does not "
					"storm from the start, so the guest does not "
					"service it", where, c->assignment, c->channel);
	}
	if (sc->i8042_channel != IRQSTORM_NONE && !(active & 1u << sc->i8042_channel))
		return conflict(error, "%s: [guest] i8042_channel = %d is not an "
				"active channel", where, sc->i8042_channel);
	if (!sc->stamps && (sc->probe || sc->thresholds->len))
		return conflict(error, "%s: [run] stamps = false records no latencies: "
				"no probe, no thresholds", where);
	return guest_check(sc, where, error);
}

/* A [thresholds] key "<stage>_<stat>_us = limit": add or replace it. */
static gboolean apply_threshold(IrqstormScenario *sc, const char *key,
				const char *value, const char *where, GError **error)
{
	static const KeyDesc limit = { "thresholds", "", KEY_MICROS, 0, 0,
				       G_MAXUINT64 / 2, NULL };
	g_autofree char *name = NULL;
	IrqstormThreshold t = { 0 };
	IrqstormStage st;
	int stat = -1;
	gsize cut = 0;

	if (g_str_has_suffix(key, "_us")) {
		name = g_strndup(key, strlen(key) - 3);
		/* p99_9 over p99: the longest suffix wins. */
		for (int i = 0; i < IRQSTORM_STAT_COUNT; i++) {
			g_autofree char *suffix = g_strconcat("_", irqstorm_stat_key(i), NULL);

			if (irqstorm_stat_boundable(i) && g_str_has_suffix(name, suffix) &&
			    strlen(suffix) > cut) {
				stat = i;
				cut = strlen(suffix);
			}
		}
		name[strlen(name) - cut] = '\0';
	}
	if (stat < 0 || !irqstorm_stage_from_name(name, &st)) {
		g_autofree char *stages = irqstorm_stage_names(TRUE);

		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN,
			    "%s: [thresholds] unknown key '%s' (expected STAGE_STAT_us: "
			    "STAGE one of %s; STAT max, p99, p99_9 or avg; e.g. "
			    "done_max_us)", where, key, stages);
		return FALSE;
	}
	if (!apply_key(&t.limit_ns, "thresholds", &(KeyDesc) { .key = key,
		       .type = limit.type, .max = limit.max }, value, where, error))
		return FALSE;
	t.stage = g_strdup(name);
	t.stat = stat;
	for (guint i = 0; i < sc->thresholds->len; i++) {
		IrqstormThreshold *old = &g_array_index(sc->thresholds, IrqstormThreshold, i);

		if (!g_strcmp0(old->stage, t.stage) && old->stat == t.stat) {
			g_free(old->stage);
			*old = t;
			return TRUE;
		}
	}
	g_array_append_val(sc->thresholds, t);
	return TRUE;
}

/* Channel field k as the device property takes it, in JSON. */
static char *qom_json(const void *base, const KeyDesc *k)
{
	switch (k->type) {
	case KEY_CHOICE:
		return g_strdup_printf("\"%s\"", k->choices[*FIELD(base, k, const int)]);
	case KEY_BOOL:
		return g_strdup(*FIELD(base, k, const gboolean) ? "true" : "false");
	case KEY_UINT:
		return g_strdup_printf("%u", *FIELD(base, k, const guint));
	case KEY_OPT_INT:
		return g_strdup_printf("%d", *FIELD(base, k, const int));
	default:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *FIELD(base, k, const guint64));
	}
}

/* The channel keys the device can change while it runs, comma-separated. */
static char *live_keys(void)
{
	GString *s = g_string_new(NULL);

	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (keys[i].prop)
			g_string_append_printf(s, "%s%s", s->len ? ", " : "",
					       keys[i].key);
	return g_string_free(s, FALSE);
}

/* One "channelN.key=value" of [changes]: checked, turned into a QOM set. */
static gboolean parse_change(IrqstormScenario *sc, guint64 at_ns,
			     const char *assignment, const char *where,
			     GError **error)
{
	const char *eq = strchr(assignment, '=');
	const char *dot = eq ? memchr(assignment, '.', eq - assignment) : NULL;
	g_autofree char *group = dot ? g_strndup(assignment, dot - assignment) : NULL;
	g_autofree char *key = dot ? g_strndup(dot + 1, eq - dot - 1) : NULL;
	int n = group ? channel_of_group(group) : -1;
	IrqstormChannelSpec scratch;
	IrqstormChange c = { .at_ns = at_ns };
	const KeyDesc *k;
	void *base;
	guint i;

	k = n >= 0 ? find_key(sc, group, key, &base) : NULL;
	if (!k || !k->prop) {
		g_autofree char *live = live_keys();

		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [changes] '%s': expected channelN.KEY=VALUE where KEY "
			    "is one the device can change while it runs: %s", where,
			    assignment, live);
		return FALSE;
	}
	scratch = sc->ch[n];
	if (!apply_key(&scratch, group, k, eq + 1, where, error))
		return FALSE;
	c.channel = n;
	c.assignment = g_strdup(assignment);
	c.qom_property = g_strdup_printf("ch%d-%s", n, prop_names[k->prop - 1]);
	c.qom_json = qom_json(&scratch, k);
	for (i = 0; i < sc->changes->len; i++)
		if (g_array_index(sc->changes, IrqstormChange, i).at_ns > at_ns)
			break;
	g_array_insert_val(sc->changes, i, c);
	return TRUE;
}

/* [changes] SECONDS = assignment; assignment; ... */
static gboolean apply_changes_key(IrqstormScenario *sc, const char *key,
				  const char *value, const char *where,
				  GError **error)
{
	g_auto(GStrv) parts = g_strsplit(value, ";", -1);
	double s;
	char *end = NULL;

	s = g_ascii_strtod(key, &end);
	if (!end || *end || !(s > 0) || s > 3600) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [changes] key '%s': expected the seconds of virtual "
			    "time after the storm starts (0 < s <= 3600)", where, key);
		return FALSE;
	}
	for (gsize i = 0; parts[i]; i++) {
		char *a = g_strstrip(parts[i]);

		if (*a && !parse_change(sc, (guint64)llround(s * 1e9), a, where, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean set_one(IrqstormScenario *sc, const char *assignment,
			const char *where, GError **error);

/*
 * Choose a profile: apply its assignments, as if given with --set at this
 * point. A scenario file's [profile.NAME] groups name the variants of an
 * experiment, so `irqstorm matrix --vary run.profile=a,b,c` runs them all.
 */
static gboolean apply_profile(IrqstormScenario *sc, const char *name,
			      const char *where, GError **error)
{
	GPtrArray *sets = g_hash_table_lookup(sc->profiles, name);

	if (!sets) {
		g_autoptr(GList) names = g_hash_table_get_keys(sc->profiles);
		GString *known = g_string_new(NULL);

		names = g_list_sort(names, (GCompareFunc)g_strcmp0);
		for (GList *l = names; l; l = l->next)
			g_string_append_printf(known, "%s%s", known->len ? ", " : "",
					       (char *)l->data);
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [run] profile = '%s': no [profile.%s] group (profiles: %s)",
			    where, name, name, known->len ? known->str : "none");
		g_string_free(known, TRUE);
		return FALSE;
	}
	for (guint i = 0; i < sets->len; i++) {
		g_autofree char *in = g_strdup_printf("%s [profile.%s]", where, name);

		if (!set_one(sc, sets->pdata[i], in, error))
			return FALSE;
	}
	g_free(sc->profile);
	sc->profile = g_strdup(name);
	return TRUE;
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
static char *key_string(GKeyFile *kf, const char *group, const char *key,
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

/* First pass: every [profile.NAME] group, as lists of assignments. */
static gboolean collect_profiles(IrqstormScenario *sc, GKeyFile *kf,
				 const char *where, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	for (gsize g = 0; groups[g]; g++) {
		g_auto(GStrv) names = NULL;
		GPtrArray *sets;

		if (!g_str_has_prefix(groups[g], "profile."))
			continue;
		sets = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_replace(sc->profiles, g_strdup(groups[g] + strlen("profile.")),
				     sets);
		names = g_key_file_get_keys(kf, groups[g], NULL, NULL);
		for (gsize i = 0; names && names[i]; i++) {
			g_autofree char *v = key_string(kf, groups[g], names[i], where, error);

			if (!v)
				return FALSE;
			if (!strchr(names[i], '.') || !g_strcmp0(names[i], "run.profile")) {
				g_set_error(error, IRQSTORM_SCENARIO_ERROR,
					    IRQSTORM_SCENARIO_ERROR_UNKNOWN,
					    "%s: [%s] key '%s': expected group.key (not "
					    "run.profile), e.g. kernel.cmdline = preempt=none",
					    where, groups[g], names[i]);
				return FALSE;
			}
			g_ptr_array_add(sets, g_strconcat(names[i], "=", g_strstrip(v), NULL));
		}
	}
	return TRUE;
}

/* Apply every key of a parsed key file; unknown groups and keys are errors. */
static gboolean scenario_apply_keyfile(IrqstormScenario *sc, GKeyFile *kf,
				       const char *where, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);
	g_autofree char *profile = NULL;

	if (!collect_profiles(sc, kf, where, error))
		return FALSE;
	for (gsize g = 0; groups[g]; g++) {
		g_auto(GStrv) names = NULL;
		int n = channel_of_group(groups[g]);

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
			const KeyDesc *k = find_key(sc, groups[g], names[i], &base);
			g_autofree char *value = NULL;

			if (!g_strcmp0(groups[g], "run") && !g_strcmp0(names[i], "profile")) {
				/* Applied after every group: it overrides them.
				 * A key given twice is listed twice: the last wins. */
				g_free(profile);
				profile = key_string(kf, groups[g], names[i], where, error);
				if (!profile)
					return FALSE;
				continue;
			}
			if (!g_strcmp0(groups[g], "thresholds") ||
			    !g_strcmp0(groups[g], "changes")) {
				value = key_string(kf, groups[g], names[i], where, error);
				if (!value)
					return FALSE;
				if (!(groups[g][0] == 't' ?
				      apply_threshold(sc, names[i], g_strstrip(value), where, error) :
				      apply_changes_key(sc, names[i], g_strstrip(value), where, error)))
					return FALSE;
				continue;
			}
			if (!k)
				return unknown_key(error, where, groups[g], names[i]);
			value = key_string(kf, groups[g], names[i], where, error);
			if (!value)
				return FALSE;
			if (!apply_key(base, groups[g], k, g_strstrip(value), where, error))
				return FALSE;
		}
	}
	return !profile || apply_profile(sc, g_strstrip(profile), where, error);
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
	if (!scenario_check(sc, name, error))
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
static gboolean set_one(IrqstormScenario *sc, const char *assignment,
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
		return apply_threshold(sc, key, eq + 1, where, error);
	if (!g_strcmp0(group, "changes"))
		return apply_changes_key(sc, key, eq + 1, where, error);
	if (!g_strcmp0(group, "run") && !g_strcmp0(key, "profile"))
		return apply_profile(sc, eq + 1, where, error);
	if (!known_group(group))
		return unknown_group(error, where, group);
	k = find_key(sc, group, key, &base);
	if (!k)
		return unknown_key(error, where, group, key);
	return apply_key(base, group, k, eq + 1, where, error);
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
	    choice_index(source_names, v) >= 0)
		return g_strdup(assignment);
	return g_strdup_printf("%s./%s", prefix, v);
}

gboolean irqstorm_scenario_override(IrqstormScenario *sc, const char *assignment,
				    const char *where, GError **error)
{
	g_autofree char *a = command_line_assignment(assignment);

	if (!set_one(sc, a, where, error))
		return FALSE;
	g_ptr_array_add(sc->overrides, g_strdup(assignment));
	return TRUE;
}

gboolean irqstorm_scenario_check(const IrqstormScenario *sc, const char *where,
				 GError **error)
{
	return scenario_check(sc, where, error);
}

const char *irqstorm_scenario_kernel_tree(const IrqstormScenario *sc)
{
	return strchr(sc->source, '/') ? sc->source : NULL;
}

const char *irqstorm_scenario_patches(const IrqstormScenario *sc)
{
	if (strcmp(sc->patches, "default"))
		return sc->patches;
	guint d = debian_source(sc);

	return d != G_MAXUINT && debian_sources[d].series ? "ours" : "none";
}

gboolean irqstorm_scenario_smp_windows(const IrqstormScenario *sc)
{
	return sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->cpus > 1 && sc->quantum_ns;
}

char *irqstorm_scenario_kernel_name(const IrqstormScenario *sc)
{
	const char *tree = irqstorm_scenario_kernel_tree(sc);
	GString *name = g_string_new(sc->flavour);
	guint d = debian_source(sc);

	if (d != G_MAXUINT)
		g_string_append(name, debian_sources[d].suffix);
	if (tree) {
		g_autofree char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256,
								     tree, -1);

		g_string_append_printf(name, "-tree-%.8s", key);
	}
	/* Only a choice other than the source's own default shows. */
	if (!strcmp(sc->patches, "none") && d != G_MAXUINT && debian_sources[d].series)
		g_string_append(name, "-patches-none");
	if (!strcmp(sc->patches, "ours") && tree)
		g_string_append(name, "-patches-ours");
	if (bh_lock_built(sc))
		g_string_append(name, "-bh-lock");
	return g_string_free(name, FALSE);
}

/* Apply a command-line override "group.key=value", then recheck the whole. */
gboolean irqstorm_scenario_set(IrqstormScenario *sc, const char *assignment,
			       GError **error)
{
	return irqstorm_scenario_override(sc, assignment, "--set", error) &&
	       scenario_check(sc, "--set", error);
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

const char *irqstorm_pattern_name(IrqstormPattern p)
{
	return pattern_names[p];
}

const char *irqstorm_threading_name(IrqstormThreading t)
{
	return threading_names[t];
}

const char *irqstorm_work_name(IrqstormWork w)
{
	return work_names[w];
}

const char *irqstorm_work_context_name(IrqstormWorkContext x)
{
	return work_context_names[x];
}

const char *irqstorm_irq_mode_name(IrqstormIrqMode m)
{
	return irq_mode_names[m];
}

const char *irqstorm_accel_name(IrqstormAccel a)
{
	return accel_names[a];
}

const char *irqstorm_section_name(int section)
{
	return section_names[section];
}
