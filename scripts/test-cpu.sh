#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# meson test --wrapper: runs a test as it is, then records its wall and
# CPU time (its own and every process it waited for: the rig, QEMU, a
# kernel build) in IRQSTORM_TIMES, for scripts/ci-times.py. The test's
# exit status is its own.
#
#   meson test -C build --wrapper scripts/test-cpu.sh
. "$(dirname "$0")/lib.sh"

start=$SECONDS
"$@"
rc=$?
step_times "test $*" $((SECONDS - start)) "0 0" "$(children_cpu)"
exit "$rc"
