// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario parsing and validation, driven by one table of keys: the same
 * table parses files, applies --set overrides and writes the effective
 * scenario back out, so the three can never disagree.
 */
#include "scenario.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>

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
} KeyType;

typedef struct {
	const char *group;
	const char *key;
	KeyType type;
	gsize offset;
	guint64 min, max;
	const char *const *choices;
} KeyDesc;

static const char *const accel_names[] = { "tcg", "kvm", "auto", NULL };
static const char *const threading_names[] = {
	"hardirq", "threaded", "forced", NULL
};
static const char *const flavour_names[] = { "rt", "dyn", NULL };

#define OFF(f) offsetof(IrqstormScenario, f)

static const KeyDesc keys[] = {
	{ "machine", "accel", KEY_CHOICE, OFF(accel), 0, 0, accel_names },
	{ "machine", "cpus", KEY_UINT, OFF(cpus), 1, 64, NULL },
	{ "machine", "memory_mb", KEY_UINT, OFF(memory_mb), 64, 65536, NULL },
	{ "machine", "icount", KEY_ICOUNT, OFF(icount_shift), 0, 10, NULL },
	{ "machine", "allow_smp_icount", KEY_BOOL, OFF(allow_smp_icount), 0, 0, NULL },
	{ "machine", "seed", KEY_UINT64, OFF(seed), 0, G_MAXUINT32, NULL },
	{ "kernel", "flavour", KEY_STRING, OFF(flavour), 0, 0, flavour_names },
	{ "kernel", "cmdline", KEY_STRING, OFF(cmdline), 0, 0, NULL },
	{ "channel0", "rate", KEY_RATE, OFF(period_ns), 1, 10000000, NULL },
	{ "channel0", "threading", KEY_CHOICE, OFF(threading), 0, 0, threading_names },
	{ "run", "duration", KEY_SECONDS, OFF(duration_ms), 1, 3600 * 1000, NULL },
	{ "run", "timeout", KEY_UINT, OFF(timeout_s), 5, 24 * 3600, NULL },
	{ "run", "bin_ns", KEY_UINT64, OFF(bin_ns), 1, 1000000000, NULL },
	{ "run", "bins", KEY_UINT, OFF(bins), 10, 10000000, NULL },
	{ "run", "log_mb", KEY_UINT, OFF(log_mb), 1, 1024, NULL },
};

#define FIELD(sc, k, type) ((type *)((char *)(sc) + (k)->offset))

static void scenario_defaults(IrqstormScenario *sc)
{
	sc->accel = IRQSTORM_ACCEL_TCG;
	sc->cpus = 1;
	sc->memory_mb = 256;
	sc->icount_shift = 3;
	sc->seed = 1;
	sc->flavour = g_strdup("rt");
	sc->cmdline = g_strdup("");
	sc->period_ns = 1000000;		/* 1 kHz */
	sc->threading = IRQSTORM_THREADING_THREADED;
	sc->duration_ms = 1000;
	sc->timeout_s = 300;
	sc->bin_ns = 1000;
	sc->bins = 10000;
	sc->log_mb = 16;
}

static const KeyDesc *find_key(const char *group, const char *key)
{
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (!g_strcmp0(keys[i].group, group) && !g_strcmp0(keys[i].key, key))
			return &keys[i];
	return NULL;
}

static gboolean known_group(const char *group)
{
	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
		if (!g_strcmp0(keys[i].group, group))
			return TRUE;
	return FALSE;
}

static char *choices_list(const char *const *choices)
{
	return g_strjoinv(", ", (char **)choices);
}

/* Set a value error naming where it came from. */
static gboolean value_error(GError **error, const char *where, const KeyDesc *k,
			    const char *value, const char *why)
{
	g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
		    "%s: [%s] %s = '%s': %s", where, k->group, k->key, value, why);
	return FALSE;
}

