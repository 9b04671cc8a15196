#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Faults end a run within a bound, with exit status 1, a clear reason in
# INCOMPLETE (and QEMU's own last lines in the summary when it fails to
# start), no QEMU left running and no private files left behind; a QEMU
# this user cannot execute is named so before anything starts:
#   QEMU that fails to start, a guest that never finishes, a kernel that
#   never prints (accel = auto then runs again under TCG), a guest that
#   dies without a result, QEMU killed with SIGKILL mid-run, ^C, and (as
#   root) an output disk that fills up.
#
#   faults.sh IRQSTORM SCENARIO QEMU-DIR
set -euo pipefail
. "$(dirname "$0")/lib.sh"
irqstorm=$1
scenario=$2
qemu_dir=$3
work=$(mktemp -d)
export TMPDIR=$work/tmp	# the rig's private directories go here
mkdir -p "$TMPDIR"
cleanup() {
	pkill -KILL -f "$TMPDIR/irqstorm-" 2>/dev/null || true
	mountpoint -q "$work/full" 2>/dev/null && umount "$work/full"
	rm -rf "$work"
}
trap cleanup EXIT


# expect NAME STATUS REASON-REGEX : the run's status, reason, and leftovers
expect() {
	local name=$1 want=$2 re=$3 got=$4
	[ "$got" -eq "$want" ] || fail "$name: exit status $got, expected $want"
	[ -f "$work/$name/INCOMPLETE" ] || fail "$name: no INCOMPLETE marker"
	grep -Eq "$re" "$work/$name/INCOMPLETE" ||
		fail "$name: INCOMPLETE says '$(cat "$work/$name/INCOMPLETE")', expected /$re/"
	[ -f "$work/$name/summary.json" ] || fail "$name: no summary.json"
	jq -e '.complete == false' "$work/$name/summary.json" >/dev/null ||
		fail "$name: summary.json does not say incomplete"
	! pgrep -f "$TMPDIR/irqstorm-" >/dev/null || fail "$name: a QEMU process survived"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "$name: private files left: $(ls "$TMPDIR")"
	echo "ok: $name: $(cat "$work/$name/INCOMPLETE")"
}

run() {	# run NAME [irqstorm run options]; sets $status
	local name=$1
	shift
	status=0
	"$irqstorm" run "$scenario" --out "$work/$name" --quiet "$@" 2>"$work/$name.err" || status=$?
}

# 1. QEMU exits at once (a fake one that fails like a bad command line).
mkdir -p "$work/fakeqemu"
printf '#!/bin/sh\necho "qemu-system-x86_64: fake failure" >&2\nexit 3\n' \
	>"$work/fakeqemu/qemu-system-x86_64"
chmod +x "$work/fakeqemu/qemu-system-x86_64"
run start-fails --qemu-dir "$work/fakeqemu"
expect start-fails 1 'QEMU exited with status 3' "$status"
grep -q 'fake failure' "$work/start-fails/qemu.log" || fail "start-fails: QEMU's stderr not saved"
# ... and what QEMU said is on the terminal, not only in qemu.log.
"$irqstorm" run "$scenario" --out "$work/start-fails" --qemu-dir "$work/fakeqemu" \
	>"$work/start-fails.out" 2>&1 || true
grep -qx '    qemu-system-x86_64: fake failure' "$work/start-fails.out" ||
	fail "start-fails: QEMU's last line is not in the summary: $(cat "$work/start-fails.out")"

# 1b. QEMU starts but never opens its QMP socket (a hung QEMU): the rig
#     gives up after its connect bound and kills it.
#     Its pid in a file (exec keeps it): this fake QEMU, not any sleep on
#     the machine, must be gone.
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 600\n' "$work/fakeqemu.pid" \
	>"$work/fakeqemu/qemu-system-x86_64"
