#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Interrupt threading beyond one vCPU, on the dyn kernel with two vCPUs
# and no icount (these are correctness tests: under icount the vCPUs run
# round robin in one thread, and no two handlers ever run at once):
#  - a CPU goes offline during a storm of the interrupt routed to it, and
#    comes back: the interrupt is still handled while the CPU is offline,
#    free_irq() returns meanwhile, and the offline itself returns, also
#    under a storm whose handlers take longer than its period (a per-CPU
#    thread that never parks would hang it); with threadirqs=single and
#    with one thread per interrupt;
#  - the interrupt's affinity moved between the CPUs every millisecond
#    during a storm: no handler ever runs on two CPUs at once (the
#    driver's overlap count), with threadirqs=single and per-IRQ threads;
#  - under threadirqs=single, a threaded handler that waits for another
#    interrupt's handlers (synchronize_irq() on its IRQ) completes.
# Each of these failed on the series before irqstorm's issue 19.
#
#   smp.sh IRQSTORM SCENARIO [run options]
# Needs the rig's [guest] keys irq_cpu, hotplug_cpu, irq_flip_us and
# sync_irq (the guest.conf keys of the same names, docs/abi.md).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
# run NAME CMDLINE [options]: a complete run whose guest reported ok; a
# storm past saturation may end by the device's bound (exit status 3).
dyn_run_ok="0 3"
run() {
	dyn_run "$1" "$2" --set machine.cpus=2 --set machine.icount=off \
		--set guest.irq_mode=msix "${@:3}"
	[ "$(g "$1" status)" = ok ] || fail "$1: the guest reported $(g "$1" status) $(g "$1" reason)"
}

# rtla-hist.txt of a 2-vCPU run: the IRQ and Thr columns of its vCPUs
# (both when $2 says so) add up to the hardirq and thread stages of
# summary.json, and its ALL: max is their max in us ("-": no sample).
rtla_split() {
	local f=$out/$1/rtla-hist.txt s=$out/$1/summary.json col st want got per
	# No probe here: rtla's columns without Usr (it prints those only when
	# it measures user threads).
	[ "${2:-}" != both ] ||
		grep -q '^Index   IRQ-000   Thr-000   IRQ-001   Thr-001$' "$f" ||
		fail "$1: rtla-hist.txt does not list both vCPUs: $(grep '^Index' "$f")"
	# columns per vCPU: IRQ and Thr, and Usr where there is a probe
	per=$(grep '^Index' "$f" | grep -oE '(IRQ|Thr|Usr)-' | sort -u | wc -l)
	for col in 1:hardirq 2:thread; do
		st=${col#*:}
		want=$(jq ".stages.$st.cycles" "$s")
		got=$(awk -v c="${col%:*}" -v per="$per" '/^count:/ && !done {
			for (i = 1 + c; i <= NF; i += per) n += $i; print n; done = 1 }' "$f")
		[ "$got" = "$want" ] || fail "$1: rtla-hist.txt counts $got $st samples, summary.json $want"
		[ "$(awk -v c="${col%:*}" '/^max:/ { m = $(1 + c) } END { print m }' "$f")" = \
			"$(jq -r ".stages.$st | if .cycles > 0 then .max / 1000 | floor else \"-\" end" "$s")" ] ||
			fail "$1: rtla-hist.txt's ALL: max of $st is not summary.json's"
	done
}

for mode in threadirqs=single threadirqs; do
	m=${mode/=/-}
	# The storm's IRQ on CPU 1, which goes offline at 1/4 of the storm and
	# back at 3/4; free_irq() runs at 1/2, while it is offline.
	run "hotplug-$m" "$mode" --set channel0.threading=forced --set run.duration=2 \
		--set guest.irq_cpu=1 --set guest.hotplug_cpu=1 --set guest.free_irq=true "${extra[@]}"
	[ "$(g "hotplug-$m" freed)" = yes ] || fail "hotplug-$m: free_irq() did not return"
	[ "$(g "hotplug-$m" hotplug_handled)" -gt 0 ] ||
		fail "hotplug-$m: nothing handled while CPU 1 was offline"
	# Handlers longer than the period: per event ~4 ms of PIO at 500 Hz.
	run "park-$m" "$mode" --set channel0.threading=threaded --set channel0.work=pio \
		--set channel0.pio_words=65536 --set channel0.rate=500 --set run.duration=3 \
		--set guest.irq_cpu=1 --set guest.hotplug_cpu=1 "${extra[@]}"
	[ -n "$(g "park-$m" hotplug)" ] || fail "park-$m: no hotplug result"
	# The affinity flipped every ms under a storm of 260 us handlers: a
	# threaded one at 2 kHz (its thread function, irq/N-s-, overlapped
	# under the old irqd) and a forced one at 4 kHz, more than one CPU
	# keeps up with (irqd runs it: it overlapped on the other CPU's irqd).
	for th in threaded:2000 forced:4000; do
		run "flip-${th%:*}-$m" "$mode" --set channel0.threading=${th%:*} \
			--set channel0.rate=${th#*:} --set channel0.work=pio --set channel0.pio_words=4096 \
			--set run.duration=2 --set guest.irq_flip_us=1000 "${extra[@]}"
		f=flip-${th%:*}-$m
		# Without icount the flips follow the host's time: about 2,000 in the
		# 2 s on an idle host, 99 once beside 3 busy loops. Enough to test
		# is a few dozen; fewer means the flipping did not run at all.
		[ "$(g "$f" irq_flips)" -gt 20 ] || fail "$f: $(g "$f" irq_flips) flips"
		[ "$(g "$f" overlaps)" = 0,0,0,0 ] || fail "$f: handlers overlapped: $(g "$f" overlaps)"
		# threaded: the IRQ thread follows the affinity to both vCPUs
		rtla_split "$f" "$([ "${th%:*}" = threaded ] && echo both)"
	done
done

# Channel 0's thread waits for channel 1's handlers after each run, both
# IRQs on CPU 1 (the serial console's on CPU 0 keeps reporting).
run sync threadirqs=single --set channel1.pattern=periodic --set channel1.rate=3333 \
	--set guest.irq_cpu=1 --set guest.sync_irq=0:1 "${extra[@]}"
for ch in 0 1; do
	[ "$(g sync handled | cut -d, -f$((ch + 1)))" -gt 0 ] || fail "sync: channel $ch not handled"
done
echo "ok: CPU hotplug, affinity moves and synchronize_irq() from a threaded handler, on 2 vCPUs"
