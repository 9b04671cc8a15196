#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build a guest kernel flavour and the irqstorm driver from Debian's
# linux-source-6.12 (or 6.1 or 7.3), or from a kernel tree of the user's, outside
# the repository and never inside the user's tree.
#
#   scripts/build-kernel.sh KERNEL OUTDIR [TREE]
#
# KERNEL names the flavour (the config fragment) and the source, as
# irqstorm_scenario_kernel_name() makes it (docs/kernels.md):
#   rt | dyn                 linux-source-6.12 with kernel-series/ applied
#   dyn-6.1                  linux-source-6.1 as Debian ships it
#   rt-7.3 | dyn-7.3         linux-source-7.3 with kernel-series/ (its
#                            series-7.3: the patches ported) applied
#   FLAVOUR-patches-none     linux-source-6.12 without kernel-series/
#   FLAVOUR-tree-KEY         TREE (Linux 6.1 or later) as it is, O= build
#   FLAVOUR-tree-KEY-patches-ours   a copy of TREE with kernel-series/
#   rt-7.3-bh-lock, rt-tree-KEY-bh-lock   ... with PREEMPT_RT_NEEDS_BH_LOCK=y
#                            ([kernel] bh_lock = on; 6.12's rt always has it)
#   KERNEL-debug             any of these with the kernel's own detectors
#                            (kernel-series/config/debug.config; [kernel] debug)
#
# $IRQSTORM_CACHE/linux/src-<key>: an unpacked Debian tree (with the series
#   when asked); key hashes the source package version and the series.
# $IRQSTORM_CACHE/linux/<kernel>-<key>: the O= build; key adds the config
#   fragments. The driver is built against it (kbuild M=), incrementally.
#   A user's tree keeps one build directory whatever its commit (the key
#   has its path, not its state), so that the next state of the tree (a
#   bisection step) rebuilds only what changed; the build is stamped with
#   the tree's identity: its git commit and a hash of its uncommitted
#   changes, or of its files when it is not a git work tree.
# OUTDIR gets symlinks bzImage-KERNEL, irqstorm-KERNEL.ko, gen_init_cpio-KERNEL
# (the tree's own initramfs tool), linux-source-KERNEL (the tree, for
# its scripts/checkpatch.pl), System.map-KERNEL and vmlinux-KERNEL (for
# irqstorm explain) and a text file kernel-KERNEL-identity.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/debian.sh"

USAGE="usage: build-kernel.sh [--print-dir] KERNEL OUTDIR [TREE] (KERNEL: rt, dyn, dyn-6.1, rt-7.3, dyn-7.3, rt-7.3-bh-lock, FLAVOUR-tree-KEY..., each with -debug)"
# --print-dir: only print the build directory KERNEL is built in, its key
# (of the source's version, the series, the fragments: what decides the
# bytes), and build nothing.
print_dir=
[ "${1:-}" != --print-dir ] || { print_dir=yes; shift; }
KERNEL=${1:?$USAGE}
OUT=${2:?$USAGE}
TREE=${3:-}
KS=$IRQSTORM_TOP/kernel-series
name=$KERNEL patches_choice=default bh_lock=no debug=no
case $name in
*-debug) name=${name%-debug} debug=yes ;;
esac
case $name in
*-bh-lock) name=${name%-bh-lock} bh_lock=yes ;;
esac
case $name in
*-patches-ours) name=${name%-patches-ours} patches_choice=ours ;;
*-patches-none) name=${name%-patches-none} patches_choice=none ;;
esac
case $name in
*-tree-????????)
	FLAVOUR=${name%-tree-*} pkg=tree
	[ -n "$TREE" ] || die "$KERNEL is built from a kernel tree: give its path ($USAGE)"
	[ "$patches_choice" != none ] || die "$KERNEL: a tree's default is patches = none already"
	;;
