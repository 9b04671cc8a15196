#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A complete result is never lost to a later run:
#   - a run into a directory holding a complete result is refused (exit 1,
#     naming --replace), and the result is untouched;
#   - --replace stopped with ^C (SIGINT) mid-run: the complete result is
#     byte for byte as it was; the interrupted run's files are beside it,
#     in DIR.partial, marked INCOMPLETE;
#   - --replace run to its end: DIR is the new result, nothing left beside;
#   - a directory of an incomplete run is written over without a word.
#
#   replace.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
r=$out/r
sums() { (cd "$r" && sha256sum -- * | sort); }

"$irqstorm" run "$scenario" --out "$r" --quiet "${extra[@]}" || fail "the first run failed"
before=$(sums)

status=0
"$irqstorm" run "$scenario" --out "$r" --quiet "${extra[@]}" 2>"$out/err" || status=$?
[ "$status" -eq 1 ] || fail "a run into a complete result: exit $status"
grep -q "holds a complete result (its summary.json), which irqstorm never writes over: give another --out, or --replace" \
	"$out/err" || fail "the refusal: $(cat "$out/err")"
[ "$(sums)" = "$before" ] || fail "a refused run changed the result"

# ^C once the replacement's guest has started.
"$irqstorm" run "$scenario" --out "$r" --replace --set run.duration=5 "${extra[@]}" \
	>"$out/int.txt" 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -s "$r.partial/console.log" ] && break
	sleep 0.1
done
sleep 1
kill -INT "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -ne 0 ] || fail "an interrupted run exited 0"
[ "$(sums)" = "$before" ] || fail "an interrupted --replace changed the complete result"
[ -f "$r.partial/INCOMPLETE" ] || fail "the interrupted run's files are not in $r.partial, marked"
grep -q "this run did not complete, so it replaced nothing: its files are in $r.partial/, and $r/ keeps the complete result it had" \
	"$out/int.txt" || fail "not said: $(tail -n 5 "$out/int.txt")"

"$irqstorm" run "$scenario" --out "$r" --replace --quiet --seed 2 "${extra[@]}" ||
	fail "the replacing run failed"
[ "$(sums)" != "$before" ] || fail "--replace did not replace the result"
[ ! -e "$r.partial" ] && [ ! -e "$r.replaced" ] || fail "left beside: $(ls -d "$r".*)"
jq -e '.complete' "$r/summary.json" >/dev/null || fail "the replacement is not complete"

# An incomplete run's directory is written over, as always.
echo "stopped" >"$r/INCOMPLETE"
"$irqstorm" run "$scenario" --out "$r" --quiet "${extra[@]}" || fail "a run into an incomplete result was refused"
[ ! -e "$r/INCOMPLETE" ] || fail "the marker stayed"
echo "ok: a complete result refused, kept through an interrupted --replace, replaced by a complete one"
