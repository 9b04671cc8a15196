/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The names of a scenario's values and the kernels it names: the tables
 * the key table of scenario.c parses values with (each NULL-terminated,
 * by enum value, the guest's from irqstorm/guest.h), Debian's kernel
 * sources, and the lookups scenario.h declares. Private to scenario*.c.
 */
#ifndef IRQSTORM_RIG_SCENARIO_NAMES_H
#define IRQSTORM_RIG_SCENARIO_NAMES_H

#include "scenario.h"

G_BEGIN_DECLS

extern const char *const irqstorm_accel_names[];
extern const char *const irqstorm_pattern_names[];
extern const char *const irqstorm_prop_names[];	/* by IRQSTORM_CHANNEL_PROP_* */
extern const char *const irqstorm_threading_names[];
extern const char *const irqstorm_work_names[];
extern const char *const irqstorm_work_context_names[];
extern const char *const irqstorm_plant_names[];
extern const char *const irqstorm_irq_mode_names[];
extern const char *const irqstorm_flavour_names[];
extern const char *const irqstorm_source_names[];	/* Debian's sources */
extern const char *const irqstorm_patches_names[];
extern const char *const irqstorm_bh_lock_names[];
extern const char *const irqstorm_section_names[];	/* "none", then the kinds */

/* One of Debian's kernel sources ([kernel] source): see scenario-names.c. */
typedef struct {
	const char *name, *suffix;
	gboolean series, rt, bh_workqueue, bh_lock_choice;
	/* What its kernels' identities will say (scripts/build-kernel.sh reads
	 * them from the source), for a refusal before building: the dyn
	 * kernel's preempt= modes, and who moves IRQ threads. e2e-kernel-cache
	 * holds these to the identities of the kernels built. */
	const char *dyn_preempt_modes, *irq_thread_affinity;
} IrqstormDebianSource;

/* sc's Debian source, or NULL for a tree. */
const IrqstormDebianSource *irqstorm_scenario_debian_source(const IrqstormScenario *sc);

G_END_DECLS

#endif
