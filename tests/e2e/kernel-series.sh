#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot tests of kernel-series/ on the dyn kernel (of the source the run
# options name, e.g. --set kernel.source=debian-7.3):
#  - irqthread.prio= takes effect before the first interrupt: the first
#    event the thread handled already ran at the configured priority (no
#    chrt from user space here), and /proc/irq/N/threads shows it;
#  - the parser: names with ':' and glob wildcards, names that begin with
#    a digit, interrupt numbers, the three policies; bad entries ("-5", numbers that overflow, unknown
#    policies, priorities out of range or missing) are each reported,
#    naming them, and the default FIFO 50 stands;
#  - threadirqs=single: a force-threaded primary handler has no irq/N-*
#    thread, irqd runs it; the thread function of a threaded handler keeps
#    its own thread, a secondary one where the primary is force threaded
#    (and its irqthread.prio= rule, with a warning that irqd takes none);
#    every interrupt handled exactly once (the run's cross-checks), and
#    free_irq() in the middle of the storm returns.
#
#   kernel-series.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
run() {	# run NAME CMDLINE [options]: complete and consistent
	dyn_run "$@"
	jq -e '.complete and (.failed_checks | length) == 0' "$out/$1/summary.json" >/dev/null ||
		fail "$1: not complete and consistent"
}
console() { tr -d '\r' <"$out/$1/console.log"; }	# the serial console ends lines with CR LF
# has NAME TEXT: the console of run NAME has the line TEXT (an ERE); grep
# reads it all (with -q it would stop early, and pipefail see tr killed).
has() { console "$1" | grep -E "$2" >/dev/null || fail "$1: no line like '$2'"; }
# first NAME CHANNEL: policy:priority of its thread at its first event.
first() { g "$1" first_sched | cut -d, -f$(($2 + 1)); }

run prio "threadirqs irqthread.prio=irqstorm0:fifo:73" "${extra[@]}"
[ "$(first prio 0)" = "1:73" ] || fail "prio: first event ran at $(first prio 0), not FIFO 73"
has prio '^init: irq [0-9]+ thread: thread [0-9]+ fifo 73 irqstorm0$'

# Every bad entry in one boot line, each reported; the default stands.
bad="irqstorm0:fifo:999,-5:fifo:60,99999999999:fifo:61,irqstorm0:batch:1,irqstorm0:fifo:"
bad+=",irqstorm0:rr:99999999999,irqstorm0:fifo"
run bad "threadirqs irqthread.prio=$bad" "${extra[@]}"
for why in "irqstorm0:fifo:999': priority out of range" "-5:fifo:60': bad interrupt number" \
	"99999999999:fifo:61': bad interrupt number" "irqstorm0:batch:1': policy must be fifo, rr or other" \
	"irqstorm0:fifo:': priority is not a number" "irqstorm0:rr:99999999999': priority out of range" \
	"irqstorm0:fifo': expected <irq or name>:<policy>:<priority>"; do
	console bad | grep -F "irqthread.prio: ignoring '$why" >/dev/null || fail "bad: not reported: '$why"
done
[ "$(first bad 0)" = "1:50" ] || fail "bad: $(first bad 0), not the default FIFO 50"

# A name with ':' (the driver's name_suffix, from the boot line), matched
# by a glob, and the rr policy; then the interrupt by number, other.
run colon "threadirqs irqthread.prio=irqstorm?:card0:rr:61 irqstorm.name_suffix=:card0" "${extra[@]}"
[ "$(first colon 0)" = "2:61" ] || fail "colon: first event ran at $(first colon 0), not RR 61"
has colon '^init: irq [0-9]+ thread: thread [0-9]+ rr 61 irqstorm0:card0$'
irq=$(g prio irq | cut -d, -f1)
# Names that begin with a digit (a PCI device's, an I2C client's) are names,
# not bad interrupt numbers: nothing reported.
run number "threadirqs irqthread.prio=0000:00:15.0:fifo:60,1-0038:fifo:61,irqstorm0:fifo:70,$irq:other:0" \
	"${extra[@]}"
[ "$(first number 0)" = "1:70" ] || fail "number: the first matching entry did not win"
console number | grep -F "irqthread.prio: ignoring" >/dev/null &&
	fail "number: a name that begins with a digit was refused: $(console number | grep -F 'irqthread.prio: ignoring')"
run other "threadirqs irqthread.prio=$irq:other:0,irqstorm0:fifo:70" "${extra[@]}"
[ "$(first other 0)" = "0:0" ] || fail "other: irq $irq:other:0 gave $(first other 0)"

# threadirqs=single, MSI-X: channel 0 force threaded, channel 1 threaded
# without IRQF_ONESHOT, so its primary handler is force threaded too: both
# primaries in irqd, channel 1's thread function in its own secondary
# thread, with its rule. free_irq() mid-storm returns. (The threads are
# gone by the end, freed: /proc/irq/N/threads, read at the start, shows
# them.) The frees are on init's way to its stop of the storm, which they
# delay past the default grace (by 32 ms here): a grace of 1 s keeps that
# from reading as a livelock.
run single "threadirqs=single irqthread.prio=irqstorm1:fifo:70" --set guest.free_irq=true \
	--set run.grace=1 \
	--set guest.irq_mode=msix --set channel0.threading=forced --set channel1.pattern=periodic \
	--set channel1.threading=threaded "${extra[@]}"
has single 'threadirqs=single: force-threaded handlers run in one irqd thread per CPU'
has single 'threadirqs=single: irqthread.prio= does not apply to force-threaded handlers'
has single '^init: irq [0-9]+ thread: irqd - - - irqstorm0$'
has single '^init: irq [0-9]+ thread: irqd - - - irqstorm1$'
has single '^init: irq [0-9]+ thread: secondary [0-9]+ fifo 70 irqstorm1$'
[ "$(first single 1)" = "1:70" ] || fail "single: channel 1 ran at $(first single 1), not FIFO 70"
[ "$(g single freed)" = yes ] || fail "single: free_irq() during the storm did not return"
[ "$(jq '.channels["0"].device.handled' "$out/single/summary.json")" -gt 0 ] &&
	[ "$(jq '.channels["1"].device.handled' "$out/single/summary.json")" -gt 0 ] ||
	fail "single: a channel was not handled"
# A requested threaded handler (INTx, IRQF_ONESHOT) keeps its own thread.
run single-intx "threadirqs=single" "${extra[@]}"
has single-intx '^init: irq [0-9]+ thread: thread [0-9]+ fifo 50 irqstorm0$'
[ "$(g single-intx irq_threads)" -eq 1 ] || fail "single-intx: $(g single-intx irq_threads) IRQ threads, not 1"
echo "ok: boot-line priorities before the first interrupt, the parser's cases, threadirqs=single"
