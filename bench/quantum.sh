#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: what [machine] quantum_ns costs and what it changes. The
# default scenario (rt kernel, icount shift 3, seed 1) with the real-time
# probe and Debian's cyclictest on CPU 1 while CPU 0 runs a busy loop in
# user space for the storm's whole length (untriggered "user" sections of
# 100 ms) and takes the storm's interrupts: on one vCPU (probe and
# cyclictest on CPU 0, nothing busy), on two vCPUs without a quantum
# (quantum_ns = 0 with allow_smp_icount: one virtual clock for both, the
# artifact) and on two vCPUs with each quantum of QUANTA. (Four vCPUs wait
# for kernels built with NR_CPUS above 2: the rig refuses more vCPUs than
# the kernel boots.) One run at a time, boot included; wall time by the
# rig's own clock (summary.json's wall_seconds). Extra arguments after --
# go to every run.
#
#   bench/quantum.sh [BUILDDIR] [QUANTA] [-- run options]
# QUANTA: comma-separated ns, default 1000,2000,5000,10000,20000,50000,100000.
# Prints one line per run: vCPUs, quantum, wall s, the guest's uptime
# (virtual s), probe and cyclictest worst and mean latency (us), the busy
# loop's sections.
# Exit status non-zero only when the benchmark could not run.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bench_init "$@"
quanta=${args[1]:-1000,2000,5000,10000,20000,50000,100000}
case "$quanta" in '' | *[!0-9,]*) echo "QUANTA: comma-separated whole numbers" >&2; exit 1 ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

common=(--set kernel.flavour=rt --set guest.probe=true --set guest.cyclictest=true)
busy=(--set guest.section=user --set guest.section_us=100000
	--set guest.section_channel=none --set guest.section_cpu=0
	--set guest.probe_cpu=1 --set guest.irq_cpu=0)

# one LABEL CPUS QUANTUM [run options]: one run, one line.
one() {
	local label=$1 cpus=$2 q=$3 s
	shift 3
	# A run may fail its checks (the artifact does: its probe misses its
	# wake-ups by seconds); its numbers are what this benchmark shows.
	"$irqstorm" run "$top/scenarios/default.ini" --out "$out/$label" --quiet \
		"${common[@]}" --set machine.cpus="$cpus" "$@" >"$out/$label.log" 2>&1 || true
	s=$out/$label/summary.json
	[ -r "$s" ] || { echo "quantum.sh: run $label left no summary:" >&2; tail -5 "$out/$label.log" >&2; exit 1; }
	jq -r --arg l "$label" --arg c "$cpus" --arg q "$q" '
		def us(x): if x == null then "-" else (x / 1000 | . * 10 | round / 10 | tostring) end;
		[$l, $c, $q, (.wall_seconds | . * 100 | round / 100),
		 (.guest_uptime_seconds | . * 1000 | round / 1000),
		 us(.counts.guest.probe_max_ns), us(.counts.guest.probe_avg_ns),
		 (.counts.guest.cyclictest_max_us // "-"), (.counts.guest.cyclictest_avg_us // "-"),
		 (.counts.guest.section // "-")] | @tsv' "$s"
	rm -rf "${out:?}/$label"
}

echo "host: $(nproc) cores, $(uname -r); TCG, icount shift 3, seed 1, default scenario, rt kernel;" \
	"probe and cyclictest on the last CPU used, CPU 0 busy in user space with the storm's IRQ"
printf 'run\tvCPUs\tquantum_ns\twall_s\tguest_uptime_s\tprobe_max_us\tprobe_avg_us\tct_max_us\tct_avg_us\tbusy\n'
one one-vcpu 1 - "${run_opts[@]}"
one no-quantum 2 0 "${busy[@]}" --set machine.quantum_ns=0 --set machine.allow_smp_icount=true "${run_opts[@]}"
for q in ${quanta//,/ }; do
	one "q$q" 2 "$q" "${busy[@]}" --set machine.quantum_ns="$q" "${run_opts[@]}"
done
