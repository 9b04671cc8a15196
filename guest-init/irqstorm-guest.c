// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm-guest: what the guest's init needs that busybox lacks.
 *
 *   irqstorm-guest sched PID fifo|rr|other PRIO [CPU]
 *       Set a task's (an IRQ thread's) policy, priority and CPU affinity.
 *
 *   irqstorm-guest probe RESOURCE0 PERIOD_US LIMIT_MS PRIO CPU
 *       The real-time probe: a SCHED_FIFO task on CPU that wakes every
 *       PERIOD_US with clock_nanosleep(TIMER_ABSTIME), measures how late
 *       each wake-up is, and while the storm runs (the device's CTRL.RUN)
 *       writes the lateness to the irqstorm device's PROBE register (BAR0,
 *       mapped from the PCI device's sysfs resource0), so the host log has
 *       the probe's latency in the same clock as the interrupts. It is
 *       started before the storm and ends at the first wake-up after it
 *       (or on SIGTERM, or after LIMIT_MS): wake-ups outside the storm are
 *       not samples of it, and its teardown (munlockall, exit) stalls the
 *       CPU for up to a millisecond, which must not land in the storm.
 *       Prints one line at the end: "probe samples=N max_ns=M avg_ns=A".
 *
 *   irqstorm-guest flip PERIOD_US LIMIT_MS PRIO IRQ...
 *       Move the IRQs to the next online CPU, round robin, every PERIOD_US
 *       (through /proc/irq/N/smp_affinity_list), as SCHED_FIFO PRIO, until
 *       SIGTERM or LIMIT_MS. Prints one line at the end: "flips=N".
 *
 *   irqstorm-guest section RESOURCE0 US CH
 *       The "user" section of a triggered sweep (docs/sweep.md): a busy
 *       loop of US us in user space, as the calling task (init pins it),
 *       arming channel CH's trigger through BAR0 at its start, then
 *       sleeping until the device has raised and the driver acknowledged
 *       that interrupt; again until the channel's sweep is over. CH "-":
 *       untriggered sections, spaced alike, while the storm runs. Prints
 *       "done N", "ended N" (the storm ended first), "timeout N" (an
 *       interrupt not handled within a second) or "stopped N".
 *
 *   irqstorm-guest protocol
 *       Print the guest protocol (include/irqstorm/guest.h) as shell
 *       assignments for the init to source: the channel count, the
 *       guest.conf keys with their defaults, the driver's per-channel
 *       attributes the result line reports. Run on the build host, whose
 *       output is packed into the initramfs as /lib/irqstorm/protocol.sh.
 *
 * Static, so it runs in an initramfs with no C library. Exit status 0, or
 * 1 with a message on stderr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "irqstorm/abi.h"
#include "irqstorm/guest.h"

#define NSEC_PER_SEC	1000000000LL

/* A decimal number in [min, max], or a message and -1. */
static long long parse_num(const char *what, const char *s, long long min,
			   long long max)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "irqstorm-guest: %s '%s': expected %lld..%lld\n",
			what, s, min, max);
		return -1;
	}
	return v;
}