*-6.1) FLAVOUR=${name%-6.1} pkg=linux-source-6.1 ;;
*-7.3) FLAVOUR=${name%-7.3} pkg=linux-source-7.3 ;;
*) FLAVOUR=$name pkg=linux-source-6.12 ;;
esac
[ -z "$TREE" ] || [ "$pkg" = tree ] || die "$KERNEL is built from $pkg: no tree is given for it"
FRAGS=("$KS/config/common.config" "$KS/config/$FLAVOUR.config")
[ -f "${FRAGS[1]}" ] || die "unknown kernel flavour '$FLAVOUR' (no ${FRAGS[1]})"
[ "$KERNEL" != rt-6.1 ] || die "linux-source-6.1 has no PREEMPT_RT (it was merged in 6.12): only dyn-6.1"
if [ "$bh_lock" = yes ]; then
	[ "$FLAVOUR" = rt ] || die "$KERNEL: the BH lock is PREEMPT_RT's: only an rt kernel has it"
	[ "$pkg" != linux-source-6.12 ] ||
		die "$KERNEL: linux-source-6.12's PREEMPT_RT always takes the per-CPU BH lock: build rt"
	# 7.x's PREEMPT_RT_NEEDS_BH_LOCK; a tree without it fails check_config.
	FRAGS+=("$KS/config/rt-bh-lock.config")
fi
# The kernel's own detectors ([kernel] debug = true): another kernel.
[ "$debug" = no ] || FRAGS+=("$KS/config/debug.config")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
MAKE=(make -s ARCH=x86_64 -j"$(nproc)")

# A reproducible build (Documentation/kbuild/reproducible-builds.rst): the
# version string carries no build time, user or host, so two builds of the
# same inputs give the same bzImage and, under icount, the same guest timing.
# The version string still names the source version (kernel-release).
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 1970'
export KBUILD_BUILD_USER=irqstorm KBUILD_BUILD_HOST=irqstorm KBUILD_BUILD_VERSION=1
buildenv="build=$KBUILD_BUILD_TIMESTAMP/$KBUILD_BUILD_USER@$KBUILD_BUILD_HOST#$KBUILD_BUILD_VERSION"
mkdir -p "$IRQSTORM_CACHE/linux"
build_hugepages

# The series, when this kernel has it: ours on 6.12 and 7.3 by default, on
# a tree when asked, never on 6.1. kernel-series/series is made for 6.12,
# series-7.3 (patches-7.3/) is the same patches ported to 7.3: a kernel of
# major version 7 or later gets that one.
patches=()
series=none
use_series() {	# MAJOR
	local suffix=
	[ "$1" -lt 7 ] || suffix=-7.3
	series=$KS/series$suffix
	read_series "$series" "$KS/patches$suffix"
	patches=("${SERIES_PATCHES[@]}")
}
case $pkg in
linux-source-6.12) [ "$patches_choice" = none ] || use_series 6 ;;
linux-source-7.3) [ "$patches_choice" = none ] || use_series 7 ;;
*) [ "$patches_choice" != ours ] || [ "$pkg" = tree ] || use_series 6 ;;
esac

if [ "$pkg" = tree ]; then
	. "$IRQSTORM_TOP/scripts/kernel-tree.sh"
	tree_check "$TREE" "$FLAVOUR"
	[ "$patches_choice" != ours ] || use_series "${TREE_VERSION%%.*}"
	TREE=$(cd "$TREE" && pwd -P)
	tree_identity "$TREE"	# TREE_ID and what tree_identity_lines prints
	src=$TREE
	# Never into the user's tree: with patches, a copy (below).
	[ "${#patches[@]}" -eq 0 ] || src=$IRQSTORM_CACHE/linux/tree-$(hash_inputs "$TREE")-ours
	bkey=$(hash_inputs "tree=$TREE" "$series" "${patches[@]}" "${FRAGS[@]}" "$buildenv")
	stamp=$(hash_inputs "$TREE_ID" "$series" "${patches[@]}")
else
	# The pinned version (scripts/debian-pins), unpacked in the cache; when
	# the archive no longer has it, the newest, with kernel-series/ applied
	# if it applies (apply_patches names the hunk that does not).
	debian_unpack "$pkg"
	ver=$DEB_VERSION
	tarball=$DEB_DIR/usr/src/$pkg.tar.xz
	[ -f "$tarball" ] || die "$pkg $ver has no ${tarball#"$DEB_DIR"}"
	srckey=$(hash_inputs "$pkg=$ver" "$series" "${patches[@]}")
	src=$IRQSTORM_CACHE/linux/src-$srckey
	srcdesc="$pkg $ver"
	bkey=$(hash_inputs "$srckey" "${FRAGS[@]}" "$buildenv")
	stamp=debian
