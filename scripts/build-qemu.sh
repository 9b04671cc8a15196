#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build qemu-system-x86_64 with the irqstorm device from Debian's qemu source.
#
#   scripts/build-qemu.sh OUTDIR
#
# The QEMU tree and its build live in $IRQSTORM_CACHE/qemu/<key>, where key
# hashes the Debian source version, the configure line, the hook lines and
# the fixes in qemu-device/patches/ (applied in the order of its series file,
# each must apply exactly). Our device is staged beside the tree (not copied
# into it) and QEMU's meson files name it by path, so an edit of qemu-device/
# rebuilds in seconds. OUTDIR gets symlinks: qemu-system-x86_64,
# irqstorm-qtest, qemu-source (the patched tree, for its
# scripts/checkpatch.pl), and the file qemu-identity: the source version,
# the cache key, the hash of the device sources compiled in and the fixes
# applied (qemu-fixes=, the patch files' names).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/debian.sh"

OUT=${1:?usage: build-qemu.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

FIRMWARE=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
# No debug info and only the devices we use (qemu-device/devices-x86_64.mak):
# build time, not behaviour. A first build is ~40% less CPU for them.
CONFIGURE=(--target-list=x86_64-softmmu --without-default-features
	--enable-kvm --enable-tcg --enable-fdt=system --enable-plugins
	--with-git-submodules=ignore --disable-docs --disable-debug-info
	--with-devices-x86_64=irqstorm
	--firmwarepath="$FIRMWARE")
DEVICES=$IRQSTORM_TOP/qemu-device/devices-x86_64.mak

# The two lines that hook us into QEMU's build (@DIR@: the cache dir).
HOOK_DEVICE="
# irqstorm (added by irqstorm's scripts/build-qemu.sh)
softmmu_ss.add(when: ['CONFIG_PCI', 'CONFIG_MSI_NONBROKEN'],
               if_true: files('@DIR@/irqstorm/irqstorm.c'))"
HOOK_QTEST="
# irqstorm (added by irqstorm's scripts/build-qemu.sh)
irqstorm_qtest = executable('irqstorm-qtest',
                            files('@DIR@/irqstorm/irqstorm-qtest.c'),
                            include_directories: include_directories('.'),
                            dependencies: [qemuutil, qos])"
read_series "$IRQSTORM_TOP/qemu-device/patches/series" "$IRQSTORM_TOP/qemu-device/patches"
PATCHES=("${SERIES_PATCHES[@]}")
key_of() { hash_inputs "qemu=$1" "${CONFIGURE[*]}" "$DEVICES" "$HOOK_DEVICE" "$HOOK_QTEST" "${PATCHES[@]}"; }
# Debian's qemu source at its pinned version (scripts/debian-pins): no apt
# at all when the cache has it; else fetched through irqstorm's private
# apt state (deb-src there, the system's sources untouched), or when the
# archive no longer has it the newest, said loudly and recorded.
pinned=$(pin_field qemu 3)
if [ -f "$IRQSTORM_CACHE/qemu/$(key_of "$pinned")/src/.irqstorm-hooked" ]; then
	debian_resolve qemu have
else
	debian_resolve qemu
fi
ver=$DEB_VERSION
key=$(key_of "$ver")
dir=$IRQSTORM_CACHE/qemu/$key
mkdir -p "$dir"
exec 9>"$dir/lock"
flock 9
build_hugepages

if [ ! -f "$dir/src/.irqstorm-hooked" ]; then
	rm -rf "$dir/dl" "$dir/src"
	mkdir -p "$dir/dl"
	fetch_source() { cd "$1" && apt_private apt-get source -q "qemu=$2"; }
	run_progress "fetching and unpacking Debian's qemu $ver source into $dir" \
		"$dir/fetch.log" none fetch_source "$dir/dl" "$ver" ||
		die "apt-get source qemu=$ver failed; see $dir/fetch.log"
	mv "$dir"/dl/qemu-*/ "$dir/src"
	rm -rf "$dir/dl"
	apply_patches "$dir/src" "qemu $ver" "${PATCHES[@]}"
	# Our device and qtest by path, outside QEMU's tree; no Kconfig symbol.
	printf '%s\n' "${HOOK_DEVICE//@DIR@/$dir}" >>"$dir/src/hw/misc/meson.build"
	printf '%s\n' "${HOOK_QTEST//@DIR@/$dir}" >>"$dir/src/tests/qtest/meson.build"
	cp "$DEVICES" "$dir/src/configs/devices/x86_64-softmmu/irqstorm.mak"
	cp "$dir/src/hw/misc/trace-events" "$dir/trace-events.orig"
	touch "$dir/src/.irqstorm-hooked"
fi

# Stage our sources where the hooks point.
for f in "$IRQSTORM_TOP"/qemu-device/*.c "$IRQSTORM_TOP"/qemu-device/*.h; do
	[ -e "$f" ] && sync_file "$f" "$dir/irqstorm/${f##*/}"
done
for f in "$IRQSTORM_TOP"/include/irqstorm/*.h; do
	sync_file "$f" "$dir/irqstorm/irqstorm/${f##*/}"
