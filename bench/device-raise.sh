#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark: the device's raise path under qtest clock stepping. About a
# million MSI-X firings at 1 MHz and at 10 MHz of virtual time, each an
# event and a message, acked in batches of the queue's depth as a driver
# would (so each is also a published or counted record, and none is
# dropped); checks the raise count is exact and prints QEMU's CPU time per
# million raises (rusage of QEMU, minus a run of the same acks alone).
#
#   bench/device-raise.sh [BUILDDIR]       (default: build)
# Exit status is non-zero only when the benchmark could not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
qtest=$build/qemu-device/irqstorm-qtest
qemu=$build/qemu-device/qemu-system-x86_64
[ -x "$qtest" ] && [ -x "$qemu" ] || { echo "build first: scripts/build.sh" >&2; exit 1; }
echo "host: $(nproc) cores, $(uname -r); qtest accelerator (no guest code runs)"
QTEST_QEMU_BINARY=$qemu "$qtest" -m perf -p /x86_64/irqstorm/perf/raise 2>&1 |
	grep '^irqstorm-raise'
