/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Building summary.json from a run's results: irqstorm's own format
 * ("format": "irqstorm-summary"; rt-tests.json is the one in rt-tests'
 * layout), one object with how the run ended, the checks, the identities,
 * the counts of the three witnesses, and the stages of all channels and of
 * each. summary.c
 * reads it back; both take the names they share from summary-keys.h.
 */
#ifndef IRQSTORM_SUMMARY_WRITE_H
#define IRQSTORM_SUMMARY_WRITE_H

#include <json-glib/json-glib.h>

/* The results it is built from (results.h, which uses this writer). */
typedef struct IrqstormResults IrqstormResults;

/* The document; its "return_code" is the caller's exit status. */
JsonNode *irqstorm_summary_build(const IrqstormResults *res, int return_code);

#endif /* IRQSTORM_SUMMARY_WRITE_H */
