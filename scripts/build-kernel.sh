#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build a guest kernel flavour and the irqstorm driver from Debian's
# linux-source-6.12 (or 6.1), outside the repository.
#
#   scripts/build-kernel.sh KERNEL OUTDIR      (KERNEL: rt | dyn | dyn-6.1)
#
# KERNEL is a flavour (the config fragment), with -6.1 for Debian's
# linux-source-6.1 instead of 6.12: kernel-series/ patches are for 6.12
# and are applied only there; 6.1 has no PREEMPT_RT, so only dyn-6.1.
#
# $IRQSTORM_CACHE/linux/src-<key>: the unpacked tree with kernel-series/
#   applied (6.12); key hashes the source package version and the series.
# $IRQSTORM_CACHE/linux/<kernel>-<key>: the O= build; key adds the config
#   fragments. The driver is built against it (kbuild M=), incrementally.
# OUTDIR gets symlinks bzImage-KERNEL, irqstorm-KERNEL.ko, gen_init_cpio-KERNEL
# (the tree's own initramfs tool), linux-source-KERNEL (the patched tree, for
# its scripts/checkpatch.pl), System.map-KERNEL and vmlinux-KERNEL (for
# irqstorm explain) and a text file kernel-KERNEL-identity.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

KERNEL=${1:?usage: build-kernel.sh rt|dyn|dyn-6.1 OUTDIR}
OUT=${2:?usage: build-kernel.sh rt|dyn|dyn-6.1 OUTDIR}
KS=$IRQSTORM_TOP/kernel-series
case $KERNEL in
*-6.1) FLAVOUR=${KERNEL%-6.1} pkg=linux-source-6.1 ;;
*) FLAVOUR=$KERNEL pkg=linux-source-6.12 ;;
esac
FRAGS=("$KS/config/common.config" "$KS/config/$FLAVOUR.config")
[ -f "${FRAGS[1]}" ] || die "unknown kernel flavour '$FLAVOUR' (no ${FRAGS[1]})"
[ "$KERNEL" != rt-6.1 ] || die "linux-source-6.1 has no PREEMPT_RT (it was merged in 6.12): only dyn-6.1"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
MAKE=(make -s ARCH=x86_64 -j"$(nproc)")

tarball=/usr/src/$pkg.tar.xz
ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
	die "$pkg is not installed (run scripts/bootstrap.sh)"
[ -f "$tarball" ] || die "$tarball missing: reinstall $pkg"
patches=()
series=none
if [ "$pkg" = linux-source-6.12 ]; then
	read -r base_pkg base_ver < <(grep -v '^#' "$KS/BASE")
	[ "$pkg $ver" = "$base_pkg $base_ver" ] ||
		die "kernel-series/ is made for $base_pkg $base_ver, but $pkg $ver is installed: refusing to apply it to another version"
	read_series "$KS/series" "$KS/patches"
	patches=("${SERIES_PATCHES[@]}")
	series=$KS/series
fi

# A reproducible build (Documentation/kbuild/reproducible-builds.rst): the
# version string carries no build time, user or host, so two builds of the
# same inputs give the same bzImage and, under icount, the same guest timing.
# The version string still names the Debian source version (kernel-release).
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 1970'
export KBUILD_BUILD_USER=irqstorm KBUILD_BUILD_HOST=irqstorm KBUILD_BUILD_VERSION=1

srckey=$(hash_inputs "$pkg=$ver" "$series" "${patches[@]}")
src=$IRQSTORM_CACHE/linux/src-$srckey
bkey=$(hash_inputs "$srckey" "${FRAGS[@]}" \
	"build=$KBUILD_BUILD_TIMESTAMP/$KBUILD_BUILD_USER@$KBUILD_BUILD_HOST#$KBUILD_BUILD_VERSION")
