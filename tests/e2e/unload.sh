#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The driver removed (rmmod) at the end of a storm past the guest's
# saturation, on two vCPUs without icount, in every deferred context: the
# removal itself stops the storm, drains each bottom half that queues itself
# again while events wait (on SMP a tasklet_kill() can drop such a
# reschedule), frees the IRQs and leaves nothing queued in a module that is
# gone (the guest waits 200 ms after rmmod for it to show). Each run must:
#   - report unloaded=yes, complete with every cross-check passing
#     (nothing lost: every raised event handled, merged, dropped or in
#     flight; the records' done stamps the device's handled count);
#   - leave no kernel warning, bug, oops, lockup or stall in the guest's log;
#   - end with exit status 0, or 3 when the device had to end a storm the
#     starved guest could not stop (a livelock, reported as such).
# rt (the bottom half queued from the IRQ thread) and dyn (from the hard
# interrupt handler), INTx and MSI alternately; run options (e.g. --set
# kernel.source=debian-7.3) pick the kernels' source. A grace of 10 s: the
# starved init reads the driver's results before its rmmod, which with the
# default grace came after the device had ended the storm itself (a
# livelock, exit 3), its bottom halves long drained. So the removal meets
# the storm: the driver before this test's fix oopsed here (rt, MSI, both
# workqueue contexts: "BUG: unable to handle page fault" after rmmod).
#
#   unload.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

# run NAME FLAVOUR THREADING CONTEXT IRQ_MODE
run() {
	local name=$1 status=0 s=$out/$1/summary.json
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet --no-csv "${extra[@]}" \
		--set "kernel.flavour=$2" --set machine.cpus=2 --set machine.icount=off \
		--set channel0.rate=200000 --set channel0.work=pio --set channel0.pio_words=64 \
		--set "channel0.threading=$3" --set "channel0.work_context=$4" \
		--set "guest.irq_mode=$5" --set guest.unload=true --duration 1 \
		--set run.grace=10 --set run.log_mb=64 || status=$?
	[ -f "$s" ] || fail "$name: no summary (exit $status): $(cat "$out/$name/INCOMPLETE" 2>/dev/null)"
	jq -e '.kernel_events | map(select(test("WARNING|BUG|Oops|lockup|LOCKUP|stall|blocked"))) |
		length == 0' "$s" >/dev/null || fail "$name: kernel events: $(jq -c .kernel_events "$s")"
	[ "$(g "$name" unloaded)" = yes ] || fail "$name: the driver was not removed (exit $status)"
	jq -e '.complete and (.failed_checks | length) == 0 and .counts.device.guest_errors == 0
		and .counts.host.lost == 0' "$s" >/dev/null ||
		fail "$name: $(jq -c '{complete, incomplete_reason, failed_checks}' "$s")"
	case $status in
	0) ;;
	3) jq -e '.storm.ended_by == "device" and (.stalls | length) == 1 and
		(.stalls[0] | startswith("livelock:"))' "$s" >/dev/null ||
		fail "$name: exit 3 without a livelock: $(jq -c .stalls "$s")" ;;
	*) fail "$name: exit status $status" ;;
	esac
	echo "$name: exit $status, $(jq -c '{raised: .counts.device.raised,
		handled: .counts.device.handled, in_flight: .counts.device.in_flight,
		guest_handled: .counts.guest.handled, wall_seconds}' "$s")"
}

i=0
for k in rt:threaded dyn:hardirq; do
	for ctx in tasklet bh_workqueue workqueue workqueue_highpri; do
		mode=intx
		[ $((i % 2)) -eq 0 ] || mode=msi
		i=$((i + 1))
		run "${k%:*}-$ctx-$mode" "${k%:*}" "${k#*:}" "$ctx" "$mode"
	done
done
echo "ok: the driver removed after a storm past saturation on 2 vCPUs, every deferred context, $i runs"
