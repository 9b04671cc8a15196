// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device's counters: see counters.h.
 */
#include "counters.h"

#define PEAK_SUM	FALSE
#define PEAK_PEAK	TRUE
#define CH(id, field, qom, total, help) \
	{ qom, #field, G_STRUCT_OFFSET(IrqstormDeviceCounters, field), PEAK_##total },
#define DEV(id, field, qom, help) \
	{ qom, #field, G_STRUCT_OFFSET(IrqstormDeviceState, field), FALSE },

static const IrqstormCounter channel_counters[] = {
	IRQSTORM_CHANNEL_COUNTERS(CH)
};

static const IrqstormCounter device_counters[] = {
	IRQSTORM_DEVICE_COUNTERS(DEV)
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
