// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Scenario parsing: defaults, every kind of value, every validation error
 * (with the file, group and key in the message), --set overrides, and the
 * effective-scenario round trip.
 */
#include <stdlib.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "core/machine.h"
#include "core/console.h"
#include "core/scenario.h"
#include "testutil.h"

static IrqstormScenario *load(const char *text, GError **error)
{
	return irqstorm_scenario_load_data("test.ini", text, error);
}

static void test_defaults(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[run]\n", &err);

	g_assert_no_error(err);
	g_assert_cmpint(sc->accel, ==, IRQSTORM_ACCEL_TCG);
	g_assert_cmpuint(sc->cpus, ==, 1);
	g_assert_cmpint(sc->icount_shift, ==, 3);
	g_assert_cmpstr(sc->flavour, ==, "rt");
	g_assert_cmpint(sc->ch[0].pattern, ==, IRQSTORM_PATTERN_PERIODIC);
	g_assert_cmpint(sc->ch[1].pattern, ==, IRQSTORM_PATTERN_OFF);
	g_assert_cmpuint(sc->ch[0].period_ns, ==, 1000000);
	g_assert_cmpint(sc->ch[0].threading, ==, IRQSTORM_THREADING_THREADED);
	g_assert_cmpint(sc->ch[0].thread_prio, ==, IRQSTORM_NONE);
	g_assert_cmpint(sc->irq_mode, ==, IRQSTORM_IRQS_INTX);
	g_assert_false(sc->probe);
	g_assert_cmpint(sc->i8042_channel, ==, IRQSTORM_NONE);
	g_assert_cmpuint(irqstorm_scenario_channel_mask(sc), ==, 1);
	g_assert_cmpuint(sc->duration_ms, ==, 1000);
	g_assert_cmpuint(sc->log_mb, ==, 16);
	g_assert_cmpuint(sc->timeout_s, ==, 300);
	g_assert_cmpuint(sc->boot_timeout_s, ==, 30);
}

static void test_values(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load(
		"[machine]\naccel = auto\ncpus = 1\nicount = off\nmemory_mb = 512\n"
		"[kernel]\nflavour = dyn\ncmdline = preempt=full threadirqs\n"
		"[channel0]\nrate = 20000\nthreading = hardirq\nwork = pio\npio_words = 2048\n"
		"work_context = bh_workqueue\n"
		"[channel2]\nrate = 500\nbh_off_us = 40\nwork = spin\nready_channel = 0\n"
		"ready_delay_us = 12.5\nthread_prio = 60\nthread_cpu = 0\n"
		"[channel3]\npattern = burst\nburst = 8\ngap_us = 1000\nresched_every = 256\n"
		"[guest]\nirq_mode = msix\nprobe = true\nprobe_prio = 90\n"
		"i8042_channel = 2\ni8042_timeout_us = 5000\n"
		"[run]\nduration = 0.25\ntimeout = 60\nboot_timeout = 12\nbin_ns = 100\n"
		"bins = 500\nlog_mb = 4\n",
		&err);

	g_assert_no_error(err);
	g_assert_cmpint(sc->accel, ==, IRQSTORM_ACCEL_AUTO);
	g_assert_cmpint(sc->icount_shift, ==, IRQSTORM_ICOUNT_OFF);
	g_assert_cmpuint(sc->memory_mb, ==, 512);
	g_assert_cmpstr(sc->flavour, ==, "dyn");
	g_assert_cmpstr(sc->cmdline, ==, "preempt=full threadirqs");
	g_assert_cmpuint(sc->ch[0].period_ns, ==, 50000);
	g_assert_cmpint(sc->ch[0].threading, ==, IRQSTORM_THREADING_HARDIRQ);
	g_assert_cmpint(sc->ch[0].work, ==, IRQSTORM_WORK_PIO);
	g_assert_cmpuint(sc->ch[0].pio_words, ==, 2048);
	g_assert_cmpint(sc->ch[0].work_context, ==, IRQSTORM_CONTEXT_BH_WORKQUEUE);
	g_assert_cmpint(sc->ch[2].work_context, ==, IRQSTORM_CONTEXT_HANDLER);
	g_assert_cmpuint(sc->ch[2].bh_off_us, ==, 40);
	g_assert_cmpint(sc->ch[1].pattern, ==, IRQSTORM_PATTERN_OFF);
	g_assert_cmpint(sc->ch[2].pattern, ==, IRQSTORM_PATTERN_PERIODIC);
	g_assert_cmpint(sc->ch[2].ready_channel, ==, 0);
	g_assert_cmpuint(sc->ch[2].ready_delay_ns, ==, 12500);
	g_assert_cmpint(sc->ch[2].thread_prio, ==, 60);
	g_assert_cmpint(sc->ch[2].thread_cpu, ==, 0);
	g_assert_cmpint(sc->ch[3].pattern, ==, IRQSTORM_PATTERN_BURST);
	g_assert_cmpuint(sc->ch[3].burst, ==, 8);
	g_assert_cmpuint(sc->ch[3].gap_ns, ==, 1000000);
	g_assert_cmpuint(sc->ch[3].resched_every, ==, 256);
	g_assert_cmpuint(irqstorm_scenario_channel_mask(sc), ==, 0xd);
	g_assert_cmpint(sc->irq_mode, ==, IRQSTORM_IRQS_MSIX);
	g_assert_true(sc->probe);
	g_assert_cmpuint(sc->probe_prio, ==, 90);
	g_assert_cmpint(sc->i8042_channel, ==, 2);
	g_assert_cmpuint(sc->i8042_timeout_us, ==, 5000);
	g_assert_cmpuint(sc->duration_ms, ==, 250);
	g_assert_cmpuint(sc->timeout_s, ==, 60);
	g_assert_cmpuint(sc->boot_timeout_s, ==, 12);
	g_assert_cmpuint(sc->bin_ns, ==, 100);
	g_assert_cmpuint(sc->bins, ==, 500);
	g_assert_cmpuint(sc->log_mb, ==, 4);
}

