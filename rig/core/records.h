/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's records.csv read back: every record as the device published it
 * (struct irqstorm_record of include/irqstorm/abi.h), columns found by
 * their header names.
 */
#ifndef IRQSTORM_RIG_RECORDS_H
#define IRQSTORM_RIG_RECORDS_H

#include <glib.h>
#include "irqstorm/abi.h"

G_BEGIN_DECLS

/*
 * The records of records_csv in file order (of struct irqstorm_record).
 * need_offset: the file must have the offset column (ABI 4 or later);
 * without it, offsets read 0. An error names the file and line for a file
 * that is not records.csv and for a triggered record without its offset.
 */
GArray *irqstorm_records_read(const char *records_csv, gboolean need_offset,
			      GError **error);

/* The record with sequence number seq, or NULL. */
const struct irqstorm_record *irqstorm_records_find(const GArray *records,
						    guint64 seq);

G_END_DECLS

#endif /* IRQSTORM_RIG_RECORDS_H */
