// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * genirq's promises held against a run (rig/core/promises.c). The records
 * are real: the first 200 of two runs on the dyn 6.12 kernel (TCG, icount
 * shift=3), `irqstorm check --flavour dyn --cases threaded-intx` and
 * `--cases threaded-msi --set channel0.pio_words=2048 --set
 * channel0.rate=5000 --duration 0.05`. On MSI the driver asks for no
 * IRQF_ONESHOT, so its hard handler runs while its thread works: judged
 * as if its line were a ONESHOT one, those records break the promise, as a
 * kernel that unmasked a ONESHOT line early would.
 */
#include <string.h>

#include "core/promises.h"
#include "core/records.h"
#include "testutil.h"

static GArray *fixture_records(const char *name)
{
	const char *dir = g_getenv("IRQSTORM_TEST_FIXTURES");
	g_autofree char *path = NULL;
	g_autoptr(GError) err = NULL;
	GArray *r;

	if (!dir)
		g_error("IRQSTORM_TEST_FIXTURES is not set (run the tests with meson test)");
	path = g_build_filename(dir, name, NULL);
	r = irqstorm_records_read(path, FALSE, &err);
	g_assert_no_error(err);
	return r;
}

/* The guest's result line, as console.log holds it. */
static IrqstormConsole *console_of(const char *result_line)
{
	g_autofree char *dir = tu_make_dir();
	g_autofree char *path = g_build_filename(dir, "console.log", NULL);
	IrqstormConsole *con;

	tu_write(path, result_line);
	con = irqstorm_console_read(path);
	tu_rmtree(dir);
	return con;
}

/* The promise named so, of channel ch, in p; fails the test if absent. */
static const IrqstormPromise *find(const GArray *p, const char *name, int ch)
{
	for (guint i = 0; i < p->len; i++) {
		const IrqstormPromise *q = &g_array_index(p, IrqstormPromise, i);

		if (!strcmp(q->promise, name) && q->channel == ch)
			return q;
	}
	g_error("no promise %s of channel %d", name, ch);
	return NULL;
}

static gboolean judged(const GArray *p, const char *name)
{
	for (guint i = 0; i < p->len; i++)
		if (!strcmp(g_array_index(p, IrqstormPromise, i).promise, name))
			return TRUE;
	return FALSE;
}

static void free_promises(GArray *p)
{
	for (guint i = 0; i < p->len; i++)
		g_free(g_array_index(p, IrqstormPromise, i).detail);
	g_array_unref(p);
}

static GArray *judge(const char *ini, const char *line, const char *records,
		     gboolean fifo_secondary)
{
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data("t.ini", ini, &err);
	g_autoptr(IrqstormConsole) con = console_of(line);
	g_autoptr(GArray) r = records ? fixture_records(records) : NULL;

	g_assert_no_error(err);
	return irqstorm_promises_judge(sc, con, r, fifo_secondary);
}

#define THREADED "[channel0]\nthreading = threaded\n"
#define QUIET "IRQSTORM-RESULT status=ok handled=200,0,0,0 overlaps=0,0,0,0 " \
	"primary_pid=0,0,0,0 thread_sched=1:50,-,-,-\n"

/* ONESHOT held on INTx; broken by the MSI run's records judged as INTx. */
static void test_oneshot(void)
{
	GArray *held = judge(THREADED "[guest]\nirq_mode = intx\n", QUIET,
			     "records-threaded-intx-dyn.csv", FALSE);
	GArray *broken = judge(THREADED "[guest]\nirq_mode = intx\n", QUIET,
			       "records-threaded-msi-dyn.csv", FALSE);
	GArray *msi = judge(THREADED "[guest]\nirq_mode = msi\n", QUIET,
			    "records-threaded-msi-dyn.csv", FALSE);

	g_assert_true(find(held, "oneshot", 0)->held);
	g_assert_cmpstr(find(held, "oneshot", 0)->detail, ==, "no hard handler of the "
			"line ran while a thread of it worked (200 events)");
	g_assert_false(find(broken, "oneshot", 0)->held);
	g_assert_true(g_str_has_prefix(find(broken, "oneshot", 0)->detail,
				       "a hard handler of the line ran while a thread of "
				       "it worked on 129 of 200 events (the first: channel 0, "
				       "event "));
	g_assert_false(judged(msi, "oneshot"));
	free_promises(held);
	free_promises(broken);
	free_promises(msi);
}

