// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device's counters: see counters.h.
 */
#include "counters.h"

#define CH(qom, key, field, peak) \
	{ qom, key, G_STRUCT_OFFSET(IrqstormDeviceCounters, field), peak }
#define DEV(qom, key, field) \
	{ qom, key, G_STRUCT_OFFSET(IrqstormDeviceState, field), FALSE }

static const IrqstormCounter channel_counters[] = {
	CH("raised", "raised", raised, FALSE),
	CH("coalesced", "coalesced", coalesced, FALSE),
	CH("overlapped", "overlapped", overlapped, FALSE),
	CH("dropped", "dropped", dropped, FALSE),
	CH("handled", "handled", handled, FALSE),
	CH("incomplete", "incomplete", incomplete, FALSE),
	CH("in-flight", "in_flight", in_flight, FALSE),
	CH("queue-max", "queue_max", queue_max, TRUE),
	CH("pio-reads", "pio_reads", pio_reads, FALSE),
	CH("ready-polls", "ready_polls", ready_polls, FALSE),
};

static const IrqstormCounter device_counters[] = {
	DEV("log-published", "published", published),
	DEV("log-lost", "lost", lost),
	DEV("guest-errors", "guest_errors", guest_errors),
	DEV("probes", "probes", probes),
	DEV("storms", NULL, storm.storms),
	DEV("storm-start-ns", NULL, storm.start_ns),
	DEV("storm-end-ns", NULL, storm.end_ns),
	DEV("guest-stop-ns", NULL, storm.guest_stop_ns),
	DEV("storm-device-end", NULL, storm.device_end),
	DEV("storm-backlog", NULL, storm.backlog),
};

const IrqstormCounter *irqstorm_channel_counters(guint *n)
{
	*n = G_N_ELEMENTS(channel_counters);
	return channel_counters;
}

const IrqstormCounter *irqstorm_device_counters(guint *n)
{
	*n = G_N_ELEMENTS(device_counters);
	return device_counters;
}

gboolean irqstorm_counters_read(IrqstormQmp *qmp, const char *qom_path,
				guint timeout_ms, IrqstormDeviceState *dev,
				GError **error)
{
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		for (gsize i = 0; i < G_N_ELEMENTS(channel_counters); i++) {
			const IrqstormCounter *c = &channel_counters[i];
			g_autofree char *name = g_strdup_printf("ch%u-%s", n, c->qom);

			if (!irqstorm_qmp_qom_get_u64(qmp, qom_path, name,
						      G_STRUCT_MEMBER_P(&dev->ch[n], c->offset),
						      timeout_ms, error))
				return FALSE;
		}
	}
	for (gsize i = 0; i < G_N_ELEMENTS(device_counters); i++) {
		const IrqstormCounter *c = &device_counters[i];

		if (!irqstorm_qmp_qom_get_u64(qmp, qom_path, c->qom,
					      G_STRUCT_MEMBER_P(dev, c->offset),
					      timeout_ms, error))
			return FALSE;
	}
	return TRUE;
}

void irqstorm_counters_total(const IrqstormDeviceState *dev,
			     IrqstormDeviceCounters *total)
{
	*total = (IrqstormDeviceCounters) { 0 };
	for (guint n = 0; n < IRQSTORM_NUM_CHANNELS; n++) {
		for (gsize i = 0; i < G_N_ELEMENTS(channel_counters); i++) {
			const IrqstormCounter *c = &channel_counters[i];
			guint64 *sum = G_STRUCT_MEMBER_P(total, c->offset);
			guint64 v = irqstorm_counter_get(c, &dev->ch[n]);

			*sum = c->peak ? MAX(*sum, v) : *sum + v;
		}
	}
}
