#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: capacity. Sweeps the storm rate per interrupt kind (level
# INTx, edge MSI) with a hard-irq handler that does nothing else, under
# TCG with icount (deterministic) and without. For each rate: what the
# device raised, what the guest handled (per second of virtual time),
# what was coalesced (INTx) or queued behind others (MSI), dropped at a
# full queue, the deepest the queue got, who ended the storm (the guest,
# or the device at duration + grace when the guest was livelocked), and
# the records lost by the ring. The guest saturates where it stops
# handling every firing; the rig must lose no record at any rate,
# saturation included.
#
#   bench/capacity.sh [BUILDDIR] [RATES...]
# Prints a table; the last line is the summary. Exit status non-zero only
# when the benchmark could not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
shift || true
rates=("${@:-10000 30000 100000 300000 1000000}")
read -r -a rates <<<"${rates[*]}"
irqstorm=$build/rig/irqstorm
[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "host: $(nproc) cores, $(uname -r); TCG; guest: PREEMPT_RT, hard-irq handler, no work"
printf '%-6s %-6s %9s %10s %10s %10s %10s %9s %6s %-6s %5s %7s %10s\n' icount irq rate \
	raised handled/s coalesced queued dropped q_max end lost wall_s records/s
sat_line=""
max_lost=0
for icount in 3 off; do
	for irq in intx msi; do
		saturated=
		for rate in "${rates[@]}"; do
			d=$out/$icount-$irq-$rate
			status=0
			"$irqstorm" run "$top/scenarios/default.ini" --out "$d" --quiet --no-csv \
				--icount "$icount" --duration 0.5 --set run.timeout=120 \
				--set "channel0.rate=$rate" --set channel0.threading=hardirq \
				--set "guest.irq_mode=$irq" >/dev/null 2>&1 || status=$?
			if [ ! -f "$d/summary.json" ] || ! jq -e .complete "$d/summary.json" >/dev/null; then
				printf '%-6s %-6s %9s  the run failed (exit %s): %s\n' "$icount" "$irq" \
					"$rate" "$status" "$(cat "$d/INCOMPLETE" 2>/dev/null | head -c 80)"
				break
			fi
			read -r raised handled coalesced queued dropped qmax end lost vs wall records < <(jq -r '
				[.counts.device.raised, .counts.device.handled, .counts.device.coalesced,
				 .counts.device.overlapped, .counts.device.dropped, .counts.device.queue_max,
				 .storm.ended_by, .counts.host.lost, .storm.length_s,
				 .wall_seconds, .counts.host.all_records] | @tsv' "$d/summary.json")
			awk -v i="$icount" -v q="$irq" -v r="$rate" -v ra="$raised" -v h="$handled" \
				-v c="$coalesced" -v o="$queued" -v dr="$dropped" -v qm="$qmax" -v e="$end" \
				-v l="$lost" -v vs="$vs" -v w="$wall" -v n="$records" \
				'BEGIN { printf "%-6s %-6s %9d %10d %10.0f %10d %10d %9d %6d %-6s %5d %7.2f %10.0f\n",
				i, q, r, ra, (vs > 0 ? h / vs : 0), c, o, dr, qm, e, l, w, n / w }'
			[ "$lost" -gt "$max_lost" ] && max_lost=$lost
			if [ -z "$saturated" ] && [ "$((handled * 100))" -lt "$((raised * 99))" ]; then
				saturated=$rate
				sat_line+=" $icount/$irq:$rate"
			fi
		done
	done
done
echo "irqstorm-capacity saturation-rates(icount/irq:first rate not fully handled):${sat_line:- none} lost-records-max=$max_lost"
