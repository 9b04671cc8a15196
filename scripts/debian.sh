# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Debian's inputs by exact version (scripts/debian-pins), fetched through
# irqstorm's private apt state: its own sources (the system's Debian
# archive, with deb-src), lists, cache and lock under $IRQSTORM_CACHE/apt.
# The system's apt configuration, lists and installed packages are never
# touched, and the system's apt lock is never needed. Sourced after lib.sh.
#
# A build script resolves each input (debian_resolve: the pinned version,
# or when the archive no longer has it, the newest it has, said loudly),
# fetches it (debian_unpack, or apt_private source), and writes what it
# used into its identity file: debian_identity_lines.

PINS_FILE=$IRQSTORM_TOP/scripts/debian-pins
APT_STATE=$IRQSTORM_CACHE/apt
DEB_CACHE=$IRQSTORM_CACHE/debian
# The inputs this script used ("pkg version", comma-separated) and those
# that are not the pinned version ("pkg version (pinned V)", "; "-separated).
DEB_INPUTS=
DEB_DIFFER=
DEB_LISTS_FRESH=

# pin_field PACKAGE N: field N of PACKAGE's line in debian-pins (1 how,
# with its @SUITE if any, 3 version); dies if the package is not pinned.
pin_field() {
	local v
	v=$(awk -v p="$1" -v n="$2" '!/^#/ && $2 == p { print $n; exit }' "$PINS_FILE")
	[ -n "$v" ] || die "$1 is not in $PINS_FILE"
	printf '%s\n' "$v"
}

# pin_how PACKAGE: fetched, source or checked.
pin_how() {
	local how
	how=$(pin_field "$1" 1)
	printf '%s\n' "${how%@*}"
}

# pin_state PACKAGE: the private apt state it comes through: the one of
# the system's own release, or for a package pinned from another suite
# (how@SUITE, e.g. fetched@trixie-backports) that suite's own.
pin_state() {
	local how
	how=$(pin_field "$1" 1)
	case $how in
	*@*) printf '%s\n' "$IRQSTORM_CACHE/apt-${how#*@}" ;;
	*) printf '%s\n' "$IRQSTORM_CACHE/apt" ;;
	esac
}

# pin_states: every private apt state the pins use, one per line.
pin_states() {
	local pkg
	for pkg in $(awk '!/^#/ && NF >= 3 && $1 != "checked" { print $2 }' "$PINS_FILE"); do
		pin_state "$pkg"
	done | sort -u
}

