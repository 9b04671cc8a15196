#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A stage's stamp is a row of IRQSTORM_STAMPS (include/irqstorm/abi.h),
# and the rig follows the table: no source of rig/ names a stamp's time or
# vCPU field of the record (t_hardirq, cpu_bh, ...); records.csv's
# columns, the log's byte order, the stages, the timeline and the sweep
# take them from the table (docs/architecture.md, "A stage"). A consumer
# that spells one fails here, so that a new stage needs it changed too.
#
#   stamps.sh NAMES-PROGRAM RIG-DIR ABI-HEADER
set -euo pipefail
names=$1
rig=$2
abi=$3
fields=$("$names" | sed -n 's/^stamp-field //p')
[ -n "$fields" ] || { echo "FAIL: no stamp field declared" >&2; exit 1; }
found=0
for f in $fields; do
	# The check itself: the table's header spells it.
	grep -qw -- "$f" "$abi" || { echo "FAIL: $f is not in $abi: the check is broken" >&2; exit 1; }
	if grep -rnw --include='*.c' --include='*.h' -- "$f" "$rig" >&2; then
		echo "FAIL: the rig spells the stamp field $f (above): take it from IRQSTORM_STAMPS" >&2
		found=1
	fi
done
[ "$found" -eq 0 ] || exit 1
echo "ok: $(echo "$fields" | wc -w) stamp fields, none spelled by the rig"
