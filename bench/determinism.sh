#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: determinism on a loaded host. One reference run of the smoke
# scenario (icount shift 3, one vCPU, seed 1) on an idle host, then RUNS
# runs of it with LOAD busy loops beside each; counts how many give
# records.csv byte-identical to the reference (every stamp of every
# interrupt). Under icount the answer must be all of them however busy the
# host is; a race between QEMU's threads shows as a run that differs (see
# docs/determinism.md and qemu-device/patches/). Extra arguments after --
# go to every `irqstorm run`, e.g. --qemu-dir to try another QEMU build.
#
#   bench/determinism.sh [BUILDDIR] [RUNS] [LOAD] [-- run options]
# Prints one line per differing run, and last "N of RUNS identical".
# Exit status non-zero only when the benchmark could not run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init "$@"
runs=${args[1]:-30}
load=${args[2]:-3}
for n in "$runs" "$load"; do
	case "$n" in '' | *[!0-9]*) echo "RUNS and LOAD must be whole numbers" >&2; exit 1 ;; esac
done
[ "$runs" -gt 0 ] || { echo "RUNS must be positive" >&2; exit 1; }
out=$(mktemp -d)
hogs=()
cleanup() {
	[ "${#hogs[@]}" -eq 0 ] || kill "${hogs[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT

# One run into $out/$1; stops the benchmark if the run itself failed.
one() {
	local name=$1
	shift
	"$irqstorm" run "$top/tests/e2e/smoke.ini" --out "$out/$name" --quiet \
		--set kernel.flavour=rt "$@" >"$out/$name.log" 2>&1 || {
		echo "determinism.sh: run $name failed:" >&2
		tail -5 "$out/$name.log" >&2
		exit 1
	}
}

echo "host: $(nproc) cores, $(uname -r); TCG, icount shift 3, seed 1 (1 vCPU unless the run options say);" \
	"smoke scenario (2 kHz INTx, threaded, rt kernel); $load busy loops beside each run${run_opts[*]:+; run options: ${run_opts[*]}}"
one ref "${run_opts[@]}"
for _ in $(seq "$load"); do
	sh -c 'while :; do :; done' &
	hogs+=($!)
done
same=0
for i in $(seq "$runs"); do
	one "$i" "${run_opts[@]}"
	if cmp -s "$out/ref/records.csv" "$out/$i/records.csv"; then
		same=$((same + 1))
	else
		# The first record that differs, as in the reference and in this run.
		echo "run $i differs from the reference at:"
		diff "$out/ref/records.csv" "$out/$i/records.csv" | sed -n '2p;/^>/{p;q}' || true
	fi
	rm -rf "${out:?}/$i"
done
echo "$same of $runs runs identical to the reference"
