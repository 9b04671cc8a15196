#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what is missing, configure and build the rig, then bring the
# guest parts up to date: QEMU with the device and, for each kernel flavour,
# the kernel, the driver and the initramfs. Idempotent; fast when cached.
#
#   scripts/build.sh [BUILDDIR [FLAVOUR...]]     (default: build)
#
# The flavours built are those named, else those BUILDDIR already has. With
# none named in a fresh BUILDDIR, only the rig is built: `irqstorm run` and
# `irqstorm matrix` build QEMU and the flavour a scenario needs on first use
# (scripts/build-guest.sh), so the first run waits for one kernel, not all.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${1:-build}
shift || true
cd "$IRQSTORM_TOP"
"$IRQSTORM_TOP/scripts/bootstrap.sh"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD"
fi
# The rig and the guest's helper only: a plain `meson compile` would also
# build every guest part a test needs, one after the other.
meson compile -C "$BUILD" irqstorm irqstorm-guest

flavours=("$@")
if [ "${#flavours[@]}" -eq 0 ]; then
	for k in "$BUILD"/kernel-series/bzImage-*; do
		[ -e "$k" ] && flavours+=("${k##*/bzImage-}")
	done
fi
if [ "${#flavours[@]}" -gt 0 ] || [ -e "$BUILD/qemu-device/qemu-system-x86_64" ]; then
	"$IRQSTORM_TOP/scripts/build-guest.sh" "$BUILD" "${flavours[@]}"
else
	log "the rig is built; QEMU and the guest kernel are built by the first run that needs them"
fi
