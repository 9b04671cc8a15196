#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# An interrupt thread's policy is in place when request_irq() returns: the
# guest loads the driver as a SCHED_FIFO task (above the new thread, on
# the one vCPU) and reads /proc/irq/N/threads right after, before the
# thread could run again. The default FIFO 50 and a boot-line rule both
# show; a policy still SCHED_OTHER there is the window in which a chrt
# from udev would be overwritten. Deterministic (icount, one vCPU).
#
#   prio-at-load.sh IRQSTORM SCENARIO [run options]
# Needs the rig's [guest] key load_prio (the guest.conf key, docs/abi.md).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"
run() {	# run NAME CMDLINE [options], loading the driver at FIFO 90
	local name=$1 cmdline=$2
	shift 2
	dyn_run "$name" "$cmdline" --set guest.load_prio=90 "$@"
}

run default "" "${extra[@]}"
[ "$(g default load_sched)" = fifo:50 ] || fail "default: $(g default load_sched) right after load"
run rule "irqthread.prio=irqstorm0:fifo:73" "${extra[@]}"
[ "$(g rule load_sched)" = fifo:73 ] || fail "rule: $(g rule load_sched) right after load"
# Under threadirqs a threaded MSI handler has two threads, both set.
run forced "threadirqs irqthread.prio=irqstorm0:rr:72" --set guest.irq_mode=msi "${extra[@]}"
[ "$(g forced load_sched)" = rr:72,rr:72 ] || fail "forced: $(g forced load_sched) right after load"
echo "ok: interrupt threads have their policy when request_irq() returns"
