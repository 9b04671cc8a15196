#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/build-guest.sh, with stand-ins for the three build scripts (nothing
# is compiled): QEMU and the kernels two at a time (one after another beside
# QEMU, then two at once; IRQSTORM_BUILD_LANES=1 one at a time), each
# flavour's kernel before its initramfs; a failure on one side stops the other at once, with
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

# Two lanes: while QEMU builds, the kernels build one after another beside
# it; once QEMU is done, two kernels build at once. (Stand-ins log their
# start and end.)
rm -f "$t/calls"
fake build-qemu.sh 'sleep 3'
fake build-kernel.sh 'echo "start $1" >>"'"$t"'/times"; sleep 1; echo "end $1" >>"'"$t"'/times"'
out=$("$t/scripts/build-guest.sh" "$t/build" rt dyn dyn-6.1 2>&1) || fail "three kernels: $out"
[ "$(grep -c ^end "$t/times")" = 3 ] || fail "not every kernel built: $(cat "$t/times")"
grep -q 'build-initramfs.sh dyn-6.1' "$t/calls" || fail "no initramfs for dyn-6.1: $(cat "$t/calls")"
rm -f "$t/calls" "$t/times"
fake build-qemu.sh ''
fake build-kernel.sh 'echo "start $1" >>"'"$t"'/times"; sleep 2; echo "end $1" >>"'"$t"'/times"'
out=$("$t/scripts/build-guest.sh" "$t/build" rt dyn 2>&1) || fail "two kernels: $out"
[ "$(head -n 2 "$t/times" | cut -d' ' -f1 | paste -sd' ')" = "start start" ] ||
	fail "the two kernels did not build side by side: $(cat "$t/times")"
out=$(IRQSTORM_BUILD_LANES=1 "$t/scripts/build-guest.sh" "$t/build" rt dyn 2>&1) ||
	fail "one lane: $out"
rm -f "$t/times"
IRQSTORM_BUILD_LANES=1 "$t/scripts/build-guest.sh" "$t/build" rt dyn >/dev/null 2>&1
[ "$(cut -d' ' -f1 "$t/times" | paste -sd' ')" = "start end start end" ] ||
	fail "IRQSTORM_BUILD_LANES=1 built two at once: $(cat "$t/times")"
fake build-kernel.sh ''

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
echo "ok: build-guest.sh two at a time, failures and signals stop everything"