/* The guest's counters: overlaps, handled; the threads' priorities. */
static void test_counters_and_priority(void)
{
	GArray *ok = judge(THREADED "[guest]\nirq_mode = msi\n", QUIET, NULL, FALSE);
	GArray *bad = judge(THREADED "[guest]\nirq_mode = msi\n",
			    "IRQSTORM-RESULT status=ok handled=0,0,0,0 overlaps=3,0,0,0 "
			    "primary_pid=51,0,0,0 thread_sched=1:50,-,-,-\n", NULL, TRUE);
	GArray *old = judge(THREADED "[guest]\nirq_mode = msi\n",
			    "IRQSTORM-RESULT status=ok handled=9,0,0,0 overlaps=0,0,0,0 "
			    "primary_pid=51,0,0,0 thread_sched=1:50,-,-,-\n", NULL, FALSE);
	GArray *set = judge(THREADED "thread_prio = 70\n[guest]\nirq_mode = msi\n",
			    "IRQSTORM-RESULT status=ok handled=9,0,0,0 overlaps=0,0,0,0 "
			    "primary_pid=0,0,0,0 thread_sched=1:70,-,-,-\n", NULL, FALSE);

	g_assert_true(find(ok, "one-at-a-time", 0)->held);
	g_assert_true(find(ok, "handlers-called", 0)->held);
	g_assert_true(find(ok, "thread-priority", 0)->held);
	g_assert_false(find(bad, "one-at-a-time", 0)->held);
	g_assert_false(find(bad, "handlers-called", 0)->held);
	/* A secondary at its primary's 50 where the kernel promises 49. */
	g_assert_false(find(bad, "thread-priority", 0)->held);
	g_assert_cmpstr(find(bad, "thread-priority", 0)->detail, ==, "its secondary thread "
			"runs at policy:priority 1:50; the kernel promises 1:49");
	/* A kernel without sched_set_fifo_secondary() promises 50 to both. */
	g_assert_true(find(old, "thread-priority", 0)->held);
	g_assert_false(judged(set, "thread-priority"));
	free_promises(ok);
	free_promises(bad);
	free_promises(old);
	free_promises(set);
}

/* On two vCPUs, the records' vCPUs against the CPU the IRQ went to. */
static void test_affinity(void)
{
	const char *two = "[machine]\ncpus = 2\n" THREADED "[guest]\nirq_mode = intx\n";
	g_autofree char *on0 = g_strconcat(two, "irq_cpu = 0\n", NULL);
	g_autofree char *on1 = g_strconcat(two, "irq_cpu = 1\n", NULL);
	g_autofree char *moving = g_strconcat(two, "irq_cpu = 0\nirq_flip_us = 100\n", NULL);
	GArray *held = judge(on0, QUIET, "records-threaded-intx-dyn.csv", FALSE);
	GArray *off = judge(on1, QUIET, "records-threaded-intx-dyn.csv", FALSE);
	GArray *flip = judge(moving, QUIET, "records-threaded-intx-dyn.csv", FALSE);

	g_assert_true(find(held, "affinity", 0)->held);
	g_assert_false(find(off, "affinity", 0)->held);
	g_assert_true(g_str_has_prefix(find(off, "affinity", 0)->detail,
				       "200 of 200 events handled off CPU 1"));
	g_assert_false(judged(flip, "affinity"));
	g_assert_nonnull(irqstorm_promise_source("oneshot"));
	g_assert_null(irqstorm_promise_source("nonsense"));
	free_promises(held);
	free_promises(off);
	free_promises(flip);
}

/* The context item of a one-channel run, and whether it keeps the promise. */
static gboolean context_held(const char *ini, const char *contexts, char **detail)
{
	g_autofree char *line = g_strdup_printf("IRQSTORM-RESULT status=ok irq_mode=%s "
						"overlaps=0,0,0,0 contexts=%s,-,-,-\n",
						strstr(ini, "intx") ? "intx" : "msi", contexts);
	g_autoptr(GError) err = NULL;
	g_autoptr(IrqstormScenario) sc = irqstorm_scenario_load_data("t.ini", ini, &err);
	g_autoptr(IrqstormConsole) con = console_of(line);
	GArray *p;
	gboolean held;

	g_assert_no_error(err);
	p = irqstorm_promises_always(sc, con);
	held = find(p, "context", 0)->held;
	if (detail) {
		g_free(*detail);
		*detail = g_strdup(find(p, "context", 0)->detail);
	}
	g_assert_true(find(p, "one-at-a-time", 0)->held);
	free_promises(p);
	return held;
}

