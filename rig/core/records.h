/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's records.csv, written and read back: every record as the device
 * published it (struct irqstorm_record of include/irqstorm/abi.h), a
 * column per field and per stamp's time and vCPU (IRQSTORM_STAMPS: a new
 * stamp is a new pair of columns at the end), read by their header names.
 * The README's "Reading the results" describes the file.
 */
#ifndef IRQSTORM_RIG_RECORDS_H
#define IRQSTORM_RIG_RECORDS_H

#include <stdio.h>
#include <glib.h>
#include "irqstorm/abi.h"

G_BEGIN_DECLS

/*
 * The header line, and a record as a line, decimal: seq, channel, flags,
 * t_raise, the times of ABI 1's stamps (t_<stamp>), coalesced, work, their
 * vCPUs (cpu_<stamp>), offset, then each later stamp's time and vCPU
 * (the README lists them; docs/abi.md the record); a stamp's time and vCPU are empty
 * unless the record has its flag, the offset unless it was triggered.
 * Probe records are among them (channel IRQSTORM_PROBE_CHANNEL, flags
 * with IRQSTORM_REC_PROBE). FALSE, errno set by stdio, when writing fails.
 */
gboolean irqstorm_records_write_header(FILE *f);
gboolean irqstorm_records_write(FILE *f, const struct irqstorm_record *r);

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
