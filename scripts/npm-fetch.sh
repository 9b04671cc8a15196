#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Fetch an npm package pinned in scripts/npm-pins into the cache, checked
# against the registry's integrity hash there, and print the directory
# it is unpacked in (the tarball's package/). Quick once cached: the
# network is used only the first time. Needs python3 (bootstrap.sh), not
# npm or node.
#
#   scripts/npm-fetch.sh PACKAGE
#
# IRQSTORM_NPM_REGISTRY: another registry (default https://registry.npmjs.org).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || { echo "usage: npm-fetch.sh PACKAGE" >&2; exit 2; }
pkg=$1
read -r _ version integrity _ < <(awk -v p="$pkg" '$1 == p' "$IRQSTORM_TOP/scripts/npm-pins") ||
	die "$pkg is not pinned in scripts/npm-pins"
dir=$IRQSTORM_CACHE/npm/$pkg-$version
if [ -f "$dir/.irqstorm-integrity" ] && [ "$(cat "$dir/.irqstorm-integrity")" = "$integrity" ]; then
	echo "$dir/package"
	exit 0
fi
registry=${IRQSTORM_NPM_REGISTRY:-https://registry.npmjs.org}
url=$registry/$pkg/-/$pkg-$version.tgz
log "fetching $url"
rm -rf "$dir"
mkdir -p "$dir"
python3 - "$url" "$dir/$pkg-$version.tgz" "$integrity" <<'PY' || { rm -rf "$dir"; die "cannot fetch $pkg $version (pinned in scripts/npm-pins) from $registry"; }
import base64, hashlib, sys, urllib.request
url, path, integrity = sys.argv[1:]
algo, want = integrity.split("-", 1)
data = urllib.request.urlopen(url, timeout=120).read()
got = base64.b64encode(hashlib.new(algo, data).digest()).decode()
if got != want:
    sys.exit(f"npm-fetch: {url}: {algo} {got}, not the pinned {want}")
open(path, "wb").write(data)
PY
tar -xzf "$dir/$pkg-$version.tgz" -C "$dir" || { rm -rf "$dir"; die "cannot unpack $pkg $version"; }
echo "$integrity" >"$dir/.irqstorm-integrity"
echo "$dir/package"
