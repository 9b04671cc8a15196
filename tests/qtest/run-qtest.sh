#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the irqstorm qtest (built in QEMU's tree) against our QEMU:
#   run-qtest.sh QTEST-BINARY QEMU-BINARY [qtest options]
qtest=$1
QTEST_QEMU_BINARY=$2
export QTEST_QEMU_BINARY
shift 2
exec "$qtest" "$@"
