#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command README.md and docs/*.md show, run as written
# (docs/testing.md, "Every command the docs show"):
#   - the commands are the lines of their ```sh blocks
#     (scripts/doc-commands.py); each page's run one after the other, in
#     the page's order, from a directory of its own that has the
#     checkout's build/, scenarios/ and scripts/ (so `results/...` lands
#     there), `irqstorm` on PATH and HOME there too;
#   - each must exit 0 (or a status the page documents for it, below);
#   - what the test changes, and only that: a `--duration` made 0.2 s,
#     what a page assumes the reader has (the runs that analysis.md
#     compares, the other shards of the README's merge), each named
#     below; demo.sh runs in a copy of the checkout;
#   - the commands not run are exactly the rows of docs/testing.md's
#     table, each with its reason: a documented command that is in
#     neither fails, as does a row that no page shows any more.
#
#   docs.sh IRQSTORM SOURCE_ROOT
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$1" "$2"
top=$(realpath "$scenario")
build=$(realpath "$(dirname "$irqstorm")/..")
bin=$(dirname "$(realpath "$irqstorm")")

# The commands not run: the rows of docs/testing.md's table, by command.
not_run=$(awk '/^<!-- docs-not-run -->$/ { on = 1; next } /^<!-- \/docs-not-run -->$/ { on = 0 }
	on && /^\| `/ { s = $0; sub(/^\| `/, "", s); sub(/` \|.*/, "", s); print s }' \
	"$top/docs/testing.md")
[ -n "$not_run" ] || fail "docs/testing.md has no table of the commands not run"

# page_dir PAGE: the directory its commands run in.
page_dir() {
	local d
	d=$out/$(basename "$1" .md)
	if [ ! -d "$d" ]; then
		mkdir -p "$d/home"
		ln -s "$build" "$d/build"
		ln -s "$top/scenarios" "$d/scenarios"
		ln -s "$top/scripts" "$d/scripts"
	fi
	echo "$d"
}

# HOME is the page's own, but the cache stays the machine's: the builds
# are the ones the suite made.
export IRQSTORM_CACHE=${IRQSTORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqstorm}

# in_dir DIR CMD...: CMD in DIR as a reader would run it.
in_dir() {
	local d=$1
	shift
	(cd "$d" && HOME=$d/home PATH=$bin:$PATH "$@")
}

# setup PAGE CMD: what the page assumes the reader has before CMD.
setup() {
	local d
	d=$(page_dir "$1")
	case "$2" in
	*"merge results/seeds s1 s2 s3 s4"*)
		# The README's shard 2/4 of the seeds, the others as the same command.
		for i in 1 3 4; do
			in_dir "$d" build/rig/irqstorm matrix scenarios/default.ini \
				--vary machine.seed=1..8 --shard "$i/4" --out "s$i" >/dev/null ||
				fail "README.md: the seeds' shard $i/4 (for merge)"
		done ;;
	"build/rig/irqstorm compare results/hardirq results/threaded results/forced")
		# analysis.md compares runs the reader made: these.
		for t in hardirq threaded forced; do
			in_dir "$d" build/rig/irqstorm run scenarios/default.ini --quiet \
				--set "channel0.threading=$t" --out "results/$t" ||
				fail "analysis.md: the run results/$t (to compare)"
		done
		cp -al "$d/results/hardirq" "$d/results/a"
		cp -al "$d/results/threaded" "$d/results/b"
		cp -al "$d/results/threaded" "$d/results/base"
		cp -al "$d/results/forced" "$d/results/patched" ;;
	"build/rig/irqstorm plot results/default")
		[ -d "$d/results/default" ] ||
			in_dir "$d" build/rig/irqstorm run scenarios/default.ini --quiet >/dev/null ||
			fail "$1: the run results/default (to plot)" ;;
	esac
}

# The statuses a command may end with: 0, or what its page documents.
statuses() {
	case "$1" in
	*"--fail-if"*) echo "0 2" ;;		# analysis.md: 2, a gate tripped
	"scripts/update-pins.sh --check") echo "0 3" ;;	# building.md: 3, pins would move
	*) echo 0 ;;
	esac
}

# The command as run: a documented shorter duration.
as_run() {
	sed -E 's/--duration [0-9.]+/--duration 0.2/' <<<"$1"
}

# run_demo: the README's first command, in a copy of the checkout (it
# builds into and writes results/ of its own checkout).
run_demo() {
	local c=$out/checkout
	mkdir -p "$c"
	(cd "$top" && git ls-files -z -co --exclude-standard | xargs -0 cp -a --parents -t "$c")
	(cd "$c" && scripts/demo.sh) >"$out/demo.log" 2>&1 ||
		{ tail -30 "$out/demo.log" >&2; fail "README.md: scripts/demo.sh failed"; }
	grep -q "^plot: .*\.png" "$out/demo.log" || fail "README.md: scripts/demo.sh drew no plot"
	# The README's printout of it is what it prints now, line for line,
	# but for the wall time and where the results are.
	printout() {
		sed -e 's/ in [0-9.]* s wall$/ in N s wall/' -e 's|^  results: .*|  results: DIR|'
	}
	awk '/^<!-- demo-printout -->$/ { on = 1; next } /^<!-- \/demo-printout -->$/ { on = 0 }
		on && !/^```/' "$top/README.md" | printout >"$out/readme-printout"
	[ -s "$out/readme-printout" ] || fail "README.md has no demo printout"
	sed -n '/^irqstorm: .*run of /,/^  results: /p' "$out/demo.log" | printout >"$out/demo-printout"
	diff -u "$out/readme-printout" "$out/demo-printout" >&2 ||
		fail "README.md's printout of scripts/demo.sh is not what it prints (diff above: - README, + the demo)"
}

ran=0 skipped=0 seen=""
while IFS=$'\t' read -r where cmd; do
	page=${where%%:*}
	if grep -qxF -- "$cmd" <<<"$not_run"; then
		skipped=$((skipped + 1))
		seen+="$cmd"$'\n'
		continue
	fi
	if [ "$cmd" = scripts/demo.sh ]; then
		run_demo
		ran=$((ran + 1))
		echo "ok: $where: $cmd"
		continue
	fi
	setup "$page" "$cmd"
	d=$(page_dir "$page")
	start=$SECONDS
	status=0
	in_dir "$d" bash -c "$(as_run "$cmd")" >"$out/cmd.log" 2>&1 || status=$?
	case " $(statuses "$cmd") " in
	*" $status "*) ;;
	*) tail -20 "$out/cmd.log" >&2
	   fail "$where: exit status $status: $cmd" ;;
	esac
	ran=$((ran + 1))
	echo "ok: $where: $cmd (exit $status, $((SECONDS - start)) s)"
done < <(cd "$top" && scripts/doc-commands.py README.md docs/*.md)

# Every row of the table is a command some page still shows.
while read -r row; do
	grep -qxF -- "$row" <<<"$seen" ||
		fail "docs/testing.md says '$row' is not run, but no page shows it"
done <<<"$not_run"
echo "$ran commands run as written, $skipped not run (docs/testing.md says why)"
