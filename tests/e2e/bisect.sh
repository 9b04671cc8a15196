#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm bisect-step with git bisect run, on a kernel tree of the user's:
#   - a git tree made from Debian's linux-source-7.3 with kernel-series/
#     (or 6.12, with IRQSTORM_BISECT_SOURCE=6.12): a base commit, a
#     harmless commit (a comment), and a commit that delays the IRQ thread
#     (udelay() in irq_thread_fn());
#   - bisect-step says good at the base and bad at the delay, and
#     `git bisect run` with it names the delay commit as the first bad one,
#     rebuilding incrementally (one build directory for every step);
#   - the tree is left byte for byte as it was: its files, its index, its
#     refs (git bisect's own state aside, which git bisect reset removes);
#   - the README's run of a tree and its git bisect run, as written (the
#     README's scenario, flavour and limit; HOME where ~/linux is the tree
#     and ~/irqstorm the checkout): the run boots the tree, the bisection
#     names the delay commit;
#   - summary.json names the tree, its commit and version;
#   - bad input exits 125 (skip) naming why: not a kernel tree, a path
#     kbuild cannot take (a space), a version
#     before 6.1, a tree that does not build (with the log's path);
#     a wrong command line exits 128 (git bisect run aborts).
#
# The tree is made once into irqstorm's cache (test-trees/), with fixed
# commit dates so that its commits are the same on every machine, and kept
# there with its build directory: a later run of this test rebuilds only
# what changed. Its base is the source the suite's dyn kernel of that
# version was built from, and its build directory starts as a copy of
# that kernel's (seed_build): a fresh machine compiles only what the
# tree's commits change, never the whole kernel a second time.
#
#   bisect.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
# git bisect run runs its command at the tree's top: no relative paths.
irqstorm=$(realpath "$irqstorm")
scenario=$(realpath "$scenario")

cache=${IRQSTORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqstorm}
ver=${IRQSTORM_BISECT_SOURCE:-7.3}
case $ver in
6.12 | 7.3) ;;
*) fail "IRQSTORM_BISECT_SOURCE=$ver: 6.12 or 7.3" ;;
esac
tree=$cache/test-trees/bisect-$ver
top=$(realpath "$(dirname "$0")/../..")
seed_kernel=dyn-$ver
[ "$ver" != 6.12 ] || seed_kernel=dyn
export GIT_AUTHOR_NAME=irqstorm-test GIT_AUTHOR_EMAIL=test@irqstorm.invalid
export GIT_COMMITTER_NAME=irqstorm-test GIT_COMMITTER_EMAIL=test@irqstorm.invalid
export GIT_AUTHOR_DATE='2024-01-01T00:00:00Z' GIT_COMMITTER_DATE='2024-01-01T00:00:00Z'
DELAY_US=100
g() { git -C "$tree" "$@"; }

# The three commits, made once (a git tree of the whole kernel takes a
# minute or two); either way the tree is then put back to its last
# commit, HEAD detached there (as git bisect reset delay leaves it: the
# fingerprint reads .git/HEAD), clean. A tree of an older layout of this
# test (its base another source) is made again.
BASE_MSG="base: Debian's linux-source-$ver with kernel-series/, as the $seed_kernel kernel"
make_tree() {
	[ "$(g log -1 --format=%s base 2>/dev/null)" = "$BASE_MSG" ] &&
		g rev-parse -q --verify refs/tags/delay >/dev/null 2>&1 || new_tree
	g bisect reset >/dev/null 2>&1 || true
	g checkout -q -f delay
	g clean -q -fdx
}

# The seed: the dyn kernel of this version, built as the suite builds it
# (at once when it is in the cache), its build directory and its source.
seed_obj=$("$top/scripts/build-kernel.sh" --print-dir "$seed_kernel" "$out/seed")
seed_src() { readlink -f "$seed_obj/source"; }

