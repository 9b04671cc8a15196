#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every name a contract table of include/irqstorm/ declares (pattern,
# property, counter, stamp, stage, guest.conf key, result key, section kind,
# work context) is
# documented in docs/abi.md, as `name` in code quotes: a row added to a
# table without its documentation fails here.
#
#   documented.sh NAMES-PROGRAM DOCS/ABI.MD
set -euo pipefail
names=$1
doc=$2
missing=0
while read -r table name; do
	grep -qF "\`$name\`" "$doc" || {
		echo "FAIL: $table $name is not documented in ${doc##*/}" >&2
		missing=$((missing + 1))
	}
done < <("$names" | grep -v '^stamp-field ')	# the record's fields: stamps.sh
[ "$missing" -eq 0 ] || exit 1
echo "ok: $("$names" | wc -l) names of include/irqstorm/ documented in ${doc##*/}"
