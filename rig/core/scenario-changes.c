// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scenario's groups beyond the key table: [thresholds] (limits that
 * fail a run), [changes] (device parameters changed while the storm runs)
 * and [profile.NAME] (named sets of overrides): scenario-keys.h.
 */
#include "scenario-keys.h"

#include <math.h>
#include <string.h>

#include "scenario-names.h"
#include "stages.h"

/* A [thresholds] key "<stage>_<stat>_us = limit": add or replace it. */
gboolean irqstorm_scenario_apply_threshold(IrqstormScenario *sc, const char *key,
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
	if (!irqstorm_scenario_apply_key(&t.limit_ns, "thresholds", &(KeyDesc) { .key = key,
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

/* One "channelN.key=value" of [changes]: checked, turned into a QOM set. */
static gboolean parse_change(IrqstormScenario *sc, guint64 at_ns,
			     const char *assignment, const char *where,
			     GError **error)
{
	const char *eq = strchr(assignment, '=');
	const char *dot = eq ? memchr(assignment, '.', eq - assignment) : NULL;
	g_autofree char *group = dot ? g_strndup(assignment, dot - assignment) : NULL;
	g_autofree char *key = dot ? g_strndup(dot + 1, eq - dot - 1) : NULL;
	int n = group ? irqstorm_scenario_channel_of_group(group) : -1;
	IrqstormChannelSpec scratch;
	IrqstormChange c = { .at_ns = at_ns };
	const KeyDesc *k;
	void *base;
	guint i;

	k = n >= 0 ? irqstorm_scenario_find_key(sc, group, key, &base) : NULL;
	if (!k || !k->prop) {
		g_autofree char *live = irqstorm_scenario_live_keys();

		g_set_error(error, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE,
			    "%s: [changes] '%s': expected channelN.KEY=VALUE where KEY "
			    "is one the device can change while it runs: %s", where,
			    assignment, live);
		return FALSE;
	}
	scratch = sc->ch[n];
	if (!irqstorm_scenario_apply_key(&scratch, group, k, eq + 1, where, error))
		return FALSE;
	c.channel = n;
	c.assignment = g_strdup(assignment);
	c.qom_property = g_strdup_printf("ch%d-%s", n, irqstorm_prop_names[k->prop - 1]);
	c.qom_json = qom_json(&scratch, k);
	for (i = 0; i < sc->changes->len; i++)
		if (g_array_index(sc->changes, IrqstormChange, i).at_ns > at_ns)
			break;
	g_array_insert_val(sc->changes, i, c);
	return TRUE;
}

/* [changes] SECONDS = assignment; assignment; ... */
gboolean irqstorm_scenario_apply_changes(IrqstormScenario *sc, const char *key,
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


/*
 * Choose a profile: apply its assignments, as if given with --set at this
 * point. A scenario file's [profile.NAME] groups name the variants of an
 * experiment, so `irqstorm matrix --vary run.profile=a,b,c` runs them all.
 */
gboolean irqstorm_scenario_apply_profile(IrqstormScenario *sc, const char *name,
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

		if (!irqstorm_scenario_set_one(sc, sets->pdata[i], in, error))
			return FALSE;
	}
	g_free(sc->profile);
	sc->profile = g_strdup(name);
	return TRUE;
}

/* First pass: every [profile.NAME] group, as lists of assignments. */
gboolean irqstorm_scenario_collect_profiles(IrqstormScenario *sc, GKeyFile *kf,
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
			g_autofree char *v = irqstorm_scenario_key_string(kf, groups[g], names[i], where, error);

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
