#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Move the pins (scripts/debian-pins) to what Debian's archive has now, and
# show what that does to docs/results.md, for a person to review and commit
# (docs/building.md, "Moving the pins"):
#
#   scripts/update-pins.sh --check      say which pins would move; change nothing
#   scripts/update-pins.sh [OUTDIR]     move them, rebuild, rerun every case
#
# Without --check: the newest version of each fetched or source input (from
# irqstorm's private apt state, its lists fetched now) and the system's own
# version of each checked one are written into scripts/debian-pins; QEMU
# and every kernel docs/results.md uses are built from them (kernel-series/
# and qemu-device/patches/ applied: a patch that no longer applies stops
# here, naming its hunks); scripts/reproduce.sh reruns every case into
# OUTDIR (default results/update-pins) and writes docs/results.md and its
# figures; then the numbers of the page that moved are printed, each with
# its old and new value. `git diff` shows the rest. Exit status: 0 nothing
# moved, 1 an error, 3 pins or numbers moved (review them).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/debian.sh"

usage() { die "usage: update-pins.sh [--check | OUTDIR]"; }
CHECK=
case ${1:-} in
--check) CHECK=1; shift ;;
-*) usage ;;
esac
[ $# -le 1 ] || usage
OUT=$(realpath -m "${1:-$IRQSTORM_TOP/results/update-pins}")
cd "$IRQSTORM_TOP"

for state in $(pin_states); do
	APT_STATE=$state apt_private_update force
done
moves=()
new=$(mktemp)
trap 'rm -f "$new"' EXIT
while IFS= read -r line; do
	read -r how pkg pinned _ <<<"$line"
	case ${how%@*} in
	fetched | source)
		# shellcheck disable=SC2046 # one version per word
		now=$(debian_newest $(debian_versions "$pkg" "$how"))
		[ -n "$now" ] || die "Debian's archive has no $pkg at all"
		;;
	checked)
		now=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) ||
			die "$pkg (checked) is not installed: run scripts/bootstrap.sh"
		;;
	*)
		printf '%s\n' "$line" >>"$new"
		continue
		;;
	esac
	if [ "$now" != "$pinned" ]; then
		moves+=("$pkg $pinned -> $now")
		# The version column keeps its place; the rest of the line stays.
		line=$(awk -v o="$pinned" -v n="$now" '{ i = index($0, o); print substr($0, 1, i - 1) n substr($0, i + length(o)) }' <<<"$line")
	fi
	printf '%s\n' "$line" >>"$new"
done <"$PINS_FILE"

if [ "${#moves[@]}" -eq 0 ]; then
	log "every pin is what Debian has now: nothing to move"
	exit 0
fi
log "pins that move:"
printf '  %s\n' "${moves[@]}" >&2
[ -z "$CHECK" ] || exit 3

cp "$new" "$PINS_FILE"
log "wrote $PINS_FILE; building QEMU and every kernel of docs/results.md from it"
"$IRQSTORM_TOP/scripts/build.sh" build rt dyn dyn-6.1
mkdir -p "$(dirname "$OUT")"
cp docs/results.md "$OUT.results.md.before"
"$IRQSTORM_TOP/scripts/reproduce.sh" --irqstorm build/rig/irqstorm "$OUT"
log "what moved in docs/results.md (old -> new):"
status=0
python3 "$IRQSTORM_TOP/scripts/results-diff.py" "$OUT.results.md.before" docs/results.md || status=$?
[ "$status" -le 1 ] || die "results-diff.py failed"
log "review with git diff (scripts/debian-pins, docs/results.md, docs/figures/), then commit"
exit 3
