#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Two irqstorm bootstraps at once while another program holds apt's and
# dpkg's locks (as unattended-upgrades does on a new cloud machine), on a
# loaded host: both wait, saying for whom, and both succeed; the package
# they were asked for is installed once. The package is Debian's `hello`
# (IRQSTORM_BOOTSTRAP_PKGS replaces irqstorm's list), removed again at the
# end unless it was there before. Needs root and Debian's archive.
#
#   apt-wait.sh SOURCE-ROOT
set -euo pipefail
root=${1:?usage: apt-wait.sh SOURCE-ROOT}
. "$root/tests/e2e/lib.sh"
out=$(mktemp -d)
pids=()
had_hello=1	# until known: leave it alone
cleanup() {
	kill "${pids[@]}" 2>/dev/null || true
	wait 2>/dev/null || true
	if [ -z "$had_hello" ]; then
		(. "$root/scripts/lib.sh" && apt_wait env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q hello) >/dev/null 2>&1 || true
	fi
	rm -rf "$out"
}
trap cleanup EXIT
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (apt-get install)"; exit 77; }
if dpkg-query -W -f='${Status}' hello 2>/dev/null | grep -q 'install ok installed'; then
	# Installed before: removed to start from nothing, installed at the end.
	apt-get purge -y -q hello >/dev/null 2>&1 || fail "cannot remove hello to start from nothing"
else
	had_hello=
fi

# A busy host: two loops beside everything below.
for _ in 1 2; do
	(end=$((SECONDS + 300)); while [ "$SECONDS" -lt "$end" ]; do :; done) &
	pids+=($!)
done
# The holder: apt's and dpkg's locks, as apt takes them (fcntl), for 15 s.
python3 - "$out/held" <<'PY' &
import fcntl, os, sys, time
fds = []
for p in ("/var/lib/dpkg/lock-frontend", "/var/lib/dpkg/lock",
          "/var/lib/apt/lists/lock", "/var/cache/apt/archives/lock"):
    fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o640)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    fds.append(fd)
open(sys.argv[1], "w").close()
time.sleep(15)
PY
holder=$!
pids+=("$holder")
for _ in $(seq 100); do [ -e "$out/held" ] && break; sleep 0.1; done
[ -e "$out/held" ] || fail "the lock holder did not start"

export IRQSTORM_CACHE=$out/cache IRQSTORM_BOOTSTRAP_PKGS=hello IRQSTORM_APT_WAIT=600
start=$SECONDS
"$root/scripts/bootstrap.sh" >"$out/a.log" 2>&1 & a=$!
"$root/scripts/bootstrap.sh" >"$out/b.log" 2>&1 & b=$!
sa=0 sb=0
wait "$a" || sa=$?
wait "$b" || sb=$?
took=$((SECONDS - start))
[ "$sa" -eq 0 ] && [ "$sb" -eq 0 ] ||
	{ cat "$out/a.log" "$out/b.log" >&2; fail "bootstraps ended with $sa and $sb"; }
dpkg-query -W -f='${Status}' hello | grep -q 'install ok installed' || fail "hello is not installed"
cat "$out/a.log" "$out/b.log" >"$out/both.log"
grep -q "waiting for apt's lock, held by $holder (python3)" "$out/both.log" ||
	{ cat "$out/both.log" >&2; fail "no bootstrap said it waited for the holder ($holder)"; }
grep -q "another irqstorm bootstrap is installing packages: waiting for it" "$out/both.log" ||
	{ cat "$out/both.log" >&2; fail "the second bootstrap did not wait for the first"; }
[ "$(grep -c '^bootstrap: installing hello' "$out/both.log")" -eq 1 ] ||
	{ cat "$out/both.log" >&2; fail "hello was not installed exactly once"; }
echo "ok: two bootstraps beside a holder of apt's locks (15 s) on a loaded host: both waited and succeeded in $took s, hello installed once"
