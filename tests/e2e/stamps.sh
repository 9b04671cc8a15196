#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# [run] stamps = false: the same storm with no stage stamps is still
# handled and cross-checked (guest, device counting acks, no records),
# and the driver's handler clock counts time in both cases; with stamps
# on, that time is longer (the two stamp writes are in it).
#
#   stamps.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

for stamps in true false; do
	"$irqstorm" run "$scenario" --out "$out/$stamps" --quiet "${extra[@]}" \
		--set channel0.threading=hardirq --set guest.handler_clock=true \
		--set "run.stamps=$stamps" ||
		{ echo "FAIL: stamps=$stamps run exited $?" >&2; cat "$out/$stamps/INCOMPLETE" 2>/dev/null; exit 1; }
done
s=$out/false/summary.json
jq -e '.complete and (.failed_checks | length) == 0 and .counts.host.all_records == 0
	and .counts.device.handled > 0 and .counts.device.handled == .counts.guest.handled[0]
	and .counts.guest.handler_ns[0] > 0 and .qemu_cpu_seconds > 0' "$s" >/dev/null ||
	{ echo "FAIL: stamps off: $(jq -c '{complete, failed_checks, counts}' "$s")" >&2; exit 1; }
grep -q 'stamps=off' "$out/false/qemu-cmdline.txt" ||
	{ echo "FAIL: the device was not given stamps=off" >&2; exit 1; }
per_event() { jq '.counts.guest.handler_ns[0] / .counts.guest.handled[0]' "$out/$1/summary.json"; }
on=$(per_event true) off=$(per_event false)
awk -v on="$on" -v off="$off" 'BEGIN { exit !(on > off) }' ||
	{ echo "FAIL: handler time with stamps ($on ns) not above without ($off ns)" >&2; exit 1; }
echo "ok: stamps off handled $(jq .counts.device.handled "$s") with 0 records; handler ns/event on $on, off $off"
