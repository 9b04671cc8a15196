#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm export's timeline in a real viewer in a real browser: Debian's
# chromium, headless, opens speedscope (the npm package pinned in
# scripts/npm-pins, fetched into the cache before, served with the trace
# from 127.0.0.1 by this test; every other host unreachable to the
# browser, so nothing is fetched while it runs) on the trace.json of an
# explained ide-pio run.
#   - speedscope loads it: its tracks are the run's (the device's, CPU 0's
#     points, tasks and explained windows);
#   - on the explained track, the sandwich view lists the function explain
#     names first, with the self time explain measured for it (to the
#     0.01 us speedscope prints);
#   - on the tasks track, the whole run's tasks and interrupts by name: the
#     task the outlier's hard interrupt ran over, the channel's IRQ by
#     number and action, the idle task;
#   - a screenshot of the explained window in time order (docs/explain.md's
#     picture: IRQSTORM_VIEWER_SHOT=FILE copies it there);
#   - a package whose hash is not the pinned one is refused by
#     scripts/npm-fetch.sh, naming both hashes.
#
#   viewer.sh IRQSTORM SCENARIO TOP [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$3
set -- "$1" "$2" "${@:4}"
e2e_init "$@"
server=
trap '[ -z "$server" ] || kill "$server" 2>/dev/null; rm -rf "$out"' EXIT

command -v chromium >/dev/null ||
	fail "no chromium: scripts/bootstrap.sh --tests installs Debian's"
speedscope=$("$top/scripts/npm-fetch.sh" speedscope) ||
	fail "speedscope: scripts/npm-fetch.sh speedscope (run by scripts/test.sh) fetches it"
echo "chromium: $(chromium --version 2>/dev/null); speedscope: $(jq -r .version "$speedscope/package.json")"

run=$out/ide-pio
"$irqstorm" run "$scenario" --out "$run" --quiet "${extra[@]}" ||
	fail "run: $(cat "$run/INCOMPLETE" 2>/dev/null)"
"$irqstorm" explain "$run" --top 1 --stage probe >"$out/explain.txt" ||
	fail "explain: $(cat "$out/explain.txt")"
"$irqstorm" export "$run" >/dev/null || fail "export"

# The site: speedscope's static build, the check page, the trace; and a
# registry holding a tampered speedscope for npm-fetch.sh to refuse.
site=$out/site
mkdir -p "$site/registry/speedscope/-"
cp -r "$speedscope/dist/release/." "$site/"
cp "$top/tests/viewer/check.html" "$run/trace.json" "$site/"
version=$(jq -r .version "$speedscope/package.json")
printf 'not speedscope\n' | gzip >"$site/registry/speedscope/-/speedscope-$version.tgz"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$site" >"$out/http.log" 2>&1 &
server=$!
for _ in $(seq 100); do
	port=$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$out/http.log")
	[ -z "$port" ] || break
	sleep 0.1
done
[ -n "$port" ] || fail "the test's web server did not start: $(cat "$out/http.log")"

# chromium URL [options]: the page's DOM after speedscope showed it.
browse() {
	local url=$1
	shift
	timeout 600 chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$out/chromium" --no-first-run \
		--host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1" \
		--virtual-time-budget=120000 "$@" "http://127.0.0.1:$port/$url" 2>>"$out/chromium.log"
}
# shown TRACK VIEW: what speedscope shows of TRACK in VIEW (1 time order,
# 3 sandwich), as text, into $out/TRACK-VIEW.txt.
shown() {
	local f="$out/${1// /-}-$2.txt"
	browse "check.html?track=${1// /%20}&view=$2" --window-size=1400,2400 --dump-dom |
		python3 -c 'import html, re, sys
m = re.search(r"<pre id=\"result\">(.*?)</pre>", sys.stdin.read(), re.S)
print(html.unescape(m.group(1)) if m else "no result")' >"$f"
	head -1 "$f" | grep -qx "shown: $1" ||
		fail "speedscope did not show $1: $(head -c 2000 "$f")"
}

shown "CPU 0 explained" 3
f="$out/CPU-0-explained-3.txt"
for t in "device (raises) and events" "CPU 0" "CPU 0 tasks" "CPU 0 explained"; do
	sed -n 's/^profile [0-9]*: //p' "$f" | grep -xF "$t" >/dev/null ||
		fail "no track '$t' in speedscope: $(head -8 "$f")"
done
# explain's first function of the worst event, its ns, in speedscope's words.
fn=$(jq -r '.events[0].functions[0].function' "$run/explain/explain.json")
ns=$(jq -r '.events[0].functions[0].ns' "$run/explain/explain.json")
python3 - "$f" "$fn" "$ns" <<'PY' || fail "speedscope's sandwich: no $fn with explain's $ns ns: $(sed -n '1,40p' "$f")"
import re, sys
path, fn, ns = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = [l.strip() for l in open(path)]
unit = {"ns": 1e-3, "µs": 1.0, "ms": 1e3, "s": 1e6}
i = lines.index(fn)
m = re.match(r"([0-9.]+)(ns|µs|ms|s) \(", lines[i - 1])
self_us = float(m.group(1)) * unit[m.group(2)]
print(f"speedscope: {fn} self {lines[i - 1]}; explain: {ns} ns")
sys.exit(0 if abs(self_us - ns / 1000) <= 0.006 else 1)
PY

shown "CPU 0 tasks" 3
f="$out/CPU-0-tasks-3.txt"
irq=$(jq -r '.counts.guest.irq[0]' "$run/summary.json")
over=$(jq -r '.events[0].functions[0].context | sub("^.* over "; "")' "$run/explain/explain.json")
for name in "$over" "IRQ $irq (irqstorm0)" "swapper/0 (idle, pid 0)"; do
	sed 's/^[[:space:]]*//' "$f" | grep -xF "$name" >/dev/null || fail "speedscope's tasks track: no '$name': $(sed -n '1,60p' "$f")"
done
echo "speedscope: tracks, $fn, tasks '$over', 'IRQ $irq (irqstorm0)'"

shot=$out/explained.png
browse "check.html?track=CPU%200%20explained&view=1" --window-size=1400,320 \
	--screenshot="$shot" >/dev/null
[ "$(stat -c %s "$shot" 2>/dev/null || echo 0)" -gt 8000 ] ||
	fail "the screenshot is missing or blank ($shot)"
[ -z "${IRQSTORM_VIEWER_SHOT:-}" ] || cp "$shot" "$IRQSTORM_VIEWER_SHOT"

# A package that is not the pinned one: refused, nothing left in the cache.
if IRQSTORM_CACHE=$out/cache IRQSTORM_NPM_REGISTRY=http://127.0.0.1:$port/registry \
	"$top/scripts/npm-fetch.sh" speedscope >"$out/fetch.log" 2>&1; then
	fail "npm-fetch.sh took a tampered speedscope"
fi
grep -q "not the pinned" "$out/fetch.log" || fail "npm-fetch.sh: $(cat "$out/fetch.log")"
[ ! -e "$out/cache/npm/speedscope-$version" ] || fail "npm-fetch.sh left a refused package"
echo "viewer: ok"
