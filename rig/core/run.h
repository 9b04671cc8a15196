/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One run: launch QEMU for a scenario, read the shared log live while the
 * guest storms, read the device's counters, and say how it all ended. What
 * the run returns is its outcome; judging it and writing the result files
 * is results.h's.
 */
#ifndef IRQSTORM_RUN_H
#define IRQSTORM_RUN_H

#include <glib.h>

#include "collect.h"
#include "counters.h"
#include "held.h"
#include "scenario.h"

/* What to run and where: the settings, never modified by the run. */
typedef struct {
	const IrqstormScenario *scenario;
	const char *out_dir;
	const char *qemu_dir;		/* qemu-system-x86_64, qemu-identity */
	const char *kernel_dir;		/* bzImage-F, kernel-F-identity */
	const char *initrd_dir;		/* initramfs-F.cpio.gz */
	gboolean quiet;
	gboolean csv;			/* write records.csv */
	const char *const *qemu_args;	/* more arguments for QEMU (explain's
					 * plugin), or NULL */
	const char *stop_notice;	/* printed to stderr the first time the
					 * VM stops before the guest's end
					 * (explain --gdb), or NULL */
} IrqstormRunSettings;

/* A scenario change as it was applied over QMP during the run. */
typedef struct {
	const IrqstormChange *change;
	double applied_at_s;		/* storm's virtual time when sent, or -1 */
	char *error;			/* QEMU's refusal, or NULL */
} IrqstormAppliedChange;

/* How a run ended and what it collected. */
typedef struct {
	IrqstormCollected *data;	/* NULL if collection never started */

	/* the device's counters, read after the guest powered off */
	gboolean have_counters;
	char *counters_error;		/* why they could not be, or NULL */
	IrqstormDeviceState device;

	/* how it ended */
	gboolean guest_shutdown;	/* QMP SHUTDOWN seen */
	char *shutdown_reason;		/* its "reason" */
	char *stop_reason;		/* what ended the run otherwise, or NULL */
	GArray *changes;		/* of IrqstormAppliedChange, as applied */
	char *console_path;		/* the guest's console output */
	char **qemu_log_tail;		/* QEMU's last lines (qemu.log) when the
					 * guest did not power off, or NULL */
	double wall_seconds;
	double qemu_cpu_seconds;	/* QEMU's user + system CPU time */
	/* QEMU's threads' time on a host CPU and runnable waiting for one
	 * (schedstat, sampled to the guest's end): a starved QEMU waits */
	gboolean qemu_sched_known;
	double qemu_run_seconds, qemu_wait_seconds;

	/* the accelerator QEMU used (query-kvm), which `auto` leaves to it */
	gboolean accel_known;		/* QEMU answered */
	gboolean kvm;			/* KVM, else TCG */
	gboolean kernel_silent;		/* ended by [run] boot_timeout */
	gboolean kvm_fell_back;		/* auto: KVM ran nothing, TCG did */

	/* several vCPUs under the quantum: the interrupts held (held.h) */
	gboolean have_held;
	IrqstormHeldIrqs held;
	char *held_error;		/* why they could not be read, or NULL */
} IrqstormRunOutcome;

void irqstorm_run_outcome_free(IrqstormRunOutcome *out);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormRunOutcome, irqstorm_run_outcome_free)

/* The accelerator the run used, "kvm" or "tcg", or the scenario's choice
 * when QEMU did not say. */
const char *irqstorm_run_accel_used(const IrqstormRunOutcome *out,
				    const IrqstormScenario *sc);

/*
 * The fix to QEMU's icount clock that a deterministic run needs
 * (qemu-device/patches/, docs/determinism.md): scripts/build-qemu.sh
 * names the fixes it applied in qemu-identity, "qemu-fixes=NAME.patch ...".
 */
#define IRQSTORM_QEMU_ICOUNT_FIX "accel-tcg-rr-thread-not-idle-while-running-guest-code"
/* qemu-device/patches/0003: -icount quantum, several vCPUs exact */
#define IRQSTORM_QEMU_QUANTUM_FIX "accel-tcg-icount-quantum"

/*
 * Why a run of set is not deterministic, or NULL if it is: icount on one
 * vCPU, no changes over QMP, and a QEMU whose identity names the icount
 * fix (a QEMU given with --qemu-dir may lack it).
 */
char *irqstorm_run_not_deterministic(const IrqstormRunSettings *set);

/*
 * The Debian inputs of the run's builds (QEMU, kernel, initramfs) that are
 * not the versions scripts/debian-pins names, in words, or NULL when every
 * one is: a run whose numbers can be compared with docs/results.md's.
 */
char *irqstorm_run_pins_differ(const IrqstormRunSettings *set);

/*
 * Run the scenario. NULL, with an error, when the run could not begin (an
 * artifact missing, the output directory not writable); otherwise its
 * outcome, however it ended: a run that failed after it began says why in
 * stop_reason.
 */
IrqstormRunOutcome *irqstorm_run(const IrqstormRunSettings *set, GError **error);

/*
 * What set's scenario asks of its kernel (vCPUs, preempt=, thread_cpu)
 * against the kernel's identity: the one built, or before a first build of
 * one of Debian's sources what its identity will say. irqstorm_run()
 * checks it before booting; a command checks it before building.
 */
gboolean irqstorm_run_check_kernel(const IrqstormRunSettings *set, GError **error);

#endif /* IRQSTORM_RUN_H */
