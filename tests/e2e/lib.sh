# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the e2e scripts: source it, then call e2e_init "$@".
#   e2e_init IRQSTORM SCENARIO [run options]
# sets $irqstorm, $scenario, $extra (the run options, an array) and $out,
# a temporary directory removed on exit.

e2e_init() {
	irqstorm=$1
	scenario=$2
	shift 2
	extra=("$@")
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# g NAME KEY: a value of run $out/NAME's guest result line; a per-channel
# one (a list in summary.json) as v0,v1,...; empty when absent.
g() {
	jq -r ".counts.guest.$2 // empty | if type == \"array\" then map(tostring) | join(\",\") else . end" \
		"$out/$1/summary.json"
}

# dyn_run NAME CMDLINE [run options]: run the scenario into $out/NAME on
# the dyn kernel booted with preempt=full CMDLINE; it must end with exit
# status 0 (or one of $dyn_run_ok, e.g. "0 3").
dyn_run() {
	local name=$1 cmdline=$2 status=0
	shift 2
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet "$@" --set kernel.flavour=dyn \
		--set "kernel.cmdline=preempt=full $cmdline" || status=$?
	case " ${dyn_run_ok:-0} " in
	*" $status "*) ;;
	*) cat "$out/$name/INCOMPLETE" >&2 2>/dev/null || true
	   fail "$name: exit status $status" ;;
	esac
}

# The storm past the guest's saturation that bh-smp.sh and unload.sh run on
# two vCPUs without icount, as run options: 200 kHz, 64 PIO words each.
SATURATED=(--set machine.cpus=2 --set machine.icount=off --set channel0.rate=200000
	--set channel0.work=pio --set channel0.pio_words=64 --set run.log_mb=64 --duration 1)

# saturated_ok NAME STATUS: run NAME ended as a run past saturation must:
# complete, every cross-check passed, nothing lost, no kernel warning, bug,
# oops, lockup or stall, and exit 0 or 3 with a livelock reported.
saturated_ok() {
	local name=$1 status=$2 s=$out/$1/summary.json
	[ -f "$s" ] || fail "$name: no summary (exit $status): $(cat "$out/$name/INCOMPLETE" 2>/dev/null)"
	jq -e '.complete and (.failed_checks | length) == 0 and .counts.device.guest_errors == 0
		and .counts.host.lost == 0' "$s" >/dev/null ||
		fail "$name: $(jq -c '{complete, incomplete_reason, failed_checks}' "$s")"
	jq -e '.kernel_events | map(select(test("WARNING|BUG|Oops|lockup|LOCKUP|stall|blocked"))) |
		length == 0' "$s" >/dev/null || fail "$name: kernel events: $(jq -c .kernel_events "$s")"
	case $status in
	0) ;;
	3) jq -e '.storm.ended_by == "device" and (.stalls | length) == 1 and
		(.stalls[0] | startswith("livelock:"))' "$s" >/dev/null ||
		fail "$name: exit 3 without a livelock: $(jq -c .stalls "$s")" ;;
	*) fail "$name: exit status $status" ;;
	esac
}

# each_deferred_context FN: FN NAME FLAVOUR THREADING CONTEXT IRQ_MODE for
# every deferred context, on rt (deferred from the IRQ thread) and dyn (from
# the hard interrupt handler), INTx and MSI alternately; $runs counts them.
each_deferred_context() {
	local k ctx mode
	runs=0
	for k in rt:threaded dyn:hardirq; do
		for ctx in tasklet bh_workqueue workqueue workqueue_highpri; do
			mode=intx
			[ $((runs % 2)) -eq 0 ] || mode=msi
			runs=$((runs + 1))
			"$1" "${k%:*}-$ctx-$mode" "${k%:*}" "${k#*:}" "$ctx" "$mode"
		done
	done
}

# three_at_once [--into NAME] [run options]: the scenario three times at the
# same time into $out/1, 2 and 3 ($out/NAME/1, 2 and 3 with --into; the runs
# load the host themselves), every one waited for, each ending with exit
# status 0; then records.csv, histogram.txt and summary.json's numbers (all
# but the host's wall-clock and CPU times, in numbers.json) of runs 2 and 3
# byte-identical to run 1's.
three_at_once() {
	local i f d=$out pids=() rcs=()
	if [ "${1:-}" = --into ]; then
		d=$out/$2
		shift 2
	fi
	for i in 1 2 3; do
		"$irqstorm" run "$scenario" --out "$d/$i" --quiet "$@" "${extra[@]}" &
		pids+=($!)
	done
	for i in 1 2 3; do
		rcs+=(0)
		wait "${pids[i - 1]}" || rcs[i - 1]=$?
	done
	for i in 1 2 3; do
		[ "${rcs[i - 1]}" -eq 0 ] ||
			{ cat "$d/$i/INCOMPLETE" >&2 || true; fail "run $i exited with ${rcs[i - 1]}"; }
		jq 'del(.wall_seconds, .qemu_cpu_seconds, .qemu_run_seconds, .qemu_wait_seconds)' "$d/$i/summary.json" >"$d/$i/numbers.json"
	done
	for i in 2 3; do
		for f in records.csv histogram.txt numbers.json; do
			cmp "$d/1/$f" "$d/$i/$f" ||
				{ diff "$d/1/$f" "$d/$i/$f" | head >&2; fail "$f of runs 1 and $i differ"; }
		done
	done
}

# gdb_pc RESULT SEQ POINT [THREAD]: irqstorm explain RESULT --event SEQ
# --gdb --at POINT, and once the guest is stopped, gdb attached: the pc of
# its thread THREAD (default 1: CPU 0) printed; the run waited for after
# gdb detaches, the test failed if it did not end well. The rig's
# messages in $out/gdb.txt.
gdb_pc() {
	local dir=$1 seq=$2 at=$3 thread=${4:-1} pid port
	"$irqstorm" explain "$dir" --event "$seq" --gdb --at "$at" >"$out/gdb.txt" 2>&1 &
	pid=$!
	for _ in $(seq 240); do
		grep -q 'the guest is stopped' "$out/gdb.txt" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	grep -q 'the guest is stopped' "$out/gdb.txt" ||
		{ kill "$pid" 2>/dev/null; fail "--gdb: $(cat "$out/gdb.txt")"; }
	port=$(sed -n 's/.*target remote 127.0.0.1:\([0-9]*\).*/\1/p' "$out/gdb.txt")
	timeout 120 gdb -q -batch -nx "$(sed -n "s/^  gdb -q \([^ ]*\) .*/\1/p" "$out/gdb.txt")" \
		-ex "target remote 127.0.0.1:$port" -ex "thread $thread" \
		-ex 'printf "pc=%#lx\n", $pc' -ex detach 2>&1 | sed -n 's/^pc=//p'
	wait "$pid" || fail "--gdb: the run did not end well after gdb detached: $(cat "$out/gdb.txt")"
}
