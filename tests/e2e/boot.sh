#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# End to end: boot the real guest kernel in QEMU (TCG, icount, one vCPU)
# through `irqstorm run`, then check the three witnesses agree exactly:
# the guest's handled count, the device's counters, the records the host
# read from shared memory; nothing lost; the storm as long as asked; and
# whether channel 0 has an IRQ thread, at the priority asked for.
#
# Where channel 0's work is deferred (work_context), every event has its
# bh stage, and where it is not, none has.
#
#   boot.sh IRQSTORM SCENARIO THREAD [--set k=v ...]
#     THREAD: "none", or the SCHED_FIFO priority channel 0's IRQ thread
#     must have (the run sets it with channel0.thread_prio).
set -euo pipefail

irqstorm=$1
scenario=$2
thread=$3
shift 3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

fail() {
	echo "FAIL: $*" >&2
	for f in INCOMPLETE summary.json; do
		[ -f "$out/run/$f" ] && { echo "--- $f"; cat "$out/run/$f"; } >&2
	done
	[ -f "$out/run/console.log" ] && { echo "--- console.log (tail)"; tail -n 30 "$out/run/console.log"; } >&2
	exit 1
}

prio=()
[ "$thread" = none ] || prio=(--set "channel0.thread_prio=$thread")
"$irqstorm" run "$scenario" --out "$out/run" "${prio[@]}" "$@" ||
	fail "irqstorm run exited with $?"
[ ! -e "$out/run/INCOMPLETE" ] || fail "result directory marked INCOMPLETE"
s=$out/run/summary.json
q() { jq -e "$1" "$s" >/dev/null || fail "summary.json: $1 ($(jq -c "$2" "$s"))"; }

q '.complete == true and .return_code == 0 and (.failed_checks | length) == 0' '.failed_checks'
q '.counts.guest.status == "ok"' '.counts.guest'
# The storm ran at least rate x duration: absolute deadlines, no drift.
period=$(sed -n 's/.*ch0-period-ns=\([0-9]*\).*/\1/p' "$out/run/qemu-cmdline.txt")
secs=$(jq -r '.scenario' "$s" | sed -n 's/^duration = //p')
expect=$(awk -v s="$secs" -v p="$period" 'BEGIN { printf "%d", s * 1e9 / p }')
q ".channels[\"0\"].device.raised >= $expect and .channels[\"0\"].device.raised <= $expect * 1.05 + 20" '.channels["0"].device'
q '.counts.device.raised == .counts.device.handled + .counts.device.coalesced' '.counts.device'
q '.counts.device.incomplete == 0 and .counts.device.in_flight == 0' '.counts.device'
q '(.counts.guest.handled | add) == .counts.device.handled' '[.counts.guest.handled, .counts.device.handled]'
q '.counts.host.all_records == .counts.device.published' '[.counts.host.all_records, .counts.device.published]'
q '.counts.host.done_records == .counts.device.handled' '[.counts.host.done_records, .counts.device.handled]'
q '.counts.host.lost == 0 and .counts.device.lost == 0' '[.counts.host.lost, .counts.device.lost]'
# Every handled event is in the stages, or in the warm-up or stop tail,
# which the measurement window leaves out and counts (docs/scenarios.md).
all='def all(st): .stages[st].cycles + .window.warmup.cycles[st] + .window.tail.cycles[st];'
q "$all all(\"done\") == .counts.device.handled" '[.stages.done.cycles, .window]'
q '.window.tail.records < .counts.device.handled / 10' '.window'
q '.stages.done.min > 0' '.stages.done'
# An IRQ thread exactly where one is expected, with the policy (1: FIFO)
# and priority asked for.
if [ "$thread" = none ]; then
	q '.counts.guest.thread_pid[0] == 0' '.counts.guest'
else
	q ".counts.guest.thread_pid[0] > 0 and (.counts.guest.thread_sched | split(\",\") | .[0]) == \"1:$thread\"" '.counts.guest'
fi
# The bh stage exactly where the work is deferred: every event, else none.
if [ "$(jq -r '.channels["0"].work_context' "$s")" = handler ]; then
	q '.stages.bh.cycles == 0' '.stages.bh'
else
	q "$all all(\"bh\") == .counts.device.handled and .stages.bh.min > 0" '.stages.bh'
	q "$all all(\"handler\") == .counts.device.handled" '.stages.handler'
fi
# The histfile's done column adds up to the same count (plus overflows).
total=$(awk '/^# Stages:/ { for (i = 3; i <= NF; i++) if ($i == "done") k = i - 1 }
	!/^#/ && k { t += $k } END { print t + 0 }' "$out/run/histogram.txt")
over=$(jq '.stages.done.overflows' "$s")
[ "$((total + over))" -eq "$(jq '.stages.done.cycles' "$s")" ] ||
	fail "histogram.txt done column sums to $total + $over overflows"
[ "$(($(wc -l <"$out/run/records.csv") - 1))" -eq "$(jq '.counts.host.all_records' "$s")" ] ||
	fail "records.csv line count differs from records read"
echo "ok: $(jq -c '[.counts.device.raised, .counts.device.handled, .counts.host.all_records, .stages.done.max]' "$s") (raised, handled, read, max done ns)"
