/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files of a run's directory, each named once, with what writes it
 * and whether a run that begins in the directory removes it first (an
 * earlier run's would otherwise be taken for its own). Every part of the
 * rig names a run's file by its row here; docs/analysis.md lists them for
 * users.
 *
 * X(ID, "name", "what writes it", kind), kind one of
 *   RUN      written by the run: removed as a run begins;
 *   CHANNEL  one per channel, "name" a format of its number: the same;
 *   FIGURE   "name".png and "name".svg, drawn by irqstorm plot: the same;
 *   CHANNEL_FIGURE  a FIGURE per channel, "name" a format of its number;
 *   KEPT     not removed: the marker (the run writes it first), and what
 *            later commands add to a finished run.
 */
#ifndef IRQSTORM_RIG_RUNFILES_H
#define IRQSTORM_RIG_RUNFILES_H

#include <glib.h>

G_BEGIN_DECLS

#define IRQSTORM_RUN_FILES(X)						\
	X(SCENARIO, "scenario.ini", "marker.c: the effective scenario, as the run begins", RUN) \
	X(MARKER, "INCOMPLETE", "marker.c: from the run's start until it ends well", KEPT) \
	X(CONSOLE, "console.log", "run.c: the guest's serial console", RUN) \
	X(QEMU_LOG, "qemu.log", "run.c: QEMU's standard error", RUN)	\
	X(QEMU_CMDLINE, "qemu-cmdline.txt", "run.c: QEMU's command line", RUN) \
	X(RECORDS, "records.csv", "run.c with output.c; records.c reads it", RUN) \
	X(HISTOGRAM, "histogram.txt", "results.c with output.c; histfile.c reads it", RUN) \
	X(HISTOGRAM_CH, "histogram-ch%u.txt", "results.c with output.c, a channel's", CHANNEL) \
	X(RT_TESTS, "rt-tests.json", "results.c with output.c", RUN)	\
	X(RTLA, "rtla-hist.txt", "results.c with rtla.c", RUN)		\
	X(SUMMARY, "summary.json", "results.c with summary-write.c; summary.c reads it", RUN) \
	X(FIG_HISTOGRAM, "histogram", "irqstorm plot: plots/histogram.gp", FIGURE) \
	X(FIG_PERCENTILES, "percentiles", "irqstorm plot: plots/percentiles.gp", FIGURE) \
	X(FIG_TIMELINE, "timeline", "irqstorm plot: plots/timeline.gp", FIGURE) \
	X(FIG_BREAKDOWN, "breakdown", "irqstorm plot: plots/breakdown.gp", FIGURE) \
	X(FIG_HISTOGRAM_CH, "histogram-ch%u", "irqstorm plot: plots/histogram.gp, a channel's", \
	  CHANNEL_FIGURE)						\
	X(FIG_PERCENTILES_CH, "percentiles-ch%u", "irqstorm plot: plots/percentiles.gp, a channel's", \
	  CHANNEL_FIGURE)						\
	X(TRACE, "trace.json", "irqstorm export: the run as a timeline", KEPT) \
	X(EXPLAIN, "explain", "irqstorm explain: its directory", KEPT)

#define IRQSTORM_RUN_FILE_ENUM(id, name, writer, kind)	IRQSTORM_FILE_##id,
typedef enum {
	IRQSTORM_RUN_FILES(IRQSTORM_RUN_FILE_ENUM)
	IRQSTORM_FILE_COUNT
} IrqstormRunFile;
#undef IRQSTORM_RUN_FILE_ENUM

/* File f's name ("records.csv"; a CHANNEL's format, a FIGURE's stem). */
const char *irqstorm_run_file(IrqstormRunFile f);

/* dir/name of file f (a CHANNEL or CHANNEL_FIGURE file: of channel ch,
 * with irqstorm_run_channel_path()). */
char *irqstorm_run_path(const char *dir, IrqstormRunFile f);
char *irqstorm_run_channel_path(const char *dir, IrqstormRunFile f, guint ch);

/* Remove from dir every file a run writes (RUN, CHANNEL, FIGURE), of an
 * earlier run: FALSE with the reason when one cannot be. */
gboolean irqstorm_run_files_remove_stale(const char *dir, GError **error);

G_END_DECLS

#endif
