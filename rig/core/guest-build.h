/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The guest parts a run needs (QEMU with the device, a kernel flavour with
 * the driver, its initramfs), built on first use into the meson build
 * directory by scripts/build-guest.sh. The scripts lock and cache by their
 * inputs, so two runs that need the same part build it once.
 */
#ifndef IRQSTORM_GUEST_BUILD_H
#define IRQSTORM_GUEST_BUILD_H

#include <glib.h>
#include "run.h"

typedef struct {
	const char *source_dir;	/* an irqstorm checkout (its scripts/) */
	const char *build_dir;	/* the meson build directory the parts go into */
} IrqstormGuestBuilder;

/*
 * What of the parts a run with these settings needs is missing, in words
 * ("QEMU and the rt kernel"), or NULL when everything is there.
 */
char *irqstorm_guest_missing(const IrqstormRunSettings *set);

/*
 * Build QEMU and each of flavours (NULL-terminated) with its initramfs,
 * QEMU and the kernels side by side; the scripts' progress goes to stderr.
 * Fails naming the log to read when a build fails.
 */
gboolean irqstorm_guest_build(const IrqstormGuestBuilder *b,
			      const char *const *flavours, GError **error);

/* irqstorm_guest_build() for a run, only when something is missing. */
gboolean irqstorm_guest_ensure(const IrqstormGuestBuilder *b,
			       const IrqstormRunSettings *set, GError **error);

#endif
