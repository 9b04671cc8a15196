#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The 2004 cases' outcomes, on short runs of the shipped scenarios
# (docs/results.md has the full runs). Margins are from measured runs:
# each inequality held there with a wide margin (factors in the comments).
#
#   cases.sh IRQSTORM SCENARIO-DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"	# the "scenario" argument is the scenario directory here
dir=$scenario

# run NAME SCENARIO PROFILE EXPECTED-STATUS [options]: summary.json path
run() {
	local name=$1 sc=$2 profile=$3 want=$4 status=0
	shift 4
	"$irqstorm" run "$dir/$sc.ini" --out "$out/$name" --quiet --set "run.profile=$profile" \
		"$@" >&2 || status=$?
	[ "$status" -eq "$want" ] || {
		cat "$out/$name/INCOMPLETE" >&2 2>/dev/null || true
		fail "$name: exit status $status, expected $want"
	}
	[ ! -f "$out/$name/INCOMPLETE" ] || [ "$want" -eq 1 ] || fail "$name: incomplete"
	echo "$out/$name/summary.json"
}
get() { jq -r "$1" "$2"; }
lost0() { [ "$(get '.counts.host.lost' "$1")" -eq 0 ] || fail "$1: records lost"; }
# lt A B FACTOR WHAT: A < B * FACTOR
lt() { awk -v a="$1" -v b="$2" -v f="$3" 'BEGIN { exit !(a < b * f) }' || fail "$4: $1 is not < $2 x $3"; }

# ide-pio: the probe's worst case with the handler in hard-irq context is the
# handler's length; threaded below the probe it is not (measured x0.07);
# cond_resched() every 256 words on a voluntary kernel cuts it (x0.21).
hard=$(run ide-hard ide-pio hardirq-voluntary 0 --duration 0.5)
rt=$(run ide-rt ide-pio threaded-rt 0 --duration 0.5)
vol=$(run ide-vol ide-pio threaded-voluntary 0 --duration 0.5)
res=$(run ide-res ide-pio resched-voluntary 0 --duration 0.5)
for s in "$hard" "$rt" "$vol" "$res"; do lost0 "$s"; done
lt "$(get .stages.probe.max "$rt")" "$(get .stages.probe.max "$hard")" 0.5 "ide-pio probe max, threaded-rt vs hardirq"
lt "$(get .stages.probe.max "$res")" "$(get .stages.probe.max "$vol")" 0.5 "ide-pio probe max, resched vs not"
lt "$(get .stages.handler.max "$hard")" "$(get .stages.probe.p99 "$hard")" 1.1 "ide-pio: hardirq probe p99 near the handler length"

# nobody-cared: the kernel disables the line; reported as a stall.
nc=$(run nobody nobody-cared hardirq 3 --duration 1)
get '.kernel_events | join("\n")' "$nc" | grep -q 'nobody cared' || fail "nobody-cared: not in the kernel log"
get '.stalls[0]' "$nc" | grep -q 'Disabling IRQ' || fail "nobody-cared: no stall reported"
[ "$(get '.counts.device.handled' "$nc")" -eq 0 ] || fail "nobody-cared: something was handled"
# The kernel's verdict: the same report, not expected, fails the run by
# its kind (exit status 5), its trace named from System.map; a kind
# expected that the kernel does not report fails it too.
[ "$(get '.kernel_reports[0].expected' "$nc")" = true ] || fail "nobody-cared: not marked expected"
unexp=$(run nobody-unexpected nobody-cared hardirq 5 --duration 1 --set run.kernel_expect=)
get '.kernel_failures[0]' "$unexp" | grep -q '^nobody-cared: irq [0-9]*: nobody cared' ||
	fail "nobody-cared not expected: the kernel's report does not fail the run by name"
get '.kernel_reports[0].trace | join(" ")' "$unexp" | grep -q 'note_interrupt+0x' ||
	fail "nobody-cared: its call trace is not named from System.map"

