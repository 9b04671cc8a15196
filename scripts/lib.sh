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

# apply_patches TREE WHAT PATCH... : apply each exactly or stop, naming it
# and each hunk that does not apply: no fuzz, every line of context must
# match (only an offset is allowed). Tried first, so a patch that does not
# apply leaves the tree as the previous one left it.
apply_patches() {
	local tree=$1 what=$2 p out
	local opts=(-d "$tree" -p1 --fuzz=0 --forward --batch --no-backup-if-mismatch)
	shift 2
	for p in "$@"; do
		log "applying ${p##*/}"
		if ! out=$(patch "${opts[@]}" --dry-run <"$p" 2>&1); then
			printf '%s\n' "$out" | awk '
				/^(patching|checking) file / { f = $3 }
				/^Hunk #[0-9]+ FAILED/ { sub(/\.$/, ""); print "  " f ": " $0 }
				/^Reversed|can.t find file|^No file to patch/ { print "  " $0 }' >&2
			die "patch ${p##*/} does not apply to $what (above: the hunks that fail); tree left unfinished in $tree"
		fi
		patch "${opts[@]}" --quiet <"$p" || die "patch ${p##*/} failed on $what; tree left unfinished in $tree"
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

# children_cpu : the user and system CPU seconds of this script's children
# that have ended and been waited for, as "USER SYS" (its /proc stat's
# cutime and cstime: $$ is the script's own pid, in a subshell too).
children_cpu() {
	sed 's/.*) //' "/proc/$$/stat" |
		awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f %.2f\n", $14 / hz, $15 / hz }'
}

# step_times LABEL WALL CPU0 CPU1 : one line of IRQSTORM_TIMES (when set: a
# file that scripts/ci-times.py reads), SCRIPT, LABEL, start, wall seconds,
# and the user and system CPU seconds between children_cpu's CPU0 and CPU1.
step_times() {
	[ -n "${IRQSTORM_TIMES:-}" ] || return 0
	awk -v s="${0##*/}" -v l="$1" -v w="$2" -v a="$3" -v b="$4" -v now="$(date +%s)" '
		BEGIN { split(a, x, " "); split(b, y, " ")
			printf "%s\t%s\t%d\t%d\t%.1f\t%.1f\n", s, l, now - w, w,
				y[1] - x[1], y[2] - x[2] }' >>"$IRQSTORM_TIMES"
}

# run_progress LABEL LOG KIND CMD... : run CMD with its output in LOG. Says
# LABEL when it starts, then every IRQSTORM_PROGRESS_SECONDS (default 20) the
# time so far and progress_of KIND, and at the end how long it took. A long
# build is never silent, and a terminal is not flooded. Its wall and CPU
# time go to IRQSTORM_TIMES (step_times). CMD's status.
run_progress() {
	local label=$1 log=$2 kind=$3 start=$SECONDS every=${IRQSTORM_PROGRESS_SECONDS:-20}
	local pid rc=0 next cpu0
	cpu0=$(children_cpu)
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
	step_times "$label" $((SECONDS - start)) "$cpu0" "$(children_cpu)"
	[ "$rc" -ne 0 ] || log "$label: done in $(elapsed "$start")$(progress_of "$kind" "$log")"
	return "$rc"
}

# apt_wait CMD... : run an apt command; while it fails because another apt
# or dpkg holds a lock (unattended-upgrades on a new machine, another
# irqstorm), say so, naming the holder, and try again every 2 s, up to
# IRQSTORM_APT_WAIT seconds (default 900). Any other failure is CMD's.
apt_wait() {
	local bound=${IRQSTORM_APT_WAIT:-900} start=$SECONDS next=$SECONDS err rc holder
	err=$(mktemp)
	while :; do
		rc=0
		"$@" 2>"$err" || rc=$?
		if [ "$rc" -eq 0 ] || ! grep -qE 'Could not get lock|Unable to acquire the dpkg frontend lock|Unable to lock' "$err"; then
			cat "$err" >&2
			rm -f "$err"
			return "$rc"
		fi
		holder=$(sed -n 's/.*It is held by process \([0-9]* ([^)]*)\).*/\1/p' "$err" | head -n 1)
		if [ $((SECONDS - start)) -ge "$bound" ]; then
			cat "$err" >&2
			rm -f "$err"
			log "error: apt's lock is still held by ${holder:-another apt or dpkg} after ${bound} s (IRQSTORM_APT_WAIT)"
			return "$rc"
		fi
		if [ "$SECONDS" -ge "$next" ]; then
			log "waiting for apt's lock, held by ${holder:-another apt or dpkg}: $(elapsed "$start") so far, up to ${bound} s (IRQSTORM_APT_WAIT)"
			next=$((SECONDS + 30))
		fi
		sleep 2
	done
}

# lock_wait FD LOCKFILE WHAT : take an exclusive flock on FD (open on
# LOCKFILE) for WHAT ("the rt kernel's build directory"). While another
# holds it, say whom (LOCKFILE.holder: its pid, what it does, since when)
# and how long this one has waited, every 30 s, then take it when it is
# free. A holder that died without a word (kill -9) lost its lock with it:
# flock locks end with their process, never stale.
lock_wait() {
	local fd=$1 lock=$2 what=$3 start=$SECONDS next=$SECONDS holder
	while ! flock -n "$fd"; do
		if [ "$SECONDS" -ge "$next" ]; then
			holder=$(cat "$lock.holder" 2>/dev/null) || holder=
			log "waiting for $what, locked by ${holder:-another irqstorm build}: $(elapsed "$start") so far"
			next=$((SECONDS + 30))
		fi
		sleep 2
	done
	printf 'pid %s (%s: %s), since %s\n' "$$" "${0##*/}" "$what" "$(date '+%H:%M:%S')" \
		>"$lock.holder"
}

# build_hugepages : from here on, this script's compilers run with
# transparent huge pages (scripts/hugepages.c, built once into the cache
# with the system's cc; glibc's malloc tunable beside it): the same output,
# a third less CPU where page faults are dear (docs/performance.md).
# IRQSTORM_HUGEPAGES=off leaves the environment as it is.
build_hugepages() {
	local c=$IRQSTORM_TOP/scripts/hugepages.c so
	[ "${IRQSTORM_HUGEPAGES:-on}" != off ] || return 0
	so=$IRQSTORM_CACHE/tools/hugepages-$(hash_inputs "$c" "$(cc -dumpfullversion 2>&1)").so
	if [ ! -f "$so" ]; then
		mkdir -p "${so%/*}"
		cc -O2 -Wall -Werror -shared -fPIC -o "$so.tmp.$$" "$c" -ldl &&
			mv -f "$so.tmp.$$" "$so" || die "cannot build $c"
	fi
	case " ${LD_PRELOAD:-} " in *" $so "*) return 0 ;; esac
	export LD_PRELOAD="$so${LD_PRELOAD:+ $LD_PRELOAD}"
	export GLIBC_TUNABLES="glibc.malloc.hugetlb=1${GLIBC_TUNABLES:+:$GLIBC_TUNABLES}"
}

# link_artifact TARGET LINK : make LINK a symlink to TARGET (atomically).
link_artifact() {
	mkdir -p "$(dirname "$2")"
	ln -sfn "$1" "$2.tmp.$$" && mv -Tf "$2.tmp.$$" "$2"
}
