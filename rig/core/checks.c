// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Judging a run: see checks.h.
 */
#include "checks.h"

#include <string.h>

#include "launch.h"
#include "promises.h"
#include "stages.h"
#include "irqstorm/guest.h"
#include "summary-keys.h"

/* What is judged, and the judgement as it is made. */
typedef struct {
	const IrqstormScenario *sc;
	const IrqstormRunOutcome *out;
	const IrqstormConsole *con;
	IrqstormChecks *res;
} Judge;

/* Why the run is incomplete, or NULL when it ended as planned. */
static char *incomplete_reason(const Judge *j)
{
	const char *status = irqstorm_console_value(j->con, IRQSTORM_RESULT_KEY(status));

	if (j->out->stop_reason)
		return g_strdup(j->out->stop_reason);
	if (!j->out->guest_shutdown)
		return g_strdup("the guest never powered off");
	if (!status)
		return g_strdup_printf("the guest stopped (QEMU SHUTDOWN, reason "
				       "%s) without a result line; see console.log",
				       j->out->shutdown_reason);
	if (g_strcmp0(status, "ok")) {
		GString *why = g_string_new(NULL);

		g_string_printf(why, "the guest reported status=%s reason=%s", status,
				irqstorm_console_value(j->con, IRQSTORM_RESULT_KEY(reason)) ?: "?");
		/* What the kernel said is usually the real answer. */
		for (guint i = 0; i < j->con->kernel_events->len; i++)
			g_string_append_printf(why, "%s%s", i ? "; " : "; kernel: ",
					       (char *)j->con->kernel_events->pdata[i]);
		return g_string_free(why, FALSE);
	}
	if (!j->out->have_counters)
		return g_strdup_printf("device counters unreadable: %s",
				       j->out->counters_error ?: "?");
	if (!j->out->data)
		return g_strdup("the shared log was never read");
	if (j->out->data->error)
		return g_strdup_printf("reading the shared log failed: %s",
				       j->out->data->error->message);
	for (guint i = 0; i < j->out->changes->len; i++) {
		const IrqstormAppliedChange *a = &g_array_index(j->out->changes,
								IrqstormAppliedChange, i);

		if (a->error)
			return g_strdup_printf("QEMU refused the change '%s': %s",
					       a->change->assignment, a->error);
	}
	if (j->out->changes->len < j->sc->changes->len)
		return g_strdup_printf("the storm ended before every [changes] entry "
				       "was applied (%u of %u)", j->out->changes->len,
				       j->sc->changes->len);
	return NULL;
}

static void check_eq(Judge *j, const char *what, guint64 a,
		     const char *what_b, guint64 b)
{
	if (a != b)
		g_ptr_array_add(j->res->failed_checks,
				g_strdup_printf("%s = %" G_GUINT64_FORMAT " but %s = %"
						G_GUINT64_FORMAT, what, a, what_b, b));
}

static void check_le(Judge *j, const char *what, guint64 a,
		     const char *what_b, guint64 b)
{
	if (a > b)
		g_ptr_array_add(j->res->failed_checks,
				g_strdup_printf("%s = %" G_GUINT64_FORMAT " but %s = %"
						G_GUINT64_FORMAT ", fewer", what, a, what_b, b));
}

/*
 * The guest's number under key must be there, and equal b, or with at_least
 * be no less than b.
 */
static void check_guest(Judge *j, const char *key, gboolean at_least,
			const char *what_b, guint64 b)
{
	guint64 v;

	if (!irqstorm_console_u64(j->con, key, &v))
		g_ptr_array_add(j->res->failed_checks,
				g_strdup_printf("the guest did not report %s", key));
	else if (at_least ? v < b : v != b)
		g_ptr_array_add(j->res->failed_checks,
				g_strdup_printf("guest %s = %" G_GUINT64_FORMAT " but %s %s %"
						G_GUINT64_FORMAT, key, v, what_b,
						at_least ? ">=" : "=", b));
}

