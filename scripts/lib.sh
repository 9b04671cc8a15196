# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers for irqstorm's build scripts. Source it; do not run it.

IRQSTORM_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
IRQSTORM_CACHE=${IRQSTORM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/irqstorm}
# QEMU's configure breaks with a pyenv python3 first in PATH (docs/building.md).
PLAIN_PATH=/usr/sbin:/usr/bin:/sbin:/bin

log() { printf '%s: %s\n' "${0##*/}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# hash_inputs STRING... : 16 hex digits of sha256 over the strings and, for
# arguments naming files, their contents.
hash_inputs() {
	local a
	for a in "$@"; do
		if [ -f "$a" ]; then
			printf 'file %s\n' "${a##*/}"
			cat "$a"
		else
			printf 'str %s\n' "$a"
		fi
	done | sha256sum | cut -c1-16
}

# read_series SERIES PATCHDIR : set SERIES_PATCHES to the paths of the
# patches SERIES names (quilt style: one per line, # comments), in order.
read_series() {
	local p
	SERIES_PATCHES=()
	while read -r p; do
		[ -n "$p" ] || continue
		[ -f "$2/$p" ] || die "$1 names $p, which is not in $2"
		SERIES_PATCHES+=("$2/$p")
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1")
}

# apply_patches TREE WHAT PATCH... : apply each exactly or stop, naming it:
# no fuzz, every line of context must match (only an offset is allowed).
apply_patches() {
	local tree=$1 what=$2 p
	shift 2
	for p in "$@"; do
		log "applying ${p##*/}"
		patch -d "$tree" -p1 --fuzz=0 --forward --batch --quiet --no-backup-if-mismatch <"$p" ||
			die "patch ${p##*/} does not apply to $what; tree left unfinished in $tree"
	done
}

# sync_file SRC DST : copy only when the content differs, so that mtimes
# (and thus ninja/kbuild incremental rebuilds) move only on real changes.
# The copy is renamed into place: a reader never sees half a file.
sync_file() {
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		install -m 0644 "$1" "$2.tmp.$$" && mv -f "$2.tmp.$$" "$2"
	fi
}

# elapsed START : the time since START (a value of $SECONDS), as 1m05s.
elapsed() {
	local s=$((SECONDS - $1))
	if [ "$s" -ge 60 ]; then
		printf '%dm%02ds' $((s / 60)) $((s % 60))
	else
		printf '%ds' "$s"
	fi
}

# progress_of KIND LOG : how far the command writing LOG got. KIND ninja:
# ninja's last "[done/total]"; kbuild: the files kbuild compiled or linked so
# far; anything else: nothing.
progress_of() {
	local n
	case $1 in
	ninja)
		n=$(grep -o '^\[[0-9]*/[0-9]*\]' "$2" 2>/dev/null | tail -n 1 | tr -d '[]')
		[ -z "$n" ] || printf ', %s of %s steps' "${n%/*}" "${n#*/}"
		;;
	kbuild)
		n=$(grep -c '^  [A-Z][A-Z0-9_]* ' "$2" 2>/dev/null) || true
		printf ', %s files' "${n:-0}"
		;;
	esac
}

# run_progress LABEL LOG KIND CMD... : run CMD with its output in LOG. Says
# LABEL when it starts, then every IRQSTORM_PROGRESS_SECONDS (default 20) the
# time so far and progress_of KIND, and at the end how long it took. A long
# build is never silent, and a terminal is not flooded. CMD's status.
run_progress() {
	local label=$1 log=$2 kind=$3 start=$SECONDS every=${IRQSTORM_PROGRESS_SECONDS:-20}
	local pid rc=0 next
	shift 3
	log "$label ..."
	"$@" >"$log" 2>&1 &
	pid=$!
	# Stopped with the script (^C, a failed sibling): stop CMD too.
	trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; exit 130' INT TERM
	next=$((SECONDS + every))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$SECONDS" -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			log "$label: $(elapsed "$start")$(progress_of "$kind" "$log")"
			next=$((SECONDS + every))
		fi
	done
	wait "$pid" || rc=$?
	trap - INT TERM
	[ "$rc" -ne 0 ] || log "$label: done in $(elapsed "$start")$(progress_of "$kind" "$log")"
	return "$rc"
}

# deb_src_version PKG : the full version (with epoch) `apt-get source PKG`
# would fetch: the .dsc it names, matched against apt-cache's list.
deb_src_version() {
	local dsc v
	dsc=$(apt-get source --print-uris "$1" 2>/dev/null |
		sed -n "s/^'[^']*' $1_\(.*\)\.dsc .*/\1/p" | head -n 1)
	[ -n "$dsc" ] || return 0
	for v in $(apt-cache showsrc "$1" | sed -n 's/^Version: //p'); do
		if [ "${v#*:}" = "$dsc" ]; then
			echo "$v"
			return 0
		fi
	done
}

# link_artifact TARGET LINK : make LINK a symlink to TARGET (atomically).
link_artifact() {
	mkdir -p "$(dirname "$2")"
	ln -sfn "$1" "$2.tmp.$$" && mv -Tf "$2.tmp.$$" "$2"
}