#define DYN "[kernel]\nflavour = dyn\n"
#define RT "[kernel]\nflavour = rt\n"
#define MSI "[guest]\nirq_mode = msi\n"
#define INTX "[guest]\nirq_mode = intx\n"

/*
 * Each threading mode's context (flags: 1 hardirq, 2 softirq, 4 BHs off,
 * 8 interrupts off), on a kernel that forces threads and on one that does
 * not; the planted irqs_on; a thread at another policy; a bad item.
 */
static void test_context(void)
{
	g_autofree char *why = NULL;

	g_assert_true(context_held(DYN "[channel0]\nthreading = hardirq\n" MSI,
				   "handler.9.0.-.-.200.1", NULL));
	g_assert_false(context_held(DYN "[channel0]\nthreading = hardirq\n" MSI,
				    "handler.9.0.-.-.199.1:handler.1.0.-.-.1.7", &why));
	g_assert_cmpstr(why, ==, "its handler ran in hardirq on CPU 0 (1 runs, the first: "
			"event 7); hardirq handler is promised hard interrupt context, "
			"interrupts off");
	/* forced: a hard handler unless the kernel forces threads. */
	g_assert_true(context_held(DYN "[channel0]\nthreading = forced\n" MSI,
				   "handler.9.1.-.-.200.1", NULL));
	g_assert_false(context_held(DYN "[channel0]\nthreading = forced\n" MSI,
				    "handler.12.0.1.50.200.1", NULL));
	g_assert_true(context_held(DYN "cmdline = preempt=full threadirqs\n"
				   "[channel0]\nthreading = forced\n" MSI,
				   "handler.12.0.1.50.200.1", NULL));
	g_assert_false(context_held(DYN "cmdline = threadirqs\n[channel0]\nthreading = "
				    "forced\n" MSI, "handler.4.0.1.50.200.1", NULL));
	g_assert_true(context_held(RT "[channel0]\nthreading = forced\n" MSI,
				   "handler.4.0.1.50.200.1", NULL));
	g_assert_false(context_held(RT "[channel0]\nthreading = forced\n" MSI,
				    "handler.12.0.1.50.200.1", NULL));
	/* threaded: a forced primary on MSI, a hard one on ONESHOT INTx. */
	g_assert_true(context_held(RT "[channel0]\nthreading = threaded\n" MSI,
				   "primary.4.0.1.50.150.1:handler.0.0.1.50.200.1", NULL));
	g_assert_true(context_held(RT "[channel0]\nthreading = threaded\n" INTX,
				   "primary.9.0.-.-.150.1:handler.0.0.1.50.200.1", NULL));
	g_assert_false(context_held(RT "[channel0]\nthreading = threaded\n" INTX,
				    "primary.4.0.1.50.150.1:handler.0.0.1.50.200.1", NULL));
	g_assert_false(context_held(DYN "[channel0]\nthreading = threaded\n" MSI,
				    "primary.9.0.-.-.150.1:handler.0.0.0.0.200.1", &why));
	g_assert_true(strstr(why, "task policy 0 prio 0"));
	/* Another policy only where the series' irqthread.prio= sets it. */
	g_assert_false(context_held(DYN "[channel0]\nthreading = threaded\n" MSI,
				    "handler.0.0.2.61.200.1", NULL));
	g_assert_true(context_held(DYN "cmdline = threadirqs irqthread.prio=irqstorm0:rr:61\n"
				   "[channel0]\nthreading = threaded\n" MSI,
				   "primary.12.0.2.61.150.1:handler.0.0.2.61.200.1", NULL));
	g_assert_true(context_held(DYN "[channel0]\nthreading = threaded\n" MSI,
				   "handler.0.0.1.50.200.1:more.3", &why));
	g_assert_true(strstr(why, "3 runs past the driver's slots, not judged"));
	g_assert_false(context_held(DYN "[channel0]\nthreading = threaded\n" MSI,
				    "handler.0.0.1", &why));
	g_assert_true(g_str_has_prefix(why, "the driver's contexts item 'handler.0.0.1' is not "));
	g_assert_nonnull(irqstorm_promise_source("context"));
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/promises/oneshot", test_oneshot);
	g_test_add_func("/promises/counters-and-priority", test_counters_and_priority);
	g_test_add_func("/promises/affinity", test_affinity);
	g_test_add_func("/promises/context", test_context);
	return g_test_run();
}
