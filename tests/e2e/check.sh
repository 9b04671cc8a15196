#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm check on the rt kernel: every case passes, its TAP is TAP (perl's
# prove reads it); bugs planted on purpose fail their cases, each named: a
# handler that claims nothing (channel0.work=ignore: the kernel's nobody
# cared), a hard handler that enables interrupts (plant=irqs_on: the
# context promise), an IRQ thread that sleeps with preemption off
# (plant=sleep_atomic: the scheduler's BUG); bad options are refused
# before anything runs.
#
#   check.sh IRQSTORM
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$1" none

status=0
"$irqstorm" check --out "$out/rt" >"$out/rt.out" 2>"$out/rt.err" || status=$?
[ "$status" -eq 0 ] || { cat "$out/rt.out" >&2; fail "check on rt: exit status $status"; }
cmp -s "$out/rt.out" "$out/rt/check.tap" || fail "the TAP printed is not OUT/check.tap"
n=$("$irqstorm" check --list | wc -l)
grep -qx "1\.\.$n" "$out/rt/check.tap" || fail "the TAP plan is not 1..$n"
[ "$(grep -c '^ok ' "$out/rt/check.tap")" -eq "$n" ] || fail "not every case ok"
prove -e cat "$out/rt/check.tap" >"$out/prove.out" 2>&1 || { cat "$out/prove.out" >&2; fail "prove does not pass check.tap"; }
for p in one-at-a-time context handlers-called oneshot thread-priority affinity; do
	grep -q "^# [^:]*: $p (channel " "$out/rt/check.tap" || fail "promise $p judged in no case"
done

# The planted bug: caught in both cases, by the kernel's report, named.
status=0
"$irqstorm" check --out "$out/planted" --cases threaded-intx,shared-threaded+threaded \
	--set channel0.work=ignore >"$out/planted.out" 2>&1 || status=$?
[ "$status" -eq 5 ] || { cat "$out/planted.out" >&2; fail "planted bug: exit status $status, not 5"; }
[ "$(grep -c '^not ok ' "$out/planted/check.tap")" -eq 2 ] || fail "planted bug: not both cases failed"
grep -q '^    - "the kernel: nobody-cared: irq [0-9]*: nobody cared' "$out/planted/check.tap" ||
	fail "planted bug: the kernel's report is not named"
! prove -e cat "$out/planted/check.tap" >/dev/null 2>&1 || fail "prove passes the failed TAP"

# planted CASE PLANT PATTERN: the case fails with exit 5, PATTERN in its YAML.
planted() {
	local status=0
	"$irqstorm" check --out "$out/$2" --cases "$1" --set channel0.plant="$2" \
		>"$out/$2.out" 2>&1 || status=$?
	[ "$status" -eq 5 ] || { cat "$out/$2.out" >&2; fail "plant $2: exit status $status, not 5"; }
	grep -q "^    - \"$3" "$out/$2/check.tap" ||
		{ cat "$out/$2.out" >&2; fail "plant $2: '$3' is not named"; }
}
planted hardirq-msi irqs_on 'promise context, channel 0: its handler ran in hardirq on CPU 0 '
planted threaded-intx sleep_atomic 'the kernel: scheduling-while-atomic: BUG: scheduling while atomic: irq/'

# Bad options: refused, nothing run, nothing written.
status=0
"$irqstorm" check --cases nonsense --out "$out/bad" 2>"$out/bad.err" || status=$?
[ "$status" -eq 1 ] && grep -q "no case 'nonsense'" "$out/bad.err" && [ ! -e "$out/bad" ] ||
	fail "an unknown case: exit $status, $(cat "$out/bad.err")"
status=0
"$irqstorm" check --out "$out/rt" 2>"$out/again.err" || status=$?
[ "$status" -eq 1 ] && grep -q "exists" "$out/again.err" || fail "an existing --out: exit $status"
status=0
"$irqstorm" check --set run.kernel_expect=nobody --out "$out/bad2" 2>"$out/bad2.err" || status=$?
[ "$status" -eq 1 ] && grep -q "no kind of kernel report" "$out/bad2.err" && [ ! -e "$out/bad2" ] ||
	fail "a bad --set: exit $status"
status=0
"$irqstorm" check --cases threaded-msi --set channel0.plant=lock_order --out "$out/bad3" \
	2>"$out/bad3.err" || status=$?
[ "$status" -eq 1 ] && grep -q "needs \[kernel\] debug = true" "$out/bad3.err" && [ ! -e "$out/bad3" ] ||
	fail "lock_order without a debug kernel: exit $status, $(cat "$out/bad3.err")"
echo "ok: irqstorm check: $n cases passed on rt (TAP read by prove); three planted bugs caught, named"
