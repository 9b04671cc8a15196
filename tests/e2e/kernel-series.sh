#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot tests of kernel-series/ on the dyn kernel:
#  - irqthread.prio= takes effect before the first interrupt: the first
#    event the thread handled already ran at the configured priority (no
#    chrt from user space here), and /proc/irq/N/threads shows it;
#  - a bad entry is reported, naming it, and the default FIFO 50 stands;
#  - threadirqs=single: no irq/N-* thread for the storm's channels, irqd
#    runs the handlers, every interrupt handled exactly once (the run's
#    cross-checks), and free_irq() in the middle of the storm returns.
#
#   kernel-series.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
run() {	# run NAME CMDLINE [options]
	local name=$1 cmdline=$2
	shift 2
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet "$@" --set kernel.flavour=dyn \
		--set "kernel.cmdline=preempt=full $cmdline" ||
		{ cat "$out/$name/INCOMPLETE" >&2 2>/dev/null || true; fail "$name: exit $?"; }
	jq -e '.complete and (.failed_checks | length) == 0' "$out/$name/summary.json" >/dev/null ||
		fail "$name: not complete and consistent"
}
# A guest value; a per-channel one (a list) as v0,v1,...
g() { jq -r ".counts.guest.$2 | if type == \"array\" then map(tostring) | join(\",\") else . end" "$out/$1/summary.json"; }
console() { tr -d '\r' <"$out/$1/console.log"; }	# the serial console ends lines with CR LF

run prio "threadirqs irqthread.prio=irqstorm0:fifo:73" "${extra[@]}"
[ "$(g prio 'first_sched' | cut -d, -f1)" = "1:73" ] ||
	fail "prio: first event ran at $(g prio first_sched), not FIFO 73"
console prio | grep -qE '^init: irq [0-9]+ thread: irqstorm0 [0-9]+ fifo 73$' ||
	fail "prio: /proc/irq/N/threads does not show fifo 73"

run bad "threadirqs irqthread.prio=irqstorm0:fifo:999" "${extra[@]}"
console bad | grep -q "irqthread.prio: ignoring 'irqstorm0:fifo:999': priority out of range" ||
	fail "bad: the bad entry was not reported"
[ "$(g bad 'first_sched' | cut -d, -f1)" = "1:50" ] || fail "bad: not the default FIFO 50"

run single "threadirqs=single" --set guest.free_irq=true "${extra[@]}"
console single | grep -q 'threadirqs=single: threaded handlers run in one irqd thread per CPU' ||
	fail "single: irqd not announced"
console single | grep -qE '^init: irq [0-9]+ thread: irqstorm0 irqd$' ||
	fail "single: /proc/irq/N/threads does not show irqd"
[ "$(g single irq_threads)" -eq 0 ] || fail "single: irq/N-irqstorm threads exist"
[ "$(g single freed)" = yes ] || fail "single: free_irq() during the storm did not return"
[ "$(jq '.counts.device.handled' "$out/single/summary.json")" -gt 0 ] || fail "single: nothing handled"
echo "ok: boot-line priority before the first interrupt, bad entry reported, threadirqs=single"
