/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The QEMU command line for a scenario, and the guest's settings file.
 */
#ifndef IRQSTORM_MACHINE_H
#define IRQSTORM_MACHINE_H

#include <glib.h>

#include "scenario.h"

typedef struct {
	const char *qemu;		/* qemu-system-x86_64 */
	const char *kernel;		/* bzImage */
	const char *initrd;		/* initramfs */
	const char *log_path;		/* shared-log file (memory backend) */
	const char *qmp_path;		/* QMP UNIX socket */
	const char *console_path;	/* guest serial console */
	const char *guest_conf_path;	/* fw_cfg opt/irqstorm/guest.conf */
	const char *held_irqs_path;	/* QEMU's trace of the interrupts held
					 * to a window's end (held.h), or NULL */
} IrqstormMachinePaths;

/* The QOM path of our device, for qom-get/qom-set. */
#define IRQSTORM_DEVICE_QOM_PATH "/machine/peripheral/storm"

GStrv irqstorm_machine_argv(const IrqstormScenario *sc,
			    const IrqstormMachinePaths *p);
char *irqstorm_machine_guest_conf(const IrqstormScenario *sc);
/* The guest parts' file names in their directories, as the build writes
 * them (scripts/build-qemu.sh, build-kernel.sh, build-initramfs.sh). */
#define IRQSTORM_MACHINE_QEMU_NAME "qemu-system-x86_64"
char *irqstorm_machine_kernel_name(const IrqstormScenario *sc);
char *irqstorm_machine_initrd_name(const IrqstormScenario *sc);

/*
 * Another file the kernel build gives sc's kernel (scripts/build-kernel.sh):
 * what is "identity" (kernel-K-identity), "ko" (irqstorm-K.ko) or a prefix
 * ("System.map", "vmlinux": System.map-K), K its kernel name.
 */
char *irqstorm_machine_kernel_file(const IrqstormScenario *sc, const char *what);
char *irqstorm_argv_to_shell(const char *const *argv);

#endif /* IRQSTORM_MACHINE_H */
