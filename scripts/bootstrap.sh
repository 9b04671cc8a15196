#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install the Debian packages irqstorm needs and enable deb-src (for `apt-get source qemu`).
# Idempotent and quick when everything is already there. Needs root (or sudo).
#
#   scripts/bootstrap.sh [--tests]
#
# --tests adds what only the tests need (clang and its sanitizer and fuzzer
# runtimes, for build-san/; Slurm and munge for e2e-slurm): a first run
# does not wait for them.
set -euo pipefail

PKGS=(
	# host rig and build system
	build-essential pkg-config meson ninja-build libglib2.0-dev libjson-glib-dev
	# QEMU from Debian's source (see docs/building.md)
	dpkg-dev patch python3 libpixman-1-dev zlib1g-dev libfdt-dev
	seabios qemu-system-data
	# Linux from Debian's source
	linux-source-6.12 bc bison flex libelf-dev libssl-dev cpio xz-utils kmod
	# [kernel] source = debian-6.1: Debian 12's own kernel source
	linux-source-6.1
	# guest userland (cyclictest: the guest's optional cross-check) and plots
	busybox-static rt-tests gnuplot-nox
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
)
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

# deb-src: mirror every "Types: deb" stanza of the system's deb822 sources as deb-src.
enable_deb_src() {
	local out=/etc/apt/sources.list.d/irqstorm-deb-src.sources
	if grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 1	# already enabled (by us or by the admin)
	fi
	local src=/etc/apt/sources.list.d/debian.sources
	if [ -f "$src" ]; then
		sed -e 's/^Types:.*/Types: deb-src/' "$src" | $SUDO tee "$out" >/dev/null
	elif [ -f /etc/apt/sources.list ]; then
		sed -n -e 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list |
			$SUDO tee /etc/apt/sources.list.d/irqstorm-deb-src.list >/dev/null
	else
		echo "bootstrap: cannot find Debian apt sources to mirror as deb-src" >&2
		exit 1
	fi
	echo "bootstrap: enabled deb-src in $out"
	return 0
}

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

need_update=0
enable_deb_src && need_update=1
[ "${#missing[@]}" -gt 0 ] && need_update=1
# apt-get source needs the deb-src index, which exists only after an update.
ls /var/lib/apt/lists/*_Sources >/dev/null 2>&1 || need_update=1

if [ "$need_update" -eq 1 ]; then
	$SUDO apt-get update -q
fi
if [ "${#missing[@]}" -gt 0 ]; then
	echo "bootstrap: installing ${missing[*]}"
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "bootstrap: all Debian packages present"
