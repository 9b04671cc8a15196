#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Exit status 2 when a scenario threshold is exceeded, 0 when it is met;
# either way the run is complete and consistent, and summary.json says
# which threshold, its limit and the value measured.
#
#   threshold.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

status=0
"$irqstorm" run "$scenario" --out "$out/tight" --quiet "${extra[@]}" \
	--set thresholds.done_max_us=0.001 --set thresholds.hardirq_avg_us=100000 || status=$?
[ "$status" -eq 2 ] || { echo "FAIL: exceeded threshold gave exit $status, not 2" >&2; exit 1; }
jq -e '.complete and .return_code == 2 and (.failed_checks | length) == 0
	and ([.thresholds[] | select(.exceeded)] | length) == 1
	and (.thresholds[] | select(.stage == "done") | .exceeded and .limit_ns == 1
	     and .value_ns == $max)' --argjson max "$(jq .stages.done.max "$out/tight/summary.json")" \
	"$out/tight/summary.json" >/dev/null || { echo "FAIL: summary.json thresholds" >&2; exit 1; }
[ ! -e "$out/tight/INCOMPLETE" ] || { echo "FAIL: marked incomplete" >&2; exit 1; }

"$irqstorm" run "$scenario" --out "$out/loose" --quiet "${extra[@]}" --set thresholds.done_max_us=100000 ||
	{ echo "FAIL: a met threshold gave exit $?" >&2; exit 1; }

# Two channels: each judged on its own. Channel 1 (10 Hz of 2048 PIO words)
# has 5 of the ~1,000 events, so the pooled done p99 is channel 0's; a
# limit between that and channel 1's own p99 passed pooled, and must fail
# now, naming channel 1 alone.
two=(--set guest.irq_mode=msix --set channel0.name=critical --set channel1.pattern=periodic
	--set channel1.rate=10 --set channel1.work=pio --set channel1.pio_words=2048
	--set channel1.name=bulk)
"$irqstorm" run "$scenario" --out "$out/two" --quiet "${extra[@]}" "${two[@]}" ||
	{ echo "FAIL: two channels without thresholds: exit $?" >&2; exit 1; }
s=$out/two/summary.json
pooled=$(jq .stages.done.p99 "$s")
bulk=$(jq '.channels["1"].stages.done.p99' "$s")
[ "$pooled" -lt "$bulk" ] || { echo "FAIL: pooled p99 $pooled not under channel 1's $bulk" >&2; exit 1; }
limit=$(awk -v a="$pooled" -v b="$bulk" 'BEGIN { printf "%.3f", (a + b) / 2 / 1e3 }')
status=0
"$irqstorm" run "$scenario" --out "$out/two-limit" "${extra[@]}" "${two[@]}" \
	--set "thresholds.done_p99_us=$limit" >"$out/two.txt" 2>&1 || status=$?
[ "$status" -eq 2 ] || { cat "$out/two.txt" >&2; echo "FAIL: channel 1 over its limit: exit $status" >&2; exit 1; }
grep -q "threshold done p99 <= $limit us, channel 1 (bulk): .* EXCEEDED" "$out/two.txt" ||
	{ cat "$out/two.txt" >&2; echo "FAIL: the printout does not name channel 1" >&2; exit 1; }
grep -q "threshold done p99 <= $limit us, channel 0 (critical): .* met" "$out/two.txt" ||
	{ cat "$out/two.txt" >&2; echo "FAIL: the printout does not judge channel 0" >&2; exit 1; }
jq -e '[.thresholds[] | select(.exceeded) | .channel] == [1]
	and ([.thresholds[] | .channel] | sort) == [0, 1]' "$out/two-limit/summary.json" >/dev/null ||
	{ echo "FAIL: summary.json thresholds: $(jq -c .thresholds "$out/two-limit/summary.json")" >&2; exit 1; }
echo "ok: exceeded -> 2, met -> 0; two channels judged each, the one over its limit named"
