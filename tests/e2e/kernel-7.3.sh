#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Linux 7.3 ([kernel] source = debian-7.3), what changed since 6.12:
#   - preempt=voluntary (gone on x86 with PREEMPT_LAZY) is refused before
#     booting, naming the modes the kernel has; so is any preempt= on rt
#     (no PREEMPT_DYNAMIC); nothing is booted or written but the refusal;
#   - preempt=lazy boots, and the kernel says it runs it;
#   - under PREEMPT_RT a threaded MSI handler (its primary force-threaded,
#     no IRQF_ONESHOT) has its secondary thread at SCHED_FIFO 49, one below
#     its primary's 50, as /proc/irq/N/threads (kernel-series 0002) shows:
#     7.3's sched_set_fifo_secondary(), kept by the ported series;
#   - a thread_cpu is refused before booting (7.3's IRQ threads are bound,
#     PF_NO_SETAFFINITY, and follow their interrupt), naming irq_cpu;
#   - PREEMPT_RT's per-CPU BH lock, off by default on 7.3 and on with
#     [kernel] bh_lock = on (rt-7.3-bh-lock): each kernel's identity says
#     which, and bh-lock.ini's bh-off profile shows it: with the lock, the
#     critical channel's forced thread waits for the other thread's 600 us
#     BH-disabled section (its thread stage's max past 150 us); without,
#     it does not (under 100 us).
#
#   kernel-7.3.sh IRQSTORM SCENARIO BH-LOCK-SCENARIO (scenarios/bh-lock.ini)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
src=(--set kernel.source=debian-7.3)

status=0
"$irqstorm" run "$scenario" --out "$out/vol" "${src[@]}" --set kernel.flavour=dyn \
	--set kernel.cmdline=preempt=voluntary >"$out/msg" 2>&1 || status=$?
[ "$status" = 1 ] || fail "preempt=voluntary on 7.3: exit $status, not 1: $(cat "$out/msg")"
grep -q "cmdline has preempt=voluntary, but the dyn kernel (linux-source-7.3 .*) takes only preempt=full,lazy" \
	"$out/msg" || fail "preempt=voluntary on 7.3: $(cat "$out/msg")"
[ ! -e "$out/vol/console.log" ] || fail "preempt=voluntary on 7.3 booted"
status=0
"$irqstorm" run "$scenario" --out "$out/rtp" "${src[@]}" \
	--set kernel.cmdline=preempt=full >"$out/msg" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "has no dynamic preemption" "$out/msg" ||
	fail "preempt=full on rt 7.3: exit $status: $(cat "$out/msg")"

"$irqstorm" run "$scenario" --out "$out/lazy" --quiet "${src[@]}" --set kernel.flavour=dyn \
	--set kernel.cmdline=preempt=lazy || fail "preempt=lazy on 7.3 failed"
grep -q "Dynamic Preempt: lazy" "$out/lazy/console.log" ||
	fail "preempt=lazy: the kernel does not say it runs lazy: $(grep -i preempt "$out/lazy/console.log")"

"$irqstorm" run "$scenario" --out "$out/sec" --quiet "${src[@]}" --set guest.irq_mode=msi \
	--set channel0.threading=threaded || fail "threaded MSI on rt 7.3 failed"
tr -d '\r' <"$out/sec/console.log" >"$out/sec/console.txt"	# the serial line's CRLF
grep -Eq '^init: irq [0-9]+ thread: thread [0-9]+ fifo 50 irqstorm0$' "$out/sec/console.txt" &&
	grep -Eq '^init: irq [0-9]+ thread: secondary [0-9]+ fifo 49 irqstorm0$' "$out/sec/console.txt" ||
	fail "rt 7.3, threaded MSI: not primary 50 and secondary 49: $(grep 'thread:' "$out/sec/console.log")"
status=0
"$irqstorm" run "$scenario" --out "$out/cpu" "${src[@]}" --set channel0.thread_cpu=0 \
	>"$out/msg" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "binds IRQ threads to their interrupt's affinity (PF_NO_SETAFFINITY).*\[guest\] irq_cpu" \
	"$out/msg" || fail "thread_cpu on 7.3: exit $status: $(cat "$out/msg")"
[ ! -e "$out/cpu/console.log" ] || fail "thread_cpu on 7.3 booted"

bh_lock_scenario=${extra[0]:?usage: kernel-7.3.sh IRQSTORM SCENARIO BH-LOCK-SCENARIO}
# bh NAME LOCK: bh-lock.ini's bh-off profile on rt-7.3 with [kernel] bh_lock
bh() {
	"$irqstorm" run "$bh_lock_scenario" --out "$out/$1" --quiet --no-csv "${src[@]}" \
		--set run.profile=bh-off --set "kernel.bh_lock=$2" --duration 0.5 ||
		fail "bh-lock bh-off, bh_lock=$2 on 7.3 failed"
}
bh lock-off default
bh lock-on on
[ "$(jq -r '.kernel["kernel-rt-bh-lock"]' "$out/lock-off/summary.json")" = off ] &&
	[ "$(jq -r '.kernel["kernel-rt-bh-lock"]' "$out/lock-on/summary.json")" = on ] ||
	fail "kernel-rt-bh-lock: $(jq -c '.kernel["kernel-rt-bh-lock"]' "$out"/lock-*/summary.json)"
off=$(jq '.channels["0"].stages.thread.max' "$out/lock-off/summary.json")
on=$(jq '.channels["0"].stages.thread.max' "$out/lock-on/summary.json")
echo "channel 0 thread max: BH lock off $off ns, on $on ns"
[ "$on" -gt 150000 ] && [ "$off" -lt 100000 ] ||
	fail "the BH lock does not show: channel 0's thread max $off ns without, $on ns with"
echo "PASS: 7.3: voluntary refused, lazy runs, the secondary at FIFO 49, thread_cpu refused, the BH lock a choice"
