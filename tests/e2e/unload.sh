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
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet --no-csv "${extra[@]}" "${SATURATED[@]}" \
		--set "kernel.flavour=$2" --set "channel0.threading=$3" --set "channel0.work_context=$4" \
		--set "guest.irq_mode=$5" --set guest.unload=true --set run.grace=10 || status=$?
	saturated_ok "$name" "$status"
	[ "$(g "$name" unloaded)" = yes ] || fail "$name: the driver was not removed (exit $status)"
	echo "$name: exit $status, $(jq -c '{raised: .counts.device.raised,
		handled: .counts.device.handled, in_flight: .counts.device.in_flight,
		guest_handled: .counts.guest.handled, wall_seconds}' "$s")"
}

each_deferred_context run
echo "ok: the driver removed after a storm past saturation on 2 vCPUs, every deferred context, $runs runs"