static int set_sched(pid_t pid, int policy, int prio, int cpu)
{
	struct sched_param sp = { .sched_priority = prio };

	if (sched_setscheduler(pid, policy, &sp) < 0) {
		fprintf(stderr, "irqstorm-guest: sched_setscheduler(%d, %d, %d): %s\n",
			pid, policy, prio, strerror(errno));
		return -1;
	}
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(pid, sizeof(set), &set) < 0) {
			fprintf(stderr, "irqstorm-guest: sched_setaffinity(%d, %d): %s\n",
				pid, cpu, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* sched PID POLICY PRIO [CPU] */
static int cmd_sched(int argc, char **argv)
{
	static const struct {
		const char *name;
		int policy;
	} policies[] = {
		{ "fifo", SCHED_FIFO }, { "rr", SCHED_RR }, { "other", SCHED_OTHER },
	};
	long long pid, prio, cpu = -1;
	int policy = -1;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: irqstorm-guest sched PID fifo|rr|other PRIO [CPU]\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (!strcmp(argv[2], policies[i].name))
			policy = policies[i].policy;
	pid = parse_num("pid", argv[1], 1, 1 << 22);
	prio = parse_num("priority", argv[3], 0, 99);
	if (argc == 5)
		cpu = parse_num("cpu", argv[4], 0, CPU_SETSIZE - 1);
	if (policy < 0 || pid < 0 || prio < 0 || (argc == 5 && cpu < 0)) {
		if (policy < 0)
			fprintf(stderr, "irqstorm-guest: policy '%s': expected fifo, rr or other\n",
				argv[2]);
		return 1;
	}
	return set_sched(pid, policy, prio, cpu) ? 1 : 0;
}

static long long ts_ns(const struct timespec *t)
{
	return t->tv_sec * NSEC_PER_SEC + t->tv_nsec;
}

/* The device's registers, mapped from the PCI device's resource0 file. */
static volatile uint32_t *map_regs(const char *path)
{
	void *p;
	int fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "irqstorm-guest: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	p = mmap(NULL, IRQSTORM_REGS_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED) {
		fprintf(stderr, "irqstorm-guest: mmap %s: %s\n", path, strerror(errno));
		return NULL;
	}
	return p;
}

static volatile sig_atomic_t term_seen;

static void on_term(int sig)
{
	(void)sig;
	term_seen = 1;
}

/* probe RESOURCE0 PERIOD_US LIMIT_MS PRIO CPU */
static int cmd_probe(int argc, char **argv)
{
	/* No SA_RESTART: the signal ends the sleep it arrives in. */
	struct sigaction sa = { .sa_handler = on_term };
	volatile uint32_t *regs;
	long long period, limit, prio, cpu, n = 0, max = 0, sum = 0;
	int started = 0;
	struct timespec next, now;
	long long end;

	if (argc != 6) {
		fprintf(stderr, "usage: irqstorm-guest probe RESOURCE0 PERIOD_US "
			"LIMIT_MS PRIO CPU\n");
		return 1;
	}
	period = parse_num("period", argv[2], 10, 10 * 1000 * 1000);
	limit = parse_num("limit", argv[3], 1, 24 * 3600 * 1000);
	prio = parse_num("priority", argv[4], 1, 99);
	cpu = parse_num("cpu", argv[5], 0, CPU_SETSIZE - 1);
	if (period < 0 || limit < 0 || prio < 0 || cpu < 0)
		return 1;
	regs = map_regs(argv[1]);
	if (!regs)
		return 1;
	if (mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		fprintf(stderr, "irqstorm-guest: mlockall: %s (continuing)\n", strerror(errno));
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0) {
		fprintf(stderr, "irqstorm-guest: sigaction: %s\n", strerror(errno));
		return 1;
	}
	if (set_sched(0, SCHED_FIFO, prio, cpu))
		return 1;

	clock_gettime(CLOCK_MONOTONIC, &next);
	end = ts_ns(&next) + limit * 1000000LL;
	for (;;) {
		long long late;

		next.tv_nsec += period * 1000;
		while (next.tv_nsec >= NSEC_PER_SEC) {
			next.tv_nsec -= NSEC_PER_SEC;
			next.tv_sec++;
		}
		if (term_seen || ts_ns(&next) > end)
			break;
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL))
			break;	/* EINTR: SIGTERM, not a wake-up to measure */
		clock_gettime(CLOCK_MONOTONIC, &now);
		late = ts_ns(&now) - ts_ns(&next);
		if (late < 0)
			late = 0;
		if (!(regs[IRQSTORM_REG_CTRL / 4] & IRQSTORM_CTRL_RUN)) {
			if (started)
				break;	/* the storm is over */
			continue;	/* not yet begun */
		}
		started = 1;
		regs[IRQSTORM_REG_PROBE / 4] = late > UINT32_MAX ? UINT32_MAX : late;
		n++;
		sum += late;
		if (late > max)
			max = late;
	}
	/* Leave real-time before the teardown, so that the exit of this
	 * process does not itself delay the IRQ threads it measured against. */
	set_sched(0, SCHED_OTHER, 0, -1);
	munlockall();
	printf("probe samples=%lld max_ns=%lld avg_ns=%lld\n", n, max, n ? sum / n : 0);
	return 0;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ts_ns(&t);
}

/* Busy for us microseconds of the guest's clock. */
static void busy_us(long long us)
{
	long long end = now_ns() + us * 1000;

	while (now_ns() < end)
		;
}

