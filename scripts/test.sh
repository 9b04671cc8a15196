#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's second command: build everything (installing what is
# missing) and run every test:
#   build/      rig unit tests, the device qtest, guest boots, checkpatch
#   build-san/  the rig again, built by clang with AddressSanitizer and
#               UBSan, its unit tests, and the scenario parser's fuzzer
#               for a bounded time (IRQSTORM_FUZZ_SECONDS, default 60)
#
#   scripts/test.sh [meson test options for build/]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$IRQSTORM_TOP"
"$IRQSTORM_TOP/scripts/bootstrap.sh" --tests
# e2e-viewer's speedscope, by the version and hash scripts/npm-pins names:
# fetched here, so that no test fetches anything.
"$IRQSTORM_TOP/scripts/npm-fetch.sh" speedscope >/dev/null
# Both flavours: the tests boot each.
"$IRQSTORM_TOP/scripts/build.sh" build rt dyn
status=0
meson test -C build --print-errorlogs "$@" || status=1

fuzz=${IRQSTORM_FUZZ_SECONDS:-60}
if [ ! -f build-san/build.ninja ]; then
	CC=clang meson setup build-san -Dguest=false -Dfuzz=true -Dfuzz_seconds="$fuzz" \
		-Db_sanitize=address,undefined -Db_lundef=false
else
	meson configure build-san -Dfuzz_seconds="$fuzz"
fi
meson test -C build-san --print-errorlogs || status=1
exit "$status"
