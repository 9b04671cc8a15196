#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: what the stage stamps cost. The same MSI storm runs with the
# stamps on and off (the device's `stamps` property and the driver's
# `stamps` parameter, set together by [run] stamps), with the handler
# in hard-irq context and force-threaded, under TCG with icount and
# without. Two costs per interrupt:
#   guest:  time in the driver's handler from claim to ack, summed by the
#           driver itself with ktime_get() ([guest] handler_clock, on in
#           every run here, stamps on or off), divided by events handled;
#           under icount this is virtual time, i.e. guest instructions.
#   QEMU:   QEMU's user+system CPU seconds (wait4 rusage, summary.json
#           qemu_cpu_seconds) minus those of the same boot with the storm
#           disabled, divided by interrupts handled.
# Each configuration runs REPS times; the median is used, and the QEMU
# column also shows the range: under TCG QEMU's CPU time per interrupt is
# mostly the guest's halt/wake-up cycle, and varies from run to run by
# more than the stamps cost. Without icount the guest's clock is the
# host's, so the guest column's on-minus-off is the host time the two
# stamp writes take, measured inside the handler.
#
#   bench/overhead.sh [BUILDDIR] [REPS]
# Prints a table; the last line is the summary (on/off ratios). Exit
# status non-zero only when the benchmark could not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
reps=${2:-3}
rate=10000
duration=4
irqstorm=$build/rig/irqstorm
[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
case "$reps" in '' | *[!0-9]* | 0) echo "REPS must be a positive integer" >&2; exit 1 ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One run; prints "handled handler_ns qemu_cpu_seconds".
one() {
	local d=$out/run-$((++runs))
	"$irqstorm" run "$top/scenarios/default.ini" --out "$d" --quiet --no-csv \
		--duration "$duration" --set run.timeout=300 --set guest.irq_mode=msi \
		--set "channel0.rate=$rate" --set guest.handler_clock=true "$@" \
		>"$d.log" 2>&1 || true
	if [ ! -f "$d/summary.json" ] || ! jq -e .complete "$d/summary.json" >/dev/null; then
		echo "overhead.sh: run failed: $*" >&2
		tail -5 "$d.log" >&2
		exit 1
	fi
	jq -r '[.counts.device.handled, .counts.guest.handler_ns[0],
		.qemu_cpu_seconds] | @tsv' "$d/summary.json"
}

# The median of the numbers on stdin.
median() {
	sort -g | awk '{ v[NR] = $1 }
	END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

runs=0
echo "host: $(nproc) cores, $(uname -r); TCG; guest: PREEMPT_RT; MSI storm $rate Hz for" \
	"$duration s; $reps runs each, medians"
printf '%-6s %-8s %-6s %9s %15s %15s %17s\n' icount handler stamps handled guest_ns/event \
	qemu_us/event "(qemu min..max)"
summary=""
for icount in 3 off; do
	cpu_idle=$(for _ in $(seq "$reps"); do
		one --icount "$icount" --set channel0.enable=false | cut -f3
	done | median)
	printf '%-6s %-8s %-6s %9s %15s %15s   (storm disabled: %.3f QEMU CPU-s)\n' \
		"$icount" - - 0 - - "$cpu_idle"
	for threading in hardirq forced; do
		declare -A g q
		for stamps in true false; do
			: >"$out/samples"
			for _ in $(seq "$reps"); do
				one --icount "$icount" --set "channel0.threading=$threading" \
					--set "run.stamps=$stamps" >>"$out/samples"
			done
			handled=$(cut -f1 "$out/samples" | median)
			g[$stamps]=$(awk '{ print $2 / $1 }' "$out/samples" | median)
			awk -v idle="$cpu_idle" '{ print ($3 - idle) * 1e6 / $1 }' \
				"$out/samples" | sort -g >"$out/qemu"
			q[$stamps]=$(median <"$out/qemu")
			printf '%-6s %-8s %-6s %9.0f %15.1f %15.1f %8.1f..%-8.1f\n' "$icount" \
				"$threading" "$([ "$stamps" = true ] && echo on || echo off)" \
				"$handled" "${g[$stamps]}" "${q[$stamps]}" "$(head -1 "$out/qemu")" \
				"$(tail -1 "$out/qemu")"
		done
		summary+=$(awk -v k="$icount/$threading" -v gon="${g[true]}" -v goff="${g[false]}" \
			-v qon="${q[true]}" -v qoff="${q[false]}" 'BEGIN {
			printf " %s:guest=%.2f(+%.0fns),qemu=%.2f", k, gon / goff, gon - goff,
				(qoff > 0 ? qon / qoff : 0) }')
		unset g q
	done
done
echo "irqstorm-overhead on/off per interrupt (icount/handler:guest=ratio(+on-off),qemu=ratio" \
	"of medians):$summary"
