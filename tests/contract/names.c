// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every name the contract tables of include/irqstorm/ declare, one per
 * line as "TABLE NAME", for tests/contract/documented.sh: each must be
 * documented in docs/abi.md.
 */
#include <stdio.h>

#include "irqstorm/abi.h"
#include "irqstorm/device.h"
#include "irqstorm/explain.h"
#include "irqstorm/guest.h"
#include "irqstorm/identity.h"
#include "irqstorm/stages.h"

#define PATTERN(id, name, help)			puts("pattern " name);
#define CHANNEL_PROP(id, f, name, type, min, max, dflt, t, help) \
	puts("property ch" "N-" name);
#define CHANNEL_COUNTER(id, field, name, total, help)	puts("counter chN-" name);
#define DEVICE_COUNTER(id, field, name, help)	puts("counter " name);
#define STAMP(id, name, reg, flag, t, cpu)	\
	puts("stamp " name); puts("stamp-field " #t); puts("stamp-field " #cpu);
#define STAGE(id, name, rec, from, to, help)	puts("stage " name);
#define CONF(key, dflt, help)			puts("guest.conf " #key);
#define ATTR(name, help)			puts("result " #name);
#define RESULT(key, help)			puts("result " #key);
#define SECTION(id, name, help)			puts("section " name);
#define WORK_CONTEXT(id, name, help)		puts("work_context " name);
#define THREADING(id, name, help)		puts("threading " name);
#define WORK(id, name, help)			puts("work " name);
#define IRQ_MODE(id, name, help)		puts("irq_mode " name);
#define EXPLAIN_ARG(id, name, help)		puts("explain-plugin " name);
#define EXPLAIN_NAME(id, name, help)		puts("explain-names " name);
#define IDENTITY(id, key, help)			puts("identity " key);

int main(void)
{
	IRQSTORM_PATTERNS(PATTERN)
	IRQSTORM_CHANNEL_PROPS(CHANNEL_PROP)
	puts("property " IRQSTORM_PROP_STAMPS);
	puts("property " IRQSTORM_PROP_STORM_NS);
	puts("property " IRQSTORM_PROP_PAUSE_NS);
	IRQSTORM_CHANNEL_COUNTERS(CHANNEL_COUNTER)
	IRQSTORM_DEVICE_COUNTERS(DEVICE_COUNTER)
	IRQSTORM_STAMPS(STAMP)
	IRQSTORM_STAGES(STAGE)
	IRQSTORM_GUEST_CONF(CONF)
	IRQSTORM_GUEST_CHANNEL_ATTRS(ATTR)
	IRQSTORM_GUEST_RESULTS(RESULT)
	IRQSTORM_GUEST_SECTIONS(SECTION)
	IRQSTORM_WORK_CONTEXTS(WORK_CONTEXT)
	IRQSTORM_THREADINGS(THREADING)
	IRQSTORM_WORKS(WORK)
	puts("irq_mode " IRQSTORM_IRQ_MODE_AUTO);
	IRQSTORM_IRQ_MODES(IRQ_MODE)
	IRQSTORM_EXPLAIN_ARGS(EXPLAIN_ARG)
	IRQSTORM_EXPLAIN_NAMES(EXPLAIN_NAME)
	IRQSTORM_DEBIAN_IDENTITY(IDENTITY)
	IRQSTORM_QEMU_IDENTITY(IDENTITY)
	IRQSTORM_KERNEL_IDENTITY(IDENTITY)
	return 0;
}
