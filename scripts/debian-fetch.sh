#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Print the directory where a fetched Debian input of scripts/debian-pins
# is unpacked in the cache, fetching it first if need be (scripts/debian.sh:
# the pinned version, or the newest the archive has, said loudly).
#
#   scripts/debian-fetch.sh PACKAGE      e.g. linux-source-6.12
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/debian.sh"

pkg=${1:?usage: debian-fetch.sh PACKAGE}
[ "$(pin_how "$pkg")" = fetched ] || die "$pkg is not a fetched input of $PINS_FILE"
debian_unpack "$pkg"
printf '%s\n' "$DEB_DIR"