/* Guest, device and host must tell the same story about channel n. */
static void check_channel(Judge *j, guint n)
{
	const IrqstormDeviceCounters *dev = &j->out->device.ch[n];
	const IrqstormTally *host = &j->out->data->ch[n];
	g_autofree char *dh = g_strdup_printf("device ch%u-handled", n);
	g_autofree char *di = NULL;
	g_autofree char *what = NULL;
	guint64 guest;

	if (!irqstorm_console_item(j->con, IRQSTORM_RESULT_KEY(handled), n, &guest)) {
		g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
			"the guest did not report channel %u's handled count", n));
		return;
	}
	what = g_strdup_printf("guest channel %u handled", n);
	/* Unload: read just before the removal stopped the storm. */
	if (j->sc->unload)
		check_le(j, what, guest, dh, dev->handled);
	else
		check_eq(j, what, guest, dh, dev->handled);
	g_free(what);
	/* With stamps off there are no records: the device counts acks. */
	if (j->sc->stamps) {
		what = g_strdup_printf("channel %u records with a done stamp", n);
		check_eq(j, what, host->done_records, dh, dev->handled);
		g_free(what);
		what = g_strdup_printf("channel %u records marked incomplete", n);
		di = g_strdup_printf("device ch%u-incomplete", n);
		check_eq(j, what, host->incomplete_records, di, dev->incomplete);
		g_free(what);
	}
	/* Every firing is an event, merged into one, or dropped at a full
	 * queue; every event done, left without done, or still in flight:
	 * none vanished. */
	what = g_strdup_printf("device ch%u-raised", n);
	check_eq(j, what, dev->raised,
		 "handled + coalesced + dropped + incomplete + in flight",
		 dev->handled + dev->coalesced + dev->dropped + dev->incomplete +
		 dev->in_flight);
}

/*
 * The livelock: the guest did not stop the storm within [run] grace of its
 * duration, so the device ended it at its bound. What it raised and what
 * became of it by then, and when (if ever) the guest's init got to stop.
 */
static char *livelock_text(const Judge *j)
{
	const IrqstormScenario *sc = j->sc;
	const IrqstormDeviceState *st = &j->out->device;
	double bound = (sc->duration_ms + sc->grace_ms) / 1e3;
	double length = irqstorm_storm_seconds(st->storm_start_ns, st->storm_end_ns);
	IrqstormDeviceCounters sum;
	GString *t = g_string_new(NULL);

	irqstorm_counters_total(&j->out->device, &sum);
	g_string_printf(t, "livelock: the guest did not stop the storm within "
			"%.3f s of its %.3f s ([run] grace); the device ended it "
			"%.3f s after it began", sc->grace_ms / 1e3,
			sc->duration_ms / 1e3, length);
	if (length > bound + 1e-6)
		g_string_append_printf(t, " (its bound was %.3f s: QEMU ran behind "
				       "the storm's schedule)", bound);
	g_string_append_printf(t, "; of the %" G_GUINT64_FORMAT " firings, %"
			       G_GUINT64_FORMAT " were handled during the storm, %"
			       G_GUINT64_FORMAT " dropped at a full queue, %"
			       G_GUINT64_FORMAT " merged into others and %"
			       G_GUINT64_FORMAT " still waiting at its end; ",
			       sum.raised, sum.raised - sum.dropped - sum.coalesced -
			       sum.incomplete - st->storm_backlog, sum.dropped,
			       sum.coalesced, st->storm_backlog);
	if (st->guest_stop_ns)
		g_string_append_printf(t, "the guest's init got to stop it %.3f s "
				       "after its end", irqstorm_storm_seconds(st->storm_end_ns,
								 st->guest_stop_ns));
	else
		g_string_append(t, "the guest's init never got to stop it");
	return g_string_free(t, FALSE);
}

/*
 * Without icount the guest's clock is the host's: a QEMU the host keeps
 * waiting for a CPU falls behind the storm's schedule, and its guest gets
 * to stop the storm late in virtual time. Such a run is no verdict on the
 * kernel. Why QEMU counts as starved (launch.h), or NULL.
 */
static char *host_starved(const Judge *j)
{
	const IrqstormRunOutcome *o = j->out;
	char *why = NULL;

	if (j->sc->icount_shift != IRQSTORM_ICOUNT_OFF || !o->qemu_sched_known)
		return NULL;
	irqstorm_sched_starved(o->qemu_run_seconds, o->qemu_wait_seconds, &why);
	return why;
}

