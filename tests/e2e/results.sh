#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/results.md is reproducible bit for bit: rerun every case with
# scripts/reproduce.sh into a scratch directory and compare the page it
# writes with the committed one. Every number on the page is virtual time
# under icount, so any machine that builds the same Debian sources must
# get the same page; a difference means the page is stale (rerun
# scripts/reproduce.sh and commit it) or a build is not reproducible.
#
#   results.sh IRQSTORM SOURCE-ROOT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"	# the "scenario" argument is the source root here
root=$scenario

"$root/scripts/reproduce.sh" --docs "$out/docs" --irqstorm "$irqstorm" "$out/runs" >&2 ||
	fail "scripts/reproduce.sh failed"
[ -s "$out/docs/results.md" ] || fail "reproduce.sh wrote no results.md"
if ! diff -u "$root/docs/results.md" "$out/docs/results.md" >"$out/diff"; then
	cat "$out/diff" >&2
	fail "these runs give other numbers than docs/results.md (diff above: - committed, + here)"
fi
# The figures: each drawn again, from the same data as the committed one
# (its NAME.dat beside it: what the curves and legends are made of). The
# PNG bytes themselves depend on gnuplot's and cairo's versions.
figs=0
for f in "$root"/docs/figures/*.png "$out"/docs/figures/*.png; do
	name=${f##*/}
	name=${name%.png}
	[ -s "$root/docs/figures/$name.png" ] || fail "reproduce.sh drew $name.png, which docs/figures/ lacks"
	[ -s "$out/docs/figures/$name.png" ] || fail "reproduce.sh did not draw $name.png"
	[ -s "$root/docs/figures/$name.dat" ] || fail "docs/figures/$name.dat is missing: rerun scripts/reproduce.sh"
	if ! diff -u "$root/docs/figures/$name.dat" "$out/docs/figures/$name.dat" >"$out/diff"; then
		head -n 40 "$out/diff" >&2
		fail "$name.png would show other data than the committed one (diff above: - committed, + here)"
	fi
	figs=$((figs + 1))
done
figs=$((figs / 2))
# What the docs say of reproduce.sh: one run per cell of its matrices, one
# table row of results.md per run.
runs=$(cat "$out"/runs/*/matrix.json | jq -s 'map(.cells | length) | add')
rows=$(grep -c '^| `' "$out/docs/results.md")
[ "$runs" -eq "$rows" ] || fail "reproduce.sh made $runs runs for $rows table rows"
grep -q "all cases, $runs runs" "$root/docs/performance.md" ||
	fail "docs/performance.md does not say that scripts/reproduce.sh makes $runs runs"
echo "docs/results.md reproduced: $runs runs, $rows table rows identical, the data of $figs figures identical"