/* Parse an unsigned decimal integer in [min, max]. */
static gboolean parse_uint(const char *value, guint64 min, guint64 max,
			   guint64 *out, char **why)
{
	guint64 v;
	g_autoptr(GError) err = NULL;

	if (!g_ascii_string_to_unsigned(value, 10, min, max, &v, &err)) {
		*why = g_strdup_printf("expected an integer from %" G_GUINT64_FORMAT
				       " to %" G_GUINT64_FORMAT, min, max);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

/* Parse a finite positive decimal number (no exponent tricks, no NaN). */
static gboolean parse_decimal(const char *value, double *out, char **why)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = g_ascii_strtod(value, &end);
	if (errno || end == value || *end || !isfinite(v) || v <= 0) {
		*why = g_strdup("expected a positive decimal number");
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

/* Store one key's value into the scenario, or say precisely why not. */
static gboolean apply_key(IrqstormScenario *sc, const KeyDesc *k,
			  const char *value, const char *where, GError **error)
{
	g_autofree char *why = NULL;
	guint64 u;
	double d;
	int idx;

	switch (k->type) {
	case KEY_UINT:
		if (!parse_uint(value, k->min, k->max, &u, &why))
			return value_error(error, where, k, value, why);
		*FIELD(sc, k, guint) = u;
		return TRUE;
	case KEY_UINT64:
		if (!parse_uint(value, k->min, k->max, &u, &why))
			return value_error(error, where, k, value, why);
		*FIELD(sc, k, guint64) = u;
		return TRUE;
	case KEY_BOOL:
		if (!g_strcmp0(value, "true") || !g_strcmp0(value, "false")) {
			*FIELD(sc, k, gboolean) = !g_strcmp0(value, "true");
			return TRUE;
		}
		return value_error(error, where, k, value, "expected true or false");
	case KEY_STRING:
		if (strpbrk(value, "\n\r"))
			return value_error(error, where, k, value,
					   "must be a single line");
		if (k->choices && choice_index(k->choices, value) < 0) {
			g_autofree char *list = choices_list(k->choices);

			why = g_strdup_printf("expected one of: %s", list);
			return value_error(error, where, k, value, why);
		}
		g_free(*FIELD(sc, k, char *));
		*FIELD(sc, k, char *) = g_strdup(value);
		return TRUE;
	case KEY_CHOICE:
		idx = choice_index(k->choices, value);
		if (idx < 0) {
			g_autofree char *list = choices_list(k->choices);

			why = g_strdup_printf("expected one of: %s", list);
			return value_error(error, where, k, value, why);
		}
		*FIELD(sc, k, int) = idx;
		return TRUE;
	case KEY_ICOUNT:
		if (!g_strcmp0(value, "off")) {
			*FIELD(sc, k, int) = IRQSTORM_ICOUNT_OFF;
			return TRUE;
		}
		if (!parse_uint(value, k->min, k->max, &u, &why))
			return value_error(error, where, k, value,
					   "expected 'off' or a shift from 0 to 10");
		*FIELD(sc, k, int) = u;
		return TRUE;
	case KEY_RATE:
		if (!parse_decimal(value, &d, &why))
			return value_error(error, where, k, value, why);
		if (d < k->min || d > k->max) {
			why = g_strdup_printf("rate in Hz must be from %" G_GUINT64_FORMAT
					      " to %" G_GUINT64_FORMAT, k->min, k->max);
			return value_error(error, where, k, value, why);
		}
		*FIELD(sc, k, guint64) = (guint64)llround(1e9 / d);
		return TRUE;
	case KEY_SECONDS:
		if (!parse_decimal(value, &d, &why))
			return value_error(error, where, k, value, why);
		u = (guint64)llround(d * 1000.0);
		if (u < k->min || u > k->max)
			return value_error(error, where, k, value,
					   "seconds must be from 0.001 to 3600");
		*FIELD(sc, k, guint64) = u;
		return TRUE;
	}
	g_assert_not_reached();
}

/* Print one key's current value the way the parser reads it back. */
static char *format_key(const IrqstormScenario *sc, const KeyDesc *k)
{
	const IrqstormScenario *s = sc;
	int i;

	switch (k->type) {
	case KEY_UINT:
		return g_strdup_printf("%u", *FIELD(s, k, const guint));
	case KEY_UINT64:
		return g_strdup_printf("%" G_GUINT64_FORMAT, *FIELD(s, k, const guint64));
	case KEY_BOOL:
		return g_strdup(*FIELD(s, k, const gboolean) ? "true" : "false");
	case KEY_STRING:
		return g_strdup(*FIELD(s, k, char *const));
	case KEY_CHOICE:
		return g_strdup(k->choices[*FIELD(s, k, const int)]);
	case KEY_ICOUNT:
		i = *FIELD(s, k, const int);
		return i == IRQSTORM_ICOUNT_OFF ? g_strdup("off") : g_strdup_printf("%d", i);
	case KEY_RATE:
		return g_strdup_printf("%.9g", 1e9 / (double)*FIELD(s, k, const guint64));
	case KEY_SECONDS:
		return g_strdup_printf("%.3f", *FIELD(s, k, const guint64) / 1000.0);
	}
	g_assert_not_reached();
}

/* Cross-key rules: combinations that cannot give trustworthy results. */
static gboolean scenario_check(const IrqstormScenario *sc, const char *where,
			       GError **error)
{
	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->accel == IRQSTORM_ACCEL_KVM) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "%s: [machine] icount needs accel = tcg: KVM runs the guest "
			    "on the host CPU and cannot count instructions "
			    "(set icount = off for KVM)", where);
		return FALSE;
	}
	if (sc->icount_shift != IRQSTORM_ICOUNT_OFF && sc->cpus > 1 && !sc->allow_smp_icount) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT,
			    "%s: [machine] icount with cpus = %u: under icount all vCPUs "
			    "share one virtual clock round-robin, so a busy vCPU delays "
			    "the others in virtual time and cross-CPU latencies become "
			    "artifacts (docs/determinism.md). Use cpus = 1, or icount = off, "
			    "or set allow_smp_icount = true to accept flagged results",
			    where, sc->cpus);
		return FALSE;
	}
	if (sc->log_mb & (sc->log_mb - 1)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [run] log_mb = %u: must be a power of two", where, sc->log_mb);
		return FALSE;
	}
	return TRUE;
}