/*
 * The device ended the storm: a livelock. Without icount on a host that
 * kept QEMU waiting, the stall says so; the verdict stays a stall, since
 * QEMU's threads also wait for each other and for a test beside them, and
 * the share cannot tell a starved guest from a livelocked one.
 */
static void livelock_or_host(Judge *j)
{
	g_autofree char *starved = host_starved(j);
	g_autofree char *livelock = livelock_text(j);

	if (!starved) {
		g_ptr_array_add(j->res->stalls, g_steal_pointer(&livelock));
		return;
	}
	g_ptr_array_add(j->res->stalls, g_strdup_printf(
		"%s; but the run has no icount, so the guest's time is the host's, and %s: "
		"a starved QEMU makes its guest late, so this may be the host's, not the "
		"kernel's; run it on a quieter host, or with icount, before blaming the kernel",
		livelock, starved));
}

/* The guest said only what the protocol declares (include/irqstorm/guest.h). */
static void check_protocol(Judge *j)
{
	g_autoptr(GPtrArray) unknown = irqstorm_console_unknown_keys(j->con);

	for (guint i = 0; i < unknown->len; i++)
		g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
			"the guest reported '%s', which the guest protocol "
			"(include/irqstorm/guest.h) does not declare",
			(char *)unknown->pdata[i]));
}

/*
 * Several vCPUs under the quantum: every interrupt one sent another was
 * raised at the end of its window, never before it was sent nor more than
 * the quantum after (QEMU's trace, held.h).
 */
static void check_held(Judge *j)
{
	if (!irqstorm_scenario_smp_windows(j->sc))
		return;
	if (!j->out->have_held) {
		g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
			"the interrupts QEMU held to a window's end could not be "
			"read: %s", j->out->held_error));
		return;
	}
	check_eq(j, "interrupts held outside [0, quantum_ns]", j->out->held.outside,
		 "expected", 0);
}

/*
 * A triggered sweep aimed an interrupt at every offset: the guest ran a
 * section per offset, the device armed a firing per section.
 */
static void check_sweep(Judge *j)
{
	const IrqstormScenario *sc = j->sc;
	const char *s = irqstorm_console_value(j->con, IRQSTORM_RESULT_KEY(section));
	guint64 want, runs;

	if (!sc->section)
		return;
	if (sc->section == 1 + IRQSTORM_SECTION_PIO) {
		/* The sections are a handler's: the device counts the triggers. */
		if (sc->section_channel == IRQSTORM_NONE)
			return;
		want = irqstorm_scenario_offsets(&sc->ch[sc->section_channel]);
		if (j->out->device.ch[sc->section_channel].triggers != want)
			g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
				"the PIO sections triggered %" G_GUINT64_FORMAT " of %"
				G_GUINT64_FORMAT " offsets: the storm ended first; give it "
				"a longer [run] duration",
				j->out->device.ch[sc->section_channel].triggers, want));
		return;
	}
	if (sc->section_channel == IRQSTORM_NONE) {
		/* Untriggered: sections ran while the storm did. */
		if (!s || !g_str_has_prefix(s, "stopped:") ||
		    !g_ascii_strtoull(s + strlen("stopped:"), NULL, 10))
			g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
				"the untriggered sections did not run to the storm's "
				"end (%s)", s ? s : "no report"));
		return;
	}
	want = irqstorm_scenario_offsets(&sc->ch[sc->section_channel]);
	if (!s || !g_str_has_prefix(s, "done:")) {
		g_ptr_array_add(j->res->failed_checks, g_strdup_printf(
			"the section sweep did not finish (%s): %s", s ? s : "no report",
			s && g_str_has_prefix(s, "ended:") ?
			"the storm's bound ([run] duration + grace) came first; "
			"give it a longer [run] duration" :
			"an interrupt it aimed was not handled within a second"));
		return;
	}
	runs = g_ascii_strtoull(s + strlen("done:"), NULL, 10);
	check_eq(j, "sections the guest ran", runs, "offsets swept", want);
	check_eq(j, "device triggers", j->out->device.ch[sc->section_channel].triggers,
		 "offsets swept", want);
}