done
sync_file "$IRQSTORM_TOP/tests/qtest/irqstorm-qtest.c" "$dir/irqstorm/irqstorm-qtest.c"
# Trace events must live in a directory QEMU's tracetool knows: hw/misc.
cat "$dir/trace-events.orig" - "$IRQSTORM_TOP/qemu-device/trace-events" \
	<<<$'\n# irqstorm.c (from irqstorm/qemu-device/trace-events)' >"$dir/trace-events.new"
sync_file "$dir/trace-events.new" "$dir/src/hw/misc/trace-events"

if [ ! -f "$dir/build/build.ninja" ]; then
	rm -rf "$dir/build"
	mkdir -p "$dir/build"
	run_progress "configuring QEMU $ver in $dir/build" "$dir/configure.log" none \
		sh -c 'cd "$1" && PATH=$2 && shift 2 && exec ../src/configure "$@"' sh "$dir/build" "$PLAIN_PATH" \
		"${CONFIGURE[@]}" ||
		{ tail -n 30 "$dir/configure.log" >&2; die "QEMU configure failed; see $dir/configure.log"; }
fi

# A first build is ~10 CPU-minutes; after a device edit, seconds.
run_progress "building QEMU in $dir/build" "$dir/build.log" ninja \
	env PATH="$PLAIN_PATH" ninja -C "$dir/build" -j"$(nproc)" qemu-system-x86_64 \
	tests/qtest/irqstorm-qtest ||
	{ grep -E -A5 'error|FAILED' "$dir/build.log" | head -n 60 >&2; die "QEMU build failed; see $dir/build.log"; }

# Our sources must compile cleanly; QEMU's own warnings are not ours to fix.
if grep -A3 "$dir/irqstorm/" "$dir/build.log" | grep -q 'warning:'; then
	grep -A6 "$dir/irqstorm/" "$dir/build.log" >&2
	die "warnings in irqstorm sources"
fi

# Run from its build dir, QEMU looks for firmware under qemu-bundle/: point
# the configured firmware directories there at Debian's firmware packages
# as pinned (scripts/debian-pins), unpacked in the cache: the BIOS and the
# option ROM that boots the kernel run in the guest, so they are inputs of
# every number. (iPXE's ROMs are for NICs, which -nodefaults leaves out.)
bundle() {	# bundle DIR TARGET: qemu-bundle/DIR is TARGET
	local l=$dir/build/qemu-bundle$1
	[ -L "$l" ] || [ ! -d "$l" ] || rm -rf "$l"
	link_artifact "$2" "$l"
}
debian_unpack seabios
bundle /usr/share/seabios "$DEB_DIR/usr/share/seabios"
debian_unpack qemu-system-data
bundle /usr/share/qemu "$DEB_DIR/usr/share/qemu"
bundle /usr/lib/ipxe/qemu /usr/lib/ipxe/qemu

devhash=$(cat "$dir"/irqstorm/*.c "$IRQSTORM_TOP"/include/irqstorm/*.h "$dir/src/hw/misc/trace-events" |
	sha256sum | cut -c1-16)
# qemu-fixes: the patches of the series, all applied (they are in the key);
# the rig calls a run deterministic only with the icount fix among them.
fixes=${PATCHES[*]##*/}
# Written into OUT, not the cache: builds of other checkouts share the cache.
[ ! -L "$OUT/qemu-identity" ] || rm -f "$OUT/qemu-identity"
{
	printf 'qemu-debian-source=%s\nqemu-cache-key=%s\nirqstorm-device=%s\nqemu-fixes=%s\n' \
		"$ver" "$key" "$devhash" "$fixes"
	debian_identity_lines
} >"$OUT/qemu-identity.tmp"
sync_file "$OUT/qemu-identity.tmp" "$OUT/qemu-identity"
rm -f "$OUT/qemu-identity.tmp"
# explain's TCG plugin (qemu-device/plugin/), against this QEMU's plugin
# header: it needs the clock that patch 0002 adds.  Into OUT, not the
# cache: it is ours, like the device, and other checkouts share the cache.
plugin=$IRQSTORM_TOP/qemu-device/plugin/explain.c
so=$OUT/irqstorm-explain.so
if [ ! -f "$so" ] || [ -L "$so" ] || [ "$plugin" -nt "$so" ] ||
	[ "$IRQSTORM_TOP/include/irqstorm/explain.h" -nt "$so" ] ||
	[ "$dir/src/include/qemu/qemu-plugin.h" -nt "$so" ]; then
	rm -f "$so"
	# shellcheck disable=SC2046 # pkg-config prints one word per flag
	cc -shared -fPIC -O2 -Wall -Wextra -Wno-unused-parameter -Werror \
		-I"$dir/src/include/qemu" -I"$IRQSTORM_TOP/include" $(pkg-config --cflags glib-2.0) \
		-o "$so.tmp" "$plugin" && mv -f "$so.tmp" "$so" ||
		die "explain plugin failed to build ($plugin)"
fi

link_artifact "$dir/build/qemu-system-x86_64" "$OUT/qemu-system-x86_64"
link_artifact "$dir/build/tests/qtest/irqstorm-qtest" "$OUT/irqstorm-qtest"
link_artifact "$dir/src" "$OUT/qemu-source"
log "ok: $OUT/qemu-system-x86_64 (qemu $ver, device $devhash)"
