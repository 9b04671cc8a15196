#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every shipped scenario, and every profile of it, is a valid scenario:
# `irqstorm run --dry-run` accepts it.
#
#   scenarios.sh IRQSTORM SCENARIO-DIR
set -euo pipefail
irqstorm=$1
dir=$2
n=0
for f in "$dir"/*.ini; do
	"$irqstorm" run "$f" --dry-run >/dev/null || { echo "FAIL: $f" >&2; exit 1; }
	n=$((n + 1))
	for p in $(sed -n 's/^\[profile\.\(.*\)\]$/\1/p' "$f"); do
		"$irqstorm" run "$f" --dry-run --set "run.profile=$p" >/dev/null ||
			{ echo "FAIL: $f profile $p" >&2; exit 1; }
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || { echo "FAIL: no scenarios in $dir" >&2; exit 1; }
echo "ok: $n scenarios and profiles"
