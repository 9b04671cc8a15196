#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: what one `irqstorm bisect-step` costs on a kernel tree: the
# incremental kernel build of what the checkout changed, the driver and
# initramfs for it, and the run. On the tree e2e-bisect makes (Debian's
# linux-source-7.3 with a commit adding udelay() in kernel/irq/manage.c:
# one file of kernel/irq/ and the link), tests/e2e/smoke.ini on dyn.
# Prints, per step: its wall time, the kernel build's share, the run's.
#
#   bench/bisect-step.sh [BUILDDIR] [TREE]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
cache=${IRQSTORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqstorm}
tree=${2:-$cache/test-trees/bisect-7.3}
irqstorm=$build/rig/irqstorm
[ -x "$irqstorm" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
git -C "$tree" rev-parse -q --verify refs/tags/delay >/dev/null 2>&1 ||
	{ echo "no test tree at $tree: run the e2e-bisect test first (it makes it)" >&2; exit 1; }
out=$(mktemp -d)
trap 'git -C "$tree" checkout -q -f delay; rm -rf "$out"' EXIT

now() { date +%s.%N; }
# step COMMIT: checkout, one bisect-step; prints its line.
step() {
	local a b kb
	git -C "$tree" checkout -q "$1"
	a=$(now)
	"$irqstorm" bisect-step "$top/tests/e2e/smoke.ini" --tree "$tree" --out "$out" \
		--set kernel.flavour=dyn --limit thread.p50=68 >"$out/log" 2>&1 || true
	b=$(now)
	kb=$(sed -n 's/.*building the dyn kernel in .*: done in \([0-9ms]*\), \([0-9]*\) files/\1 (\2 files)/p' "$out/log")
	awk -v c="$1" -v t="$(awk -v a="$a" -v b="$b" 'BEGIN { print b - a }')" -v k="${kb:-none}" \
		-v r="$(jq .wall_seconds "$out/$(git -C "$tree" rev-parse --short=12 HEAD)/summary.json")" \
		'BEGIN { printf "%-9s %10.1f %-22s %10.1f\n", c, t, k, r }'
}

echo "host: $(nproc) cores, $(uname -r); tree $tree; TCG, icount shift=3"
git -C "$tree" checkout -q base
"$irqstorm" bisect-step "$top/tests/e2e/smoke.ini" --tree "$tree" --out "$out" \
	--set kernel.flavour=dyn --limit thread.p50=68 >/dev/null 2>&1 || true
printf '%-9s %10s %-22s %10s\n' commit step_s kernel_build run_s
step base	# nothing changed: the identity check only
step delay	# kernel/irq/manage.c changed
step base
step delay
