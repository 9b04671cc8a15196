#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A matrix of real runs split into 3 shards, run here one after the other,
# and merged, equals the same matrix run unsharded: matrix.json, the seeds'
# merged distribution, and each cell's records and histograms, byte for
# byte (wall times are in none of them; rtla-hist.txt's duration is the
# storm's, in virtual time); rt-tests.json but for its command
# line and wall-clock times.
#
#   shards.sh IRQSTORM SCENARIO [matrix options, e.g. --set kernel.flavour=rt]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

opts=(--vary machine.seed=1..4 "${extra[@]}")
"$irqstorm" matrix "$scenario" "${opts[@]}" --jobs 2 --out "$out/whole" >"$out/whole.log" 2>&1 ||
	{ cat "$out/whole.log" >&2; fail "the unsharded matrix failed"; }
for i in 3 1 2; do
	"$irqstorm" matrix "$scenario" "${opts[@]}" --shard "$i/3" --out "$out/shard-$i" \
		>"$out/shard-$i.log" 2>&1 || { cat "$out/shard-$i.log" >&2; fail "shard $i/3 failed"; }
done
"$irqstorm" merge "$out/merged" "$out/shard-2" "$out/shard-3" "$out/shard-1" >"$out/merge.log" 2>&1 ||
	{ cat "$out/merge.log" >&2; fail "merge failed"; }

n=0
for f in matrix.json merged/histogram.txt merged/merged.json seed=*/records.csv \
	seed=*/rtla-hist.txt \
	seed=*/histogram.txt; do
	for g in "$out"/whole/$f; do
		rel=${g#"$out"/whole/}
		cmp "$g" "$out/merged/$rel" ||
			{ diff "$g" "$out/merged/$rel" | head -20 >&2; fail "$rel differs"; }
		n=$((n + 1))
	done
done
# rt-tests.json as cyclictest writes it: with the command line (the cell's
# --out) and the wall-clock start and end; everything else equal.
for g in "$out"/whole/seed=*/rt-tests.json; do
	rel=${g#"$out"/whole/}
	drop='del(.start_time, .end_time, .["cmdline:"])'
	[ "$(jq -S "$drop" "$g")" = "$(jq -S "$drop" "$out/merged/$rel")" ] ||
		fail "$rel differs beyond its command line and wall-clock times"
	n=$((n + 1))
done
[ "$n" -eq 19 ] || fail "compared $n files, expected 19 (3 + 4 cells x 4)"
# The shards split the cells by the documented rule: index mod 3 + 1.
for i in 1 2 3; do
	ran=$(jq -r '[.cells[] | select(.status != "other shard") | .dir] | join(",")' \
		"$out/shard-$i/matrix.json")
	case $i in
	1) want=seed=1,seed=4 ;;
	2) want=seed=2 ;;
	3) want=seed=3 ;;
	esac
	[ "$ran" = "$want" ] || fail "shard $i/3 ran $ran, not $want"
done
echo "PASS: 4 seeds as 3 shards, merged in another order, equal the unsharded matrix ($n files)"