start=$(date +%s)
run never-listens --qemu-dir "$work/fakeqemu"
expect never-listens 1 'QEMU did not start: no QMP socket within 30 s' "$status"
[ $(($(date +%s) - start)) -lt 60 ] || fail "never-listens: took $(($(date +%s) - start)) s"
[ -s "$work/fakeqemu.pid" ] || fail "never-listens: the fake QEMU never ran"
pid=$(cat "$work/fakeqemu.pid")
# Gone, or a zombie (killed; its reaping is up to whoever adopted it).
! [ -e "/proc/$pid" ] || grep -q '^State:[[:space:]]*Z' "/proc/$pid/status" 2>/dev/null ||
	fail "never-listens: the fake QEMU survived: $(cat "/proc/$pid/cmdline" 2>/dev/null | tr '\0' ' ')"

# 1c. A user who may not reach the build's QEMU (the cache in root's home):
#     named as out of reach, not as "not found". As root, with runuser.
#     (Only where nobody can run the rig and read the scenario: a checkout
#     in a private directory, as mktemp -d makes, has neither.)
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null && id nobody >/dev/null 2>&1 &&
	runuser -u nobody -- test -x "$(realpath "$irqstorm")" &&
	runuser -u nobody -- test -r "$scenario" &&
	! runuser -u nobody -- test -x "$qemu_dir/qemu-system-x86_64"; then
	mkdir -m 0777 "$work/nobody"
	chmod 0711 "$work"
	status=0
	runuser -u nobody -- "$irqstorm" run "$scenario" --out "$work/nobody/run" --quiet \
		2>"$work/nobody.err" || status=$?
	chmod 0700 "$work"
	[ "$status" -eq 1 ] || fail "nobody: exit status $status, not 1"
	grep -q "^irqstorm: cannot execute $qemu_dir/qemu-system-x86_64: Permission denied" \
		"$work/nobody.err" || fail "nobody: $(cat "$work/nobody.err")"
	echo "ok: nobody: $(cat "$work/nobody.err")"
else
	echo "skip: a user who cannot reach QEMU (needs root, runuser, a rig and scenario nobody can reach, and a QEMU out of nobody's reach)"
fi

# 2. The guest never finishes: init is `yes`, forever. Bounded by [run] timeout.
start=$(date +%s)
run hang --set run.timeout=5 --set 'kernel.cmdline=rdinit=/bin/busybox -- yes'
expect hang 1 'did not finish within 5 s' "$status"
[ $(($(date +%s) - start)) -lt 30 ] || fail "hang: took $(($(date +%s) - start)) s"

# 2b. The guest's kernel never prints (as under a KVM that initialises but
#     runs nothing): the real QEMU without -kernel, -initrd and -append, so
#     the firmware finds nothing to boot and the console stays empty. Ended
#     by [run] boot_timeout, long before [run] timeout.
mkdir -p "$work/nokernel"
cat >"$work/nokernel/qemu-system-x86_64" <<EOF
#!/usr/bin/env bash
args=()
while [ \$# -gt 0 ]; do
	case \$1 in
	-kernel|-initrd|-append) shift 2 ;;
	*) args+=("\$1"); shift ;;
	esac
done
exec "$(realpath "$qemu_dir/qemu-system-x86_64")" "\${args[@]}"
EOF
chmod +x "$work/nokernel/qemu-system-x86_64"
start=$(date +%s)
run silent-kernel --qemu-dir "$work/nokernel" --set run.boot_timeout=3
expect silent-kernel 1 'kernel printed nothing on its console within 3 s .*\[run\] boot_timeout' "$status"
[ $(($(date +%s) - start)) -lt 30 ] || fail "silent-kernel: took $(($(date +%s) - start)) s"
[ ! -s "$work/silent-kernel/console.log" ] || fail "silent-kernel: the console has output"
jq -e '.sysinfo.accel_used == "tcg" and .sysinfo.accel_fell_back == false' \
	"$work/silent-kernel/summary.json" >/dev/null ||
	fail "silent-kernel: sysinfo says $(jq -c .sysinfo "$work/silent-kernel/summary.json")"

