// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where explain's QEMU plugin reads a task's and an interrupt's names in
 * guest memory (docs/explain.md): the offsets of the fields it reads, as
 * this kernel's configuration lays them out. Compiled to assembly against
 * each kernel built here, never linked or loaded: scripts/build-kernel.sh
 * reads the "->NAME VALUE" markers (the kernel's own asm-offsets way) into
 * the kernel's identity, kernel-layout.
 */
#include <linux/kbuild.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/sched.h>

void irqstorm_layout(void);

void irqstorm_layout(void)
{
	OFFSET(task_pid, task_struct, pid);
	OFFSET(task_comm, task_struct, comm);
	DEFINE(task_comm_len, TASK_COMM_LEN);
	OFFSET(task_policy, task_struct, policy);
	OFFSET(task_rt_priority, task_struct, rt_priority);
	OFFSET(task_static_prio, task_struct, static_prio);
	OFFSET(desc_irq, irq_desc, irq_data.irq);
	OFFSET(desc_action, irq_desc, action);
	OFFSET(action_name, irqaction, name);
}
