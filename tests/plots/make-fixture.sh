#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate fixture/ from a real run of the current writer: the default
# scenario with the probe and the work in a tasklet (so that every stage has
# samples, bh too), its files as written, but histogram.txt cut to
# its first 200 bins (all its rows are kept when a sample lies beyond) and
# records.csv to its first 299 records. The plot test fails when the writer
# and the fixture drift apart; this is the remedy.
#
#   tests/plots/make-fixture.sh build/rig/irqstorm
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: make-fixture.sh IRQSTORM" >&2; exit 1; }
irqstorm=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$irqstorm" run "$here/../../scenarios/default.ini" --set guest.probe=true \
	--set channel0.work_context=tasklet \
	--out "$tmp/run" --quiet
run=$tmp/run
# The cut keeps every sample: the largest exact max is under 200 us.
awk '/^# Exact max/ { for (i = 5; i <= NF; i++) if ($i != "-" && $i + 0 >= 200) bad = 1 }
	END { exit bad }' "$run/histogram.txt" || bins=0
awk -v keep="${bins:-200}" '/^#/ || keep == 0 || n++ < keep' "$run/histogram.txt" \
	>"$here/fixture/histogram.txt"
head -n 300 "$run/records.csv" >"$here/fixture/records.csv"
cp "$run/summary.json" "$run/rt-tests.json" "$here/fixture/"
echo "fixture/ regenerated from $run"
