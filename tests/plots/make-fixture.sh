#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerate fixture/ from a real run of the current writer: the default
# scenario for 0.3 s with the probe and the work in a tasklet (so that every
# stage has samples, bh too), its files as written, but histogram.txt cut
# to the bins under its largest sample; records.csv whole, as the percentiles figure draws the tail from it and
# holds it to summary.json's counts. The plot test fails when the writer
# and the fixture drift apart; this is the remedy. fixture-two/: the same of
# scenarios/priority.ini, two channels, for the figures per channel.
#
#   tests/plots/make-fixture.sh build/rig/irqstorm [run options]
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: make-fixture.sh IRQSTORM [run options]" >&2; exit 1; }
irqstorm=$(realpath "$1")
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cut DIR NAME...: DIR's histogram files NAME into OUT, each cut to the
# bins under its largest exact max (every sample kept).
cut() {
	local from=$1 to=$2 f keep
	shift 2
	mkdir -p "$to"
	for f in "$@"; do
		keep=$(awk '/^# Exact max/ { for (i = 5; i <= NF; i++) if ($i != "-" && $i + 0 > m) m = $i + 0 }
			END { printf "%d", m + 2 }' "$from/$f")
		awk -v keep="$keep" '/^#/ || n++ < keep' "$from/$f" >"$to/$f"
	done
}

# fixture/: the default scenario, one channel, every stage.
"$irqstorm" run "$here/../../scenarios/default.ini" --set guest.probe=true \
	--set channel0.work_context=tasklet --duration 0.3 \
	--out "$tmp/run" --quiet "$@"
run=$tmp/run
cut "$run" "$here/fixture" histogram.txt
cp "$run/records.csv" "$run/summary.json" "$run/rt-tests.json" "$here/fixture/"
echo "fixture/ regenerated from $run"

# fixture-two/: scenarios/priority.ini, two channels (critical and bulk).
"$irqstorm" run "$here/../../scenarios/priority.ini" --duration 0.3 \
	--out "$tmp/two" --quiet "$@"
cut "$tmp/two" "$here/fixture-two" histogram.txt histogram-ch0.txt histogram-ch1.txt
cp "$tmp/two/records.csv" "$tmp/two/summary.json" "$here/fixture-two/"
echo "fixture-two/ regenerated from $tmp/two"
