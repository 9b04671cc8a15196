#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages irqstorm's host side needs: compilers, build
# tools, libraries, gnuplot. Idempotent and quick when everything is
# already there. Needs root (or sudo).
#
#   scripts/bootstrap.sh [--tests]
#
# --tests adds what only the tests need (clang and its sanitizer and fuzzer
# runtimes, for build-san/; Slurm and munge for e2e-slurm; gdb; chromium
# for e2e-viewer): a first run does not wait for them.
#
# What the guest and QEMU are made of (the kernel sources, QEMU's source,
# the firmware, busybox, cyclictest) is not installed here: the build
# scripts fetch those by the exact versions of scripts/debian-pins into the
# cache, through irqstorm's private apt state (scripts/debian.sh). This
# script changes nothing in the system's apt configuration.
#
# Another apt or dpkg at work (unattended-upgrades on a new cloud machine,
# a second irqstorm bootstrapping): every apt call waits for its lock,
# saying for whom, up to IRQSTORM_APT_WAIT seconds (default 900).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PKGS=(
	# host rig and build system
	build-essential pkg-config meson ninja-build libglib2.0-dev libjson-glib-dev
	# QEMU from Debian's source (see docs/building.md)
	dpkg-dev patch python3 libpixman-1-dev zlib1g-dev libfdt-dev
	# Linux from Debian's source
	bc bison flex libelf-dev libssl-dev cpio xz-utils kmod
	# plots; rt-tests: the host's cyclictest, which the tests hold our
	# outputs against
	rt-tests gnuplot-nox
	# JSON in scripts and tests
	jq
)
TEST_PKGS=(
	# the sanitizer and fuzzing build (scripts/test.sh)
	clang libclang-rt-14-dev
	# e2e-slurm: a one-node cluster the test starts on localhost
	slurm-wlm munge
	# e2e-explain: gdb attached where explain --gdb stopped the guest
	gdb
	# e2e-viewer: the browser irqstorm export's timeline is opened in
	chromium
	# e2e-check: prove reads irqstorm check's TAP
	perl
)
# The tests' hook (tests/e2e/apt-wait.sh): these packages instead.
[ -z "${IRQSTORM_BOOTSTRAP_PKGS:-}" ] || read -ra PKGS <<<"$IRQSTORM_BOOTSTRAP_PKGS"
case ${1:-} in
--tests) PKGS+=("${TEST_PKGS[@]}") ;;
"") ;;
*) echo "usage: bootstrap.sh [--tests]" >&2; exit 2 ;;
esac

SUDO=
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null || { echo "bootstrap: run as root or install sudo" >&2; exit 1; }
	SUDO=sudo
fi

missing_pkgs() {
	local p
	missing=()
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
	done
}

missing_pkgs
[ "${#missing[@]}" -gt 0 ] || { echo "bootstrap: all Debian packages present"; exit 0; }
# Two irqstorm bootstraps at once: the second waits for the first, then
# installs what is still missing (usually nothing).
mkdir -p "$IRQSTORM_CACHE"
exec 8>"$IRQSTORM_CACHE/bootstrap.lock"
if ! flock -n 8; then
	log "another irqstorm bootstrap is installing packages: waiting for it"
	flock 8
	missing_pkgs
	[ "${#missing[@]}" -gt 0 ] || { echo "bootstrap: all Debian packages present"; exit 0; }
fi
# The lists may be as old as the machine's image: fetch them first.
apt_wait $SUDO apt-get update -q
echo "bootstrap: installing ${missing[*]}"
apt_wait $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "bootstrap: all Debian packages present"
