/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Scenario files: INI (GKeyFile) describing one run. Every key is validated;
 * unknown groups and keys are errors. See scenarios/default.ini.
 */
#ifndef IRQSTORM_SCENARIO_H
#define IRQSTORM_SCENARIO_H

#include <glib.h>

#define IRQSTORM_SCENARIO_ERROR (irqstorm_scenario_error_quark())
GQuark irqstorm_scenario_error_quark(void);

typedef enum {
	IRQSTORM_SCENARIO_ERROR_PARSE,		/* not an INI file */
	IRQSTORM_SCENARIO_ERROR_UNKNOWN,	/* unknown group or key */
	IRQSTORM_SCENARIO_ERROR_VALUE,		/* bad value */
	IRQSTORM_SCENARIO_ERROR_CONFLICT,	/* values that exclude each other */
} IrqstormScenarioError;

typedef enum {
	IRQSTORM_ACCEL_TCG,
	IRQSTORM_ACCEL_KVM,
	IRQSTORM_ACCEL_AUTO,	/* KVM when it initialises, else TCG */
} IrqstormAccel;

typedef enum {
	IRQSTORM_THREADING_HARDIRQ,
	IRQSTORM_THREADING_THREADED,
	IRQSTORM_THREADING_FORCED,
} IrqstormThreading;

#define IRQSTORM_ICOUNT_OFF (-1)

typedef struct {
	char *path;			/* the file it came from */

	/* [machine] */
	IrqstormAccel accel;
	guint cpus;
	guint memory_mb;
	int icount_shift;		/* IRQSTORM_ICOUNT_OFF or 0..10 */
	gboolean allow_smp_icount;	/* results then flagged as artifacts */
	guint64 seed;			/* QEMU -seed: the guest's RDRAND */

	/* [kernel] */
	char *flavour;			/* "rt" or "dyn" */
	char *cmdline;			/* extra kernel boot options */

	/* [channel0] */
	guint64 period_ns;		/* from rate = Hz or period_ns = ns */
	IrqstormThreading threading;

	/* [run] */
	guint64 duration_ms;		/* virtual time the storm runs */
	guint timeout_s;		/* wall-clock bound for the whole run */
	guint64 bin_ns;			/* histogram bin width */
	guint bins;			/* histogram bins before overflow */
	guint log_mb;			/* shared log size, power of two */
} IrqstormScenario;

IrqstormScenario *irqstorm_scenario_load(const char *path, GError **error);
IrqstormScenario *irqstorm_scenario_load_data(const char *name,
					      const char *data,
					      GError **error);
gboolean irqstorm_scenario_set(IrqstormScenario *sc, const char *assignment,
			       GError **error);
void irqstorm_scenario_free(IrqstormScenario *sc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormScenario, irqstorm_scenario_free)

const char *irqstorm_threading_name(IrqstormThreading t);
const char *irqstorm_accel_name(IrqstormAccel a);
char *irqstorm_scenario_to_ini(const IrqstormScenario *sc);

#endif /* IRQSTORM_SCENARIO_H */