new_tree() {
	local src
	"$top/scripts/build-kernel.sh" "$seed_kernel" "$out/seed" >"$out/seed.log" 2>&1 ||
		{ cat "$out/seed.log" >&2; fail "cannot build the $seed_kernel kernel the tree is made from"; }
	src=$(seed_src)
	rm -rf "$tree"
	mkdir -p "$tree"
	echo "making the test tree $tree from $src" >&2
	# Times kept: every file but those the commits below write is older
	# than the seed's objects (seed_build).
	cp -a "$src/." "$tree/"
	rm -f "$tree/.irqstorm-ready"
	g init -q
	g config core.compression 1
	# No repacking of the whole kernel behind the test's back: git gc
	# --auto after the first commit ran for minutes beside the builds.
	g config gc.auto 0
	# Debian's .gitignore ignores every top-level path (its packaging): -f.
	g add -A -f .
	g commit -q -m "$BASE_MSG"
	g tag base
	printf '/* irqstorm test: a harmless change, a comment. */\n' >>"$tree/kernel/irq/manage.c"
	g commit -q -am "harmless: a comment at the end of kernel/irq/manage.c"
	# irq_thread_fn() calls the thread function in a statement (6.12) or
	# in its first declaration (7.3): the delay goes before either.
	sed -i -e 's|^#include <linux/irq.h>$|&\n#include <linux/delay.h>|' \
		-e "/^static irqreturn_t irq_thread_fn(/,/^}/ s|^\tret = action->thread_fn(action->irq, action->dev_id);|\tudelay($DELAY_US);\n&|" \
		-e "/^static irqreturn_t irq_thread_fn(/,/^}/ s|^\tirqreturn_t ret = action->thread_fn(action->irq, action->dev_id);|\tirqreturn_t ret;\n\n\tudelay($DELAY_US);\n\tret = action->thread_fn(action->irq, action->dev_id);|" \
		"$tree/kernel/irq/manage.c"
	g diff | grep -q "^+	udelay($DELAY_US);$" || fail "the delay commit's edit did not apply: $(g diff)"
	g commit -q -am "delay: udelay($DELAY_US) before every threaded handler (irq_thread_fn)"
	g tag delay
	seed_build
}

# tree_obj: the build directory irqstorm gives the tree's kernel.
tree_obj() {
	local key
	key=$(printf '%s' "$(realpath "$tree")" | sha256sum | cut -c1-8)
	"$top/scripts/build-kernel.sh" --print-dir "dyn-tree-$key" "$out/seed" "$tree"
}

# seed_build: the tree's build directory (the one irqstorm gives the
# tree's kernel) as a copy of the seed's, its configuration kept (the
# same fragments on the same source). What makes that a correct
# incremental build: the tree's base is the seed's source byte for byte,
# copied with its times, so kbuild sees every object newer than its
# sources but where the commits wrote (kernel/irq/manage.c, newer than
# the seed's build: the seed is built before the tree is made), and the
# same commands once the seed's source path in its .cmd and dependency
# files reads the tree's. Checked after the first step: the tree's
# kernel was compiled from a few files, not a whole kernel's.
seed_build() {
	local obj src
	obj=$(tree_obj)
	src=$(seed_src)
	rm -rf "$obj" "$obj.lock" "$obj.lock.holder"
	mkdir -p "$obj"
	cp -a "$seed_obj/." "$obj/"
	rm -rf "$obj/irqstorm-driver" "$obj/irqstorm-layout"
	rm -f "$obj/.irqstorm-built" "$obj/identity" "$obj/identity.tmp"
	# kbuild's own files name the source absolutely; the tools' (objtool,
	# whose rebuild would make kbuild compile every object again) name
	# their build directory so too.
	{ grep -rlIZF -e "$src" -e "$seed_obj" "$obj" || true; } |
		xargs -0 -r sed -i -e "s|$src|$(realpath "$tree")|g" -e "s|$seed_obj|$obj|g"
	ln -sfn "$(realpath "$tree")" "$obj/source"
	! grep -rqIF -e "$src" -e "$seed_obj" "$obj" || fail "the seeded build still names $src or $seed_obj"
	echo "$obj" >"$out/seeded"
}

# What irqstorm must leave as it was: every file outside .git (names,
# modes, contents), ignored and untracked ones included, what the index
# stages, the refs and HEAD. (git's own checkouts rewrite the index's stat
# cache; a step alone must not: see index_unchanged.)
fingerprint() {
	{
		(cd "$tree" && find . -path ./.git -prune -o -printf '%P %y %m\n' | LC_ALL=C sort)
		(cd "$tree" && find . -path ./.git -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 cat) |
			sha256sum
		g ls-files -s
		g status --porcelain --ignored
		g show-ref
		cat "$tree/.git/HEAD"
	} | sha256sum
}

# step COMMIT: bisect-step's exit status at COMMIT (checked out).
step() {
	local status=0
	g checkout -q "$1"
	"$irqstorm" bisect-step "$scenario" --tree "$tree" --out "$out/steps" \
		--limit "thread.p50=$limit" "${extra[@]}" >"$out/step.txt" 2>&1 || status=$?
	cat "$out/step.txt" >&2
	echo "$status"
}

make_tree
before=$(fingerprint)
index=$(sha256sum <"$tree/.git/index")

# The delay and the base measured, and the limit set between them. A step
# by itself leaves even the index's bytes as they were.
status=0
"$irqstorm" bisect-step "$scenario" --tree "$tree" --out "$out/steps" \
	--limit 'thread.p50=100000' "${extra[@]}" >"$out/first.txt" 2>&1 || status=$?
