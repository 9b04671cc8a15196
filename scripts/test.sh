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
#
# Every phase, build step and test is timed (wall and CPU) into
# build/meson-logs/irqstorm-times.tsv, and the table of where the time
# went (scripts/ci-times.py, docs/performance.md) is printed at the end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cd "$IRQSTORM_TOP"
mkdir -p build/meson-logs
export IRQSTORM_TIMES=$IRQSTORM_TOP/build/meson-logs/irqstorm-times.tsv
: >"$IRQSTORM_TIMES"

# phase LABEL CMD... : CMD, its wall and CPU time recorded as a phase.
phase() {
	local label=$1 start=$SECONDS cpu0 rc=0
	shift
	cpu0=$(children_cpu)
	"$@" || rc=$?
	step_times "$label" $((SECONDS - start)) "$cpu0" "$(children_cpu)"
	return "$rc"
}

# The kernels the tests boot (meson's kernel_flavours), built before any
# test, two at a time beside QEMU (scripts/build-guest.sh): rt first, as
# the most tests need it; rt-7.3-bh-lock last, made from rt-7.3's build.
KERNELS=(rt dyn rt-7.3 dyn-7.3 dyn-6.1 rt-7.3-bh-lock)

phase "Debian packages (bootstrap.sh --tests)" "$IRQSTORM_TOP/scripts/bootstrap.sh" --tests
# e2e-viewer's speedscope, by the version and hash scripts/npm-pins names:
# fetched here, so that no test fetches anything.
phase "speedscope (npm-fetch.sh)" "$IRQSTORM_TOP/scripts/npm-fetch.sh" speedscope >/dev/null
phase "the rig, QEMU and the kernels (build.sh)" "$IRQSTORM_TOP/scripts/build.sh" build "${KERNELS[@]}"
status=0
phase "meson test -C build" meson test -C build --print-errorlogs \
	--wrapper "$IRQSTORM_TOP/scripts/test-cpu.sh" "$@" || status=1

fuzz=${IRQSTORM_FUZZ_SECONDS:-60}
san() {
	if [ ! -f build-san/build.ninja ]; then
		CC=clang meson setup build-san -Dguest=false -Dfuzz=true -Dfuzz_seconds="$fuzz" \
			-Db_sanitize=address,undefined -Db_lundef=false
	else
		meson configure build-san -Dfuzz_seconds="$fuzz"
	fi
	meson test -C build-san --print-errorlogs
}
phase "build-san: setup, build, meson test" san || status=1
echo
echo "Where the time went (scripts/ci-times.py $IRQSTORM_TIMES):"
"$IRQSTORM_TOP/scripts/ci-times.py" "$IRQSTORM_TIMES" build/meson-logs/testlog-test-cpu.sh.json || true
exit "$status"
