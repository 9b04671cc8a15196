// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The collector thread. It drains the ring as fast as records come (a short
 * sleep only when the ring is empty), so the device's ring is the only
 * buffer and the rig never becomes the reason for a lost record.
 */
#include "collect.h"

#include "output.h"

#define IDLE_SLEEP_US 200

struct IrqstormCollector {
	IrqstormLog *log;		/* borrowed; outlives the thread */
	FILE *csv;			/* borrowed, may be NULL */
	IrqstormCollected *data;
	GThread *thread;
	gint stop;
};

/* Account one record: every stage it has, plus the flags. */
static void collect_record(const struct irqstorm_record *r, gpointer user)
{
	IrqstormCollector *c = user;
	IrqstormCollected *d = c->data;
	guint64 ns;

	d->records++;
	if (r->flags & IRQSTORM_REC_DONE)
		d->done_records++;
	if (r->flags & IRQSTORM_REC_INCOMPLETE)
		d->incomplete_records++;
	if (r->flags & IRQSTORM_REC_COALESCED) {
		d->coalesced_events++;
		d->coalesced_raises += r->coalesced;
	}
	if (!d->first_raise_ns || r->t_raise < d->first_raise_ns)
		d->first_raise_ns = r->t_raise;
	if (r->t_raise > d->last_raise_ns)
		d->last_raise_ns = r->t_raise;
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		if (irqstorm_stage_value(r, st, &ns))
			irqstorm_hist_add(d->hist[st], ns);
	if (c->csv)
		irqstorm_write_csv_record(c->csv, r);
}

/* One drain; FALSE when the ring became unreadable (error kept). */
static gboolean collect_drain(IrqstormCollector *c, gsize *n)
{
	IrqstormCollected *d = c->data;

	*n = irqstorm_log_drain(c->log, collect_record, c, &d->error);
	if (d->error)
		return FALSE;
	__atomic_store_n(&d->progress_records, d->records, __ATOMIC_RELAXED);
	__atomic_store_n(&d->progress_max_done_ns,
			 irqstorm_hist_max(d->hist[IRQSTORM_STAGE_DONE]),
			 __ATOMIC_RELAXED);
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

/* Start following log; csv (optional) gets one line per record. */
IrqstormCollector *irqstorm_collector_start(IrqstormLog *log, guint64 bin_ns,
					    guint bins, FILE *csv)
{
	IrqstormCollector *c = g_new0(IrqstormCollector, 1);

	c->log = log;
	c->csv = csv;
	c->data = g_new0(IrqstormCollected, 1);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		c->data->hist[st] = irqstorm_hist_new(bin_ns, bins);
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
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		irqstorm_hist_free(d->hist[st]);
	g_clear_error(&d->error);
	g_free(d);
}