# The private state's sources: $IRQSTORM_APT_SOURCES (a deb822 .sources
# file: the tests give a local repository) or the system's stanzas for its
# own Debian release, as deb and deb-src; for another suite's state
# (apt-SUITE), the system's Debian archive (not its security archive) with
# that suite alone. Rewritten only when they change.
apt_state_sources() {
	local out=$APT_STATE/sources.d/irqstorm.sources codename suite=
	mkdir -p "$APT_STATE/sources.d" "$APT_STATE/lists/partial" "$APT_STATE/cache" \
		"$APT_STATE/archives/partial"
	if [ -n "${IRQSTORM_APT_SOURCES:-}" ]; then
		sync_file "$IRQSTORM_APT_SOURCES" "$out"
		rm -f "${out%.sources}.list"
		return
	fi
	case ${APT_STATE##*/} in apt-*) suite=${APT_STATE##*/apt-} ;; esac
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	[ -n "$codename" ] || die "cannot tell this system's Debian release (/etc/os-release has no VERSION_CODENAME)"
	# deb822 stanzas whose Suites name this release, as deb and deb-src;
	# for a suite, the first of the main archive, with Suites: that suite.
	cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
		awk -v c="$codename" -v s="$suite" 'BEGIN { RS = ""; ORS = "\n\n" }
			$0 ~ "Suites:[^\n]*" c {
				sub(/Types:[^\n]*/, "Types: deb deb-src")
				if (s == "") { print; next }
				if ($0 ~ /URIs:[^\n]*security/ || done) next
				sub(/Suites:[^\n]*/, "Suites: " s); print; done = 1
			}' >"$out.tmp"
	# One-line entries ("deb [opts] URI SUITE COMPONENTS...") for it.
	if [ -z "$suite" ]; then
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed -n "s/^deb \\(.* $codename[-a-z]* .*\\)/deb \\1\\ndeb-src \\1/p" >"${out%.sources}.list.tmp"
	elif [ ! -s "$out.tmp" ]; then
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			grep -v security | sed -n "s/^deb \\(.*\\) $codename \\(.*\\)/deb \\1 $suite \\2/p" |
			head -1 >"${out%.sources}.list.tmp"
	else
		: >"${out%.sources}.list.tmp"
	fi
	[ -s "$out.tmp" ] || [ -s "${out%.sources}.list.tmp" ] ||
		die "no apt source for Debian $codename in /etc/apt (irqstorm's private apt state copies the system's Debian archive)"
	local f
	for f in "$out" "${out%.sources}.list"; do
		if [ -s "$f.tmp" ]; then
			sync_file "$f.tmp" "$f"
		else
			rm -f "$f"
		fi
		rm -f "$f.tmp"
	done
}

# apt_private apt-get|apt-cache ARGS... : the command on the private state.
apt_private() {
	local cmd=$1
	shift
	"$cmd" -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$APT_STATE/sources.d" \
		-o Dir::State::Lists="$APT_STATE/lists" -o Dir::Cache="$APT_STATE/cache" \
		-o Dir::Cache::archives="$APT_STATE/archives" -o APT::Sandbox::User=root "$@"
}

# apt_private_update [force]: the private lists (of $APT_STATE), fetched
# when there are none (or forced), once per script and state. Serialised
# by irqstorm's own lock.
apt_private_update() {
	[ "${1:-}" = force ] || [ ! -e "$APT_STATE/lists/.irqstorm-updated" ] || return 0
	case " $DEB_LISTS_FRESH " in *" $APT_STATE "*) return 0 ;; esac
	mkdir -p "$APT_STATE"
	(
		exec 7>"$APT_STATE/lock"
		flock 7
		# Another irqstorm script may have fetched them while this one waited.
		[ "${1:-}" = force ] || [ ! -e "$APT_STATE/lists/.irqstorm-updated" ] || exit 0
		apt_state_sources
		run_progress "fetching Debian's package lists into irqstorm's apt state ($APT_STATE)" \
			"$APT_STATE/update.log" none apt_private apt-get update -q ||
			{ tail -n 20 "$APT_STATE/update.log" >&2; die "apt-get update of irqstorm's apt state failed; see $APT_STATE/update.log"; }
		touch "$APT_STATE/lists/.irqstorm-updated"
	) || exit 1
	DEB_LISTS_FRESH+=" $APT_STATE"
}

# debian_versions PACKAGE HOW: the versions the private lists offer of a
# binary (fetched) or source package, one per line.
debian_versions() {
	local kind=Packages APT_STATE
	APT_STATE=$(pin_state "$1")
	[ "${2%@*}" != source ] || kind=Sources
	apt_private apt-cache madison "$1" 2>/dev/null |
		awk -F'|' -v k="$kind" '$3 ~ k { gsub(/ /, "", $2); print $2 }' | sort -u
}

# debian_newest VERSION...: the newest, by Debian's ordering.
debian_newest() {
	local best=$1 v
	shift
	for v in "$@"; do
		dpkg --compare-versions "$v" gt "$best" && best=$v
	done
	printf '%s\n' "$best"
}

