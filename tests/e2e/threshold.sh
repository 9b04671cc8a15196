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
echo "ok: exceeded -> 2, met -> 0"
