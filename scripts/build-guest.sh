#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the guest parts into a meson build directory: QEMU with the device,
# and for each KERNEL the kernel with the driver, then its initramfs.
#
#   scripts/build-guest.sh BUILDDIR KERNEL[=TREE]...
#
# KERNEL as scripts/build-kernel.sh names it (rt, dyn, dyn-6.1, ...), with
# =TREE for one built from a kernel tree of the user's.
#
# QEMU and the kernels build side by side: each has long single-threaded
# steps (fetching and unpacking sources, configure, linking) that the other
# fills. The outputs are those of meson's custom targets (BUILDDIR's
# qemu-device/, kernel-series/, guest-init/), made by the same scripts,
# which lock and cache by their inputs: two of these at once build once.
# Called by scripts/build.sh, and by `irqstorm run` and `matrix` for a part
# a run needs that is not built yet.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

USAGE="usage: build-guest.sh BUILDDIR KERNEL[=TREE]..."
[ -d "${1:?$USAGE}" ] || die "$1 is not a build directory (meson setup $1 first)"
BUILD=$(cd "$1" && pwd)
shift
helper=$BUILD/guest-init/irqstorm-guest
[ -x "$helper" ] || die "$helper missing: build the rig first (meson compile -C $BUILD)"
S=$IRQSTORM_TOP/scripts

kernels() {
	local f k
	for f in "$@"; do
		k=${f%%=*}
		if [ "$k" = "$f" ]; then
			"$S/build-kernel.sh" "$k" "$BUILD/kernel-series"
		else
			"$S/build-kernel.sh" "$k" "$BUILD/kernel-series" "${f#*=}"
		fi
		"$S/build-initramfs.sh" "$k" "$BUILD/kernel-series" "$BUILD/guest-init" "$helper"
	done
}

# Each side in its own process group (job control), so that stopping one
# stops everything under it: scripts, make, compilers. No orphans.
stop() {
	kill -TERM -- "-$qemu" "-$kern" 2>/dev/null || true
	wait 2>/dev/null || true
}

start=$SECONDS
log "building QEMU${*:+ and the kernels $*} side by side"
set -m
"$S/build-qemu.sh" "$BUILD/qemu-device" &
qemu=$!
kernels "$@" &
kern=$!
set +m
trap 'stop; exit 130' INT TERM HUP
status=0
running=("$qemu" "$kern")
while [ "${#running[@]}" -gt 0 ]; do
	if wait -n -p done "${running[@]}"; then
		# Wait only for the other side now: bash has forgotten this one.
		rest=()
		for p in "${running[@]}"; do
			[ "$p" = "$done" ] || rest+=("$p")
		done
		running=("${rest[@]}")
		continue
	fi
	status=1
	if [ "$done" = "$qemu" ]; then
		log "error: QEMU's build failed (above); stopping the kernel's"
	else
		log "error: a kernel's build failed (above); stopping QEMU's"
	fi
	stop
	break
done
trap - INT TERM HUP
[ "$status" -eq 0 ] || exit "$status"
log "guest parts ready in $(elapsed "$start")"