/* Sleep until channel ch raised past raised and has nothing pending. */
static int wait_handled(volatile uint32_t *regs, long long ch, uint32_t raised)
{
	const struct timespec nap = { 0, 10000 };
	long long deadline = now_ns() + NSEC_PER_SEC;

	while (regs[IRQSTORM_REG_CH(ch, IRQSTORM_CH_RAISED) / 4] == raised ||
	       regs[IRQSTORM_REG_CH(ch, IRQSTORM_CH_PENDING) / 4]) {
		if (now_ns() > deadline)
			return -1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

/* section RESOURCE0 US CH|- */
static int cmd_section(int argc, char **argv)
{
	const struct timespec nap = { 0, 10000 };
	volatile uint32_t *regs;
	const char *why = "done";
	long long us, ch = -1, runs = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: irqstorm-guest section RESOURCE0 US CH|-\n");
		return 1;
	}
	us = parse_num("us", argv[2], 1, 1000 * 1000);
	if (strcmp(argv[3], "-"))
		ch = parse_num("channel", argv[3], 0, IRQSTORM_NUM_CHANNELS - 1);
	if (us < 0 || (strcmp(argv[3], "-") && ch < 0))
		return 1;
	regs = map_regs(argv[1]);
	if (!regs)
		return 1;
	while (ch < 0 || regs[IRQSTORM_REG_CH(ch, IRQSTORM_CH_TRIGGERS_LEFT) / 4]) {
		uint32_t raised;

		if (!(regs[IRQSTORM_REG_CTRL / 4] & IRQSTORM_CTRL_RUN)) {
			why = ch < 0 ? "stopped" : "ended";
			break;
		}
		if (ch < 0) {
			busy_us(us);
			runs++;
			nanosleep(&nap, NULL);
			continue;
		}
		raised = regs[IRQSTORM_REG_CH(ch, IRQSTORM_CH_RAISED) / 4];
		regs[IRQSTORM_REG_TRIGGER / 4] = 1u << ch;
		busy_us(us);
		if (wait_handled(regs, ch, raised)) {
			why = "timeout";
			break;
		}
		runs++;
	}
	printf("%s %lld\n", why, runs);
	return 0;
}

/* One IRQ's affinity, as a CPU list: 0 or -1 with a message. */
static int set_irq_cpu(const char *irq, long cpu)
{
	char path[64], val[24];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "/proc/irq/%s/smp_affinity_list", irq);
	len = snprintf(val, sizeof(val), "%ld\n", cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, val, len) != len) {
		fprintf(stderr, "irqstorm-guest: %s <- %ld: %s\n", path, cpu, strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* flip PERIOD_US LIMIT_MS PRIO IRQ... */
static int cmd_flip(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_term };
	long long period, limit, prio, flips = 0, end;
	long ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct timespec next;

	if (argc < 5) {
		fprintf(stderr, "usage: irqstorm-guest flip PERIOD_US LIMIT_MS PRIO IRQ...\n");
		return 1;
	}
	period = parse_num("period", argv[1], 10, 10 * 1000 * 1000);
	limit = parse_num("limit", argv[2], 1, 24 * 3600 * 1000);
	prio = parse_num("priority", argv[3], 1, 99);
	if (period < 0 || limit < 0 || prio < 0)
		return 1;
	for (int i = 4; i < argc; i++)
		if (parse_num("irq", argv[i], 0, 1 << 20) < 0)
			return 1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0 || set_sched(0, SCHED_FIFO, prio, -1))
		return 1;
	if (ncpus < 1)
		ncpus = 1;
	clock_gettime(CLOCK_MONOTONIC, &next);
	end = ts_ns(&next) + limit * 1000000LL;
	while (!term_seen && ts_ns(&next) <= end) {
		for (int i = 4; i < argc; i++)
			if (set_irq_cpu(argv[i], (flips + 1) % ncpus))
				return 1;
		flips++;
		next.tv_nsec += period * 1000;
		while (next.tv_nsec >= NSEC_PER_SEC) {
			next.tv_nsec -= NSEC_PER_SEC;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	set_sched(0, SCHED_OTHER, 0, -1);
	printf("flips=%lld\n", flips);
	return 0;
}

/* The shell form of the guest protocol; see the top of this file. */
static int cmd_protocol(void)
{
#define CONF_KEY(key, dflt, help)	" " #key
#define CONF_DEFAULT(key, dflt, help)	#key "='" dflt "'\n"
#define CHANNEL_ATTR(name, help)	" " #name
#define RESULT_KEY(key, help)		" " #key
	printf("# The irqstorm guest protocol, from include/irqstorm/guest.h\n"
	       "# (irqstorm-guest protocol, at build time). Do not edit.\n"
	       "IRQSTORM_ABI_VERSION=%u\n"
	       "IRQSTORM_NUM_CHANNELS=%u\n"
	       "IRQSTORM_CONF_FW_CFG='%s'\n"
	       "IRQSTORM_RESULT_TAG='%s'\n"
	       "IRQSTORM_CONF_KEYS='%s'\n"
	       "IRQSTORM_CHANNEL_ATTRS='%s'\n"
	       "IRQSTORM_RESULT_KEYS='%s'\n"
	       "# guest.conf defaults\n%s",
	       IRQSTORM_ABI_VERSION, IRQSTORM_NUM_CHANNELS,
	       IRQSTORM_GUEST_CONF_FW_CFG, IRQSTORM_GUEST_RESULT_TAG,
	       IRQSTORM_GUEST_CONF(CONF_KEY) + 1,
	       IRQSTORM_GUEST_CHANNEL_ATTRS(CHANNEL_ATTR) + 1,
	       IRQSTORM_GUEST_RESULTS(RESULT_KEY) + 1,
	       IRQSTORM_GUEST_CONF(CONF_DEFAULT));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "sched"))
		return cmd_sched(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "probe"))
		return cmd_probe(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "flip"))
		return cmd_flip(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "section"))
		return cmd_section(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "protocol"))
		return cmd_protocol();
	fprintf(stderr, "usage: irqstorm-guest sched PID fifo|rr|other PRIO [CPU]\n"
		"       irqstorm-guest probe RESOURCE0 PERIOD_US LIMIT_MS PRIO CPU\n"
		"       irqstorm-guest flip PERIOD_US LIMIT_MS PRIO IRQ...\n"
		"       irqstorm-guest section RESOURCE0 US CH|-\n"
		"       irqstorm-guest protocol\n");
	return 1;
}
