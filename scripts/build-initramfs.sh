#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the guest initramfs for a kernel flavour: Debian's busybox-static,
# guest-init/init, our static irqstorm-guest helper and the irqstorm driver
# built for that kernel; and the same with Debian's cyclictest added. The
# Debian packages are the versions scripts/debian-pins names, unpacked in
# the cache (scripts/debian.sh), never the system's.
#
#   scripts/build-initramfs.sh FLAVOUR KERNELDIR OUTDIR GUEST-HELPER
#
# Needs KERNELDIR/irqstorm-FLAVOUR.ko and KERNELDIR/gen_init_cpio-FLAVOUR
# from scripts/build-kernel.sh. Writes OUTDIR/initramfs-FLAVOUR.cpio.gz and
# OUTDIR/initramfs-FLAVOUR-cyclictest.cpio.gz, byte for byte reproducible
# (fixed timestamps, gzip -n, the helper stripped), and
# OUTDIR/initramfs-FLAVOUR-identity: the Debian inputs they are made of.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/debian.sh"

USAGE="usage: build-initramfs.sh FLAVOUR KERNELDIR OUTDIR GUEST-HELPER"
FLAVOUR=${1:?$USAGE}
KDIR=${2:?$USAGE}
OUT=${3:?$USAGE}
GUEST=$(readlink -f "${4:?$USAGE}")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
mod=$KDIR/irqstorm-$FLAVOUR.ko
gen=$KDIR/gen_init_cpio-$FLAVOUR
[ -f "$mod" ] || die "$mod missing: run scripts/build-kernel.sh $FLAVOUR first"
[ -x "$gen" ] || die "$gen missing: run scripts/build-kernel.sh $FLAVOUR first"
[ -x "$GUEST" ] || die "$GUEST missing: build it with meson"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

debian_unpack busybox-static
BUSYBOX=$DEB_DIR/bin/busybox
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing from busybox-static $DEB_VERSION"
# ldd fails on a static binary; the guest has no libc to offer a dynamic one.
! ldd "$BUSYBOX" >/dev/null 2>&1 || die "$BUSYBOX is dynamically linked"
debian_unpack rt-tests
CYCLICTEST=$DEB_DIR/usr/bin/cyclictest
[ -x "$CYCLICTEST" ] || die "$CYCLICTEST missing from rt-tests $DEB_VERSION"
debian_unpack libc6
LIBROOTS=("$DEB_DIR")
debian_unpack libnuma1
LIBROOTS+=("$DEB_DIR")
# The helper is linked here, statically; gzip packs the archives.
debian_check gcc-12 binutils libc6-dev gzip

# in_roots PATH: PATH's file in one of the unpacked packages (LIBROOTS), its
# symbolic links followed inside that package; /lib is /usr/lib there too.
in_roots() {
	local root p n
	for root in "${LIBROOTS[@]}"; do
		for p in "$1" "/usr$1"; do
			n=0
			while [ -L "$root$p" ] && [ "$n" -lt 10 ]; do
				case $(readlink "$root$p") in
				/*) p=$(readlink "$root$p") ;;
				*) p=${p%/*}/$(readlink "$root$p") ;;
				esac
				n=$((n + 1))
			done
			[ -f "$root$p" ] && { echo "$root$p"; return 0; }
		done
	done
	return 1
}
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
# The libraries cyclictest needs, and theirs (ELF NEEDED, from the pinned
# packages: never the system's), and its loader (PT_INTERP): the guest gets
# each at the path Debian's loader finds it, /lib/x86_64-linux-gnu/NAME, as
# a plain file under its parent directories.
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'; }
interp=$(readelf -l "$CYCLICTEST" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
[ -n "$interp" ] || die "$CYCLICTEST has no program interpreter"
libs=$interp
queue=$(needed "$CYCLICTEST")
while [ -n "$queue" ]; do
	# shellcheck disable=SC2086 # one name per word
	set -- $queue
	queue=
	for n in "$@"; do
		lib=/lib/x86_64-linux-gnu/$n
		! grep -qxF "$lib" <<<"$libs" || continue
		f=$(in_roots "$lib") || die "$lib (which cyclictest needs) is in no pinned package (libc6, libnuma1)"
		libs+=$'\n'$lib
		queue+=" $(needed "$f" | tr '\n' ' ')"
	done
done
libs=$(sort -u <<<"$libs")
{
	for lib in $libs; do
		d=${lib%/*}
		while [ -n "$d" ]; do
			echo "dir $d 0755 0 0"
			d=${d%/*}
		done
	done | sort -u
	for lib in $libs; do
		f=$(in_roots "$lib") || die "$lib (which cyclictest needs) is in no pinned package (libc6, libnuma1)"
		echo "file $lib $f 0755 0 0"
	done
	echo "file /bin/cyclictest $CYCLICTEST 0755 0 0"
} >"$tmp/cyclictest.list"
grep -q '^file /lib.*/libc\.so' "$tmp/cyclictest.list" || die "$CYCLICTEST needs no libc?"
"$gen" -t 0 "$tmp/cyclictest.list" | gzip -n -9 >"$tmp/cyclictest.cpio.gz"
cat "$tmp/initramfs.cpio.gz" "$tmp/cyclictest.cpio.gz" >"$tmp/initramfs-cyclictest.cpio.gz"

debian_identity_lines >"$tmp/identity"
sync_file "$tmp/initramfs.cpio.gz" "$OUT/initramfs-$FLAVOUR.cpio.gz"
sync_file "$tmp/initramfs-cyclictest.cpio.gz" "$OUT/initramfs-$FLAVOUR-cyclictest.cpio.gz"
sync_file "$tmp/identity" "$OUT/initramfs-$FLAVOUR-identity"
log "ok: $OUT/initramfs-$FLAVOUR.cpio.gz, initramfs-$FLAVOUR-cyclictest.cpio.gz"
