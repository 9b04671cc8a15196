/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * irqstorm compare --fail-if 'STAGE.STAT > RATIO': a gate for CI. Each run
 * after the first is judged against the first (the baseline): the gate
 * trips when its STAT of STAGE is more than RATIO times the baseline's.
 * Deterministic runs differ only by what their scenarios or builds
 * differ in, so a tripped gate is a fact, not noise.
 */
#ifndef IRQSTORM_CMD_COMPARE_GATE_H
#define IRQSTORM_CMD_COMPARE_GATE_H

#include <glib.h>

#include "core/summary.h"

G_BEGIN_DECLS

typedef struct {
	char *text;		/* as given, for messages */
	char *stage;
	IrqstormStat stat;
	double ratio;
} CompareGate;

void compare_gate_clear(CompareGate *g);

/* "done.p99" (spaces around it ignored; STAT a summary.json key or its
 * title: p99_9 or p99.9) into a new *stage and *stat; NULL, or why not. */
const char *compare_stat_parse(const char *text, char **stage, IrqstormStat *stat);

/* "done.p99 > 1.10" (spaces optional; STAT a summary.json key or its
 * title: p99_9 or p99.9) into *g; an error that says what is wrong. */
gboolean compare_gate_parse(const char *text, CompareGate *g, GError **error);

/*
 * Judge every run after the first against it by each gate (gates of
 * CompareGate), in each of channels (irqstorm_summaries_channels(): with
 * several, each channel of a run against the same channel of the first,
 * named in the line; the probe's gates once, the probe being the run's),
 * one line each into report ("passed" or "FAILED", the channel, the two
 * values and their ratio). Returns how many tripped; -1 when a run lacks
 * the value a gate needs (said in report): it cannot be judged.
 */
int compare_gates_judge(const GArray *gates, IrqstormSummary *const *runs,
			guint n, const GArray *channels, GString *report);

G_END_DECLS

#endif /* IRQSTORM_CMD_COMPARE_GATE_H */
