# SPDX-License-Identifier: GPL-2.0-or-later
# What the benchmarks share; sourced, not run.

# bench_init ARGS...: a benchmark's command line, [its own arguments] [--
# run options]: sets top (the checkout), args (its own arguments), run_opts
# (what follows --, for every `irqstorm run`), build (args[0], by default
# $top/build) and irqstorm (that build's rig), or exits saying to build.
bench_init() {
	top=$(cd "$(dirname "$0")/.." && pwd)
	args=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	[ "${1:-}" != -- ] || shift
	run_opts=("$@")
	build=${args[0]:-$top/build}
	irqstorm=$build/rig/irqstorm
	[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
}
