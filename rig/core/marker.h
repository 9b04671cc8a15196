/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The output directory's INCOMPLETE marker. It is written before anything
 * else of a run, rewritten with the reason when the run did not end as
 * planned, and removed only when it did: a crash of the rig itself can
 * never leave a partial directory that looks complete.
 */
#ifndef IRQSTORM_MARKER_H
#define IRQSTORM_MARKER_H

#include <glib.h>

#include "scenario.h"

/* Mark out_dir incomplete, remove a previous run's files from it, and
 * record the effective scenario (scenario.ini). */
gboolean irqstorm_marker_begin(const char *out_dir, const IrqstormScenario *sc,
			       GError **error);

/* The run did not end as planned: the marker says why (one line). */
gboolean irqstorm_marker_set(const char *out_dir, const char *why,
			     GError **error);

/* The run ended as planned: no marker. */
gboolean irqstorm_marker_clear(const char *out_dir, GError **error);

#endif /* IRQSTORM_MARKER_H */
