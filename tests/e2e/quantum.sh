#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Several vCPUs under icount, exact: [machine] quantum_ns (by default 10 us),
# QEMU's -icount quantum (qemu-device/patches/0003).
#   - two vCPUs, the channel's interrupt routed to CPU 1 while CPU 0 runs
#     the guest's init and agent, three runs at once (the test loads the
#     host itself): records.csv, histogram.txt and summary.json's numbers
#     byte-identical, summary.json calls them deterministic; every event
#     handled on CPU 1, each thread stamp after its hard interrupt's;
#   - another quantum gives other records (the test can tell);
#   - two vCPUs, CPU 0 busy in user space for the whole storm and taking
#     the interrupt, the probe and Debian's cyclictest on CPU 1: three runs
#     at once byte-identical; cyclictest's worst wake-up within the
#     one-vCPU figures (tens of us), where the same run with quantum_ns = 0
#     (allowed, flagged) has its probe late by milliseconds: one clock for
#     both vCPUs, CPU 0's busy loop running to each timer deadline while
#     CPU 1 waits;
#   - more vCPUs than the kernel's NR_CPUS (kernel-nr-cpus of its identity)
#     are refused before booting;
#   - quantum_ns = 0 without allow_smp_icount is refused, naming it.
#
#   quantum.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

smp=(--set machine.cpus=2 --set guest.irq_cpu=1 --set channel0.rate=10000)
three_at_once "${smp[@]}"
jq -e '.sysinfo.deterministic and .sysinfo.cpus == 2 and (.sysinfo.smp_icount_artifacts | not)' \
	"$out/1/summary.json" >/dev/null ||
	fail "summary.json does not call a run under the quantum deterministic: $(jq -c .sysinfo "$out/1/summary.json")"
grep -q -- "'-icount' 'shift=[0-9]*,sleep=off,quantum=10000'" "$out/1/qemu-cmdline.txt" ||
	fail "two vCPUs under icount did not get the default quantum: $(cat "$out/1/qemu-cmdline.txt")"

# The events ran on the second vCPU: hard interrupt and thread on CPU 1.
cross=$(awk -F, 'NR > 1 && $5 != "" && $6 != "" && $10 == 1 && $11 == 1' "$out/1/records.csv" | wc -l)
[ "$cross" -gt 1000 ] || fail "only $cross events with the hard interrupt and the thread on CPU 1"

# The thread starts after the hard interrupt.
bad=$(awk -F, 'NR > 1 && $5 != "" && $6 != "" && $6 <= $5' "$out/1/records.csv" | head -n 3)
[ -z "$bad" ] || fail "a thread stamp at or before its hard interrupt: $bad"

# The quantum is what the records depend on.
"$irqstorm" run "$scenario" --out "$out/q5" --quiet "${smp[@]}" --set machine.quantum_ns=5000 \
	"${extra[@]}"
! cmp -s "$out/1/records.csv" "$out/q5/records.csv" ||
	fail "quantum_ns = 5000 changed nothing against 10000: the test cannot tell"

# CPU 0 busy for the whole storm: untriggered user-space sections of
# 100 ms, back to back. The probe and cyclictest on another CPU.
busy=(--set guest.section=user --set guest.section_us=100000 --set guest.section_channel=none
	--set guest.section_cpu=0 --set guest.probe=true --set guest.cyclictest=true)
three_at_once --into busy "${busy[@]}" --set machine.cpus=2 --set guest.irq_cpu=0 \
	--set guest.probe_cpu=1
jq -e '.counts.guest.section | test("^stopped:[4-9]$")' "$out/busy/1/summary.json" >/dev/null ||
	fail "CPU 0 was not busy for the storm: section $(jq .counts.guest.section "$out/busy/1/summary.json")"

# cyclictest_max RUN: its worst wake-up, us.
cyclictest_max() { jq '.counts.guest.cyclictest_max_us' "$out/$1/summary.json"; }

# One vCPU gave 50 us for cyclictest's worst and 36.1 us for the probe's
# (bench/quantum.sh, the default scenario); 200 us is far below the
# milliseconds of one shared clock, and above any one-vCPU figure here.
[ "$(cyclictest_max busy/1)" -lt 200 ] ||
	fail "cyclictest on CPU 1 beside a busy CPU 0: worst $(cyclictest_max busy/1) us"
"$irqstorm" run "$scenario" --out "$out/shared" --quiet "${busy[@]}" --set machine.cpus=2 \
	--set guest.irq_cpu=0 --set guest.probe_cpu=1 --set machine.quantum_ns=0 \
	--set machine.allow_smp_icount=true "${extra[@]}" >/dev/null 2>&1 || true
jq -e '.counts.guest.probe_max_ns > 1000000 and .sysinfo.smp_icount_artifacts' \
	"$out/shared/summary.json" >/dev/null ||
	fail "one clock for both vCPUs did not show its artifact: $(jq -c '.counts.guest | {probe_max_ns, cyclictest_max_us}' "$out/shared/summary.json")"

# More vCPUs than the kernel boots (its NR_CPUS): refused, nothing booted.
nr=$(jq -r '.kernel["kernel-nr-cpus"]' "$out/1/summary.json")
status=0
"$irqstorm" run "$scenario" --out "$out/many" --quiet --set machine.cpus=$((nr + 1)) "${extra[@]}" \
	>"$out/msg" 2>&1 || status=$?
if [ "$status" -eq 0 ] || ! grep -q "built with NR_CPUS=$nr" "$out/msg" || [ -e "$out/many" ]; then
	fail "$((nr + 1)) vCPUs on a kernel of NR_CPUS=$nr: exit $status, $(cat "$out/msg")"
fi

status=0
"$irqstorm" run "$scenario" --out "$out/none" --quiet "${smp[@]}" --set machine.quantum_ns=0 \
	"${extra[@]}" >"$out/msg" 2>&1 || status=$?
if [ "$status" -eq 0 ] || ! grep -q "quantum_ns = 0" "$out/msg"; then
	fail "two vCPUs under icount without a quantum: exit $status, $(cat "$out/msg")"
fi
lat=$(awk -F, 'NR > 1 && $5 != "" && $6 != "" { d = $6 - $5; if (d > m) m = d; s += d; n++ }
	END { printf "mean %.1f us, max %.1f us", s / n / 1e3, m / 1e3 }' "$out/1/records.csv")
echo "ok: $cross events on CPU 1, identical in three runs, hard interrupt to thread $lat; quantum 5000 differs;" \
	"CPU 0 busy: identical in three runs, cyclictest on CPU 1 beside a busy CPU 0: worst $(cyclictest_max busy/1) us" \
	"(one shared clock: probe $(jq '.counts.guest.probe_max_ns / 1e6' "$out/shared/summary.json") ms)"
