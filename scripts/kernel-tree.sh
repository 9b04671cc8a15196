# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A kernel source tree of the user's, as scripts/build-kernel.sh takes it
# ([kernel] source = PATH): checked, identified and copied, and never
# written to. Sourced after lib.sh. Every git command runs with optional
# locks off (GIT_OPTIONAL_LOCKS=0): a status or diff must not even refresh
# the tree's index.

# The range the driver and the config fragments are built and tested
# against: Debian 12's linux-source-6.1, Debian's linux-source-6.12 and
# linux-source-7.3. An older tree is refused; a newer one is tried, with a
# warning.
TREE_MIN_VERSION=6.1
TREE_MAX_VERSION=7.3

export GIT_OPTIONAL_LOCKS=0

# A Makefile variable of the tree's top Makefile ("VERSION = 6").
tree_make_var() {
	sed -n "s/^$2 = \\([0-9]*\\)\$/\\1/p" "$1/Makefile" | head -n 1
}

# Refuse, naming why, a tree that is not a Linux tree, is outside the
# supported range, lacks the flavour, or was configured in place (kbuild
# cannot build such a tree with O=, and cleaning it would write to it).
tree_check() {
	local tree=$1 flavour=$2 v p s
	[ -d "$tree" ] || die "kernel tree $tree: no such directory"
	case $(cd "$tree" && pwd -P) in
	*[[:space:]:]*) die "kernel tree $tree: kbuild cannot build a tree whose path has a space or a colon (its real path); move it to a plain path" ;;
	esac
	v=$(tree_make_var "$tree" VERSION 2>/dev/null || true)
	p=$(tree_make_var "$tree" PATCHLEVEL 2>/dev/null || true)
	s=$(tree_make_var "$tree" SUBLEVEL 2>/dev/null || true)
	if [ -z "$v" ] || [ -z "$p" ] || [ ! -f "$tree/kernel/irq/manage.c" ] ||
		[ ! -f "$tree/scripts/kconfig/merge_config.sh" ]; then
		die "$tree is not a Linux kernel source tree (no top Makefile with VERSION and PATCHLEVEL, or no kernel/irq/manage.c)"
	fi
	TREE_VERSION=$v.$p.${s:-0}
	if [ $((v * 1000 + p)) -lt 6001 ]; then
		die "$tree is Linux $TREE_VERSION: irqstorm builds kernel trees from Linux $TREE_MIN_VERSION on (its driver and config fragments are built and tested against Debian's linux-source-6.1, -6.12 and -7.3)"
	fi
	if [ $((v * 1000 + p)) -gt 7003 ]; then
		log "warning: $tree is Linux $TREE_VERSION, newer than any irqstorm was tested on (Debian's linux-source-6.1, -6.12 and -7.3): trying it; a config option the fragments ask for that it lacks, or a driver that no longer builds, stops the build naming it"
	fi
	if [ "$flavour" = rt ] && ! grep -q 'select ARCH_SUPPORTS_RT' "$tree/arch/x86/Kconfig"; then
		die "$tree (Linux $TREE_VERSION) has no PREEMPT_RT for x86 (merged in 6.12): use flavour = dyn"
	fi
	if [ -e "$tree/.config" ] || [ -e "$tree/include/config/auto.conf" ]; then
		die "$tree was configured or built in place ($tree/.config): kbuild builds out of tree (O=) only from a clean tree; run 'make mrproper' in it yourself, or give a clean checkout"
	fi
}

# TREE_ID: what the build is stamped with. A git work tree is its commit
# and a hash of its uncommitted changes (tracked diffs and untracked,
# unignored files); any other tree a hash of its files, cached by their
# names, sizes and times so that an unchanged tree is not read again.
tree_identity() {
	local tree=$1 list cache
	TREE_COMMIT='' TREE_CHANGES='' TREE_FILES=
	if git -C "$tree" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		TREE_COMMIT=$(git -C "$tree" rev-parse --verify HEAD) ||
			die "$tree: a git work tree without a commit"
		TREE_CHANGES=$( {
			git -C "$tree" diff --binary HEAD -- .
			git -C "$tree" ls-files -z --others --exclude-standard -- . |
				(cd "$tree" && while IFS= read -r -d '' f; do printf '%s\n' "$f"; cat "$f"; done)
		} | sha256sum | cut -c1-16)
		[ "$TREE_CHANGES" != "$(printf '' | sha256sum | cut -c1-16)" ] || TREE_CHANGES=none
		TREE_ID="commit=$TREE_COMMIT changes=$TREE_CHANGES"
		return
	fi
	list=$(cd "$tree" && find . -type f -printf '%P %s %T@\n' | LC_ALL=C sort | sha256sum | cut -c1-16)
	cache=$IRQSTORM_CACHE/linux/tree-hashes/$list
	if [ ! -f "$cache" ]; then
		log "hashing the files of $tree (not a git work tree)"
		mkdir -p "${cache%/*}"
		(cd "$tree" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) |
			sha256sum | cut -c1-16 >"$cache.tmp.$$"
		mv -f "$cache.tmp.$$" "$cache"
	fi
	TREE_FILES=$(cat "$cache")
	TREE_ID="files=$TREE_FILES"
}

# The identity file's lines for the tree (after tree_check, tree_identity).
tree_identity_lines() {
	printf 'kernel-tree=%s\nkernel-tree-version=%s\n' "$TREE" "$TREE_VERSION"
	if [ -n "$TREE_COMMIT" ]; then
		printf 'kernel-tree-commit=%s\nkernel-tree-changes=%s\n' "$TREE_COMMIT" "$TREE_CHANGES"
	else
		printf 'kernel-tree-files=%s\n' "$TREE_FILES"
	fi
}

# A copy of the tree to patch, without its .git, files' times kept so that
# make rebuilds only what differs from the last copy it built.
tree_copy() {
	local tree=$1 dest=$2
	log "copying $tree to $dest (the series is applied to the copy)"
	rm -rf "$dest" "$dest.tmp"
	mkdir -p "$dest.tmp"
	tar -C "$tree" --exclude=./.git -cf - . | tar -C "$dest.tmp" -xf - ||
		die "cannot copy $tree to $dest.tmp"
	mv "$dest.tmp" "$dest"
}