# debian_resolve PACKAGE [HAVE]: DEB_VERSION, the version to build from.
# The pinned one when HAVE says the cache holds it already (no apt at all),
# or the archive has it. Otherwise, said plainly, the newest the archive
# has (IRQSTORM_PINS=strict: an error instead); the difference is recorded
# for the identity.
debian_resolve() {
	local pkg=$1 have=${2:-} how pinned avail APT_STATE
	APT_STATE=$(pin_state "$pkg")
	how=$(pin_how "$pkg")
	pinned=$(pin_field "$pkg" 3)
	DEB_VERSION=$pinned
	if [ -z "$have" ]; then
		apt_private_update
		avail=$(debian_versions "$pkg" "$how")
		if ! grep -qxF "$pinned" <<<"$avail"; then
			apt_private_update force	# the lists may be older than the pin
			avail=$(debian_versions "$pkg" "$how")
		fi
		if ! grep -qxF "$pinned" <<<"$avail"; then
			[ -n "$avail" ] || die "Debian's archive has no $pkg at all (see $APT_STATE/sources.d)"
			# shellcheck disable=SC2086 # one version per word
			DEB_VERSION=$(debian_newest $avail)
			[ "${IRQSTORM_PINS:-}" != strict ] ||
				die "$pkg $pinned (pinned in scripts/debian-pins) is no longer in Debian's archive, which has $(echo $avail | sed 's/ /, /g'); IRQSTORM_PINS=strict forbids another version"
			log "warning: $pkg $pinned, pinned in scripts/debian-pins, is no longer in Debian's archive: building from $DEB_VERSION, the newest it has. What this builds is not what docs/results.md was made from, and its outputs say so (debian-pins in the build identities and summary.json). To move the pins: scripts/update-pins.sh (docs/building.md)."
		fi
	fi
	debian_record "$pkg" "$DEB_VERSION" "$pinned"
}

# debian_record PACKAGE VERSION PINNED: note an input for the identity.
debian_record() {
	DEB_INPUTS+="${DEB_INPUTS:+, }$1 $2"
	[ "$2" = "$3" ] || DEB_DIFFER+="${DEB_DIFFER:+; }$1 $2 (pinned $3)"
}

# debian_check PACKAGE...: the system's own tools (how = checked): their
# installed versions, recorded and compared with the pins.
debian_check() {
	local pkg v
	for pkg in "$@"; do
		v=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null) || v=none
		debian_record "$pkg" "${v:-none}" "$(pin_field "$pkg" 3)"
	done
}

# debian_unpack PACKAGE: resolve it, then DEB_DIR, the root of its .deb
# unpacked in the cache ($IRQSTORM_CACHE/debian/PACKAGE/VERSION/root),
# downloaded the first time.
debian_unpack() {
	local pkg=$1 dir APT_STATE
	APT_STATE=$(pin_state "$pkg")
	dir=$DEB_CACHE/$pkg/$(pin_field "$pkg" 3)
	dir=${dir//:/_}
	if [ -f "$dir/.irqstorm-unpacked" ]; then
		debian_resolve "$pkg" have
	else
		debian_resolve "$pkg"
		dir=$DEB_CACHE/$pkg/${DEB_VERSION//:/_}
	fi
	DEB_DIR=$dir/root
	[ ! -f "$dir/.irqstorm-unpacked" ] || return 0
	mkdir -p "$DEB_CACHE"
	(
		exec 7>>"$DEB_CACHE/lock"
		flock 7
		[ ! -f "$dir/.irqstorm-unpacked" ] || exit 0
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp/root"
		(cd "$dir.tmp" && apt_private apt-get download -q "$pkg=$DEB_VERSION") >"$dir.tmp/fetch.log" 2>&1 ||
			{ cat "$dir.tmp/fetch.log" >&2; die "cannot download $pkg $DEB_VERSION"; }
		dpkg-deb -x "$dir.tmp"/*.deb "$dir.tmp/root" || die "cannot unpack $pkg $DEB_VERSION"
		rm -f "$dir.tmp"/*.deb
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
		touch "$dir/.irqstorm-unpacked"
	) || exit 1
}

# debian_identity_lines: the identity lines of what this script used.
debian_identity_lines() {
	printf 'debian-inputs=%s\ndebian-pins=%s\n' "$DEB_INPUTS" "${DEB_DIFFER:-exact}"
}