/* Cross-checks between the three witnesses: guest, device and host. */
static void run_checks(Judge *j)
{
	const IrqstormScenario *sc = j->sc;
	const IrqstormCollected *d = j->out->data;
	guint mask = irqstorm_scenario_channel_mask(sc);

	check_eq(j, "records lost by the ring", d->lost, "expected", 0);
	check_eq(j, "device log-lost", j->out->device.lost, "the log header's lost", d->lost);
	check_eq(j, "records read by the host", d->records,
		 "records published by the device", j->out->device.published);
	check_eq(j, "records of unknown channels", d->foreign_records, "expected", 0);
	check_eq(j, "device guest-errors", j->out->device.guest_errors, "expected", 0);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (mask & 1u << n)
			check_channel(j, n);
	check_sweep(j);
	check_eq(j, "probe records read", d->probe_records, "device probes",
		 j->out->device.probes);
	if (sc->probe)
		check_guest(j, IRQSTORM_RESULT_KEY(probe_samples), FALSE,
			    "device probes", j->out->device.probes);
	/* cyclictest runs from before the storm to after it. */
	if (sc->cyclictest)
		check_guest(j, IRQSTORM_RESULT_KEY(cyclictest_cycles), TRUE,
			    "the storm's whole periods",
			    irqstorm_scenario_cyclictest_min_cycles(sc));
	check_protocol(j);
	check_held(j);
}

/* The guest stalled: a spin-wait that gave up, or a line the kernel shut. */
static gboolean check_stalls(Judge *j)
{
	const char *i8042 = irqstorm_console_value(j->con, IRQSTORM_RESULT_KEY(i8042));
	guint64 v;

	if (i8042 && g_str_has_prefix(i8042, "timeout"))
		g_ptr_array_add(j->res->stalls, g_strdup_printf(
			"the i8042 region timed out (%s ns): the interrupt it waited for "
			"was not handled while it spun with preemption disabled",
			i8042 + strlen("timeout:")));
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		if (irqstorm_console_item(j->con, IRQSTORM_RESULT_KEY(spin_timeouts), n, &v) && v)
			g_ptr_array_add(j->res->stalls, g_strdup_printf(
				"channel %u: %" G_GUINT64_FORMAT " spin work items timed "
				"out", n, v));
	if (j->out->device.storm_device_end)
		livelock_or_host(j);
	for (guint i = 0; i < j->con->kernel_events->len; i++) {
		const char *e = j->con->kernel_events->pdata[i];

		if (strstr(e, "Disabling IRQ #"))
			g_ptr_array_add(j->res->stalls, g_strdup_printf(
				"the kernel disabled an interrupt line: %s", e));
	}
	return j->res->stalls->len > 0;
}

/* Threshold t against histogram h (of channel ch, or IRQSTORM_NONE). */
static IrqstormLimitResult limit_judged(const IrqstormThreshold *t, const IrqstormHist *h,
					int ch)
{
	IrqstormLimitResult r = { .threshold = t, .channel = ch };

	r.measured = irqstorm_hist_count(h) > 0;
	if (r.measured) {
		r.value_ns = irqstorm_stat_value(h, t->stat);
		r.exceeded = r.value_ns > t->limit_ns;
	}
	return r;
}

/*
 * Each scenario threshold against the stage it bounds: in a run of one
 * channel, its stage; of several, each channel's (a pooled figure would
 * let one channel's events hide another's), the probe's once. TRUE if
 * any was exceeded.
 */
static gboolean check_thresholds(Judge *j)
{
	const GArray *ts = j->sc->thresholds;
	guint mask = irqstorm_scenario_channel_mask(j->sc);
	gboolean split = (mask & (mask - 1)) != 0, any = FALSE;

	for (guint i = 0; i < ts->len; i++) {
		const IrqstormThreshold *t = &g_array_index(ts, IrqstormThreshold, i);
		IrqstormStage st;

		if (!irqstorm_stage_from_name(t->stage, &st))
			continue;	/* the parser admits stage names only */
		for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
			gboolean own = split && !irqstorm_stage_is_probe(st);
			IrqstormLimitResult r;

			if (own ? !(mask & 1u << n) : n > 0)
				continue;
			r = limit_judged(t, own ? j->out->data->ch[n].hist[st] :
					 j->out->data->all.hist[st], own ? (int)n : IRQSTORM_NONE);
			any |= r.exceeded;
			g_array_append_val(j->res->limits, r);
		}
	}
	return any;
}

