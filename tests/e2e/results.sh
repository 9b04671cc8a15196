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
for f in "$root"/docs/figures/*.png; do
	[ -s "$out/docs/figures/${f##*/}" ] || fail "reproduce.sh did not draw ${f##*/}"
done
if ! diff -u "$root/docs/results.md" "$out/docs/results.md" >"$out/diff"; then
	cat "$out/diff" >&2
	fail "these runs give other numbers than docs/results.md (diff above: - committed, + here)"
fi
echo "docs/results.md reproduced: $(grep -c '^| `' "$out/docs/results.md") table rows identical"
