#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: how fast `irqstorm sweep` aims interrupts. One sweep of an
# irqs_off section of US us (default 200) at every instruction (8 ns, icount
# shift 3), hard-interrupt handler, rt kernel, without the random twin: in
# one boot, then with --jobs 2. Prints each one's offsets, wall time and
# offsets per wall second, the time an offset took in the guest (virtual),
# and whether the two found the same worst case.
#
#   bench/sweep.sh [BUILDDIR] [US]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
us=${2:-200}
irqstorm=$build/rig/irqstorm
[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "host: $(nproc) cores, $(uname -r); TCG, icount shift=3; guest: PREEMPT_RT," \
	"hard-irq handler, an irqs_off section of $us us, an offset every 8 ns"
printf '%-7s %8s %8s %10s %14s %s\n' jobs offsets wall_s offsets/s virtual_us/offset worst
for jobs in 1 2; do
	start=$(date +%s.%N)
	"$irqstorm" sweep "$top/scenarios/sweep-irqs-off.ini" --out "$out/$jobs" --quiet \
		--no-random --jobs "$jobs" --set "guest.section_us=$us" \
		--offset "0:$((us * 1000)):8" >/dev/null
	end=$(date +%s.%N)
	n=$(jq .offsets "$out/$jobs/sweep.json")
	# The guest's time per offset: the sweep's span over its offsets, in
	# one boot; with parts, each part's.
	span=$(tail -n +2 "$out/$jobs/sweep.csv" | wc -l)
	if [ "$jobs" = 1 ]; then d=$out/1; else d=$out/$jobs/part-1; fi
	vpo=$(jq -r '.storm.length_s' "$d/summary.json")
	per=$(awk -v s="$vpo" -v n="$(($(wc -l <"$d/sweep.csv") - 1))" 'BEGIN { printf "%.1f", s * 1e6 / n }')
	awk -v j="$jobs" -v n="$n" -v a="$start" -v b="$end" -v p="$per" \
		-v w="$(jq -c '.worst.hardirq' "$out/$jobs/sweep.json")" \
		'BEGIN { printf "%-7s %8d %8.1f %10.0f %14s %s\n", j, n, b - a, n / (b - a), p, w }'
	[ "$span" -eq "$n" ]
done
