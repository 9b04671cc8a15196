#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Changes over QMP while the storm runs: channel 0 doubles its rate a
# fifth of a second in, channel 1 starts disabled and is enabled then. The
# device's counts show both took effect, the run says when they were sent,
# and that such a run is not reproducible.
#
#   changes.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

"$irqstorm" run "$scenario" --out "$out/run" --quiet "${extra[@]}" --duration 1 \
	--set channel0.rate=2000 --set channel1.pattern=periodic --set channel1.rate=1000 \
	--set channel1.enable=false \
	--set 'changes.0.2=channel0.rate=4000; channel1.enable=true' ||
	{ echo "FAIL: exit $?" >&2; cat "$out/run/INCOMPLETE" >&2 || true; exit 1; }
s=$out/run/summary.json
jq -e '.complete and (.failed_checks | length) == 0' "$s" >/dev/null ||
	{ echo "FAIL: not complete and consistent" >&2; jq .failed_checks "$s" >&2; exit 1; }
jq -e '(.changes | length) == 2 and all(.changes[]; .error == null
	and .applied_at_virtual_s >= 0.2 and .applied_at_virtual_s < 0.9)' "$s" >/dev/null ||
	{ echo "FAIL: changes not applied in time: $(jq -c .changes "$s")" >&2; exit 1; }
jq -e '.sysinfo.deterministic == false' "$s" >/dev/null ||
	{ echo "FAIL: a run with QMP changes claims to be deterministic" >&2; exit 1; }
# 1 s of storm: unchanged, channel 0 would fire 2000 times; doubled from
# (a little after) 0.2 s on, clearly more. Channel 1 fired only once enabled:
# at 1 kHz from then to the storm's end, which is the guest's stop, a few ms
# past its 1 s (storm.length_s: a CI run saw 806 where the bound was a fixed 805).
raised0=$(jq '.channels["0"].device.raised' "$s")
raised1=$(jq '.channels["1"].device.raised' "$s")
most1=$(jq '(.storm.length_s - 0.2) * 1000 | floor + 1' "$s")
[ "$raised0" -gt 2200 ] || { echo "FAIL: channel 0 raised $raised0: the rate change did nothing" >&2; exit 1; }
[ "$raised1" -gt 0 ] && [ "$raised1" -le "$most1" ] ||
	{ echo "FAIL: channel 1 raised $raised1: expected some, at most $most1 (1 kHz from 0.2 s to the storm's end)" >&2; exit 1; }
echo "ok: channel 0 raised $raised0, channel 1 raised $raised1; $(jq -c '[.changes[].applied_at_virtual_s]' "$s")"
