/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm explain plugin protocol: what `irqstorm explain` (rig/) tells
 * QEMU's explain plugin (qemu-device/plugin/explain.c) and what the plugin
 * writes back, each declared once. docs/abi.md describes it.
 *
 *   rig -> plugin  QEMU's -plugin FILE,ARG=VALUE,... with the arguments of
 *                  IRQSTORM_EXPLAIN_ARGS; the windows file: one line
 *                  "FROM_NS TO_NS" per window of QEMU_CLOCK_VIRTUAL, sorted
 *                  by FROM_NS;
 *   plugin -> rig  the trace file: IRQSTORM_EXPLAIN_TRACE_HEADER, then one
 *                  line "START_NS VADDR INSNS" (decimal, hex, decimal) per
 *                  translation block executed that overlaps a window,
 *                  START_NS the virtual time of its first instruction, and
 *                  last, written as QEMU exits, IRQSTORM_EXPLAIN_TRACE_END
 *                  followed by the number of blocks: a trace without it is
 *                  incomplete.
 */
#ifndef IRQSTORM_EXPLAIN_H
#define IRQSTORM_EXPLAIN_H

/* Built beside qemu-system-x86_64 by scripts/build-qemu.sh. */
#define IRQSTORM_EXPLAIN_PLUGIN		"irqstorm-explain.so"

/* X(ID, "name", "meaning"): each is name=VALUE on the -plugin option. */
#define IRQSTORM_EXPLAIN_ARGS(X)					\
	X(WINDOWS, "windows", "the windows file to read")		\
	X(OUT, "out", "the trace file to write")			\
	X(SHIFT, "shift", "the icount shift: an instruction is 2^shift ns")

#define IRQSTORM_EXPLAIN_ARG_ENUM(id, name, help)	IRQSTORM_EXPLAIN_ARG_##id,
enum irqstorm_explain_arg {
	IRQSTORM_EXPLAIN_ARGS(IRQSTORM_EXPLAIN_ARG_ENUM)
	IRQSTORM_EXPLAIN_ARG_COUNT
};

struct irqstorm_explain_arg_desc {
	const char *name;
};

#define IRQSTORM_EXPLAIN_ARG_DESC(id, name, help)	{ name },

#define IRQSTORM_EXPLAIN_TRACE_HEADER	"# irqstorm explain: start_ns vaddr insns"
#define IRQSTORM_EXPLAIN_TRACE_END	"# end "

#endif /* IRQSTORM_EXPLAIN_H */
