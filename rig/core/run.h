/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run: launch QEMU for a scenario, read the shared log live while the
 * guest storms, collect device and guest counters, write the results.
 */
#ifndef IRQSTORM_RUN_H
#define IRQSTORM_RUN_H

#include <glib.h>

#include "scenario.h"

/* Exit codes of the irqstorm command (like rtla: passed/error/failed). */
enum {
	IRQSTORM_EXIT_PASSED = 0,
	IRQSTORM_EXIT_ERROR = 1,	/* tool error or incomplete run */
	IRQSTORM_EXIT_THRESHOLD = 2,	/* a scenario threshold was exceeded */
	IRQSTORM_EXIT_STALL = 3,	/* the guest stalled: an i8042 region or
					 * spin timed out, the kernel disabled
					 * an interrupt line ("nobody cared"), or
					 * a livelock: the device ended the storm */
};

/* What to run and where: the settings, never modified by the run. */
typedef struct {
	const IrqstormScenario *scenario;
	const char *out_dir;
	const char *qemu_dir;		/* qemu-system-x86_64, qemu-identity */
	const char *kernel_dir;		/* bzImage-F, kernel-F-identity */
	const char *initrd_dir;		/* initramfs-F.cpio.gz */
	gboolean quiet;
	gboolean csv;			/* write records.csv */
} IrqstormRunSettings;

int irqstorm_run(const IrqstormRunSettings *set, GError **error);

#endif /* IRQSTORM_RUN_H */
