#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# [guest] cyclictest: Debian's cyclictest runs in the guest beside the
# probe, from its own initramfs, through the whole storm, and agrees with
# the probe on the worst wake-up within the spread measured over seeds
# (both are SCHED_FIFO clock_nanosleep loops on the same CPU, one
# priority apart).
#
#   cyclictest.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

"$irqstorm" run "$scenario" --out "$out/run" "${extra[@]}" \
	--set guest.probe=true --set guest.cyclictest=true >"$out/stdout" ||
	{ cat "$out/run/INCOMPLETE" 2>/dev/null; fail "run exited $?"; }
s=$out/run/summary.json
grep -q -- '-cyclictest\.cpio\.gz' "$out/run/qemu-cmdline.txt" ||
	fail "the run did not boot the cyclictest initramfs"
jq -e '.complete and (.failed_checks | length) == 0' "$s" >/dev/null ||
	fail "$(jq -c '{complete, failed_checks}' "$s")"
# 0.5 s of storm at the probe's 1 ms period: the probe samples only inside
# it; cyclictest runs from before it to after it, so it has more cycles
# (measured: 508 and 579; the rig checks at least 500, a failed check above).
ct=$(jq '.counts.guest.cyclictest_cycles' "$s")
probe=$(jq '.counts.guest.probe_samples' "$s")
[ "$probe" -ge 500 ] && [ "$ct" -gt "$probe" ] ||
	fail "cyclictest cycles $ct, probe samples $probe: cyclictest did not span the storm"
ct_max=$(jq '.counts.guest.cyclictest_max_us' "$s")
probe_max=$(jq '.stages.probe.max / 1000' "$s")
# The run is deterministic (icount, seed 1): the two maxima are the same on
# every machine until the guest changes. This test's: 40 / 35.3 (1.13) with
# the guest of issue 16 (2026-12-05). Measured 2026-12-04 (TCG, icount
# shift=3, rt, the guest of commit "driver: the regions' results shown by
# one helper"), cyclictest max / probe max in us for seeds 1 to 6: 33 / 35.2
# (0.94, this test's then), 37 / 38.0 (0.97), 32 / 33.6 (0.95), 45 / 39.7
# (1.13), 81 / 28.2 (2.87), 56 / 31.1 (1.80); earlier guests gave 0.72 to
# 1.35. Both wake every millisecond on one CPU, but not at the same instant
# (cyclictest starts later, one priority below, and waits for the probe's
# own wake-up when they meet), so an interrupt that delays one may miss the
# other: either maximum can be the larger, cyclictest's by up to about 3.
# Allowed: 0.65 to 3 times the probe's, that spread with a margin.
awk -v c="$ct_max" -v p="$probe_max" 'BEGIN { exit !(c >= 0.65 * p && c <= 3 * p) }' ||
	fail "cyclictest max $ct_max us is not within 0.65 to 3 times the probe's max $probe_max us"
grep -q "cyclictest (guest, FIFO 79, every 1000 us): [0-9]* cycles" "$out/stdout" ||
	fail "no cyclictest line in the summary: $(cat "$out/stdout")"
echo "ok: cyclictest $(jq -r '.counts.guest | "\(.cyclictest_cycles) cycles, min/avg/max \(.cyclictest_min_us)/\(.cyclictest_avg_us)/\(.cyclictest_max_us) us"' "$s"); probe max $probe_max us"
