#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The pins (scripts/debian-pins) and the way forward when Debian's archive
# no longer has a pinned version, without waiting for Debian: a local apt
# repository (file:, flat) made of the pinned packages the cache holds,
# in which a pinned version is hidden and a newer one offered, is given to
# irqstorm's private apt state (IRQSTORM_APT_SOURCES), in a cache of the
# test's own (IRQSTORM_CACHE).
#
#   - busybox-static: only a newer version: the initramfs builds from it,
#     warns, and its identity says so; a run on it says so on its first
#     lines and in summary.json; IRQSTORM_PINS=strict refuses it.
#   - linux-source-6.12: only a newer version, to which kernel-series/
#     does not apply: the build refuses, naming the patch and its hunks.
#
#   pins.sh IRQSTORM SCENARIO SOURCE-ROOT FLAVOUR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$1" "$2"
root=$3
flavour=$4
build=$(cd "$(dirname "$irqstorm")/.." && pwd)
cache=${IRQSTORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqstorm}
pins=$root/scripts/debian-pins
pin() { awk -v p="$1" '!/^#/ && $2 == p { print $3 }' "$pins"; }

# deb PACKAGE VERSION ROOT: a package of ROOT's files at VERSION, in the repo.
repo=$out/repo
mkdir -p "$repo"
deb() {
	local d=$out/pkg/$1
	rm -rf "$d"
	mkdir -p "$d"
	cp -a "$3/." "$d/"
	mkdir -p "$d/DEBIAN"
	printf 'Package: %s\nVersion: %s\nArchitecture: amd64\nMaintainer: irqstorm tests <tests@irqstorm.invalid>\nDescription: %s for the pins test\n' \
		"$1" "$2" "$1" >"$d/DEBIAN/control"
	dpkg-deb -Zgzip -z1 --root-owner-group -b "$d" "$repo/${1}_${2//:/%3a}_amd64.deb" >/dev/null
	rm -rf "$d"
}
unpacked() {	# the pinned package's files, as the real cache holds them
	local d=$cache/debian/$1/$(pin "$1")
	d=${d//:/_}/root
	[ -d "$d" ] || fail "$d missing: build the initramfs first (scripts/build.sh)"
	echo "$d"
}
newer=$(pin busybox-static)+irqstormtest1
deb busybox-static "$newer" "$(unpacked busybox-static)"
for p in rt-tests libc6 libnuma1; do
	deb "$p" "$(pin "$p")" "$(unpacked "$p")"
done
mkdir -p "$out/linux/linux-source-6.12/usr/src" "$out/tree/linux-source-6.12/kernel/irq"
# A tree the series cannot apply to: the files it patches, empty.
for f in $(grep -h '^+++ b/' "$root"/kernel-series/patches/*.patch | sed 's|^+++ b/||' | sort -u); do
	mkdir -p "$(dirname "$out/tree/linux-source-6.12/$f")"
	: >"$out/tree/linux-source-6.12/$f"
done
tar -C "$out/tree" -cJf "$out/linux/linux-source-6.12/usr/src/linux-source-6.12.tar.xz" linux-source-6.12
deb linux-source-6.12 6.12.999-1~irqstormtest1 "$out/linux/linux-source-6.12"
(cd "$repo" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)
printf 'Types: deb\nURIs: file:%s\nSuites: ./\nTrusted: yes\n' "$repo" >"$out/repo.sources"
export IRQSTORM_CACHE=$out/cache IRQSTORM_APT_SOURCES=$out/repo.sources

# The initramfs from a busybox-static the pins do not name.
s=$root/scripts
"$s/build-initramfs.sh" "$flavour" "$build/kernel-series" "$out/initrd" "$build/guest-init/irqstorm-guest" \
	2>"$out/initramfs.log" || { cat "$out/initramfs.log" >&2; fail "build-initramfs.sh failed on a newer busybox-static"; }
grep -q "warning: busybox-static $(pin busybox-static), pinned in scripts/debian-pins, is no longer in Debian's archive: building from $newer" \
	"$out/initramfs.log" || { cat "$out/initramfs.log" >&2; fail "no warning naming the pin and the version used"; }
id=$out/initrd/initramfs-$flavour-identity
grep -qxF "debian-pins=busybox-static $newer (pinned $(pin busybox-static))" "$id" ||
	fail "the initramfs identity does not say what differs: $(cat "$id")"
grep -q "^debian-inputs=.*busybox-static $newer" "$id" || fail "debian-inputs: $(cat "$id")"
# Strict: the same is an error, naming what the archive has.
rm -rf "$out/cache/debian/busybox-static"
if IRQSTORM_PINS=strict "$s/build-initramfs.sh" "$flavour" "$build/kernel-series" "$out/strict" \
	"$build/guest-init/irqstorm-guest" 2>"$out/strict.log"; then
	fail "IRQSTORM_PINS=strict built from another version"
fi
grep -q "busybox-static $(pin busybox-static) (pinned in scripts/debian-pins) is no longer in Debian's archive, which has $newer; IRQSTORM_PINS=strict" \
	"$out/strict.log" || { cat "$out/strict.log" >&2; fail "strict: not the message"; }

# A run on it: said on its first lines and in summary.json.
status=0
"$irqstorm" run "$scenario" --out "$out/run" --initrd-dir "$out/initrd" \
	--set "kernel.flavour=$flavour" >"$out/run.txt" 2>&1 || status=$?
[ "$status" -eq 0 ] || { cat "$out/run.txt" >&2; fail "the run on the newer busybox: exit $status"; }
grep -q "built from other Debian inputs than scripts/debian-pins (initramfs: busybox-static $newer (pinned " "$out/run.txt" ||
	{ head -n 5 "$out/run.txt" >&2; fail "the run's summary does not say it was built from another busybox-static"; }
[ "$(jq -r .sysinfo.debian_pins "$out/run/summary.json")" = "initramfs: busybox-static $newer (pinned $(pin busybox-static))" ] ||
	fail "summary.json sysinfo.debian_pins: $(jq -r .sysinfo.debian_pins "$out/run/summary.json")"
[ "$(jq -r '.initramfs["debian-pins"]' "$out/run/summary.json")" != exact ] || fail "summary.json initramfs identity"
# The builds the suite uses are exact: the same run on them says nothing.
unset IRQSTORM_APT_SOURCES
export IRQSTORM_CACHE=$cache
"$irqstorm" run "$scenario" --out "$out/pinned" --set "kernel.flavour=$flavour" >"$out/pinned.txt" 2>&1 ||
	{ cat "$out/pinned.txt" >&2; fail "the run on the pinned builds failed"; }
! grep -q "built from other Debian inputs" "$out/pinned.txt" || fail "a pinned build called unpinned: $(head -n 3 "$out/pinned.txt")"
[ "$(jq -r .sysinfo.debian_pins "$out/pinned/summary.json")" = exact ] ||
	fail "pinned builds: sysinfo.debian_pins is $(jq -r .sysinfo.debian_pins "$out/pinned/summary.json")"

# linux-source-6.12 only at a version kernel-series/ does not apply to.
export IRQSTORM_CACHE=$out/cache IRQSTORM_APT_SOURCES=$out/repo.sources
if "$s/build-kernel.sh" rt "$out/kernel" 2>"$out/kernel.log"; then
	fail "build-kernel.sh applied kernel-series/ to a tree it does not fit"
fi
grep -q "warning: linux-source-6.12 $(pin linux-source-6.12), pinned in scripts/debian-pins, is no longer in Debian's archive: building from 6.12.999-1~irqstormtest1" \
	"$out/kernel.log" || { cat "$out/kernel.log" >&2; fail "kernel: no fall-back warning"; }
first=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$root/kernel-series/series" | head -n 1)
grep -q "error: patch $first does not apply to linux-source-6.12 6.12.999-1~irqstormtest1" "$out/kernel.log" ||
	{ cat "$out/kernel.log" >&2; fail "kernel: the refusal does not name the patch"; }
grep -qE '^  [^ ]+: Hunk #1 FAILED at [0-9]+' "$out/kernel.log" ||
	{ cat "$out/kernel.log" >&2; fail "kernel: the refusal does not name a hunk"; }
echo "ok: a newer busybox-static builds, warns and is named by the initramfs identity, the run and summary.json; strict refuses it; kernel-series/ refused on a newer linux-source-6.12, naming its hunks"