cat "$out/first.txt" >&2
# A seeded build compiled what the commits changed and what the tree's
# version string reaches (a few dozen files), not the kernel (1,700).
if [ -f "$out/seeded" ]; then
	files=$(sed -n 's/.*building the dyn kernel in .*: done in .*, \([0-9]*\) files$/\1/p' \
		"$out/first.txt" | tail -n 1)
	echo "the seeded tree build compiled ${files:-no} files" >&2
	[ -n "$files" ] && [ "$files" -lt 200 ] ||
		fail "the tree's build from $(cat "$out/seeded") was not incremental: ${files:-no} files compiled"
fi
[ "$(sha256sum <"$tree/.git/index")" = "$index" ] || fail "a step changed the tree's .git/index"
base_dir=$out/steps/$(g rev-parse --short=12 HEAD)
[ "$status" = 0 ] || fail "bisect-step with a limit nothing exceeds: exit $status"
jq -e --arg t "$tree" '.kernel["kernel-tree"] == $t and (.kernel["kernel-tree-commit"] | length) == 40
	and .kernel["kernel-tree-changes"] == "none" and (.kernel["kernel-tree-version"] | startswith("'"$ver"'."))
	and .kernel["kernel-patches"] == "none"' "$base_dir/summary.json" >/dev/null ||
	fail "summary.json does not name the tree: $(jq -c .kernel "$base_dir/summary.json")"
delayed=$(jq -r '.stages.thread.p50' "$base_dir/summary.json")

g checkout -q base
status=0
"$irqstorm" bisect-step "$scenario" --tree "$tree" --out "$out/steps" \
	--limit 'thread.p50=100000' "${extra[@]}" >/dev/null 2>&1 || status=$?
[ "$status" = 0 ] || fail "bisect-step at base: exit $status"
base=$(jq -r '.stages.thread.p50' "$out/steps/$(g rev-parse --short=12 HEAD)/summary.json")
echo "thread p50: base $base ns, with the delay $delayed ns" >&2
# The delay adds DELAY_US to every threaded handler's start... of the next
# interrupt at the earliest; here, at least half of it to the median.
awk -v b="$base" -v d="$delayed" -v u="$DELAY_US" 'BEGIN { exit !(d - b >= u * 500) }' ||
	fail "the delay commit moved thread p50 by $((delayed - base)) ns only"
limit=$(awk -v b="$base" -v d="$delayed" 'BEGIN { printf "%.3f", (b + d) / 2 / 1e3 }')

[ "$(step base)" = 0 ] || fail "base is not good with limit $limit us"
grep -q "thread.p50 = .* us, limit $limit us: held" "$out/step.txt" || fail "no judgement line"
[ "$(step delay)" = 1 ] || fail "delay is not bad with limit $limit us"
grep -q "EXCEEDED" "$out/step.txt" || fail "no EXCEEDED line"

# git bisect run finds the delay commit.
g checkout -q delay
g bisect start delay base >/dev/null
g bisect run "$irqstorm" bisect-step "$scenario" --tree "$tree" --out "$out/steps" \
	--limit "thread.p50=$limit" "${extra[@]}" >"$out/bisect.txt" 2>&1 ||
	{ cat "$out/bisect.txt" >&2; fail "git bisect run failed"; }
cat "$out/bisect.txt" >&2
echo >&2
grep -q "^$(g rev-parse delay) is the first bad commit" "$out/bisect.txt" ||
	fail "git bisect run did not name the delay commit"
g bisect reset delay >/dev/null 2>&1
[ "$(fingerprint)" = "$before" ] || fail "the tree is not byte for byte as it was"

# The README's two commands for a tree of one's own, as written: HOME a
# directory where linux is this tree and irqstorm the checkout (its build
# and scenarios); the run from the checkout, the bisection from the tree.
export IRQSTORM_CACHE=$cache	# HOME changes below; the cache does not
# A HOME kept in the cache beside the tree: the kernel is named by the
# path the README gives ($HOME/linux), so a fixed one keeps its build.
home=$cache/test-trees/readme-home
rm -rf "$home"
mkdir -p "$home/irqstorm"
ln -s "$tree" "$home/linux"
ln -s "$(realpath "$(dirname "$irqstorm")/..")" "$home/irqstorm/build"
ln -s "$top/scenarios" "$home/irqstorm/scenarios"
readme=$("$top/scripts/doc-commands.py" "$top/README.md")
run_cmd=$(grep -F 'kernel.source=$HOME/linux' <<<"$readme" | cut -f2)
bisect_cmd=$(grep -F 'git bisect run ~/irqstorm' <<<"$readme" | cut -f2)
[ -n "$run_cmd" ] && [ -n "$bisect_cmd" ] || fail "README.md shows no tree commands: $readme"
echo "README: $run_cmd" >&2
(cd "$home/irqstorm" && HOME=$home bash -c "$run_cmd") >"$out/readme-run.txt" 2>&1 ||
	{ cat "$out/readme-run.txt" >&2; fail "the README's run of a tree failed"; }
