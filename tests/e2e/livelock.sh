#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Storms past the guest's saturation end on time and are accounted for
# exactly. Each run must complete with every cross-check passing (guest,
# device and host agree, nothing lost, no guest error), and:
#   - far past saturation without icount (MSI, 1 MHz) and at 300 kHz under
#     icount (MSI): the guest is too starved to stop its own storm, the
#     device ends it exactly duration + grace after it began, the run
#     reports the livelock as a stall (exit 3) and ends within a wall
#     bound, and firings that found the queue full are counted as dropped;
#   - just past saturation without icount (MSI, 100 kHz): the backlog
#     runs beyond the old 256-event window without a single guest error.
#
#   livelock.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

duration=0.5
grace=0.2
# Generous for a loaded host: boot and poweroff of an idle run take ~4 s.
wall_bound=120
# The smoke scenario's 1 MiB log holds 16,384 records: a 300 kHz storm
# under icount publishes 210,000 in about 7 s of wall time, and a reader
# starved by a loaded host fell behind it (142 records lost, counted, once
# in three runs at load average 2.8). 64 MiB holds all of them.

# storm NAME ICOUNT RATE " EXIT... ": one run, which must end with one of
# those exit statuses; its summary is $out/NAME/summary.json.
storm() {
	local name=$1 icount=$2 rate=$3 want=$4 status=0
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet --no-csv "${extra[@]}" \
		--icount "$icount" --duration "$duration" --set "run.grace=$grace" \
		--set run.timeout=$wall_bound --set "channel0.rate=$rate" --set run.log_mb=64 \
		--set channel0.threading=hardirq --set guest.irq_mode=msi || status=$?
	s=$out/$name/summary.json
	[ -f "$s" ] || fail "$name: no summary (exit $status): $(cat "$out/$name/INCOMPLETE" 2>/dev/null)"
	jq -e '.complete and (.failed_checks | length) == 0 and .counts.device.guest_errors == 0
		and .counts.host.lost == 0' "$s" >/dev/null ||
		fail "$name: $(jq -c '{complete, incomplete_reason, failed_checks}' "$s")"
	case "$want" in
	*" $status "*) ;;
	*) fail "$name: exit status $status, expected one of$want" ;;
	esac
	echo "$name: exit $status, $(jq -c '{storm, wall_seconds, raised: .counts.device.raised,
		handled: .counts.device.handled, dropped: .counts.device.dropped}' "$s")"
}

# livelocked NAME LAG: the device ended the storm at its bound, reported.
# Under icount (LAG 0) the end is exactly duration + grace of virtual time
# after the start. Without icount, virtual time is the host's, and a storm
# QEMU cannot raise as fast as scheduled runs behind: the end comes when
# every firing due before the bound has been raised, LAG seconds late at
# most (generous: a 1 MHz storm ran 0.3 s behind here on an idle host).
livelocked() {
	local s=$out/$1/summary.json
	jq -e --argjson lag "$2" --argjson w "$wall_bound" '
		.storm.ended_by == "device"
		and .storm.length_s > .storm.bound_s - 1e-6
		and .storm.length_s < .storm.bound_s + $lag + 1e-6
		and (.stalls | map(select(startswith("livelock:"))) | length) == 1
		and .wall_seconds < $w' "$s" >/dev/null ||
		fail "$1: not reported as a livelock ended on time: $(jq -c '{storm, stalls, wall_seconds}' "$s")"
}

storm far-past off 1000000 " 3 "
livelocked far-past 10
jq -e '.counts.device.dropped > 0' "$out/far-past/summary.json" >/dev/null ||
	fail "far-past: a 1 MHz storm dropped nothing at a full queue"

storm icount-300k 3 300000 " 3 "
livelocked icount-300k 0

# Near saturation the guest may or may not get to stop the storm in time;
# either way every event is accounted for and none is a guest error.
storm near off 100000 " 0 3 "
echo "ok: storms past saturation end on time, accounted for exactly"