# 2c. accel = auto ends up with an accelerator that ran the guest, and says
#     which: KVM where it works; where /dev/kvm initialises but runs
#     nothing (a nested KVM, as on this project's machines), TCG after
#     [run] boot_timeout; without /dev/kvm, TCG from QEMU itself.
run auto --set machine.accel=auto --icount off --set run.boot_timeout=10
[ "$status" -eq 0 ] || fail "auto: exit status $status: $(cat "$work/auto/INCOMPLETE" 2>/dev/null)"
sys=$(jq -c '.sysinfo | {accel, accel_used, accel_fell_back}' "$work/auto/summary.json")
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	case $sys in
	'{"accel":"auto","accel_used":"kvm","accel_fell_back":false}') ;;
	'{"accel":"auto","accel_used":"tcg","accel_fell_back":true}')
		grep -qE 'printed nothing|died under KVM before' "$work/auto.err" ||
			fail "auto: fell back without saying so: $(cat "$work/auto.err")" ;;
	*) fail "auto: sysinfo $sys" ;;
	esac
else
	[ "$sys" = '{"accel":"auto","accel_used":"tcg","accel_fell_back":false}' ] ||
		fail "auto without /dev/kvm: sysinfo $sys"
fi
[ -s "$work/auto/console.log" ] || fail "auto: the run's console is empty"
echo "ok: auto: $sys"

# 3. The guest dies without a result line (init exits: panic, reboot, and
#    -no-reboot turns that into the end of the run).
run init-dies --set 'kernel.cmdline=rdinit=/bin/busybox -- false'
expect init-dies 1 'without a result line' "$status"

# 4. QEMU killed with SIGKILL mid-run.
"$irqstorm" run "$scenario" --out "$work/killed" --quiet --set run.duration=600 &
rig=$!
for _ in $(seq 100); do
	pid=$(pgrep -f "$TMPDIR/irqstorm-" | head -n 1) && break
	sleep 0.1
done
[ -n "${pid:-}" ] || fail "killed: QEMU never appeared"
sleep 1
kill -KILL "$pid"
status=0
wait "$rig" || status=$?
expect killed 1 'QEMU killed by signal 9' "$status"

# 5. ^C (SIGINT) to the rig mid-run.
"$irqstorm" run "$scenario" --out "$work/sigint" --quiet --set run.duration=600 &
rig=$!
sleep 3
kill -INT "$rig"
status=0
wait "$rig" || status=$?
expect sigint 1 'interrupted by a signal' "$status"

# 6. The output directory's disk fills up during the run (a 128 KiB tmpfs;
#    mounting it needs root, which CI has).
if [ "$(id -u)" -eq 0 ] && mkdir -p "$work/full" &&
	mount -t tmpfs -o size=128k irqstorm-full "$work/full"; then
	status=0
	"$irqstorm" run "$scenario" --out "$work/full/run" --quiet --duration 1 \
		2>"$work/full.err" || status=$?
	[ "$status" -eq 1 ] || fail "full disk: exit status $status, not 1"
	[ -f "$work/full/run/INCOMPLETE" ] || fail "full disk: not marked incomplete"
	if [ -f "$work/full/run/summary.json" ]; then
		jq -e '.complete == false' "$work/full/run/summary.json" >/dev/null ||
			fail "full disk: summary.json claims a complete run"
	fi
	grep -qiE 'space|disk full' "$work/full.err" "$work/full/run/INCOMPLETE" 2>/dev/null ||
		fail "full disk: the error does not say why: $(cat "$work/full.err")"
	! pgrep -f "$TMPDIR/irqstorm-" >/dev/null || fail "full disk: a QEMU process survived"
	[ -z "$(ls -A "$TMPDIR")" ] || fail "full disk: private files left: $(ls "$TMPDIR")"
	echo "ok: full disk: $(tail -n 1 "$work/full.err")"
	umount "$work/full"
else
	echo "skip: full disk (mounting a small tmpfs needs root)"
fi
