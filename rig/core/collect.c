// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector thread. It drains the ring as fast as records come (a short
 * sleep only when the ring is empty), so the device's ring is the only
 * buffer and the rig never becomes the reason for a lost record.
 */
#include "collect.h"

#include "output.h"
#include "records.h"

#define IDLE_SLEEP_US 200
#define RTLA_MAX_ENTRIES 100000u

struct IrqstormCollector {
	IrqstormLog *log;		/* borrowed; outlives the thread */
	FILE *csv;			/* borrowed, may be NULL */
	guint64 warmup_ns;
	guint64 duration_ns;
	guint64 start_ns;		/* raise of the first record: the start */
	IrqstormCollected *data;
	GThread *thread;
	gint stop;
};

/* Account an interrupt record in a tally: its flags, and every stage it
 * has unless it is still in the warm-up. */
static void tally_add(IrqstormTally *t, const struct irqstorm_record *r,
		      gboolean stages)
{
	guint64 ns;

	t->records++;
	if (r->flags & IRQSTORM_REC_DONE)
		t->done_records++;
	if (r->flags & IRQSTORM_REC_INCOMPLETE)
		t->incomplete_records++;
	if (r->flags & IRQSTORM_REC_COALESCED) {
		t->coalesced_events++;
		t->coalesced_raises += r->coalesced;
	}
	if (r->flags & IRQSTORM_REC_OVERLAP)
		t->overlap_events++;
	t->work += r->work;
	for (int st = 0; stages && st < IRQSTORM_STAGE_COUNT; st++)
		if (irqstorm_stage_value(r, st, &ns))
			irqstorm_hist_add(t->hist[st], ns);
}

/* A record in a part of the storm: counted, its worst stages kept. */
static void window_add(IrqstormWindow *w, const struct irqstorm_record *r)
{
	guint64 ns;

	w->records++;
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		if (irqstorm_stage_value(r, st, &ns)) {
			w->cycles[st]++;
			w->max_ns[st] = MAX(w->max_ns[st], ns);
		}
	}
}

/* How far into the storm a raise at t_raise is, the first at start_ns. */
static guint64 into_storm(guint64 start_ns, guint64 t_raise)
{
	return t_raise > start_ns ? t_raise - start_ns : 0;
}

gboolean irqstorm_in_window(guint64 start_ns, guint64 t_raise, guint64 warmup_ns,
			    guint64 duration_ns)
{
	guint64 at = into_storm(start_ns, t_raise);

	return at >= warmup_ns && at < duration_ns;
}

/* Is r in the measurement window (collect.h)? Else it is counted in the
 * warm-up or the stop tail; the start-up is noted either way. */
static gboolean in_window(IrqstormCollector *c, const struct irqstorm_record *r)
{
	IrqstormCollected *d = c->data;
	guint64 at = into_storm(c->start_ns, r->t_raise);

	if (!irqstorm_in_window(c->start_ns, r->t_raise, c->warmup_ns, c->duration_ns)) {
		window_add(at < c->warmup_ns ? &d->warmup : &d->tail, r);
		return FALSE;
	}
	if (at < IRQSTORM_STARTUP_NS)
		window_add(&d->startup, r);
	return TRUE;
}

/* Account one record: a probe, or an interrupt of a channel. */
static void collect_record(const struct irqstorm_record *r, gpointer user)
{
	IrqstormCollector *c = user;
	IrqstormCollected *d = c->data;
	gboolean stages;
	guint64 ns;

	d->records++;
	if (!c->start_ns)
		c->start_ns = r->t_raise;
	stages = in_window(c, r);
	if (c->csv)
		irqstorm_records_write(c->csv, r);
	if (r->flags & IRQSTORM_REC_PROBE) {
		d->probe_records++;
		for (int st = 0; stages && st < IRQSTORM_STAGE_COUNT; st++)
			if (irqstorm_stage_value(r, st, &ns))
				irqstorm_hist_add(d->all.hist[st], ns);
		if (stages)
			irqstorm_rtla_add(d->rtla, r);
		return;
	}
	if (r->channel >= IRQSTORM_NUM_CHANNELS) {
		d->foreign_records++;
		return;
	}
	if (!d->first_raise_ns || r->t_raise < d->first_raise_ns)
		d->first_raise_ns = r->t_raise;
	if (r->t_raise > d->last_raise_ns)
		d->last_raise_ns = r->t_raise;
	tally_add(&d->all, r, stages);
	tally_add(&d->ch[r->channel], r, stages);
	if (stages)
		irqstorm_rtla_add(d->rtla, r);
}

