#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two vCPUs under icount, exact: [machine] quantum_ns, QEMU's -icount
# quantum (qemu-device/patches/0003). The channel's interrupt is routed to
# CPU 1, the second vCPU, while CPU 0 runs the guest's init and agent:
#   - three runs at once (the test loads the host itself): records.csv,
#     histogram.txt and summary.json's numbers byte-identical, and
#     summary.json calls the runs deterministic;
#   - another quantum gives other records (the test can tell);
#   - every event handled on CPU 1, each thread stamp after its hard
#     interrupt's;
#   - without the quantum the scenario is refused, naming quantum_ns.
#
#   quantum.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

smp=(--set machine.cpus=2 --set guest.irq_cpu=1 --set channel0.rate=10000)
three_at_once "${smp[@]}" --set machine.quantum_ns=10000
jq -e '.sysinfo.deterministic and .sysinfo.cpus == 2 and (.sysinfo.smp_icount_artifacts | not)' \
	"$out/1/summary.json" >/dev/null ||
	fail "summary.json does not call a run under the quantum deterministic: $(jq -c .sysinfo "$out/1/summary.json")"

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

status=0
"$irqstorm" run "$scenario" --out "$out/none" --quiet "${smp[@]}" "${extra[@]}" \
	>"$out/msg" 2>&1 || status=$?
if [ "$status" -eq 0 ] || ! grep -q "no quantum_ns" "$out/msg"; then
	fail "two vCPUs under icount without a quantum: exit $status, $(cat "$out/msg")"
fi
lat=$(awk -F, 'NR > 1 && $5 != "" && $6 != "" { d = $6 - $5; if (d > m) m = d; s += d; n++ }
	END { printf "mean %.1f us, max %.1f us", s / n / 1e3, m / 1e3 }' "$out/1/records.csv")
echo "ok: $cross events on CPU 1, identical in three runs, hard interrupt to thread $lat; quantum 5000 differs"
