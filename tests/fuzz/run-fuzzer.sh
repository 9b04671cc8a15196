#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run a libFuzzer target for a bounded time; a crash fails the test, and its
# input is left in the build directory (crash-*) to add to regressions/.
#   run-fuzzer.sh FUZZER NEW-CORPUS-DIR SEED-CORPUS-DIR SECONDS
set -euo pipefail
fuzzer=$(readlink -f "$1")
new=$2
seed=$(readlink -f "$3")
seconds=$4
mkdir -p "$new"
cd "$(dirname "$new")"
# libFuzzer exits 77 on a crash or leak by default, which meson reads as
# "skipped": make it a failure.
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-error_exitcode=1 -print_final_stats=1 "$new" "$seed"
