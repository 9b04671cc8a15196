// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The names of a scenario's values, beside the tables they come from, and
 * of its kernels: scenario-names.h.
 */
#include "scenario-names.h"

#include <string.h>

const char *const irqstorm_accel_names[] = { "tcg", "kvm", "auto", NULL };
#define PATTERN_NAME(id, name, help) name,
const char *const irqstorm_pattern_names[] = {
	IRQSTORM_PATTERNS(PATTERN_NAME) NULL
};
#undef PATTERN_NAME

#define PROP_NAME(id, field, name, type, min, max, dflt, timing, help) name,
const char *const irqstorm_prop_names[] = { IRQSTORM_CHANNEL_PROPS(PROP_NAME) };
#undef PROP_NAME

/* The guest's value names (irqstorm/guest.h), by enum value */
#define VALUE_NAME(id, name, help) name,
const char *const irqstorm_threading_names[] = { IRQSTORM_THREADINGS(VALUE_NAME) NULL };
const char *const irqstorm_work_names[] = { IRQSTORM_WORKS(VALUE_NAME) NULL };
const char *const irqstorm_work_context_names[] = { IRQSTORM_WORK_CONTEXTS(VALUE_NAME) NULL };
const char *const irqstorm_irq_mode_names[] = {
	IRQSTORM_IRQ_MODE_AUTO, IRQSTORM_IRQ_MODES(VALUE_NAME) NULL
};
#undef VALUE_NAME
#define PLANT_NAME(id, name, what, caught) name,
const char *const irqstorm_plant_names[] = { IRQSTORM_PLANTS(PLANT_NAME) NULL };
#undef PLANT_NAME

const char *const irqstorm_flavour_names[] = { "rt", "dyn", NULL };

/*
 * Debian's kernel sources ([kernel] source), by name: the suffix of their
 * kernels' names (scripts/build-kernel.sh), whether kernel-series/ is
 * applied by default (it is made for 6.12 and ported to 7.3), whether they
 * have PREEMPT_RT (merged in 6.12) and BH workqueues (6.9), and whether
 * their PREEMPT_RT's per-CPU BH lock is a choice (PREEMPT_RT_NEEDS_BH_LOCK,
 * off by default, on 7.x; 6.12's always takes it); what their kernels'
 * identities say (kernel-preempt-modes of the dyn kernel: 7.x on x86 has
 * full and lazy only; kernel-irq-thread-affinity: 7.3 binds IRQ threads
 * to their interrupt's affinity), for refusals before a first build.
 *
 * X(name, suffix, series, rt, bh_workqueue, bh_lock_choice, dyn preempt
 *   modes, IRQ thread affinity)
 */
#define DEBIAN_SOURCES(X)					\
	X("debian-6.12", "", TRUE, TRUE, TRUE, FALSE, "none,voluntary,full", "user") \
	X("debian-6.1", "-6.1", FALSE, FALSE, FALSE, FALSE, "none,voluntary,full", "user") \
	X("debian-7.3", "-7.3", TRUE, TRUE, TRUE, TRUE, "full,lazy", "interrupt")

#define DEBIAN_SOURCE_NAME(name, suffix, series, rt, bh, lock, modes, aff) name,
const char *const irqstorm_source_names[] = { DEBIAN_SOURCES(DEBIAN_SOURCE_NAME) NULL };
#undef DEBIAN_SOURCE_NAME

#define DEBIAN_SOURCE_ROW(name, suffix, series, rt, bh, lock, modes, aff) \
	{ name, suffix, series, rt, bh, lock, modes, aff },
static const IrqstormDebianSource debian_sources[] = {
	DEBIAN_SOURCES(DEBIAN_SOURCE_ROW)
};
#undef DEBIAN_SOURCE_ROW

const IrqstormDebianSource *irqstorm_scenario_debian_source(const IrqstormScenario *sc)
{
	for (guint i = 0; i < G_N_ELEMENTS(debian_sources); i++)
		if (!strcmp(sc->source, debian_sources[i].name))
			return &debian_sources[i];
	return NULL;
}

const char *const irqstorm_patches_names[] = { "default", "ours", "none", NULL };
const char *const irqstorm_bh_lock_names[] = { "default", "on", "off", NULL };

/* "none", then the guest's section kinds: index = IRQSTORM_SECTION_* + 1. */
#define SECTION_NAME(id, name, help) name,
const char *const irqstorm_section_names[] = {
	"none", IRQSTORM_GUEST_SECTIONS(SECTION_NAME) NULL
};
#undef SECTION_NAME

/* Whether the kernel is built with PREEMPT_RT_NEEDS_BH_LOCK=y: a name suffix. */
static gboolean bh_lock_built(const IrqstormScenario *sc)
{
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);

	return !strcmp(sc->bh_lock, "on") && (!d || d->bh_lock_choice);
}

const char *irqstorm_scenario_kernel_tree(const IrqstormScenario *sc)
{
	return strchr(sc->source, '/') ? sc->source : NULL;
}

const char *irqstorm_scenario_patches(const IrqstormScenario *sc)
{
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);

	if (strcmp(sc->patches, "default"))
		return sc->patches;
	return d && d->series ? "ours" : "none";
}

char *irqstorm_scenario_kernel_name(const IrqstormScenario *sc)
{
	const char *tree = irqstorm_scenario_kernel_tree(sc);
	GString *name = g_string_new(sc->flavour);
	const IrqstormDebianSource *d = irqstorm_scenario_debian_source(sc);

	if (d)
		g_string_append(name, d->suffix);
	if (tree) {
		g_autofree char *key = g_compute_checksum_for_string(G_CHECKSUM_SHA256,
								     tree, -1);

		g_string_append_printf(name, "-tree-%.8s", key);
	}
	/* Only a choice other than the source's own default shows. */
	if (!strcmp(sc->patches, "none") && d && d->series)
		g_string_append(name, "-patches-none");
	if (!strcmp(sc->patches, "ours") && tree)
		g_string_append(name, "-patches-ours");
	if (bh_lock_built(sc))
		g_string_append(name, "-bh-lock");
	if (sc->debug)
		g_string_append(name, "-debug");
	return g_string_free(name, FALSE);
}

const char *irqstorm_pattern_name(IrqstormPattern p)
{
	return irqstorm_pattern_names[p];
}

const char *irqstorm_threading_name(IrqstormThreading t)
{
	return irqstorm_threading_names[t];
}

const char *irqstorm_work_name(IrqstormWork w)
{
	return irqstorm_work_names[w];
}

const char *irqstorm_work_context_name(IrqstormWorkContext x)
{
	return irqstorm_work_context_names[x];
}

const char *irqstorm_plant_name(IrqstormPlant p)
{
	return irqstorm_plant_names[p];
}

const char *irqstorm_irq_mode_name(IrqstormIrqMode m)
{
	return irqstorm_irq_mode_names[m];
}

const char *irqstorm_accel_name(IrqstormAccel a)
{
	return irqstorm_accel_names[a];
}

const char *irqstorm_section_name(int section)
{
	return irqstorm_section_names[section];
}