fi
obj=$IRQSTORM_CACHE/linux/$KERNEL-$bkey
[ -z "$print_dir" ] || { echo "$obj"; exit 0; }
if [ "$pkg" = tree ] && [ "${#patches[@]}" -gt 0 ]; then
	# The copy, refreshed from the tree each time (times kept, so make
	# rebuilds only what changed), then patched; held to the end: it must
	# not change under another build's feet.
	exec 8>"$src.lock"
	lock_wait 8 "$src.lock" "the patched copy of $TREE"
	tree_copy "$TREE" "$src"
	apply_patches "$src" "$TREE (Linux $TREE_VERSION)" "${patches[@]}"
elif [ "$pkg" != tree ]; then
	# One unpacked tree for every flavour of this source and series,
	# read-only once ready: its lock is held only while it is made.
	if [ ! -f "$src/.irqstorm-ready" ]; then
		exec 8>"$src.lock"
		lock_wait 8 "$src.lock" "the unpacking of $pkg $ver"
		if [ ! -f "$src/.irqstorm-ready" ]; then
			rm -rf "$src" "$src.tmp"
			mkdir -p "$src.tmp"
			run_progress "unpacking $pkg $ver into $src" "$src.unpack.log" none \
				tar xJf "$tarball" -C "$src.tmp" --strip-components=1 ||
				die "cannot unpack $tarball; see $src.unpack.log"
			apply_patches "$src.tmp" "$pkg $ver" "${patches[@]}"
			mv "$src.tmp" "$src"
			touch "$src/.irqstorm-ready"
		fi
		exec 8>&-
	fi
fi
# This kernel's build directory, to the end: two builds of other kernels
# run side by side, two of this one build it once.
exec 9>"$obj.lock"
lock_wait 9 "$obj.lock" "the $KERNEL kernel's build directory"

# Every requested option must have survived: no silent drops.
check_config() {
	local line bad=()
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || bad+=("$line") ;;
		esac
	done < <(cat "${FRAGS[@]}")
	[ "${#bad[@]}" -eq 0 ] || die "kernel config dropped: ${bad[*]} (see $obj/config.log)"
}

# The kernel this one is the same as but for options of its own: a Debian
# source's rt with the BH lock is its rt plus one option. Its build is
# made from that kernel's, copied and configured anew: kbuild then
# compiles again only what the changed options reach, and links. kbuild's
# own files name the shared source, or their build directory relatively;
# the tools' (objtool) name their build directory absolutely, and are
# made to name the copy: else objtool is built again, and every object
# that objtool checks, the whole kernel, after it. The outputs are byte
# for byte a build from nothing's (compared so, docs/building.md;
# e2e-kernel-cache makes one again from a changed fragment, compares, and
# counts the files compiled).
seed=
if [ "$pkg" != tree ] && [ "$bh_lock" = yes ] && [ "$debug" = no ]; then
	seed=${KERNEL%-bh-lock}
fi

# seed_from KERNEL: $obj as a copy of KERNEL's build directory, built
# first if it is not (its own outputs linked into OUT too).
seed_from() {
	local base real
	"$0" "$1" "$OUT" || die "building $1, which $KERNEL is made from, failed"
	base=$(dirname "$(readlink -f "$OUT/kernel-$1-identity")")
	exec 7>"$base.lock"
	lock_wait 7 "$base.lock" "the $1 kernel's build directory"
	log "making the $KERNEL kernel from the $1 kernel's build ($base)"
	cp -a "$base/." "$obj/" || die "cannot copy $base into $obj"
	exec 7>&-
	rm -rf "$obj/irqstorm-driver" "$obj/irqstorm-layout"
	rm -f "$obj"/.irqstorm-* "$obj/identity" "$obj/identity.tmp" "$obj/build.log"
	real=$(cd "$obj" && pwd -P)
	{ grep -rlIZF -e "$base" "$obj" || true; } | xargs -0 -r sed -i "s|$base|$real|g" ||
		die "cannot make the copy of $base name $real"
}

