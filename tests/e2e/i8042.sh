#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The 2004 i8042 case: code that spins with preemption disabled until an
# interrupt has been handled. With the handler in hard interrupt context
# (IRQF_NO_THREAD) the spin completes; with the handler force-threaded on
# the same (only) CPU it cannot, and times out: reported, and the run still
# completes with its data, the guest alive.
#
#   i8042.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

run() {	# run NAME THREADING STATUS: the i8042 result, "completed:NS" or "timeout:NS"
	local status=0
	"$irqstorm" run "$scenario" --out "$out/$1" --quiet "${extra[@]}" \
		--set "channel0.threading=$2" --set channel0.rate=5000 \
		--set guest.i8042_channel=0 --set guest.i8042_timeout_us=20000 >&2 || status=$?
	[ "$status" -eq "$3" ] ||
		{ echo "FAIL: $1: irqstorm run exited with $status, not $3" >&2;
		  cat "$out/$1/INCOMPLETE" >&2 || true; exit 1; }
	jq -r '.counts.guest.i8042' "$out/$1/summary.json"
}

hard=$(run hardirq hardirq 0)
# A stall is its own outcome: exit status 3, reported, not a hang.
forced=$(run forced forced 3)
echo "hardirq: $hard; forced: $forced"
case "$hard" in
completed:*) ;;
*) echo "FAIL: with a hardirq handler the region should complete: $hard" >&2; exit 1 ;;
esac
case "$forced" in
timeout:*) ;;
*) echo "FAIL: with a forced-threaded handler the region should time out: $forced" >&2; exit 1 ;;
esac
# Completing took at most one storm period (200 us) plus handling.
ns=${hard#completed:}
[ "$ns" -le 400000 ] || { echo "FAIL: completing took $ns ns" >&2; exit 1; }
jq -e '.complete and (.failed_checks | length) == 0 and (.stalls | length) == 1
	and (.stalls[0] | test("i8042 region timed out"))' "$out/forced/summary.json" >/dev/null ||
	{ echo "FAIL: the timed-out run is not complete, consistent, with its stall" >&2; exit 1; }