/* One drain; FALSE when the ring became unreadable (error kept). */
static gboolean collect_drain(IrqstormCollector *c, gsize *n)
{
	IrqstormCollected *d = c->data;

	*n = irqstorm_log_drain(c->log, collect_record, c, &d->error);
	if (d->error)
		return FALSE;
	if (!*n)
		return TRUE;
	__atomic_store_n(&d->progress_records, d->records, __ATOMIC_RELAXED);
	for (guint st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		__atomic_store_n(&d->progress_max_ns[st], irqstorm_hist_max(d->all.hist[st]),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&d->progress_virtual_ns, d->last_raise_ns - d->first_raise_ns,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&d->progress_lost, irqstorm_log_lost(c->log), __ATOMIC_RELAXED);
	return TRUE;
}

static gpointer collector_thread(gpointer user)
{
	IrqstormCollector *c = user;
	gsize n;

	while (!g_atomic_int_get(&c->stop)) {
		if (!collect_drain(c, &n))
			return NULL;
		if (!n)
			g_usleep(IDLE_SLEEP_US);
	}
	/* The producer has stopped: take what is left. */
	do {
		if (!collect_drain(c, &n))
			return NULL;
	} while (n);
	return NULL;
}

static void tally_init(IrqstormTally *t, guint64 bin_ns, guint bins)
{
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		t->hist[st] = irqstorm_hist_new(bin_ns, bins);
}

static void tally_clear(IrqstormTally *t)
{
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_hist_free(t->hist[st]);
}

/* Start following log; csv (optional) gets one line per record. */
IrqstormCollector *irqstorm_collector_start(IrqstormLog *log, guint64 bin_ns,
					    guint bins, guint64 warmup_ns,
					    guint64 duration_ns, FILE *csv)
{
	IrqstormCollector *c = g_new0(IrqstormCollector, 1);

	c->log = log;
	c->csv = csv;
	c->warmup_ns = warmup_ns;
	c->duration_ns = duration_ns;
	c->data = g_new0(IrqstormCollected, 1);
	tally_init(&c->data->all, bin_ns, bins);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		tally_init(&c->data->ch[n], bin_ns, bins);
	/* rtla's 1 us buckets over the histograms' range, up to 100 ms */
	c->data->rtla = irqstorm_rtla_new((guint)MIN((bin_ns * bins + 999) / 1000,
						     RTLA_MAX_ENTRIES));
	c->thread = g_thread_new("irqstorm-collector", collector_thread, c);
	return c;
}

/* Progress snapshot; only the atomic fields are meaningful while running. */
const IrqstormCollected *irqstorm_collector_peek(IrqstormCollector *c)
{
	return c->data;
}

/* Stop after a final drain, join, and hand over the data. */
IrqstormCollected *irqstorm_collector_finish(IrqstormCollector *c)
{
	IrqstormCollected *d;

	g_atomic_int_set(&c->stop, 1);
	g_thread_join(c->thread);
	d = c->data;
	d->lost = irqstorm_log_lost(c->log);
	g_free(c);
	return d;
}

void irqstorm_collected_free(IrqstormCollected *d)
{
	if (!d)
		return;
	tally_clear(&d->all);
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++)
		tally_clear(&d->ch[n]);
	irqstorm_rtla_free(d->rtla);
	g_clear_error(&d->error);
	g_free(d);
}
