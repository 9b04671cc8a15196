#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: what `irqstorm explain` costs. scenarios/ide-pio.ini (2 s of
# virtual time, a PIO handler in hard-interrupt context and the probe, dyn
# kernel, TCG with icount shift 3) run once, then explained: its 5 worst
# done events, then its worst probe wake-up, each with tasks and interrupts
# named (the default: guest memory read at each context switch and each
# interrupt's handling) and with --no-names (the code alone). Prints the
# run's wall time, each explain's, the rerun's own wall time under the
# plugin against the run's (what watching every block costs QEMU), the
# trace the plugin wrote, and the whole run's tasks file (named explains
# only: a line per context switch, interrupt entry and exit).
#
#   bench/explain.sh [BUILDDIR]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
irqstorm=$build/rig/irqstorm
[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "host: $(nproc) cores, $(uname -r); TCG, icount shift=3; scenarios/ide-pio.ini"
a=$(now)
"$irqstorm" run "$top/scenarios/ide-pio.ini" --out "$out/r" --quiet
b=$(now)
run_qemu=$(jq .wall_seconds "$out/r/summary.json")
echo "run: $(secs "$a" "$b") s wall ($(jq .counts.host.all_records "$out/r/summary.json") records)"
printf '%-34s %8s %14s %10s %12s %10s %12s\n' explain wall_s rerun_wall_s slowdown trace_blocks \
	trace_MB tasks_lines
for args in "--top 5" "--top 5 --no-names" "--stage probe --top 1" \
	"--stage probe --top 1 --no-names"; do
	a=$(now)
	# shellcheck disable=SC2086 # the options, word-split on purpose
	"$irqstorm" explain "$out/r" $args >/dev/null 2>&1
	b=$(now)
	rerun=$(jq .wall_seconds "$out/r/explain/rerun/summary.json")
	awk -v w="$args" -v t="$(secs "$a" "$b")" -v r="$rerun" -v q="$run_qemu" \
		-v n="$(jq .trace_blocks "$out/r/explain/explain.json")" \
		-v m="$(stat -c %s "$out/r/explain/trace.txt")" \
		-v k="$(grep -cv '^#' "$out/r/explain/tasks.txt" 2>/dev/null || echo 0)" \
		'BEGIN { printf "%-34s %8s %14.1f %9.2fx %12d %10.1f %12d\n", w, t, r, r / q, n, m / 1e6, k }'
done
