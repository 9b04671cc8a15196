#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Kernel style: the tree's own scripts/checkpatch.pl --strict must report
# 0 errors, 0 warnings and 0 checks on every patch of kernel-series/, on
# the driver's sources, and on the contract headers the driver compiles
# from (include/irqstorm/). Those are shared with QEMU and user space, so
# they are checked as the kernel checks its uapi headers (at a path under
# include/uapi/: C99 types, no BIT()), and their X-macro tables, the
# kernel's own idiom for one list expanded several ways, are exempt from
# the three checks that cannot tell such a table from a careless macro.
#
#   checkpatch.sh LINUX-SOURCE-DIR REPO-TOP [7.3]
# (7.3: kernel-series/series-7.3, the patches as ported, by 7.3's own
# checkpatch.pl.)
set -euo pipefail
src=$(cd "$1" && pwd)
top=$(cd "$2" && pwd)
suffix=${3:+-$3}
cp=$src/scripts/checkpatch.pl
[ -f "$cp" ] || { echo "no $cp" >&2; exit 1; }
opts=(--strict --root="$src" --color=never --summary-file --show-types)
fail=0
# From inside the tree: checkpatch's SPDX check wants the tree to be a git
# checkout; Debian's tarball is not, and the check is skipped there.
cd "$src"

. "$top/scripts/lib.sh"
read_series "$top/kernel-series/series$suffix" "$top/kernel-series/patches$suffix"
for p in "${SERIES_PATCHES[@]}"; do
	echo "# checkpatch: ${p#"$top"/kernel-series/}"
	perl "$cp" "${opts[@]}" "$p" || fail=1
done

for f in "$top"/kernel-series/driver/*.c "$top"/kernel-series/driver/*.h; do
	[ -e "$f" ] || continue
	echo "# checkpatch: ${f#"$top"/}"
	perl "$cp" "${opts[@]}" -f "$f" || fail=1
done
uapi=$(mktemp -d)
trap 'rm -rf "$uapi"' EXIT
mkdir -p "$uapi/include/uapi/irqstorm"
for h in "$top"/include/irqstorm/*.h; do
	ln -s "$h" "$uapi/include/uapi/irqstorm/${h##*/}"
	echo "# checkpatch: ${h#"$top"/} (as include/uapi/irqstorm/${h##*/})"
	(cd "$uapi" && perl "$cp" "${opts[@]}" --no-tree \
		--ignore COMPLEX_MACRO,MACRO_ARG_REUSE,MACRO_ARG_UNUSED \
		-f "include/uapi/irqstorm/${h##*/}") || fail=1
done
exit "$fail"
