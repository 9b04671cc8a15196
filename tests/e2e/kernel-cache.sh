#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernels' build cache: a kernel is built again exactly when what makes
# its bytes changed (scripts/build-kernel.sh's keys), and only that kernel.
#
#   - a copy of the checkout finds every kernel where this one built it;
#   - one line of a config fragment changed: the kernels that use the
#     fragment move to a new build directory, the others stay;
#   - a patch of a series changed: that source's kernels move, no other;
#   - for real: in a copy whose rt-bh-lock.config has one more line (an
#     option every kernel has already, so that the bytes must not change),
#     build-kernel.sh builds rt-7.3-bh-lock again, and only it (rt-7.3 and
#     dyn-7.3 are found built); it is made from rt-7.3's build (the copy
#     configured anew, then only what the changed option reaches compiled
#     again: fewer than 100 files, not a kernel's 1,700), and its bzImage
#     and driver are byte for byte the ones built before.
#
#   kernel-cache.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
export LC_ALL=C
src=$(realpath "${1:?usage: kernel-cache.sh SOURCE_DIR BUILD_DIR}")
build=$(realpath "${2:?usage: kernel-cache.sh SOURCE_DIR BUILD_DIR}")
t=$(mktemp -d)
made=
cleanup() {
	[ -z "$made" ] || rm -rf "$made" "$made.lock"
	rm -rf "$t"
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
KERNELS=(rt dyn dyn-6.1 rt-7.3 dyn-7.3 rt-7.3-bh-lock)

# copy NAME: the parts of the checkout build-kernel.sh reads, in $t/NAME.
copy() {
	mkdir -p "$t/$1"
	cp -a "$src/scripts" "$src/kernel-series" "$src/include" "$t/$1/"
}
# dirs TOP: each kernel's build directory as TOP's scripts key it.
dirs() {
	local k
	for k in "${KERNELS[@]}"; do
		printf '%s %s\n' "$k" "$("$1/scripts/build-kernel.sh" --print-dir "$k" "$t/out")"
	done
}
# moved A B: the kernels whose build directory differs between A and B.
moved() {
	join <(sort "$1") <(sort "$2") | awk '$2 != $3 { print $1 }' | sort | paste -sd' '
}

copy same
dirs "$src" >"$t/dirs.orig"
dirs "$t/same" >"$t/dirs.same"
[ -z "$(moved "$t/dirs.orig" "$t/dirs.same")" ] ||
	fail "a copy of the checkout keys kernels anew: $(moved "$t/dirs.orig" "$t/dirs.same")"
# The build directories of this checkout are those it built with.
while read -r k d; do
	[ "$(dirname "$(readlink -f "$build/kernel-series/kernel-$k-identity")")" = "$d" ] ||
		fail "$k: $build/kernel-series links to $(readlink -f "$build/kernel-series/kernel-$k-identity"), not $d"
done <"$t/dirs.orig"

# check WHAT EXPECTED: after editing $t/edit, exactly EXPECTED moved.
check() {
	dirs "$t/edit" >"$t/dirs.edit"
	[ "$(moved "$t/dirs.orig" "$t/dirs.edit")" = "$2" ] ||
		fail "$1: moved '$(moved "$t/dirs.orig" "$t/dirs.edit")', expected '$2'"
	echo "ok: $1: $2 rebuilt, no other"
	rm -rf "$t/edit"
}
copy edit
echo 'CONFIG_HZ_1000=y' >>"$t/edit/kernel-series/config/rt-bh-lock.config"
check "a line of rt-bh-lock.config" "rt-7.3-bh-lock"
copy edit
echo 'CONFIG_HZ_1000=y' >>"$t/edit/kernel-series/config/rt.config"
check "a line of rt.config" "rt rt-7.3 rt-7.3-bh-lock"
copy edit
echo 'CONFIG_HZ_1000=y' >>"$t/edit/kernel-series/config/common.config"
check "a line of common.config" "dyn dyn-6.1 dyn-7.3 rt rt-7.3 rt-7.3-bh-lock"
copy edit
p=$(ls "$t/edit/kernel-series/patches-7.3/"*.patch | head -n 1)
printf '\n' >>"$p"
check "a patch of series-7.3" "dyn-7.3 rt-7.3 rt-7.3-bh-lock"

# What the rig says of a Debian source's kernels before building them
# (rig/core/scenario-names.c's DEBIAN_SOURCES: the dyn kernel's preempt
# modes, the IRQ threads' affinity) is what their identities say.
while read -r name suffix modes aff; do
	suffix=${suffix#=}
	id=$build/kernel-series/kernel-dyn$suffix-identity
	grep -qx "kernel-preempt-modes=$modes" "$id" ||
		fail "$name: the rig says dyn takes preempt=$modes; $(grep preempt-modes "$id")"
	for f in rt dyn; do
		id=$build/kernel-series/kernel-$f$suffix-identity
		[ -e "$id" ] || continue
		grep -qx "kernel-irq-thread-affinity=$aff" "$id" ||
			fail "$name: the rig says IRQ thread affinity $aff; $(grep thread-affinity "$id")"
	done
done < <(sed -n 's/^\tX("\(debian-[0-9.]*\)", "\([^"]*\)", [A-Z, ]*"\([a-z,]*\)", "\([a-z]*\)").*/\1 =\2 \3 \4/p' \
	"$src/rig/core/scenario-names.c")
[ "$(grep -cP '^\tX\("debian-' "$src/rig/core/scenario-names.c")" = 3 ] || fail "DEBIAN_SOURCES is not 3 rows"
echo "ok: what the rig says of Debian's kernels before building them is their identities'"

# For real, in a copy with one more line in rt-bh-lock.config.
copy real
echo 'CONFIG_HZ_1000=y' >>"$t/real/kernel-series/config/rt-bh-lock.config"
made=$("$t/real/scripts/build-kernel.sh" --print-dir rt-7.3-bh-lock "$t/out")
[ ! -e "$made" ] || fail "$made exists already"
"$t/real/scripts/build-kernel.sh" rt-7.3-bh-lock "$t/out" >"$t/log" 2>&1 ||
	{ cat "$t/log" >&2; fail "build-kernel.sh rt-7.3-bh-lock failed"; }
cat "$t/log"
grep -q "making the rt-7.3-bh-lock kernel from the rt-7.3 kernel's build" "$t/log" ||
	fail "rt-7.3-bh-lock was not made from rt-7.3's build"
[ "$(grep -c 'building the rt kernel in .* \.\.\.$' "$t/log")" = 1 ] ||
	fail "not exactly one kernel built: $(grep 'building the' "$t/log")"
# What the BH lock reaches (kernel/softirq.c) and the link, not a kernel.
files=$(sed -n 's/.*building the rt kernel in .*: done in .*, \([0-9]*\) files$/\1/p' "$t/log")
[ -n "$files" ] && [ "$files" -lt 100 ] ||
	fail "rt-7.3-bh-lock compiled ${files:-an unknown number of} files: not only what the option reaches"
for f in bzImage irqstorm; do
	ext=; [ "$f" = bzImage ] || ext=.ko
	cmp "$t/out/$f-rt-7.3-bh-lock$ext" "$build/kernel-series/$f-rt-7.3-bh-lock$ext" ||
		fail "$f of rt-7.3-bh-lock differs from the one built before"
done
for k in rt-7.3 dyn-7.3; do
	"$t/real/scripts/build-kernel.sh" "$k" "$t/out" >"$t/log" 2>&1 ||
		{ cat "$t/log" >&2; fail "build-kernel.sh $k failed"; }
	! grep -Eq 'configuring|building the' "$t/log" || fail "$k was built again: $(cat "$t/log")"
done
echo "ok: rt-7.3-bh-lock built again from rt-7.3's build, byte for byte the same; rt-7.3 and dyn-7.3 found built"
