/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm explain --gdb: replay src until point at ("raise", "hardirq",
 * ...) of record r, the VM paused there with QEMU's gdbstub open; returns
 * the exit status once the run has ended.
 */
#ifndef IRQSTORM_CMD_EXPLAIN_GDB_H
#define IRQSTORM_CMD_EXPLAIN_GDB_H

#include "explain-source.h"
#include "irqstorm/abi.h"

int explain_gdb(const ExplainSource *src, const struct irqstorm_record *r,
		const char *at);

#endif /* IRQSTORM_CMD_EXPLAIN_GDB_H */
