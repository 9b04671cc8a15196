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
# QEMU and the kernels build two at a time (IRQSTORM_BUILD_LANES): each has
# long single-threaded steps (fetching and unpacking sources, configure,
# linking) that the other fills. The outputs are those of meson's custom targets (BUILDDIR's
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
			"$S/build-kernel.sh" "$k" "$BUILD/kernel-series" || return 1
		else
			"$S/build-kernel.sh" "$k" "$BUILD/kernel-series" "${f#*=}" || return 1
		fi
		"$S/build-initramfs.sh" "$k" "$BUILD/kernel-series" "$BUILD/guest-init" "$helper" ||
			return 1
	done
}

# The jobs: QEMU, then each kernel with its initramfs, in the order given,
# taken by IRQSTORM_BUILD_LANES lanes (default 2) as each becomes free:
# QEMU and the first kernel start together, the next kernel starts when
# either ends. A lane takes job I by making the directory $queue/I, which
# only one can. Every build is -j$(nproc): two at once keep both cores
# busy through each other's single-threaded steps (unpacking, configure,
# the final links, compressing the kernel).
jobs=(qemu "$@")
queue=$(mktemp -d)
run_job() {
	case $1 in
	qemu) "$S/build-qemu.sh" "$BUILD/qemu-device" || { log "error: QEMU's build failed (above)"; return 1; } ;;
	*) kernels "$1" || { log "error: a kernel's build failed (above)"; return 1; } ;;
	esac
}
lane() {
	local i
	for i in "${!jobs[@]}"; do
		mkdir "$queue/$i" 2>/dev/null || continue
		run_job "${jobs[$i]}" || return 1
	done
}

# Each lane in its own process group (job control), so that stopping one
# stops everything under it: scripts, make, compilers. No orphans.
lanes=()
stop() {
	local p
	for p in "${lanes[@]}"; do
		kill -TERM -- "-$p" 2>/dev/null || true
	done
	wait 2>/dev/null || true
	rm -rf "$queue"
}

start=$SECONDS
log "building QEMU${*:+ and the kernels $*}, ${IRQSTORM_BUILD_LANES:-2} at a time"
set -m
for _ in $(seq "${IRQSTORM_BUILD_LANES:-2}"); do
	lane &
	lanes+=("$!")
done
set +m
trap 'stop; exit 130' INT TERM HUP
status=0
running=("${lanes[@]}")
while [ "${#running[@]}" -gt 0 ]; do
	if wait -n -p done "${running[@]}"; then
		# Wait only for the others now: bash has forgotten this one.
		rest=()
		for p in "${running[@]}"; do
			[ "$p" = "$done" ] || rest+=("$p")
		done
		running=("${rest[@]}")
		continue
	fi
	status=1
	log "error: stopping the other builds"
	stop
	break
done
trap - INT TERM HUP
rm -rf "$queue"
[ "$status" -eq 0 ] || exit "$status"
log "guest parts ready in $(elapsed "$start")"
