#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what is missing, configure and build everything (rig, QEMU with
# the device, guest kernel(s), initramfs). Idempotent; fast when cached.
#
#   scripts/build.sh [BUILDDIR]        (default: build)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${1:-build}
cd "$IRQSTORM_TOP"
"$IRQSTORM_TOP/scripts/bootstrap.sh"
if [ ! -f "$BUILD/build.ninja" ]; then
	meson setup "$BUILD"
fi
meson compile -C "$BUILD"