obj=$IRQSTORM_CACHE/linux/$KERNEL-$bkey
mkdir -p "$IRQSTORM_CACHE/linux"
exec 9>"$IRQSTORM_CACHE/linux/lock"
flock 9

if [ ! -f "$src/.irqstorm-ready" ]; then
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	run_progress "unpacking $pkg $ver into $src" "$IRQSTORM_CACHE/linux/unpack.log" none \
		tar xJf "$tarball" -C "$src.tmp" --strip-components=1 ||
		die "cannot unpack $tarball; see $IRQSTORM_CACHE/linux/unpack.log"
	apply_patches "$src.tmp" "$pkg $ver" "${patches[@]}"
	mv "$src.tmp" "$src"
	touch "$src/.irqstorm-ready"
fi

if [ ! -f "$obj/.config" ] || [ ! -f "$obj/.irqstorm-configured" ]; then
	log "configuring the $FLAVOUR kernel in $obj (tinyconfig + fragments)"
	rm -rf "$obj"
	mkdir -p "$obj"
	"${MAKE[@]}" -C "$src" O="$obj" tinyconfig >"$obj/config.log" 2>&1
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "${FRAGS[@]}") \
		>>"$obj/config.log" 2>&1
	"${MAKE[@]}" -C "$src" O="$obj" olddefconfig >>"$obj/config.log" 2>&1
	# Every requested option must have survived: no silent drops.
	bad=()
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || bad+=("$line") ;;
		esac
	done < <(cat "${FRAGS[@]}")
	[ "${#bad[@]}" -eq 0 ] || die "kernel config dropped: ${bad[*]} (see $obj/config.log)"
	touch "$obj/.irqstorm-configured"
fi

# A finished build is stamped: the tree changes only with its key, so a
# warm run skips make (a no-op make of the tree costs seconds per flavour).
if [ ! -f "$obj/.irqstorm-built" ]; then
	# kbuild's one line per file (no -s) is what the progress counts.
	run_progress "building the $FLAVOUR kernel in $obj" "$obj/build.log" kbuild \
		make ARCH=x86_64 -j"$(nproc)" --no-print-directory -C "$src" O="$obj" bzImage modules ||
		{ grep -E -B2 -A8 'error|Error' "$obj/build.log" | head -n 60 >&2; die "kernel build failed; see $obj/build.log"; }
	touch "$obj/.irqstorm-built"
fi

# The driver: staged beside the build (kbuild writes objects next to the
# sources), the contract headers taken from the repository by include
# path; rebuilt when its sources or a contract header change.
mod=$obj/irqstorm-driver
for f in "$KS"/driver/*; do
	sync_file "$f" "$mod/${f##*/}"
done
drvhash=$(cat "$KS"/driver/* "$IRQSTORM_TOP"/include/irqstorm/*.h | sha256sum | cut -c1-16)
if [ "$(cat "$mod/.irqstorm-built" 2>/dev/null)" != "$drvhash" ]; then
	rm -f "$mod/.irqstorm-built"
	"${MAKE[@]}" -C "$obj" M="$mod" IRQSTORM_INCLUDE="$IRQSTORM_TOP/include" W=1 modules \
		>"$mod/build.log" 2>&1 ||
		{ cat "$mod/build.log" >&2; die "driver build failed"; }
	if grep -q 'warning:' "$mod/build.log"; then
		cat "$mod/build.log" >&2
		die "driver build has warnings"
	fi
	echo "$drvhash" >"$mod/.irqstorm-built"
fi

release=$(cat "$obj/include/config/kernel.release")
printf 'kernel-debian-source=%s %s\nkernel-release=%s\nkernel-flavour=%s\nkernel-cache-key=%s\nirqstorm-driver=%s\nkernel-patches=%s\n' \
	"$pkg" "$ver" "$release" "$FLAVOUR" "$bkey" "$drvhash" \
	"$([ ${#patches[@]} -gt 0 ] && echo kernel-series || echo none)" >"$obj/identity.tmp"
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
