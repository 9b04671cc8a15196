#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/build-guest.sh, with stand-ins for the three build scripts (nothing
# is compiled): QEMU and the kernels side by side, each flavour's kernel
# before its initramfs; a failure on one side stops the other at once, with
# everything under it (no process left behind); so does a signal.
#
#   tests/scripts/build-guest.sh SOURCE_DIR
set -euo pipefail
src=${1:?usage: build-guest.sh SOURCE_DIR}
t=$(mktemp -d)
tag=irqstorm-build-guest-test-$$
trap 'pkill -f "$tag" 2>/dev/null || true; rm -rf "$t"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$t/scripts" "$t/build/guest-init"
cp "$src/scripts/build-guest.sh" "$src/scripts/lib.sh" "$t/scripts/"
printf '#!/bin/sh\n' >"$t/build/guest-init/irqstorm-guest"
chmod +x "$t/build/guest-init/irqstorm-guest"

# fake NAME BODY: a stand-in that logs its name and arguments, then BODY.
fake() {
	printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n%s\n' "$1" "$t" "$2" >"$t/scripts/$1"
	chmod +x "$t/scripts/$1"
}
# A long build: a child that only the stand-in's process group holds.
long="sh -c 'sleep 61.$$; echo $tag' & wait"

# Success: every part, kernels in order, each before its initramfs.
fake build-qemu.sh 'sleep 1'
fake build-kernel.sh ''
fake build-initramfs.sh ''
out=$("$t/scripts/build-guest.sh" "$t/build" rt dyn 2>&1) || fail "success case: $out"
grep -q 'guest parts ready' <<<"$out" || fail "no closing line: $out"
! grep -q 'no such job' <<<"$out" || fail "waited for a side twice: $out"
k=$(grep -v build-qemu "$t/calls" | cut -d' ' -f1,2 | tr '\n' ' ')
[ "$k" = "build-kernel.sh rt build-initramfs.sh rt build-kernel.sh dyn build-initramfs.sh dyn " ] ||
	fail "kernel side order: $k"
grep -qx "build-qemu.sh $t/build/qemu-device" "$t/calls" || fail "QEMU's arguments: $(cat "$t/calls")"

# wait_gone PATTERN: no process matches within 10 s.
wait_gone() {
	for _ in $(seq 100); do
		pgrep -f "$1" >/dev/null || return 0
		sleep 0.1
	done
	fail "left behind: $(pgrep -af "$1")"
}

# QEMU fails while a kernel builds: the kernel's side is stopped.
rm -f "$t/calls"
fake build-qemu.sh 'sleep 1; exit 1'
fake build-kernel.sh "$long"
start=$SECONDS
if out=$("$t/scripts/build-guest.sh" "$t/build" rt 2>&1); then
	fail "a failed QEMU build passed: $out"
fi
[ $((SECONDS - start)) -lt 30 ] || fail "the kernel's side was waited for"
grep -q "QEMU's build failed" <<<"$out" || fail "no message: $out"
wait_gone "sleep 61.$$"

# A kernel fails while QEMU builds: QEMU's side is stopped.
fake build-qemu.sh "$long"
fake build-kernel.sh 'sleep 1; exit 2'
if out=$("$t/scripts/build-guest.sh" "$t/build" rt 2>&1); then
	fail "a failed kernel build passed: $out"
fi
grep -q "a kernel's build failed" <<<"$out" || fail "no message: $out"
grep -q "build-initramfs.sh" "$t/calls" && fail "initramfs built after a failed kernel"
wait_gone "sleep 61.$$"

# A signal (the rig's ^C, a matrix stopped): both sides stopped.
fake build-qemu.sh "$long"
fake build-kernel.sh "$long"
"$t/scripts/build-guest.sh" "$t/build" rt >/dev/null 2>&1 &
pid=$!
sleep 2
kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
[ "$rc" -ne 0 ] || fail "stopped, yet status 0"
wait_gone "sleep 61.$$"

# Not a build directory, or one without the rig: a message, not a trace.
out=$("$t/scripts/build-guest.sh" "$t/nonexistent" rt 2>&1) && fail "a missing dir passed"
grep -q "not a build directory" <<<"$out" || fail "message: $out"
echo "ok: build-guest.sh side by side, failures and signals stop everything"
