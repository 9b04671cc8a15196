#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/results.md is reproducible bit for bit: rerun every case with
# scripts/reproduce.sh into a scratch directory and compare the page it
# writes with the committed one. Every number on the page is virtual time
# under icount, so any machine that builds the same Debian sources must
# get the same page; a difference means the page is stale (rerun
# scripts/reproduce.sh and commit it) or a build is not reproducible.
#
#
# The page is made of the Debian inputs of scripts/debian-pins. A build
# from another version of a fetched or source input (the archive dropped
# the pinned one) fails here with that as the message, before anything
# runs; another version of a checked tool (the system's compiler) is named
# first if the numbers then differ.
#
#   results.sh IRQSTORM SOURCE-ROOT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"	# the "scenario" argument is the source root here
root=$scenario

# pins_differ TEXT...: the "package version (pinned V)" entries of
# debian-pins values, one per line, and "unknown" for a build that names
# no pins.
pins_differ() {
	printf '%s\n' "$@" | grep -oE '[a-z0-9][a-z0-9.+-]* [^ ;]+ \(pinned [^)]*\)|unknown' | sort -u || true
}
# how_pinned PACKAGE: fetched, source or checked (scripts/debian-pins).
how_pinned() { awk -v p="$1" '!/^#/ && $2 == p { print $1 }' "$root/scripts/debian-pins"; }
# pins_verdict LINES: fail for a fetched or source input; print the rest.
pins_verdict() {
	local e hard=()
	while IFS= read -r e; do
		[ -n "$e" ] || continue
		case $(how_pinned "${e%% *}") in
		checked) printf '%s\n' "$e" ;;
		*) hard+=("$e") ;;
		esac
	done <<<"$1"
	[ "${#hard[@]}" -eq 0 ] ||
		fail "these builds are not made of docs/results.md's Debian inputs: $(printf '%s, ' "${hard[@]}" | sed -e 's/, $//' -e 's/unknown/unknown (a build older than scripts\/debian-pins)/'). The page is for the versions of scripts/debian-pins; the archive no longer has them, or the builds are stale: rebuild (scripts/build.sh build rt dyn dyn-6.1), or move the pins (scripts/update-pins.sh, docs/building.md)"
}

# Before 20 minutes of runs: the builds this test runs, by their identities.
build=$(cd "$(dirname "$irqstorm")/.." && pwd)
ids=()
for f in "$build"/qemu-device/qemu-identity "$build"/kernel-series/kernel-*-identity \
	"$build"/guest-init/initramfs-*-identity; do
	[ -f "$f" ] || continue
	v=$(sed -n 's/^debian-pins=//p' "$f")
	[ "$v" = exact ] || ids+=("${v:-unknown}")
done
checked=$(pins_verdict "$(pins_differ "${ids[@]}")")

"$root/scripts/reproduce.sh" --docs "$out/docs" --irqstorm "$irqstorm" "$out/runs" >&2 ||
	fail "scripts/reproduce.sh failed"
[ -s "$out/docs/results.md" ] || fail "reproduce.sh wrote no results.md"
# What every run says it was made of (summary.json's sysinfo.debian_pins).
checked=$(pins_verdict "$(pins_differ "$checked" "$(find "$out/runs" -name summary.json \
	-exec jq -r '.sysinfo.debian_pins // "unknown" | select(. != "exact")' {} +)")")
if ! diff -u "$root/docs/results.md" "$out/docs/results.md" >"$out/diff"; then
	cat "$out/diff" >&2
	[ -z "$checked" ] ||
		fail "these runs give other numbers than docs/results.md (diff above), and were built with other tools than the page's: $(echo $checked | sed 's/) /), /g'). If that is why, move the pins (scripts/update-pins.sh)"
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