if [ ! -f "$obj/.config" ] || [ ! -f "$obj/.irqstorm-configured" ]; then
	log "configuring the $FLAVOUR kernel in $obj (tinyconfig + fragments)"
	rm -rf "$obj"
	mkdir -p "$obj"
	[ -z "$seed" ] || seed_from "$seed"
	{ "${MAKE[@]}" -C "$src" O="$obj" tinyconfig >"$obj/config.log" 2>&1 &&
		(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "${FRAGS[@]}") \
		>>"$obj/config.log" 2>&1 &&
		"${MAKE[@]}" -C "$src" O="$obj" olddefconfig >>"$obj/config.log" 2>&1; } ||
		die "configuring the kernel failed; see $obj/config.log"
	check_config
	touch "$obj/.irqstorm-configured"
fi

# A finished build is stamped: a Debian tree changes only with its key, so
# a warm run skips make (a no-op make of the tree costs seconds per
# flavour); a user's tree is built again (incrementally) when its identity
# is not the stamp's.
if [ ! -f "$obj/.irqstorm-built" ] || { [ "$pkg" = tree ] && [ "$(cat "$obj/.irqstorm-built")" != "$stamp" ]; }; then
	rm -f "$obj/.irqstorm-built"
	# kbuild's one line per file (no -s) is what the progress counts.
	run_progress "building the $FLAVOUR kernel in $obj" "$obj/build.log" kbuild \
		make ARCH=x86_64 -j"$(nproc)" --no-print-directory -C "$src" O="$obj" bzImage modules ||
		{ grep -E -B2 -A8 'error|Error' "$obj/build.log" | head -n 60 >&2; die "kernel build failed; see $obj/build.log"; }
	# A tree's Kconfig may have changed since it was configured: make
	# synced the configuration; the fragments must still hold.
	check_config
	echo "$stamp" >"$obj/.irqstorm-built"
fi

# The driver: staged beside the build (kbuild writes objects next to the
# sources), the contract headers taken from the repository by include
# path; rebuilt when its sources or a contract header change.
mod=$obj/irqstorm-driver
for f in "$KS"/driver/*; do
	sync_file "$f" "$mod/${f##*/}"
done
drvhash=$(cat "$KS"/driver/* "$IRQSTORM_TOP"/include/irqstorm/*.h | sha256sum | cut -c1-16)
# Against a tree, rebuilt with the kernel: a module is for one build.
drvstamp=$drvhash
[ "$pkg" != tree ] || drvstamp="$drvhash $stamp"
if [ "$(cat "$mod/.irqstorm-built" 2>/dev/null)" != "$drvstamp" ]; then
	rm -f "$mod/.irqstorm-built"
	"${MAKE[@]}" -C "$obj" M="$mod" IRQSTORM_INCLUDE="$IRQSTORM_TOP/include" W=1 modules \
		>"$mod/build.log" 2>&1 ||
		{ cat "$mod/build.log" >&2; die "driver build failed"; }
	if grep -q 'warning:' "$mod/build.log"; then
		cat "$mod/build.log" >&2
		die "driver build has warnings"
	fi
	echo "$drvstamp" >"$mod/.irqstorm-built"
fi

# Where explain's plugin reads a task's and an interrupt's names in guest
# memory: kernel-series/layout/ compiled to assembly against this build
# (never linked), its "->NAME $VALUE" markers as NAME:VALUE,... (the
# identity's kernel-layout). Nothing of it reaches the guest.
lay=$obj/irqstorm-layout
for f in "$KS"/layout/*; do
	sync_file "$f" "$lay/${f##*/}"
done
"${MAKE[@]}" -C "$obj" M="$lay" irqstorm-layout.s >"$lay/build.log" 2>&1 ||
	{ cat "$lay/build.log" >&2; die "kernel-series/layout does not compile against $KERNEL"; }
layout=$(sed -n 's/.*"->\([a-z_]*\) \$\([0-9]*\) .*/\1:\2/p' "$lay/irqstorm-layout.s" | paste -sd,)
[ "$(grep -c -- '->' "$lay/irqstorm-layout.s")" -eq "$(echo "$layout" | tr , '\n' | grep -c .)" ] ||
	die "cannot read kernel-series/layout's offsets from $lay/irqstorm-layout.s"

