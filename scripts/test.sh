#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command: build everything (installing what is
# missing) and run every test: rig unit tests, the device qtest, guest boots.
#
#   scripts/test.sh [meson test options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$IRQSTORM_TOP"
"$IRQSTORM_TOP/scripts/build.sh" build
meson test -C build --print-errorlogs "$@"
