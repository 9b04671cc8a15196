/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The key table of scenario files (scenario.c) as the other parts of the
 * scenario see it: a key's descriptor, finding and applying one, and the
 * groups scenario-changes.c parses ([thresholds], [changes],
 * [profile.NAME]). Private to scenario*.c.
 */
#ifndef IRQSTORM_RIG_SCENARIO_KEYS_H
#define IRQSTORM_RIG_SCENARIO_KEYS_H

#include "scenario.h"

G_BEGIN_DECLS

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

/* The field key k stands for, in the scenario or in channel ch's spec. */
#define FIELD(base, k, type) ((type *)((char *)(base) + (k)->offset))

/* scenario.c: the key table. */

/* Channel n of a group name "channelN", or -1 if it is no channel group. */
int irqstorm_scenario_channel_of_group(const char *group);
/* The key's descriptor, and in *base what its offset applies to. */
const KeyDesc *irqstorm_scenario_find_key(IrqstormScenario *sc, const char *group,
					  const char *key, void **base);
/* Store one key's value, or say precisely why not. */
gboolean irqstorm_scenario_apply_key(void *base, const char *group, const KeyDesc *k,
				     const char *value, const char *where, GError **error);
/* A key's value in a key file, or NULL with an error naming where. */
char *irqstorm_scenario_key_string(GKeyFile *kf, const char *group, const char *key,
				   const char *where, GError **error);
/* One "group.key=value" given by where, without the cross-checks. */
gboolean irqstorm_scenario_set_one(IrqstormScenario *sc, const char *assignment,
				   const char *where, GError **error);
/* The channel keys the device can change while it runs, comma-separated. */
char *irqstorm_scenario_live_keys(void);

/* scenario-changes.c: [thresholds], [changes], [profile.NAME]. */

/* A [thresholds] key "<stage>_<stat>_us = limit": add or replace it. */
gboolean irqstorm_scenario_apply_threshold(IrqstormScenario *sc, const char *key,
					   const char *value, const char *where,
					   GError **error);
/* [changes] SECONDS = assignment; assignment; ... */
gboolean irqstorm_scenario_apply_changes(IrqstormScenario *sc, const char *key,
					 const char *value, const char *where,
					 GError **error);
/* Choose profile name: its assignments applied as --set at this point. */
gboolean irqstorm_scenario_apply_profile(IrqstormScenario *sc, const char *name,
					 const char *where, GError **error);
/* Every [profile.NAME] group of kf, as lists of assignments. */
gboolean irqstorm_scenario_collect_profiles(IrqstormScenario *sc, GKeyFile *kf,
					    const char *where, GError **error);

G_END_DECLS

#endif
