#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# QEMU style: QEMU's own scripts/checkpatch.pl must report 0 errors and
# 0 warnings on every fix in qemu-device/patches/, on the device's sources
# and on its qtest. (The ABI header is shared with the kernel driver and
# follows the kernel's style: tests/kernel/checkpatch.sh judges it there.)
#
#   checkpatch.sh QEMU-SOURCE-DIR REPO-TOP
set -euo pipefail
src=$(cd "$1" && pwd)
top=$(cd "$2" && pwd)
. "$top/scripts/lib.sh"
cp=$src/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "no $cp" >&2; exit 1; }
fail=0

# check WHAT checkpatch-args...: print the verdict, remember a failure.
check() {
	local what=$1 out
	shift
	echo "# checkpatch: $what"
	out=$(perl "$cp" --no-color "$@" 2>&1) || true
	printf '%s\n' "$out"
	grep -q '^total: 0 errors, 0 warnings,' <<<"$out" || fail=1
}

# Paths relative to the top: checkpatch applies QEMU's rules for tests/
# (g_assert_cmp* allowed) by the path it is given.
cd "$top"
read_series qemu-device/patches/series qemu-device/patches
for p in "${SERIES_PATCHES[@]}"; do
	check "$p" "$p"
done
for f in qemu-device/*.c qemu-device/plugin/*.c tests/qtest/irqstorm-qtest.c; do
	check "$f" -f "$f"
done
exit "$fail"
