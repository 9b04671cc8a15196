/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm explain's run: the result directory read back and checked
 * explainable (complete, deterministic, made by the builds at hand), and
 * the rerun proven equal to it.
 */
#ifndef IRQSTORM_CMD_EXPLAIN_SOURCE_H
#define IRQSTORM_CMD_EXPLAIN_SOURCE_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "core/scenario.h"

G_BEGIN_DECLS

typedef struct {
	char *dir;
	JsonNode *summary;		/* its summary.json */
	IrqstormScenario *scenario;	/* its scenario.ini */
	GArray *records;		/* its records.csv, of struct irqstorm_record */
} ExplainSource;

void explain_source_free(ExplainSource *src);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ExplainSource, explain_source_free)

/*
 * The run in dir, refused with the reason when it is not a run's result,
 * incomplete, not deterministic or without records.csv.
 */
ExplainSource *explain_source_load(const char *dir, GError **error);

/*
 * Refuse a run made by other builds than those in qemu_dir and kernel_dir
 * (the identities of its summary.json), naming what differs.
 */
gboolean explain_source_check_builds(const ExplainSource *src,
				     const char *qemu_dir, const char *kernel_dir,
				     GError **error);

/* The stage of the run's first exceeded threshold, or "done". */
const char *explain_source_default_stage(const ExplainSource *src);

/*
 * Does the rerun in rerun_dir equal the run: records.csv byte for byte,
 * the counts of summary.json? On success, *held says so in a sentence.
 */
gboolean explain_source_check_rerun(const ExplainSource *src,
				    const char *rerun_dir, char **held,
				    GError **error);

/* For sorting pairs of guint64 by the first. */
gint irqstorm_explain_source_compare_u64(gconstpointer a, gconstpointer b);

G_END_DECLS

#endif /* IRQSTORM_CMD_EXPLAIN_SOURCE_H */