# shared-line: hard + threaded on one line is refused, threaded + threaded works.
ref=$(run refused shared-line hardirq+threaded 1 --duration 0.3)
grep -q 'Flags mismatch' "$out/refused/INCOMPLETE" || fail "shared-line: refusal not quoted"
both=$(run shared shared-line threaded+threaded 0 --duration 0.3)
lost0 "$both"
[ "$(get '.channels["0"].device.handled' "$both")" -gt 0 ] &&
	[ "$(get '.channels["1"].device.handled' "$both")" -gt 0 ] || fail "shared-line: a channel not serviced"
missing=$(run missing shared-line threaded+threaded 5 --duration 0.3 --set run.kernel_expect=lockdep)
get '.kernel_failures[0]' "$missing" | grep -q '^lockdep: expected' ||
	fail "an expected kernel report the kernel did not print does not fail the run"

# priority: channel 0's thread above channel 1's long handler is not delayed
# by it (measured x0.08); below it, it is.
high=$(run prio-high priority critical-high 0 --duration 0.5)
low=$(run prio-low priority critical-low 0 --duration 0.5)
lost0 "$high"
lost0 "$low"
lt "$(get '.channels["0"].stages.thread.max' "$high")" "$(get '.channels["0"].stages.thread.max' "$low")" 0.5 \
	"priority: channel 0's thread max, high vs low"

# msi-vs-intx at 20 kHz: the masked level line coalesces, MSI queues, and
# its IRQ thread starves the guest's init, which cannot stop the storm: the
# device ends it at its bound and the run reports the livelock (exit 3).
intx=$(run intx msi-vs-intx intx 0 --duration 0.3)
msi=$(run msi msi-vs-intx msi 3 --duration 0.3)
[ "$(get .storm.ended_by "$msi")" = device ] || fail "msi-vs-intx: MSI storm not ended by the device"
get '.stalls[0]' "$msi" | grep -q '^livelock:' || fail "msi-vs-intx: no livelock reported"
[ "$(get .counts.device.coalesced "$intx")" -gt 0 ] || fail "msi-vs-intx: INTx did not coalesce"
[ "$(get .counts.device.coalesced "$msi")" -eq 0 ] || fail "msi-vs-intx: MSI coalesced"
[ "$(get .counts.device.overlapped "$msi")" -gt 0 ] || fail "msi-vs-intx: MSI events did not queue"
lost0 "$intx"
lost0 "$msi"
# Bottom halves, on the shipped scenarios' full runs (2 s each: a burst
# every 20 ms, so a short run may miss the probe's worst phase).
probe() { get ".stages.probe.$1" "$2"; }
ch0() { get ".channels[\"0\"].stages.$1" "$2"; }

# softirq-exit: on dyn the tasklet runs on interrupt exit, on top of the
# probe, which waits for whole runs: more than one (measured 1.67 and 4.80
# handler lengths, full and none); for several where the storm meets the
# probe in the kernel, the tasklet on its own stack (4.80, none), until
# the deferred work runs out or handle_softirqs()'s limits hand it to
# ksoftirqd: 10 passes or 2 ms (2 jiffies at HZ=1000), whichever is first
# (measured 865 and 311 us < 2000 + one run). Which profile meets that
# phase moves with the kernel's code (1559 and 1892 us, both, before the
# driver's drain of 2026-12-06). On RT it runs in the IRQ thread below the
# probe (x0.036 and x0.10 of dyn's).
se_none=$(run se-none softirq-exit none 0)
se_full=$(run se-full softirq-exit full 0)
se_rt=$(run se-rt softirq-exit rt 0)
for s in "$se_none" "$se_full" "$se_rt"; do
	lost0 "$s"
	[ "$(get '.counts.guest.softirqs.TASKLET[0]' "$s")" -gt 0 ] || fail "softirq-exit: no TASKLET softirq counted"
