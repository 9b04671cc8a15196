#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate fixture/ from a real run of the current writer: the default
# scenario for 0.3 s with the probe and the work in a tasklet (so that every
# stage has samples, bh too), its files as written, but histogram.txt cut
# to its first 200 bins (all its rows are kept when a sample lies beyond);
# records.csv whole, as the percentiles figure draws the tail from it and
# holds it to summary.json's counts. The plot test fails when the writer
# and the fixture drift apart; this is the remedy.
#
#   tests/plots/make-fixture.sh build/rig/irqstorm [run options]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: make-fixture.sh IRQSTORM [run options]" >&2; exit 1; }
irqstorm=$(realpath "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$irqstorm" run "$here/../../scenarios/default.ini" --set guest.probe=true \
	--set channel0.work_context=tasklet --duration 0.3 \
	--out "$tmp/run" --quiet "$@"
run=$tmp/run
# The cut keeps every sample: the largest exact max is under 200 us.
awk '/^# Exact max/ { for (i = 5; i <= NF; i++) if ($i != "-" && $i + 0 >= 200) bad = 1 }
	END { exit bad }' "$run/histogram.txt" || bins=0
awk -v keep="${bins:-200}" '/^#/ || keep == 0 || n++ < keep' "$run/histogram.txt" \
	>"$here/fixture/histogram.txt"
cp "$run/records.csv" "$here/fixture/records.csv"
cp "$run/summary.json" "$run/rt-tests.json" "$here/fixture/"
echo "fixture/ regenerated from $run"
