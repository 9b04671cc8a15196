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
# A rerun replaces the demo's earlier result, once it is complete itself.
build/rig/irqstorm run "$SCENARIO" --out "results/$name" --replace || status=$?
# Plot whatever this run collected, even when it is incomplete (then it is
# beside the earlier result, in results/NAME.partial).
dir=results/$name
[ ! -d "$dir.partial" ] || dir=$dir.partial
if [ -f "$dir/histogram.txt" ]; then
	build/rig/irqstorm plot "$dir" | sed "s|^|plot: $IRQSTORM_TOP/|"
fi
exit "$status"
