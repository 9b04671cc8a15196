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
 *                  line "START_NS VADDR INSNS VCPU IF" (decimal, hex,
 *                  decimal, decimal, 0 or 1) per translation block executed
 *                  that overlaps a window, IF whether the vCPU took
 *                  interrupts as it began (eflags.IF), START_NS the
 *                  virtual time of its first
 *                  instruction on its vCPU's clock (with several vCPUs in
 *                  windows of virtual time, each vCPU's lines are in time
 *                  order, the vCPUs' interleaved by window), and
 *                  last, written as QEMU exits, IRQSTORM_EXPLAIN_TRACE_END
 *                  followed by the number of blocks: a trace without it is
 *                  incomplete.
 *   names          with names=FILE (rig -> plugin: "NAME VALUE" lines, the
 *                  names of IRQSTORM_EXPLAIN_NAMES: the kernel's
 *                  __switch_to and __handle_irq_event_percpu from its
 *                  System.map, the offsets of its identity's kernel-layout),
 *                  the trace also has, before a block's line:
 *                  "task START_NS VCPU PID POLICY RT_PRIORITY STATIC_PRIO
 *                  COMM", the task the vCPU runs from that block on (at its
 *                  first block in each window and at each context switch,
 *                  read at __switch_to(prev, next) from next); and
 *                  "irq START_NS VCPU IRQ NAME", the interrupt whose
 *                  handlers that block (__handle_irq_event_percpu(desc))
 *                  starts: desc's IRQ number and its first action's name, as
 *                  /proc/interrupts shows them. COMM and NAME have every
 *                  byte that is not printable ASCII as '_'; "?" where guest
 *                  memory could not be read.
 *
 * The interrupts mode (irqstorm sweep): instead of windows=, entries=FILE,
 *   rig -> plugin  the entries file: one hexadecimal address per line, the
 *                  kernel's interrupt entry points (asm_common_interrupt,
 *                  asm_sysvec_*: IRQSTORM_IRQ_ENTRY_DEVICE, _SYSVEC) and the
 *                  function every interrupt leaves through
 *                  (IRQSTORM_IRQ_EXIT);
 *   plugin -> rig  the trace file: IRQSTORM_EXPLAIN_ENTRIES_HEADER, then one
 *                  line "START_NS VADDR VCPU" (decimal, hex, decimal) each
 *                  time a vCPU starts a block at one of those addresses, at
 *                  any time, in the order the vCPUs ran them: each
 *                  interrupt a vCPU took, from when to when; and last
 *                  IRQSTORM_EXPLAIN_TRACE_END as above.
 *
 * The whole run's tasks (irqstorm explain, for irqstorm export): beside
 *   windows= and names=, entries=FILE (as above) and tasks=FILE,
 *   plugin -> rig  the tasks file: IRQSTORM_EXPLAIN_TASKS_HEADER, then, over
 *                  the whole run, in the order the vCPUs ran them: the
 *                  interrupts mode's "START_NS VADDR VCPU" line at each
 *                  entry point's and the exit's block; a task line (as
 *                  above) at each context switch, START_NS when
 *                  __switch_to's first block began; an irq line (as above)
 *                  at each __handle_irq_event_percpu; and last
 *                  IRQSTORM_EXPLAIN_TRACE_END followed by the number of
 *                  lines. The windows' trace is as without it, entry
 *                  lines and all going to the tasks file only.
 */
#ifndef IRQSTORM_EXPLAIN_H
#define IRQSTORM_EXPLAIN_H

/* Built beside qemu-system-x86_64 by scripts/build-qemu.sh. */
#define IRQSTORM_EXPLAIN_PLUGIN		"irqstorm-explain.so"

/* X(ID, "name", "meaning"): each is name=VALUE on the -plugin option. */
#define IRQSTORM_EXPLAIN_ARGS(X)					\
	X(WINDOWS, "windows", "the windows file to read")		\
	X(ENTRIES, "entries", "the entries file to read") \
	X(OUT, "out", "the trace file to write")			\
	X(SHIFT, "shift", "the icount shift: an instruction is 2^shift ns") \
	X(NAMES, "names", "the names file to read: tasks and interrupts named") \
	X(TASKS, "tasks", "with windows=: the whole run's tasks file to write")

#define IRQSTORM_EXPLAIN_ARG_ENUM(id, name, help)	IRQSTORM_EXPLAIN_ARG_##id,
enum irqstorm_explain_arg {
	IRQSTORM_EXPLAIN_ARGS(IRQSTORM_EXPLAIN_ARG_ENUM)
	IRQSTORM_EXPLAIN_ARG_COUNT
};

struct irqstorm_explain_arg_desc {
	const char *name;
};

#define IRQSTORM_EXPLAIN_ARG_DESC(id, name, help)	{ name },

/* X(field, "name", "meaning"): the names file's lines, all of them needed */
#define IRQSTORM_EXPLAIN_NAMES(X)					\
	X(switch_to, "switch_to", "__switch_to's address")		\
	X(handle_irq, "handle_irq", "__handle_irq_event_percpu's address") \
	X(task_pid, "task_pid", "struct task_struct: pid")		\
	X(task_comm, "task_comm", "struct task_struct: comm")		\
	X(task_comm_len, "task_comm_len", "TASK_COMM_LEN")		\
	X(task_policy, "task_policy", "struct task_struct: policy")	\
	X(task_rt_priority, "task_rt_priority", "struct task_struct: rt_priority") \
	X(task_static_prio, "task_static_prio", "struct task_struct: static_prio") \
	X(desc_irq, "desc_irq", "struct irq_desc: irq_data.irq")	\
	X(desc_action, "desc_action", "struct irq_desc: action")	\
	X(action_name, "action_name", "struct irqaction: name")

#define IRQSTORM_EXPLAIN_NAME_STRING(field, name, help)	name,

/* The kernel functions the names are read at */
#define IRQSTORM_EXPLAIN_SWITCH_FN	"__switch_to"
#define IRQSTORM_EXPLAIN_IRQ_FN		"__handle_irq_event_percpu"

#define IRQSTORM_EXPLAIN_TASK_LINE	"task"
#define IRQSTORM_EXPLAIN_IRQ_LINE	"irq"

#define IRQSTORM_EXPLAIN_TRACE_HEADER	"# irqstorm explain: start_ns vaddr insns vcpu if"
#define IRQSTORM_EXPLAIN_TRACE_END	"# end "
#define IRQSTORM_EXPLAIN_ENTRIES_HEADER	"# irqstorm interrupts: start_ns vaddr vcpu"
#define IRQSTORM_EXPLAIN_TASKS_HEADER	"# irqstorm tasks: start_ns vaddr vcpu; task and irq lines"

/*
 * The kernel's interrupt entry points, by name: the common entry of every
 * device interrupt's vector, and each system vector's own (the local APIC
 * timer, IPIs, irq_work). Each is a translation block's start when, and
 * only when, a vCPU takes such an interrupt.
 */
#define IRQSTORM_IRQ_ENTRY_DEVICE	"asm_common_interrupt"
#define IRQSTORM_IRQ_ENTRY_SYSVEC	"asm_sysvec_"
/* Called as every interrupt (and exception) handler ends. */
#define IRQSTORM_IRQ_EXIT		"irqentry_exit"

#endif /* IRQSTORM_EXPLAIN_H */