/*
 * The promises every run is held to (promises.h): a broken one is the
 * kernel's failure, like a report.
 */
static void check_promises(Judge *j)
{
	g_autoptr(GArray) p = irqstorm_promises_always(j->sc, j->con);

	for (guint i = 0; i < p->len; i++) {
		IrqstormPromise *q = &g_array_index(p, IrqstormPromise, i);

		if (!q->held)
			g_ptr_array_add(j->res->kernel, g_strdup_printf(
				IRQSTORM_PROMISE_FAILURE "%s, channel %d: %s", q->promise,
				q->channel, q->detail));
		g_free(q->detail);
	}
}

/* Complete? Consistent? Stalled? Within the thresholds? */
/*
 * The kernel's reports against what the scenario expects: a fault of a
 * kind not expected fails the run, and so does an expected kind the kernel
 * did not report, when the run went to its end (a run cut short may not
 * have reached it).
 */
static gboolean check_kernel(Judge *j)
{
	g_auto(GStrv) want = irqstorm_kreport_kinds_split(j->sc->kernel_expect);
	const GPtrArray *reports = j->con->reports;

	for (guint i = 0; i < reports->len; i++) {
		IrqstormKreport *r = reports->pdata[i];

		r->expected = r->fault && g_strv_contains((const char *const *)want, r->kind);
		if (r->fault && !r->expected)
			g_ptr_array_add(j->res->kernel, g_strdup_printf(
				"%s: %s", r->kind, r->title));
	}
	if (j->res->complete)
		check_promises(j);
	for (guint w = 0; j->res->complete && want[w]; w++) {
		gboolean seen = FALSE;

		for (guint i = 0; i < reports->len && !seen; i++)
			seen = !strcmp(((IrqstormKreport *)reports->pdata[i])->kind, want[w]);
		if (!seen)
			g_ptr_array_add(j->res->kernel, g_strdup_printf(
				"%s: expected ([run] kernel_expect), and the kernel "
				"did not report it", want[w]));
	}
	return j->res->kernel->len > 0;
}

static IrqstormVerdict judge(Judge *j)
{
	gboolean kernel, stalled, exceeded;

	j->res->incomplete_reason = incomplete_reason(j);
	j->res->complete = !j->res->incomplete_reason;
	if (j->res->complete)
		run_checks(j);
	kernel = check_kernel(j);
	if (!j->res->complete || j->res->failed_checks->len)
		return kernel ? IRQSTORM_VERDICT_KERNEL : IRQSTORM_VERDICT_ERROR;
	stalled = check_stalls(j);
	exceeded = check_thresholds(j);
	return kernel ? IRQSTORM_VERDICT_KERNEL :
	       stalled ? IRQSTORM_VERDICT_STALL :
	       exceeded ? IRQSTORM_VERDICT_THRESHOLD : IRQSTORM_VERDICT_PASSED;
}

IrqstormChecks *irqstorm_checks_run(const IrqstormScenario *sc,
				    const IrqstormRunOutcome *out,
				    const IrqstormConsole *con)
{
	IrqstormChecks *res = g_new0(IrqstormChecks, 1);
	Judge j = { .sc = sc, .out = out, .con = con, .res = res };

	res->failed_checks = g_ptr_array_new_with_free_func(g_free);
	res->limits = g_array_new(FALSE, TRUE, sizeof(IrqstormLimitResult));
	res->stalls = g_ptr_array_new_with_free_func(g_free);
	res->kernel = g_ptr_array_new_with_free_func(g_free);
	res->verdict = judge(&j);
	return res;
}

void irqstorm_checks_free(IrqstormChecks *c)
{
	if (!c)
		return;
	g_free(c->incomplete_reason);
	g_ptr_array_unref(c->failed_checks);
	g_array_unref(c->limits);
	g_ptr_array_unref(c->stalls);
	g_ptr_array_unref(c->kernel);
	g_free(c);
}
