#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm sweep: one interrupt aimed at every instruction of a section.
#   - an irqs_off section of L us with a hard-interrupt handler, every one
#     of its 2,501 offsets (8 ns apart) in one boot: no interrupt aimed at
#     offset o is handled before the section ends (latency >= L - o, the
#     aim exact); aimed at the start, the latency is in [L, L + 20 us];
#     the worst is at least L, within the section's first quarter, and at
#     least 90% of offsets are within 20 us of L - o (the others found
#     another interrupt held back by the same section, handled first);
#   - the same sweep again gives the same sweep.csv, byte for byte;
#   - bad input (step 0, stop before start, offsets beyond the section,
#     icount off) is refused with a message naming the problem, before
#     anything boots or is written.
#
#   sweep.sh IRQSTORM SCENARIO
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

L=20
"$irqstorm" sweep "$scenario" --out "$out/a" --quiet --set "guest.section_us=$L" \
	--offset "0:$((L * 1000)):8" || fail "the sweep failed: $(cat "$out/a/INCOMPLETE" 2>/dev/null)"
j=$out/a/sweep.json
jq -e '.offsets == 2501' "$j" >/dev/null || fail "offsets: $(jq -c . "$j")"
[ "$(($(wc -l <"$out/a/sweep.csv") - 1))" -eq 2501 ] || fail "sweep.csv has not 2501 rows"
jq -e --argjson l "$L" '.worst.hardirq.latency_ns >= $l * 1000
	and .worst.hardirq.offset_ns < $l * 250' "$j" >/dev/null ||
	fail "worst hardirq not at least $L us in the first quarter: $(jq -c .worst "$j")"
# offset_ns,seq,hardirq_ns,...: the excess of each over L - offset.
awk -F, -v l=$((L * 1000)) 'NR > 1 {
	ex = $3 - (l - $1)
	if (ex < 0) { print "offset " $1 " handled inside the section: " $3 " ns"; bad = 1 }
	if ($1 == 0 && (ex < 0 || ex > 20000)) { print "offset 0: " $3 " ns"; bad = 1 }
	n++; if (ex <= 20000) near++
} END {
	if (near < 0.9 * n) { print near " of " n " offsets within 20 us of L - o"; bad = 1 }
	exit bad
}' "$out/a/sweep.csv" || fail "the sweep's curve (above)"
[ -s "$out/a/sweep.png" ] || fail "no sweep.png"
echo "irqs_off $L us: $(jq -c .worst.hardirq "$j")"

"$irqstorm" sweep "$scenario" --out "$out/b" --quiet --set "guest.section_us=$L" \
	--offset "0:$((L * 1000)):8" || fail "the second sweep failed"
cmp "$out/a/sweep.csv" "$out/b/sweep.csv" || fail "a rerun gave another sweep.csv"

# refused WHAT EXPECTED ARGS...: exit 1, the message, nothing written.
refused() {
	local what=$1 want=$2 status=0
	shift 2
	"$irqstorm" sweep "$scenario" --out "$out/bad" --quiet "$@" 2>"$out/err" || status=$?
	[ "$status" -eq 1 ] || fail "$what: exit $status"
	grep -q -- "$want" "$out/err" || fail "$what: message '$(cat "$out/err")'"
	[ ! -e "$out/bad" ] || fail "$what: wrote $out/bad"
}
refused "step 0" "STEP must be at least 1 ns" --offset 0:100:0
refused "stop before start" "STOP is before START" --offset 500:100
refused "beyond the section" "is beyond the section" --offset "0:$((L * 1000 + 8))" \
	--set "guest.section_us=$L"
refused "icount off" "a sweep needs \[machine\] icount" --set machine.icount=off
echo "ok: the sweep's worst case, repeated exactly; bad input refused"
