#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The keys of the build identities, declared in include/irqstorm/identity.h,
# are exactly the keys the build scripts write (build-qemu.sh, build-
# kernel.sh, kernel-tree.sh, and debian.sh for all three identities: printf
# formats "KEY=%s"): a key written and
# not declared, or declared and written by none, fails here.
#
#   identity.sh NAMES-PROGRAM SCRIPTS-DIR
set -euo pipefail
names=$1
scripts=$2
declared=$("$names" | sed -n 's/^identity //p' | LC_ALL=C sort)
written=$(cat "$scripts/build-qemu.sh" "$scripts/build-kernel.sh" "$scripts/kernel-tree.sh" \
	"$scripts/debian.sh" |
	grep -oE '(qemu|kernel|irqstorm|debian)-[a-z-]*=%s' | sed 's/=%s$//' | LC_ALL=C sort -u)
[ -n "$declared" ] || { echo "FAIL: no identity key declared" >&2; exit 1; }
if [ "$declared" != "$written" ]; then
	echo "FAIL: declared in include/irqstorm/identity.h and written by the scripts differ:" >&2
	diff <(echo "$declared") <(echo "$written") | sed -n 's/^</  declared only: /p; s/^>/  written only:  /p' >&2
	exit 1
fi
echo "ok: $(echo "$declared" | wc -l) identity keys, declared once and written by the build scripts"