done
for s in "$se_none" "$se_full"; do
	lt "$(get .stages.handler.max "$s")" "$(probe max "$s")" 0.9 "softirq-exit: dyn probe max over one tasklet run"
	lt "$(probe max "$s")" "$((2000000 + $(get .stages.handler.max "$s")))" 1.1 \
		"softirq-exit: dyn probe max within 2 ms and one run"
	lt "$(probe max "$se_rt")" "$(probe max "$s")" 0.15 "softirq-exit: rt probe max against dyn"
	[ "$(get '.counts.guest.ksoftirqd[0]' "$s")" -gt 0 ] || fail "softirq-exit: ksoftirqd never ran on dyn"
done
several=$(awk -v a="$(probe max "$se_none")" -v b="$(probe max "$se_full")" 'BEGIN { print (a > b ? a : b) }')
lt "$(get .stages.handler.max "$se_none")" "$several" 0.33 "softirq-exit: dyn probe max over 3 tasklet runs in one profile"

# bh-lock (rt): channel 0's thread waits for channel 1's bottom half, and
# for its BH-disabled section, on the per-CPU BH lock (p99 191 and 194 us),
# for the rest of it, not longer (max 212 and 215.3 < 600 us); as plain
# threads, channel 0 preempts channel 1 (p99 40.1 us: x0.21).
bl_t=$(run bl-tasklets bh-lock tasklets 0)
bl_th=$(run bl-threads bh-lock threads 0)
bl_off=$(run bl-bh-off bh-lock bh-off 0)
for s in "$bl_t" "$bl_th" "$bl_off"; do lost0 "$s"; done
for s in "$bl_t" "$bl_off"; do
	lt "$(ch0 thread.p99 "$bl_th")" "$(ch0 thread.p99 "$s")" 0.5 "bh-lock: channel 0's thread p99, threads vs BH lock"
	lt "$(ch0 thread.max "$s")" 600000 1 "bh-lock: channel 0 waits longer than channel 1's section"
done
[ "$(ch0 bh.cycles "$bl_th")" -eq 0 ] || fail "bh-lock: a bh stage without bottom halves"
[ "$(ch0 bh.cycles "$bl_t")" -eq "$(ch0 done.cycles "$bl_t")" ] || fail "bh-lock: a deferred event without its bh stage"

# workqueue: a kworker is a task the probe preempts (p99 x0.10 of the
# tasklet's); a BH workqueue's bh_worker() runs up to 10 items or 2 ms per
# softirq pass without looking at need_resched() (probe p99 x1.8 of the
# tasklet's, ksoftirqd switched in 7 times against 51); on RT both run in the IRQ
# thread below the probe (x0.08).
wq_t=$(run wq-tasklet workqueue tasklet-full 0)
wq_b=$(run wq-bh workqueue bh-full 0)
wq_k=$(run wq-kworker workqueue kworker-full 0)
wq_rt=$(run wq-tasklet-rt workqueue tasklet-rt 0)
for s in "$wq_t" "$wq_b" "$wq_k" "$wq_rt"; do lost0 "$s"; done
lt "$(probe p99 "$wq_k")" "$(probe p99 "$wq_t")" 0.25 "workqueue: kworker probe p99 against the tasklet's"
lt "$(probe p99 "$wq_rt")" "$(probe p99 "$wq_t")" 0.25 "workqueue: rt tasklet probe p99 against dyn's"
lt "$(probe p99 "$wq_t")" "$(probe p99 "$wq_b")" 0.77 "workqueue: BH workqueue probe p99 over the tasklet's"
lt "$(get '.counts.guest.ksoftirqd[0]' "$wq_b")" "$(get '.counts.guest.ksoftirqd[0]' "$wq_t")" 0.5 \
	"workqueue: ksoftirqd woken less with the BH workqueue"
echo "ok: ide-pio, nobody-cared, shared-line, priority, msi-vs-intx, softirq-exit, bh-lock, workqueue"
