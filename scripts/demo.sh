#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's first command: set everything up from a fresh Debian 12
# machine, run the default scenario, plot it.
#
#   scripts/demo.sh [SCENARIO]          (default: scenarios/default.ini)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SCENARIO=${1:-scenarios/default.ini}
cd "$IRQSTORM_TOP"
"$IRQSTORM_TOP/scripts/build.sh" build
name=$(basename "${SCENARIO%.*}")
status=0
build/rig/irqstorm run "$SCENARIO" --out "results/$name" || status=$?
# Plot whatever was collected, even from an incomplete run.
if [ -f "results/$name/histogram.txt" ]; then
	build/rig/irqstorm plot "results/$name" | sed "s|^|plot: $IRQSTORM_TOP/|"
fi
exit "$status"