/* Apply every key of a parsed key file; unknown groups and keys are errors. */
static gboolean scenario_apply_keyfile(IrqstormScenario *sc, GKeyFile *kf,
				       const char *where, GError **error)
{
	g_auto(GStrv) groups = g_key_file_get_groups(kf, NULL);

	for (gsize g = 0; groups[g]; g++) {
		g_auto(GStrv) names = NULL;

		if (!known_group(groups[g])) {
			g_set_error(error, IRQSTORM_SCENARIO_ERROR,
				    IRQSTORM_SCENARIO_ERROR_UNKNOWN,
				    "%s: unknown group [%s] (known: machine, kernel, "
				    "channel0, run)", where, groups[g]);
			return FALSE;
		}
		names = g_key_file_get_keys(kf, groups[g], NULL, NULL);
		for (gsize i = 0; names && names[i]; i++) {
			const KeyDesc *k = find_key(groups[g], names[i]);
			g_autofree char *value = NULL;

			if (!k) {
				g_set_error(error, IRQSTORM_SCENARIO_ERROR,
					    IRQSTORM_SCENARIO_ERROR_UNKNOWN,
					    "%s: [%s] unknown key '%s'", where,
					    groups[g], names[i]);
				return FALSE;
			}
			value = g_key_file_get_string(kf, groups[g], names[i], error);
			if (!value)
				return FALSE;
			if (!apply_key(sc, k, g_strstrip(value), where, error))
				return FALSE;
		}
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

	scenario_defaults(sc);
	sc->path = g_strdup(name);
	if (!g_key_file_load_from_data(kf, data, -1, G_KEY_FILE_NONE, &err)) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "%s: %s", name, err->message);
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

/* Apply a command-line override "group.key=value", then recheck the whole. */
gboolean irqstorm_scenario_set(IrqstormScenario *sc, const char *assignment,
			       GError **error)
{
	const char *eq = strchr(assignment, '=');
	const char *dot = eq ? memchr(assignment, '.', eq - assignment) : NULL;
	g_autofree char *group = NULL;
	g_autofree char *key = NULL;
	const KeyDesc *k;

	if (!eq || !dot) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE,
			    "--set '%s': expected group.key=value, e.g. run.duration=2",
			    assignment);
		return FALSE;
	}
	group = g_strndup(assignment, dot - assignment);
	key = g_strndup(dot + 1, eq - dot - 1);
	k = find_key(group, key);
	if (!k) {
		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN,
			    "--set: unknown key [%s] %s", group, key);
		return FALSE;
	}
	return apply_key(sc, k, eq + 1, "--set", error) &&
	       scenario_check(sc, "--set", error);
}

/* The effective scenario as INI text, every key present. */
char *irqstorm_scenario_to_ini(const IrqstormScenario *sc)
{
	GString *out = g_string_new("# Effective scenario, as run (irqstorm).\n");
	const char *group = NULL;

	for (gsize i = 0; i < G_N_ELEMENTS(keys); i++) {
		g_autofree char *v = format_key(sc, &keys[i]);

		if (g_strcmp0(group, keys[i].group)) {
			group = keys[i].group;
			g_string_append_printf(out, "\n[%s]\n", group);
		}
		g_string_append_printf(out, "%s = %s\n", keys[i].key, v);
	}
	return g_string_free(out, FALSE);
}

void irqstorm_scenario_free(IrqstormScenario *sc)
{
	if (!sc)
		return;
	g_free(sc->path);
	g_free(sc->flavour);
	g_free(sc->cmdline);
	g_free(sc);
}

const char *irqstorm_threading_name(IrqstormThreading t)
{
	return threading_names[t];
}

const char *irqstorm_accel_name(IrqstormAccel a)
{
	return accel_names[a];
}
