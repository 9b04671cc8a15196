#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the guest initramfs for a kernel flavour: Debian's busybox-static,
# guest-init/init, our static irqstorm-guest helper and the irqstorm driver
# built for that kernel; and the same with Debian's cyclictest added.
#
#   scripts/build-initramfs.sh FLAVOUR KERNELDIR OUTDIR GUEST-HELPER
#
# Needs KERNELDIR/irqstorm-FLAVOUR.ko and KERNELDIR/gen_init_cpio-FLAVOUR
# from scripts/build-kernel.sh. Writes OUTDIR/initramfs-FLAVOUR.cpio.gz and
# OUTDIR/initramfs-FLAVOUR-cyclictest.cpio.gz, byte for byte reproducible
# (fixed timestamps, gzip -n, the helper stripped).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

USAGE="usage: build-initramfs.sh FLAVOUR KERNELDIR OUTDIR GUEST-HELPER"
FLAVOUR=${1:?$USAGE}
KDIR=${2:?$USAGE}
OUT=${3:?$USAGE}
GUEST=$(readlink -f "${4:?$USAGE}")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
BUSYBOX=/bin/busybox
mod=$KDIR/irqstorm-$FLAVOUR.ko
gen=$KDIR/gen_init_cpio-$FLAVOUR
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing: install busybox-static (scripts/bootstrap.sh)"
# ldd fails on a static binary; the guest has no libc to offer a dynamic one.
! ldd "$BUSYBOX" >/dev/null 2>&1 || die "$BUSYBOX is dynamically linked: install busybox-static"
[ -f "$mod" ] || die "$mod missing: run scripts/build-kernel.sh $FLAVOUR first"
[ -x "$gen" ] || die "$gen missing: run scripts/build-kernel.sh $FLAVOUR first"
[ -x "$GUEST" ] || die "$GUEST missing: build it with meson"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The helper as built carries debug information with the build directory's
# path and a build ID that hashes it: strip both, so that every build of
# the same sources packs the same bytes (and, under icount, the guest
# unpacks them in the same number of instructions).
strip --strip-all --remove-section=.note.gnu.build-id -o "$tmp/irqstorm-guest" "$GUEST"
# The guest protocol for the init (include/irqstorm/guest.h), from the
# helper itself: a static x86_64 binary runs here as well as in the guest.
"$tmp/irqstorm-guest" protocol >"$tmp/protocol.sh" ||
	die "irqstorm-guest protocol failed"
# Every packed file staged here with one fixed mtime: gen_init_cpio before
# 6.12 (linux-source-6.1's) packs a file's own mtime whatever -t says, and
# a checkout's or a build's time would change the archive's bytes, and so
# the instructions the guest spends unpacking it.
cp "$BUSYBOX" "$tmp/busybox"
cp "$IRQSTORM_TOP/guest-init/init" "$tmp/init"
cp "$(readlink -f "$mod")" "$tmp/irqstorm.ko"
touch -d @0 "$tmp/busybox" "$tmp/init" "$tmp/irqstorm.ko" "$tmp/irqstorm-guest" "$tmp/protocol.sh"
sed -e "s|@BUSYBOX@|$tmp/busybox|" -e "s|@INIT@|$tmp/init|" \
	-e "s|@GUEST@|$tmp/irqstorm-guest|" -e "s|@PROTOCOL@|$tmp/protocol.sh|" \
	-e "s|@MODULE@|$tmp/irqstorm.ko|" \
	"$IRQSTORM_TOP/guest-init/initramfs.list.in" >"$tmp/list"
"$gen" -t 0 "$tmp/list" | gzip -n -9 >"$tmp/initramfs.cpio.gz"

# The same with Debian's cyclictest (rt-tests) and the shared libraries it
# needs appended as a second archive, which the kernel unpacks over the
# first: for [guest] cyclictest, the only runs that pay for unpacking libc.
CYCLICTEST=/usr/bin/cyclictest
[ -x "$CYCLICTEST" ] || die "$CYCLICTEST missing: install rt-tests (scripts/bootstrap.sh)"
# ldd: "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)", and the loader
# as "/lib64/ld-linux-x86-64.so.2 (0x...)": the guest gets each at the path
# the binary asks for, as a plain file, under its parent directories.
libs=$(ldd "$CYCLICTEST" | sed -n -e 's/.*=> \(\/[^ ]*\) .*/\1/p' \
	-e 's/^[[:space:]]*\(\/[^ ]*\) .*/\1/p' | sort -u)
{
	for lib in $libs; do
		d=${lib%/*}
		while [ -n "$d" ]; do
			echo "dir $d 0755 0 0"
			d=${d%/*}
		done
	done | sort -u
	for lib in $libs; do
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done
	echo "file /bin/cyclictest $CYCLICTEST 0755 0 0"
} >"$tmp/cyclictest.list"
grep -q '^file /lib.*/libc\.so' "$tmp/cyclictest.list" || die "ldd $CYCLICTEST found no libc"
"$gen" -t 0 "$tmp/cyclictest.list" | gzip -n -9 >"$tmp/cyclictest.cpio.gz"
cat "$tmp/initramfs.cpio.gz" "$tmp/cyclictest.cpio.gz" >"$tmp/initramfs-cyclictest.cpio.gz"

sync_file "$tmp/initramfs.cpio.gz" "$OUT/initramfs-$FLAVOUR.cpio.gz"
sync_file "$tmp/initramfs-cyclictest.cpio.gz" "$OUT/initramfs-$FLAVOUR-cyclictest.cpio.gz"
log "ok: $OUT/initramfs-$FLAVOUR.cpio.gz, initramfs-$FLAVOUR-cyclictest.cpio.gz"