jq -e --arg t "$tree" '.kernel["kernel-tree"] == $t' "$home/irqstorm/results/my-tree/summary.json" \
	>/dev/null || fail "the README's run did not boot the tree"
echo "README: $bisect_cmd" >&2
g bisect start delay base >/dev/null
(cd "$home/irqstorm" && HOME=$home bash -c "$bisect_cmd") >"$out/bisect.txt" 2>&1 ||
	{ cat "$out/bisect.txt" >&2; fail "the README's git bisect run failed"; }
grep -q "^$(g rev-parse delay) is the first bad commit" "$out/bisect.txt" ||
	{ cat "$out/bisect.txt" >&2; fail "the README's git bisect run did not name the delay commit"; }
g bisect reset delay >/dev/null 2>&1
[ "$(fingerprint)" = "$before" ] || fail "the tree is not byte for byte as it was (README's commands)"

# Bad input: skip (125), naming why.
skipped() {
	local dir=$1 words=$2 status=0
	"$irqstorm" bisect-step "$scenario" --tree "$dir" --out "$out/steps" \
		--limit done.p99=50 "${extra[@]}" >"$out/msg" 2>&1 || status=$?
	[ "$status" = 125 ] || fail "--tree $dir: exit $status, not 125: $(cat "$out/msg")"
	grep -q -- "$words" "$out/msg" || fail "--tree $dir: no '$words' in: $(cat "$out/msg")"
}
mkdir -p "$out/notatree"
echo hello >"$out/notatree/README"
skipped "$out/notatree" "is not a Linux kernel source tree"
skipped "$out/nothere" "no such directory"
mkdir -p "$out/a tree"
skipped "$out/a tree" "a space or a colon"
mkdir -p "$out/old/kernel/irq" "$out/old/scripts/kconfig"
printf 'VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 0\n' >"$out/old/Makefile"
touch "$out/old/kernel/irq/manage.c" "$out/old/scripts/kconfig/merge_config.sh"
skipped "$out/old" "is Linux 5.10.0: irqstorm builds kernel trees from Linux 6.1 on"
# A tree that does not build: an uncommitted error, then put back.
printf 'this is not C;\n' >>"$tree/kernel/irq/manage.c"
skipped "$tree" "kernel build failed; see .*build.log"
g checkout -q -- kernel/irq/manage.c

# A step killed while it builds (SIGKILL: no chance to clean up) leaves
# no build behind: make and its compilers die with it, the build
# directory's lock is free (the next step below takes it).
printf '/* irqstorm test: a step killed while this builds */\n' >>"$tree/kernel/irq/manage.c"
"$irqstorm" bisect-step "$scenario" --tree "$tree" --out "$out/steps" \
	--limit done.p99=50 "${extra[@]}" >"$out/killed.txt" 2>&1 &
pid=$!
for _ in $(seq 900); do
	grep -q "building the dyn kernel in .* \.\.\.$" "$out/killed.txt" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 1
done
grep -q "building the dyn kernel in .* \.\.\.$" "$out/killed.txt" ||
	fail "the step to kill never started its build: $(cat "$out/killed.txt")"
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
for _ in $(seq 120); do
	pgrep -f -- "$(tree_obj)" >/dev/null || break
	sleep 1
done
! pgrep -af -- "$(tree_obj)" >&2 || fail "bisect-step killed: its build (above) is still running"
flock -n "$(tree_obj).lock" true || fail "bisect-step killed: its build directory is still locked"
g checkout -q -- kernel/irq/manage.c

# A wrong command line aborts the bisection (128).
for args in "--tree $tree" "--tree $tree --limit done.p99" "--tree $tree --limit nosuch.p99=5=3" \
	"--tree $tree --limit done.p98=5" "--tree $tree --limit done.p99=5 --out $tree/results"; do
	status=0
	# shellcheck disable=SC2086
	"$irqstorm" bisect-step "$scenario" $args >"$out/msg" 2>&1 || status=$?
	[ "$status" = 128 ] || fail "bisect-step $args: exit $status, not 128: $(cat "$out/msg")"
	grep -q "git bisect run stops" "$out/msg" || fail "bisect-step $args: $(cat "$out/msg")"
done
[ "$(fingerprint)" = "$before" ] || fail "the tree is not byte for byte as it was (after bad input)"
echo "PASS: $ver: bisect-step at base good, at delay bad; git bisect run named the delay commit; the tree unchanged; bad input skipped or aborted"