release=$(cat "$obj/include/config/kernel.release")
# The dynamic preemption modes its preempt= takes, read from its own
# sched_dynamic_mode() under its configuration (none without
# PREEMPT_DYNAMIC: preempt= is then not a parameter at all). Linux 7.x on
# x86 takes full and lazy only: none and voluntary are gone. The rig
# refuses a scenario that asks for another mode before booting.
modes=
if grep -q '^CONFIG_PREEMPT_DYNAMIC=y$' "$obj/.config"; then
	defs=$(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=y$/-D\1=1/p' "$obj/.config")
	# shellcheck disable=SC2086 # one -D per word
	modes=$(sed -n '/^int sched_dynamic_mode(const char \*str)$/,/^}$/p' "$src/kernel/sched/core.c" |
		cpp -P $defs - 2>/dev/null | sed -n 's/.*strcmp(str, "\([a-z]*\)").*/\1/p' | paste -sd,)
	[ -n "$modes" ] ||
		die "cannot read the preemption modes of $src/kernel/sched/core.c (sched_dynamic_mode())"
fi
# Whether user space may move an IRQ thread: on 7.3 (not on 6.12) irq threads
# are created with kthread_bind_mask(), which sets PF_NO_SETAFFINITY
# (sched_setaffinity() fails with EINVAL); they follow their interrupt's
# affinity instead. Read from the source, as a tree's version cannot say.
thread_affinity=user
! grep -q 'kthread_bind_mask(t, ' "$src/kernel/irq/manage.c" || thread_affinity=interrupt
# PREEMPT_RT's per-CPU BH lock: on where the kernel always takes it (6.12)
# or was built with PREEMPT_RT_NEEDS_BH_LOCK (7.x, off by default).
rt_bh_lock=
if grep -q '^CONFIG_PREEMPT_RT=y$' "$obj/.config"; then
	rt_bh_lock=on
	grep -q '^config PREEMPT_RT_NEEDS_BH_LOCK$' "$src/kernel/Kconfig.preempt" &&
		! grep -q '^CONFIG_PREEMPT_RT_NEEDS_BH_LOCK=y$' "$obj/.config" && rt_bh_lock=off
fi
# The most CPUs it boots (CONFIG_NR_CPUS: common.config's 8; a tree's own
# may differ): QEMU's further vCPUs it would ignore, so the rig refuses them.
nr_cpus=$(sed -n 's/^CONFIG_NR_CPUS=\([0-9]*\)$/\1/p' "$obj/.config")
[ -n "$nr_cpus" ] || nr_cpus=1
# The system's compiler and linker made it: recorded and compared with the
# pins (when this identity is written, which is when the kernel was built
# or the driver refreshed).
debian_check gcc-12 binutils
{
	if [ "$pkg" = tree ]; then
		tree_identity_lines
	else
		printf 'kernel-debian-source=%s\n' "$srcdesc"
	fi
	debian_identity_lines
	printf 'kernel-release=%s\nkernel-flavour=%s\nkernel-cache-key=%s\nirqstorm-driver=%s\nkernel-patches=%s\nkernel-preempt-modes=%s\nkernel-irq-thread-affinity=%s\nkernel-rt-bh-lock=%s\nkernel-nr-cpus=%s\nkernel-layout=%s\n' \
		"$release" "$FLAVOUR" "$bkey" "$drvhash" \
		"$([ ${#patches[@]} -gt 0 ] && echo kernel-series || echo none)" "$modes" \
		"$thread_affinity" "$rt_bh_lock" "$nr_cpus" "$layout"
} >"$obj/identity.tmp"
sync_file "$obj/identity.tmp" "$obj/identity"
link_artifact "$obj/arch/x86/boot/bzImage" "$OUT/bzImage-$KERNEL"
link_artifact "$mod/irqstorm.ko" "$OUT/irqstorm-$KERNEL.ko"
link_artifact "$obj/identity" "$OUT/kernel-$KERNEL-identity"
# irqstorm explain names the code it sees by the kernel's symbols; its
# --gdb hands gdb the kernel itself.
link_artifact "$obj/System.map" "$OUT/System.map-$KERNEL"
link_artifact "$obj/vmlinux" "$OUT/vmlinux-$KERNEL"
link_artifact "$obj/usr/gen_init_cpio" "$OUT/gen_init_cpio-$KERNEL"
link_artifact "$src" "$OUT/linux-source-$KERNEL"
log "ok: $OUT/bzImage-$KERNEL ($release), driver $drvhash"