/* Each bad input gives its error code and a message naming group and key. */
static void test_errors(void)
{
	static const struct {
		const char *text;
		int code;
		const char *needle;
	} cases[] = {
		{ "[machine\n", IRQSTORM_SCENARIO_ERROR_PARSE, "test.ini" },
		{ "[bogus]\nx = 1\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "[bogus]" },
		{ "[machine]\ncpu = 1\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "'cpu'" },
		{ "[machine]\ncpus = 0\n", IRQSTORM_SCENARIO_ERROR_VALUE, "[machine] cpus = '0'" },
		{ "[machine]\ncpus = 2x\n", IRQSTORM_SCENARIO_ERROR_VALUE, "cpus" },
		{ "[machine]\ncpus = -1\n", IRQSTORM_SCENARIO_ERROR_VALUE, "cpus" },
		{ "[machine]\ncpus = 99999999999999999999\n", IRQSTORM_SCENARIO_ERROR_VALUE, "cpus" },
		{ "[machine]\naccel = xen\n", IRQSTORM_SCENARIO_ERROR_VALUE, "tcg, kvm, auto" },
		{ "[machine]\nicount = 11\n", IRQSTORM_SCENARIO_ERROR_VALUE, "icount" },
		{ "[machine]\nicount = auto\n", IRQSTORM_SCENARIO_ERROR_VALUE, "'off'" },
		{ "[machine]\nallow_smp_icount = yes\n", IRQSTORM_SCENARIO_ERROR_VALUE, "true or false" },
		{ "[machine]\nquantum_ns = 1000001\n", IRQSTORM_SCENARIO_ERROR_VALUE, "quantum_ns" },
		{ "[machine]\ncpus = 2\nquantum_ns = 0\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "cpus = 2 and quantum_ns = 0" },
		{ "[kernel]\nflavour = vanilla\n", IRQSTORM_SCENARIO_ERROR_VALUE, "rt, dyn" },
		{ "[run]\nkernel_expect = nobody\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "'nobody' is no kind of kernel report; the kinds: nobody-cared, " },
		{ "[run]\nkernel_expect = lockdep, flags-mismatch\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "'flags-mismatch' is no kind" },
		{ "[run]\nkernel_expect = lockdep,warning,lockdep\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "'lockdep' twice" },
		{ "[channel0]\nplant = lockdep\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "none, irqs_on, sleep_atomic, lock_order" },
		{ "[channel0]\nplant = irqs_on\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "plant = irqs_on is planted in a hard handler, which needs threading = hardirq" },
		{ "[channel0]\nthreading = hardirq\nplant = sleep_atomic\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "needs threading = threaded" },
		{ "[channel0]\nplant = lock_order\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "plant = lock_order is seen by lockdep only: it needs [kernel] debug = true" },
		{ "[kernel]\nsource = debian-5.10\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "debian-6.12, debian-6.1, debian-7.3, or the path of a kernel source tree" },
		{ "[kernel]\npatches = some\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "default, ours, none" },
		{ "[kernel]\nbh_lock = yes\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "default, on, off" },
		{ "[kernel]\nflavour = dyn\nbh_lock = on\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "the BH lock is PREEMPT_RT's" },
		{ "[kernel]\nbh_lock = off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "bh_lock = off with source = debian-6.12: its PREEMPT_RT always serialises" },
		{ "[kernel]\nsource = debian-6.1\nflavour = dyn\npatches = ours\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "kernel-series/ is made for linux-source-6.12 and 7.3 and is not applied to 6.1" },
		{ "[kernel]\npatches = none\ncmdline = irqthread.prio=irqstorm:fifo:70\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "irqthread.prio=, which only kernel-series/" },
		{ "[kernel]\nsource = /src/linux\ncmdline = threadirqs=single\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "threadirqs=single, which only" },
		{ "[kernel]\nsource = debian-6.1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "no PREEMPT_RT" },
		{ "[kernel]\nsource = debian-6.1\nflavour = dyn\n[channel0]\n"
		  "work_context = bh_workqueue\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "BH workqueues (WQ_BH) came in Linux 6.9" },
		{ "[channel0]\nthreading = hardirq\nbh_off_us = 50\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "bh_off_us is a section of the IRQ thread" },
		{ "[channel0]\nwork_context = softirq\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "handler, tasklet, bh_workqueue, workqueue, workqueue_highpri" },
		{ "[channel0]\nrate = 0\n", IRQSTORM_SCENARIO_ERROR_VALUE, "rate" },
		{ "[run]\nboot_timeout = 0\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "[run] boot_timeout = '0'" },
		{ "[channel0]\nrate = nan\n", IRQSTORM_SCENARIO_ERROR_VALUE, "rate" },
		{ "[channel0]\nrate = 1e12\n", IRQSTORM_SCENARIO_ERROR_VALUE, "rate" },
		{ "[channel0]\nthreading = soft\n", IRQSTORM_SCENARIO_ERROR_VALUE, "hardirq" },
		{ "[channel4]\nrate = 1\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "[channel4]" },
		{ "[channel]\nrate = 1\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "[channel]" },
		{ "[channel01]\nrate = 1\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "[channel01]" },
		{ "[channel1]\npattern = zigzag\n", IRQSTORM_SCENARIO_ERROR_VALUE, "poisson" },
		{ "[channel1]\ngap_us = 0.05\n", IRQSTORM_SCENARIO_ERROR_VALUE, "[channel1] gap_us" },
		{ "[channel1]\nready_channel = 4\n", IRQSTORM_SCENARIO_ERROR_VALUE, "'none'" },
		{ "[channel1]\nthread_prio = 100\n", IRQSTORM_SCENARIO_ERROR_VALUE, "thread_prio" },
		{ "[channel0]\nwork = pio\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "pio_words" },
		{ "[channel0]\nready_channel = 0\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "another active channel" },
		{ "[channel0]\nready_channel = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "another active channel" },
		{ "[channel0]\nthreading = hardirq\nthread_prio = 50\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "no IRQ thread" },
		{ "[channel0]\nthread_cpu = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "1 CPUs" },
		{ "[channel0]\nirq_cpu = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "1 CPUs" },
		{ "[machine]\ncpus = 2\n[channel0]\nirq_cpu = 1\n[guest]\nirq_cpu = 0\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "not both" },
		{ "[machine]\ncpus = 2\n[channel0]\nirq_cpu = 0\n[channel1]\nrate = 10\nirq_cpu = 1\n"
		  "[guest]\nirq_mode = intx\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "one line" },
		{ "[channel0]\npattern = off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "nothing" },
		{ "[guest]\ni8042_channel = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "not an active channel" },
		{ "[guest]\nirq_mode = legacy\n", IRQSTORM_SCENARIO_ERROR_VALUE, "msix" },
		{ "[thresholds]\ndone_max = 5\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "STAGE_STAT_us" },
		{ "[thresholds]\nwake_max_us = 5\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "'wake_max_us'" },
		{ "[thresholds]\ndone_p50_us = 5\n", IRQSTORM_SCENARIO_ERROR_UNKNOWN, "p99_9" },
		{ "[thresholds]\ndone_max_us = -1\n", IRQSTORM_SCENARIO_ERROR_VALUE, "done_max_us" },
		{ "[run]\nduration = 1\nwarmup = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "warmup" },
		{ "[guest]\nirq_cpu = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "1 CPUs" },
		{ "[guest]\nhotplug_cpu = 0\n", IRQSTORM_SCENARIO_ERROR_VALUE, "hotplug_cpu" },
		{ "[guest]\nirq_flip_us = 1000\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "cpus >= 2" },
		{ "[guest]\nsync_irq = 0:0\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "CH:OTHER" },
		{ "[guest]\nsync_irq = 0:1x\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "CH:OTHER" },
		{ "[guest]\nsync_irq = 0:1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "must storm" },
		{ "[changes]\n0.5 = channel0.threading=hardirq\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "can change while it runs" },
		{ "[changes]\n0.5 = run.duration=3\n", IRQSTORM_SCENARIO_ERROR_VALUE, "channelN" },
		{ "[changes]\nsoon = channel0.rate=3\n", IRQSTORM_SCENARIO_ERROR_VALUE, "'soon'" },
		{ "[changes]\n0 = channel0.rate=3\n", IRQSTORM_SCENARIO_ERROR_VALUE, "0 < s" },
		{ "[changes]\n0.5 = channel0.rate=0\n", IRQSTORM_SCENARIO_ERROR_VALUE, "rate" },
		{ "[changes]\n0.5 = channel2.rate=10\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "does not storm from the start" },
		{ "[run]\nduration = 0\n", IRQSTORM_SCENARIO_ERROR_VALUE, "duration" },
		{ "[run]\nduration = 0.0001\n", IRQSTORM_SCENARIO_ERROR_VALUE, "duration" },
		{ "[run]\nlog_mb = 3\n", IRQSTORM_SCENARIO_ERROR_VALUE, "power of two" },
		{ "[machine]\naccel = kvm\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "icount" },
		{ "[run]\nstamps = false\n[channel0]\nwork = pio\npio_words = 4\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "stamps = true" },
		{ "[run]\nstamps = false\n[guest]\nprobe = true\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "no probe" },
		{ "[run]\nstamps = false\n[thresholds]\ndone_max_us = 5\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "no thresholds" },
		{ "[machine]\ncpus = 2\nquantum_ns = 0\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "artifacts" },
		/* Triggered sweeps: aimed by a section, within it, under icount. */
		{ "[channel0]\npattern = triggered\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "fires only when a section arms it" },
		{ "[guest]\nsection = irqs_off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "pattern is not triggered" },
		{ "[guest]\nsection = nmi_off\n", IRQSTORM_SCENARIO_ERROR_VALUE, "raw_spinlock" },
		{ "[channel0]\npattern = triggered\ntrigger_step_ns = 0\n",
		  IRQSTORM_SCENARIO_ERROR_VALUE, "trigger_step_ns" },
		{ "[channel0]\npattern = triggered\ntrigger_start_ns = 10\ntrigger_stop_ns = 5\n"
		  "[guest]\nsection = irqs_off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "the sweep would be empty" },
		{ "[channel0]\npattern = triggered\ntrigger_stop_ns = 50008\n"
		  "[guest]\nsection = irqs_off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "beyond the section" },
		{ "[machine]\nicount = off\n[channel0]\npattern = triggered\n"
		  "[guest]\nsection = irqs_off\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "needs [machine] icount" },
		{ "[channel0]\npattern = triggered\n[guest]\nsection = spinlock\n"
		  "section_cpu = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT, "1 CPUs" },
		{ "[channel0]\npattern = triggered\n[guest]\nsection = pio\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "needs section_pio_channel" },
		{ "[channel0]\npattern = triggered\n[channel1]\n[guest]\nsection = pio\n"
		  "section_pio_channel = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "[channel1] must be periodic with work = pio" },
		{ "[channel0]\npattern = triggered\ntrigger_stop_ns = 2000\n[channel1]\nrate = 1000000\n"
		  "work = pio\npio_words = 8\n[guest]\nsection = pio\nsection_pio_channel = 1\n",
		  IRQSTORM_SCENARIO_ERROR_CONFLICT, "shorter than [channel1]'s period (1000 ns)" },
		{ "[channel0]\npattern = triggered\n[guest]\nsection = irqs_off\n"
		  "section_pio_channel = 0\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "section_pio_channel is for section = pio" },
		{ "[channel0]\npattern = triggered\n[channel1]\n[guest]\nsection = spinlock\n"
		  "section_channel = 1\n", IRQSTORM_SCENARIO_ERROR_CONFLICT,
		  "[channel0] pattern = triggered fires only" },
		/* A lone backslash at the end: GLib returns a value and an error. */
		{ "[channel0]\nrate = 99\\\n", IRQSTORM_SCENARIO_ERROR_VALUE, "[channel0] rate" },
		{ "[run]\nprofile = a\\\n", IRQSTORM_SCENARIO_ERROR_VALUE, "[run] profile" },
		{ "[thresholds]\ndone_max_us = 5\\\n", IRQSTORM_SCENARIO_ERROR_VALUE,
		  "[thresholds] done_max_us" },
		{ "[run]\nprofile = a\n[profile.a]\nchannel0.rate = 99\\\n",
		  IRQSTORM_SCENARIO_ERROR_VALUE, "[profile.a] channel0.rate" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load(cases[i].text, &err);

		g_test_message("case %zu: %s", i, cases[i].text);
		g_assert_null(sc);
		g_assert_error(err, IRQSTORM_SCENARIO_ERROR, cases[i].code);
		g_assert_nonnull(strstr(err->message, cases[i].needle));
		g_assert_nonnull(strstr(err->message, "test.ini"));
	}
}

/* An empty file (or one of comments) is refused: no defaults by mistake. */
static void test_empty(void)
{
	static const char *const texts[] = { "", "\n", "# a comment\n\n# another\n" };

	for (gsize i = 0; i < G_N_ELEMENTS(texts); i++) {
		g_autoptr(GError) err = NULL;

		g_assert_null(load(texts[i], &err));
		g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE);
		g_assert_cmpstr(err->message, ==, "test.ini: no groups: the file is empty "
				"or only comments. For every default, say so with one "
				"group, e.g. [run]");
	}
}

/* A key given twice in a group, also across a repeated [group], is refused
 * naming both lines (GKeyFile would keep the last in silence); the same key
 * in two groups is two keys. */
static void test_duplicate_key(void)
{
	static const struct {
		const char *text, *message;
	} cases[] = {
		{ "[run]\nduration = 1\nduration = 2\n",
		  "test.ini:3: [run] duration is given twice (first on line 2): only one can be meant" },
		{ "[run]\nduration = 1\n[channel0]\nrate = 10\n\n[run]\n  duration=2\n",
		  "test.ini:7: [run] duration is given twice (first on line 2): only one can be meant" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;

		g_assert_null(load(cases[i].text, &err));
		g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE);
		g_assert_cmpstr(err->message, ==, cases[i].message);
	}
	{
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[channel0]\nrate = 10\n[channel1]\nrate = 20\n",
						      &err);

		g_assert_no_error(err);
		g_assert_nonnull(sc);
	}
}

#define KNOWN_GROUPS "known: machine, kernel, channel0..channel3, guest, run, " \
	"thresholds, changes, profile.NAME)"

/*
 * The messages that help, word for word: an unknown group says so in a
 * file and in --set alike, with the groups there are; a typo gets what it
 * is a typo of; a number out of range or not a number at all gets the
 * range; a comment after a value is named as one.
 */
static void test_messages(void)
{
	static const struct {
		const char *text;	/* a file, or (no '[') one --set */
		const char *message;
	} cases[] = {
		{ "[channel7]\nrate = 1\n", "test.ini: unknown group [channel7] (" KNOWN_GROUPS },
		{ "channel7.rate=1", "--set: unknown group [channel7] (" KNOWN_GROUPS },
		{ "[chanel0]\nrate = 1\n",
		  "test.ini: unknown group [chanel0] (did you mean [channel0]? " KNOWN_GROUPS },
		{ "gust.probe=true", "--set: unknown group [gust] (did you mean [guest]? "
		  KNOWN_GROUPS },
		{ "[channel0]\nrat = 1\n",
		  "test.ini: [channel0] unknown key 'rat' (did you mean 'rate'?)" },
		{ "channel0.rat=1", "--set: [channel0] unknown key 'rat' (did you mean 'rate'?)" },
		{ "channel2.treading=hardirq",
		  "--set: [channel2] unknown key 'treading' (did you mean 'threading'?)" },
		{ "run.profil=a", "--set: [run] unknown key 'profil' (did you mean 'profile'?)" },
		{ "[machine]\nxyzzy = 1\n", "test.ini: [machine] unknown key 'xyzzy' (keys of "
		  "[machine]: accel, cpus, memory_mb, icount, allow_smp_icount, quantum_ns, seed)" },
		{ "[channel0]\nrate = 0\n",
		  "test.ini: [channel0] rate = '0': rate in Hz must be from 1 to 10000000" },
		{ "[channel0]\nrate = 1e9\n",
		  "test.ini: [channel0] rate = '1e9': rate in Hz must be from 1 to 10000000" },
		{ "channel0.rate=fast",
		  "--set: [channel0] rate = 'fast': rate in Hz must be from 1 to 10000000" },
		{ "[run]\nduration = 0\n", "test.ini: [run] duration = '0': expected a "
		  "number of seconds from 0.001 to 3600" },
		{ "run.duration=-1", "--set: [run] duration = '-1': expected a number of "
		  "seconds from 0.001 to 3600" },
		{ "[channel1]\ngap_us = soon\n", "test.ini: [channel1] gap_us = 'soon': "
		  "expected a number of microseconds from 0.1 to 1000000000" },
		{ "[channel0]\nrate = 2000 # note\n", "test.ini: [channel0] rate = '2000 # "
		  "note': comments need their own line (a '#' after a value is part "
		  "of the value)" },
		{ "[kernel]\ncmdline = quiet\t# for speed\n", "test.ini: [kernel] cmdline = "
		  "'quiet\t# for speed': comments need their own line (a '#' after a "
		  "value is part of the value)" },
		{ "[thresholds]\ndone_max_us = # none\n", "test.ini: [thresholds] done_max_us "
		  "= '# none': comments need their own line (a '#' after a value is "
		  "part of the value)" },
	};

	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = NULL;

		if (strchr(cases[i].text, '[')) {
			g_assert_null(load(cases[i].text, &err));
		} else {
			sc = load("[run]\n", &err);
			g_assert_false(irqstorm_scenario_set(sc, cases[i].text, &err));
		}
		g_assert_nonnull(err);
		if (g_strcmp0(err->message, cases[i].message))
			g_error("case %zu: '%s'\n  is not '%s'", i, err->message,
				cases[i].message);
	}
}

/* A '#' inside a word is no comment. */
static void test_hash_in_value(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[kernel]\ncmdline = a#b\n", &err);

	g_assert_no_error(err);
	g_assert_cmpstr(sc->cmdline, ==, "a#b");
}

/*
 * Overrides name the option that gave them, are noted in order, and are
 * checked together afterwards; a profile's assignments name the profile.
 */
static void test_overrides(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[profile.a]\nchannel0.rat = 1\n", &err);

	g_assert_false(irqstorm_scenario_override(sc, "run.duration=-1", "--duration", &err));
	g_assert_cmpstr(err->message, ==, "--duration: [run] duration = '-1': expected "
			"a number of seconds from 0.001 to 3600");
	g_clear_error(&err);
	g_assert_cmpuint(sc->overrides->len, ==, 0);
	/* KVM with icount is refused, but only once both are given. */
	g_assert_true(irqstorm_scenario_override(sc, "machine.accel=kvm", "--accel", &err));
	g_assert_false(irqstorm_scenario_check(sc, "--accel", &err));
	g_assert_true(g_str_has_prefix(err->message, "--accel: [machine] icount needs "
				       "accel = tcg"));
	g_clear_error(&err);
	g_assert_true(irqstorm_scenario_override(sc, "machine.icount=off", "--set", &err));
	g_assert_true(irqstorm_scenario_check(sc, "--accel, --set", &err));
	g_assert_cmpuint(sc->overrides->len, ==, 2);
	g_assert_cmpstr(sc->overrides->pdata[0], ==, "machine.accel=kvm");
	g_assert_cmpstr(sc->overrides->pdata[1], ==, "machine.icount=off");
	g_assert_false(irqstorm_scenario_override(sc, "run.profile=a", "--set", &err));
	g_assert_cmpstr(err->message, ==, "--set [profile.a]: [channel0] unknown key "
			"'rat' (did you mean 'rate'?)");
}

/* The documented ways out of the icount/SMP refusal. */
static void test_smp(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) a = load("[machine]\ncpus = 2\nicount = off\n", &err);
	g_autoptr(IrqstormScenario) b = NULL;

	g_assert_no_error(err);
	g_assert_cmpuint(a->cpus, ==, 2);
	b = load("[machine]\ncpus = 2\nquantum_ns = 0\nallow_smp_icount = true\n", &err);
	g_assert_no_error(err);
	g_assert_true(b->allow_smp_icount);
	g_assert_false(irqstorm_scenario_smp_windows(b));
	g_clear_pointer(&b, irqstorm_scenario_free);
	/* The exact way, by default: windows of virtual time (-icount quantum) */
	b = load("[machine]\ncpus = 2\n", &err);
	g_assert_no_error(err);
	g_assert_cmpuint(b->quantum_ns, ==, IRQSTORM_QUANTUM_NS_DEFAULT);
	g_assert_true(irqstorm_scenario_smp_windows(b));
	g_clear_pointer(&b, irqstorm_scenario_free);
	/* Without icount the quantum has nothing to cut: no effect, no error */
	b = load("[machine]\ncpus = 2\nicount = off\nquantum_ns = 5000\n", &err);
	g_assert_no_error(err);
	g_assert_false(irqstorm_scenario_smp_windows(b));
}

static void test_set(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[run]\n", &err);

	g_assert_true(irqstorm_scenario_set(sc, "channel0.rate=100000", &err));
	g_assert_cmpuint(sc->ch[0].period_ns, ==, 10000);
	g_assert_true(irqstorm_scenario_set(sc, "channel3.pattern=poisson", &err));
	g_assert_cmpint(sc->ch[3].pattern, ==, IRQSTORM_PATTERN_POISSON);
	g_assert_true(irqstorm_scenario_set(sc, "kernel.cmdline=a=b c", &err));
	g_assert_cmpstr(sc->cmdline, ==, "a=b c");
	g_assert_false(irqstorm_scenario_set(sc, "channel0.rate", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_PARSE);
	g_clear_error(&err);
	g_assert_false(irqstorm_scenario_set(sc, "nope.rate=1", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN);
	g_clear_error(&err);
	/* "channel" alone names no channel (the fuzzer found this writing a
	 * channel field through the scenario's base). */
	g_assert_false(irqstorm_scenario_set(sc, "channel.rate=99", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN);
	g_clear_error(&err);
	g_assert_true(irqstorm_scenario_set(sc, "machine.quantum_ns=0", &err));
	g_assert_false(irqstorm_scenario_set(sc, "machine.cpus=4", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_CONFLICT);
}

/* [kernel] source and patches: the kernel's name, its tree, the defaults. */
static void test_kernel_source(void)
{
	/* KEY: the first 8 hex digits of the SHA-256 of "/src/linux". */
	static const struct {
		const char *sets[4];
		const char *name;
		const char *patches;
	} cases[] = {
		{ { NULL }, "rt", "ours" },
		{ { "kernel.patches=none" }, "rt-patches-none", "none" },
		{ { "kernel.patches=ours" }, "rt", "ours" },
		{ { "kernel.flavour=dyn", "kernel.source=debian-6.1" }, "dyn-6.1", "none" },
		{ { "kernel.source=debian-7.3" }, "rt-7.3", "ours" },
		{ { "kernel.source=debian-7.3", "kernel.bh_lock=on" }, "rt-7.3-bh-lock", "ours" },
		{ { "kernel.source=debian-7.3", "kernel.bh_lock=off" }, "rt-7.3", "ours" },
		{ { "kernel.debug=true" }, "rt-debug", "ours" },
		{ { "kernel.source=debian-7.3", "kernel.bh_lock=on", "kernel.debug=true" },
		  "rt-7.3-bh-lock-debug", "ours" },
		{ { "kernel.bh_lock=on" }, "rt", "ours" },
		{ { "kernel.source=/src/linux", "kernel.bh_lock=on" }, "rt-tree-KEY-bh-lock", "none" },
		{ { "kernel.flavour=dyn", "kernel.source=debian-7.3", "kernel.patches=none" },
		  "dyn-7.3-patches-none", "none" },
		{ { "kernel.flavour=dyn", "kernel.source=/src/linux" }, "dyn-tree-KEY", "none" },
		{ { "kernel.source=/src//linux/", "kernel.patches=ours" },
		  "rt-tree-KEY-patches-ours", "ours" },
	};
	g_autofree char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256,
							      "/src/linux", -1);

	hash[8] = '\0';
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[run]\n", &err);
		g_autofree char *name = NULL;
		g_auto(GStrv) parts = g_strsplit(cases[i].name, "KEY", -1);
		g_autofree char *want = g_strjoinv(hash, parts);

		for (gsize s = 0; cases[i].sets[s]; s++)
			g_assert_true(irqstorm_scenario_set(sc, cases[i].sets[s], &err));
		g_assert_no_error(err);
		name = irqstorm_scenario_kernel_name(sc);
		g_assert_cmpstr(name, ==, want);
		g_assert_cmpstr(irqstorm_scenario_patches(sc), ==, cases[i].patches);
		/* A path is kept canonical, whatever its spelling. */
		g_assert_cmpstr(irqstorm_scenario_kernel_tree(sc), ==,
				strstr(cases[i].name, "KEY") ? "/src/linux" : NULL);
	}
}

/* On the command line any kernel.source that is not a name is a path,
 * against the current directory ("--tree ." in the tree); in a scenario
 * file a path needs its '/'. */
static void test_kernel_source_path(void)
{
	static const char *const given[] = { ".", "linux", "./linux", "..", "linux/" };
	g_autofree char *cwd = g_get_current_dir();

	for (gsize i = 0; i < G_N_ELEMENTS(given); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[run]\n", &err);
		g_autofree char *set = g_strconcat("kernel.source=", given[i], NULL);
		g_autofree char *want = g_canonicalize_filename(given[i], cwd);
		char *real = realpath(want, NULL);

		/* One that exists is taken with its links resolved. */
		if (real) {
			g_free(want);
			want = g_strdup(real);
			free(real);
		}
		g_assert_true(irqstorm_scenario_set(sc, set, &err));
		g_assert_no_error(err);
		g_assert_cmpstr(irqstorm_scenario_kernel_tree(sc), ==, want);
		/* The override is noted as given. */
		g_assert_cmpstr(sc->overrides->pdata[sc->overrides->len - 1], ==, set);
	}
	{
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[kernel]\nsource = linux\n", &err);

		g_assert_null(sc);
		g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE);
		g_assert_nonnull(strstr(err->message, "with a '/'"));
	}
	{
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[kernel]\nflavour = dyn\n", &err);

		g_assert_true(irqstorm_scenario_set(sc, "kernel.source=debian-6.1", &err));
		g_assert_null(irqstorm_scenario_kernel_tree(sc));
	}
	{
		/* A symbolic link to a tree is the tree: one kernel name, one build. */
		g_autofree char *dir = tu_make_dir();
		g_autofree char *tree = g_build_filename(dir, "tree", NULL);
		g_autofree char *link = g_build_filename(dir, "link", NULL);
		g_autofree char *set = g_strconcat("kernel.source=", link, NULL);
		g_autofree char *real = NULL;
		g_autoptr(GError) err = NULL;
		g_autoptr(IrqstormScenario) sc = load("[run]\n", &err);
		char *r;

		g_assert_cmpint(g_mkdir(tree, 0755), ==, 0);
		g_assert_cmpint(symlink(tree, link), ==, 0);
		r = realpath(tree, NULL);
		real = g_strdup(r);
		free(r);
		g_assert_true(irqstorm_scenario_set(sc, set, &err));
		g_assert_cmpstr(irqstorm_scenario_kernel_tree(sc), ==, real);
		tu_rmtree(dir);
	}
}

/* The effective scenario written out parses back to the same values. */
static void test_round_trip(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) a = load("[channel0]\nrate = 3000\n"
					     "[channel2]\nready_delay_us = 7.5\nwork = spin\n"
					     "[guest]\nprobe = true\n"
					     "[run]\nduration = 1.5\n", &err);
	g_autofree char *ini = irqstorm_scenario_to_ini(a);
	g_autoptr(IrqstormScenario) b = load(ini, &err);
	g_autofree char *ini2 = NULL;

	g_assert_no_error(err);
	g_assert_cmpuint(b->ch[0].period_ns, ==, a->ch[0].period_ns);
	g_assert_cmpuint(b->ch[2].ready_delay_ns, ==, 7500);
	g_assert_cmpint(b->ch[2].work, ==, IRQSTORM_WORK_SPIN);
	g_assert_true(b->probe);
	g_assert_cmpuint(b->duration_ms, ==, 1500);
	ini2 = irqstorm_scenario_to_ini(b);
	g_assert_cmpstr(ini, ==, ini2);
}

/* TRUE if argv has option opt immediately followed by a value containing val. */
static gboolean has_opt(char **argv, const char *opt, const char *val)
{
	for (gsize i = 0; argv[i] && argv[i + 1]; i++)
		if (!g_strcmp0(argv[i], opt) && strstr(argv[i + 1], val))
			return TRUE;
	return FALSE;
}

/* The QEMU command line: deterministic flags, doubled commas in paths. */
static void test_argv(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[channel0]\nrate = 4000\n", &err);
	IrqstormMachinePaths p = {
		.qemu = "/q", .kernel = "/k", .initrd = "/i", .log_path = "/t/a,b",
		.qmp_path = "/t/q", .console_path = "/o/c", .guest_conf_path = "/t/g",
	};
	g_auto(GStrv) argv = irqstorm_machine_argv(sc, &p);
	g_autofree char *line = irqstorm_argv_to_shell((const char *const *)argv);
	g_auto(GStrv) back = NULL;

	g_assert_cmpstr(argv[0], ==, "/q");
	g_assert_true(has_opt(argv, "-icount", "shift=3,sleep=off"));
	g_assert_true(has_opt(argv, "-rtc", "clock=vm"));
	g_assert_true(has_opt(argv, "-smp", "1"));
	g_assert_true(has_opt(argv, "-accel", "tcg"));
	g_assert_true(has_opt(argv, "-object", "mem-path=/t/a,,b,"));
	g_assert_true(has_opt(argv, "-device", "ch0-pattern=periodic,ch0-period-ns=250000"));
	g_assert_false(has_opt(argv, "-device", "ch1-pattern"));
	g_assert_false(has_opt(argv, "-device", "stamps"));
	g_assert_true(g_strv_contains((const char *const *)argv, "-no-shutdown"));
	/* The printed command line parses back to the same argv. */
	g_assert_true(g_shell_parse_argv(line, NULL, &back, &err));
	g_assert_true(g_strv_equal((const char *const *)argv, (const char *const *)back));

	/* The quantum with one vCPU: today's -icount, exactly */
	g_assert_true(irqstorm_scenario_set(sc, "machine.quantum_ns=10000", &err));
	g_strfreev(argv);
	argv = irqstorm_machine_argv(sc, &p);
	g_assert_false(has_opt(argv, "-icount", "quantum"));
	g_assert_true(irqstorm_scenario_set(sc, "machine.cpus=2", &err));
	g_strfreev(argv);
	argv = irqstorm_machine_argv(sc, &p);
	g_assert_true(has_opt(argv, "-icount", "shift=3,sleep=off,quantum=10000"));
	g_assert_true(has_opt(argv, "-append", " tsc=reliable"));
	g_assert_true(irqstorm_scenario_set(sc, "machine.cpus=1", &err));
	g_strfreev(argv);
	argv = irqstorm_machine_argv(sc, &p);
	g_assert_false(has_opt(argv, "-append", "tsc="));

	g_assert_true(irqstorm_scenario_set(sc, "machine.quantum_ns=0", &err));
	g_assert_true(irqstorm_scenario_set(sc, "machine.icount=off", &err));
	g_strfreev(argv);
	argv = irqstorm_machine_argv(sc, &p);
	g_assert_false(g_strv_contains((const char *const *)argv, "-icount"));

	g_assert_true(irqstorm_scenario_set(sc, "run.stamps=false", &err));
	g_strfreev(argv);
	argv = irqstorm_machine_argv(sc, &p);
	g_assert_true(has_opt(argv, "-device", ",stamps=off"));
}

/* The guest's settings: every key of the protocol, once, in its order; one
 * value per channel where the driver takes arrays. */
static void test_guest_conf(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load(
		"[channel0]\nthreading = hardirq\n"
		"[channel1]\nthreading = forced\nwork = pio\npio_words = 8\n"
		"resched_every = 4\nthread_prio = 70\n"
		"[guest]\nirq_mode = msi\ni8042_channel = 0\n", &err);
	g_autofree char *conf = NULL;

	g_assert_no_error(err);
	conf = irqstorm_machine_guest_conf(sc);
	g_assert_nonnull(strstr(conf, "\nirq_mode=msi\n"));
	g_assert_nonnull(strstr(conf, "\nchannels=3\n"));
	g_assert_nonnull(strstr(conf, "\nthreading=hardirq,forced,threaded,threaded\n"));
	g_assert_nonnull(strstr(conf, "\nwork=none,pio,none,none\n"));
	g_assert_nonnull(strstr(conf, "\nresched=0,4,0,0\n"));
	g_assert_nonnull(strstr(conf, "\nthread_prio=-,70,-,-\n"));
	g_assert_nonnull(strstr(conf, "\ni8042=0:20000\n"));
	g_assert_nonnull(strstr(conf, "\nprobe=off\n"));
	g_assert_nonnull(strstr(conf, "\nstamps=on\n"));
	g_assert_nonnull(strstr(conf, "\nhandler_clock=off\n"));
	g_assert_nonnull(strstr(conf, "\ncyclictest=off\n"));
	{
#define CONF_KEY(key, dflt, help) #key,
		static const char *const keys[] = { IRQSTORM_GUEST_CONF(CONF_KEY) };
#undef CONF_KEY
		g_auto(GStrv) lines = g_strsplit(conf, "\n", -1);

		g_assert_cmpuint(g_strv_length(lines), ==, G_N_ELEMENTS(keys) + 1);
		for (gsize i = 0; i < G_N_ELEMENTS(keys); i++)
			g_assert_true(g_str_has_prefix(lines[i], keys[i]) &&
				      lines[i][strlen(keys[i])] == '=');
	}
	g_free(conf);
	g_assert_true(irqstorm_scenario_set(sc, "channel1.work=none", &err));
	g_assert_true(irqstorm_scenario_set(sc, "run.stamps=false", &err));
	g_assert_true(irqstorm_scenario_set(sc, "guest.handler_clock=true", &err));
	conf = irqstorm_machine_guest_conf(sc);
	g_assert_nonnull(strstr(conf, "\nstamps=off\n"));
	g_assert_nonnull(strstr(conf, "\nhandler_clock=on\n"));
}

/* cyclictest: its own initramfs, its priority, the cycles it must reach. */
static void test_cyclictest(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[kernel]\nflavour = dyn\n"
					      "[guest]\nprobe_period_us = 300\n"
					      "[run]\nduration = 0.1\n", &err);
	g_autofree char *name = NULL, *conf = NULL;

	g_assert_no_error(err);
	name = irqstorm_machine_initrd_name(sc);
	g_assert_cmpstr(name, ==, "initramfs-dyn.cpio.gz");
	g_free(name);
	g_assert_true(irqstorm_scenario_set(sc, "guest.cyclictest=true", &err));
	g_assert_true(irqstorm_scenario_set(sc, "guest.cyclictest_prio=60", &err));
	g_assert_false(irqstorm_scenario_set(sc, "guest.cyclictest_prio=0", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_VALUE);
	g_clear_error(&err);
	name = irqstorm_machine_initrd_name(sc);
	g_assert_cmpstr(name, ==, "initramfs-dyn-cyclictest.cpio.gz");
	conf = irqstorm_machine_guest_conf(sc);
	g_assert_nonnull(strstr(conf, "\ncyclictest=on\ncyclictest_prio=60\n"));
	/* It must run through the storm: 100 ms / 300 us, 333 whole periods. */
	g_assert_cmpuint(irqstorm_scenario_cyclictest_min_cycles(sc), ==, 333);
	g_assert_true(irqstorm_scenario_set(sc, "guest.probe_period_us=1000000", &err));
	g_assert_cmpuint(irqstorm_scenario_cyclictest_min_cycles(sc), ==, 0);
}

/* Thresholds: stage, statistic and limit from the key, round trip, --set. */
static void test_thresholds(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load("[thresholds]\ndone_max_us = 120\n"
					      "probe_p99_9_us = 50.5\nhardirq_p99_us = 8\n",
					      &err);
	g_autoptr(IrqstormScenario) back = NULL;
	g_autofree char *ini = NULL;
	const IrqstormThreshold *t;

	g_assert_no_error(err);
	g_assert_cmpuint(sc->thresholds->len, ==, 3);
	t = &g_array_index(sc->thresholds, IrqstormThreshold, 1);
	g_assert_cmpstr(t->stage, ==, "probe");
	g_assert_cmpint(t->stat, ==, IRQSTORM_STAT_P99_9);
	g_assert_cmpuint(t->limit_ns, ==, 50500);
	g_assert_true(irqstorm_scenario_set(sc, "thresholds.done_max_us=99", &err));
	g_assert_cmpuint(sc->thresholds->len, ==, 3);
	g_assert_cmpuint(g_array_index(sc->thresholds, IrqstormThreshold, 0).limit_ns,
			 ==, 99000);
	ini = irqstorm_scenario_to_ini(sc);
	back = load(ini, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(back->thresholds->len, ==, 3);
	g_assert_cmpuint(g_array_index(back->thresholds, IrqstormThreshold, 2).limit_ns,
			 ==, 8000);
}

/* [changes]: in time order, as QOM sets, and written back the same way. */
static void test_changes(void)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = load(
		"[channel1]\nenable = false\n"
		"[changes]\n1.5 = channel0.pattern=burst; channel1.enable=true\n"
		"0.25 = channel0.rate=4000\n", &err);
	g_autoptr(IrqstormScenario) back = NULL;
	g_autofree char *ini = NULL;
	const IrqstormChange *c;

	g_assert_no_error(err);
	g_assert_false(sc->ch[1].enable);
	g_assert_cmpuint(sc->changes->len, ==, 3);
	c = &g_array_index(sc->changes, IrqstormChange, 0);
	g_assert_cmpuint(c->at_ns, ==, 250000000);
	g_assert_cmpstr(c->qom_property, ==, "ch0-period-ns");
	g_assert_cmpstr(c->qom_json, ==, "250000");
	c = &g_array_index(sc->changes, IrqstormChange, 1);
	g_assert_cmpstr(c->qom_property, ==, "ch0-pattern");
	g_assert_cmpstr(c->qom_json, ==, "\"burst\"");
	c = &g_array_index(sc->changes, IrqstormChange, 2);
	g_assert_cmpstr(c->qom_property, ==, "ch1-enable");
	g_assert_cmpstr(c->qom_json, ==, "true");
	/* The scenario itself is not changed by them. */
	g_assert_cmpuint(sc->ch[0].period_ns, ==, 1000000);
	ini = irqstorm_scenario_to_ini(sc);
	g_assert_nonnull(strstr(ini, "1.5 = channel0.pattern=burst; channel1.enable=true\n"));
	back = load(ini, &err);
	g_assert_no_error(err);
	g_assert_cmpuint(back->changes->len, ==, 3);
}

/* Profiles: named variants of an experiment, applied over the file. */
static void test_profiles(void)
{
	static const char text[] =
		"[kernel]\nflavour = dyn\n"
		"[profile.none]\nkernel.cmdline = preempt=none\nchannel0.threading = hardirq\n"
		"[profile.rt]\nkernel.flavour = rt\nchannel0.threading = forced\n"
		"[run]\nduration = 2\n";
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) a = load(text, &err);
	g_autoptr(IrqstormScenario) b = NULL;
	g_autofree char *with = g_strconcat(text, "profile = rt\n", NULL);

	g_assert_no_error(err);
	g_assert_null(a->profile);
	g_assert_cmpstr(a->flavour, ==, "dyn");
	g_assert_true(irqstorm_scenario_set(a, "run.profile=none", &err));
	g_assert_cmpstr(a->cmdline, ==, "preempt=none");
	g_assert_cmpint(a->ch[0].threading, ==, IRQSTORM_THREADING_HARDIRQ);
	g_assert_cmpstr(a->profile, ==, "none");
	g_assert_false(irqstorm_scenario_set(a, "run.profile=full", &err));
	g_assert_nonnull(strstr(err->message, "profiles: none, rt"));
	g_clear_error(&err);
	/* In the file, the profile overrides the groups, wherever it stands. */
	b = load(with, &err);
	g_assert_no_error(err);
	g_assert_cmpstr(b->flavour, ==, "rt");
	g_assert_cmpint(b->ch[0].threading, ==, IRQSTORM_THREADING_FORCED);
	g_assert_null(load("[profile.x]\ncmdline = a\n", &err));
	g_assert_error(err, IRQSTORM_SCENARIO_ERROR, IRQSTORM_SCENARIO_ERROR_UNKNOWN);
}

static void test_result_line(void)
{
	g_autoptr(GHashTable) kv = irqstorm_parse_result_line(
		"boot\nIRQSTORM-RESULT status=error\nxIRQSTORM-RESULT status=fake\n"
		"IRQSTORM-RESULT status=ok handled=42 mode=threaded\r\nend\n");
	g_autoptr(GHashTable) none = irqstorm_parse_result_line("no result here\n");

	g_assert_nonnull(kv);
	g_assert_cmpstr(g_hash_table_lookup(kv, "status"), ==, "ok");
	g_assert_cmpstr(g_hash_table_lookup(kv, "handled"), ==, "42");
	g_assert_cmpstr(g_hash_table_lookup(kv, "mode"), ==, "threaded");
	g_assert_null(none);
	g_assert_cmpfloat(irqstorm_last_printk_time("[    0.5] a\n[   2.621317] reboot: Power down\nx [9.0]\n"),
			  ==, 2.621317);
	g_assert_cmpfloat(irqstorm_last_printk_time("no stamps\n[x]\n"), ==, -1);
}

/* The result line's keys against the protocol: "mode" is not one. */
static void test_result_protocol(void)
{
	IrqstormConsole con = {
		.result = irqstorm_parse_result_line(
			"IRQSTORM-RESULT status=ok handled=4,0,0,0 mode=x i8042=none\n"),
	};
	g_autoptr(GPtrArray) unknown = irqstorm_console_unknown_keys(&con);

	g_assert_cmpuint(unknown->len, ==, 1);
	g_assert_cmpstr(unknown->pdata[0], ==, "mode");
	g_assert_true(irqstorm_result_key_per_channel("handled"));
	g_assert_false(irqstorm_result_key_per_channel("i8042"));
	g_assert_true(irqstorm_result_key_known(IRQSTORM_RESULT_KEY(thread_sched)));
	g_hash_table_unref(con.result);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/scenario/defaults", test_defaults);
	g_test_add_func("/scenario/values", test_values);
	g_test_add_func("/scenario/errors", test_errors);
	g_test_add_func("/scenario/empty", test_empty);
	g_test_add_func("/scenario/duplicate-key", test_duplicate_key);
	g_test_add_func("/scenario/messages", test_messages);
	g_test_add_func("/scenario/hash-in-value", test_hash_in_value);
	g_test_add_func("/scenario/overrides", test_overrides);
	g_test_add_func("/scenario/smp", test_smp);
	g_test_add_func("/scenario/set", test_set);
	g_test_add_func("/scenario/kernel-source", test_kernel_source);
	g_test_add_func("/scenario/kernel-source-path", test_kernel_source_path);
	g_test_add_func("/scenario/round-trip", test_round_trip);
	g_test_add_func("/machine/argv", test_argv);
	g_test_add_func("/machine/guest-conf", test_guest_conf);
	g_test_add_func("/machine/cyclictest", test_cyclictest);
	g_test_add_func("/scenario/thresholds", test_thresholds);
	g_test_add_func("/scenario/changes", test_changes);
	g_test_add_func("/scenario/profiles", test_profiles);
	g_test_add_func("/results/result-line", test_result_line);
g_test_add_func("/results/result-protocol", test_result_protocol);
	return g_test_run();
}
