/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a finished run back: the parts of DIR/summary.json that compare,
 * plot and matrix use, and whether the run is complete. The file is written
 * by summary-write.c, with the names of summary-keys.h; this side only
 * reads it, and is lenient about what it does
 * not use (unknown members are ignored, stages are taken in the file's
 * order, whatever their names).
 */
#ifndef IRQSTORM_SUMMARY_H
#define IRQSTORM_SUMMARY_H

#include <glib.h>

#include "summary-keys.h"

G_BEGIN_DECLS

#define IRQSTORM_SUMMARY_ERROR (irqstorm_summary_error_quark())
GQuark irqstorm_summary_error_quark(void);

typedef enum {
	IRQSTORM_SUMMARY_ERROR_MISSING,	/* no summary.json */
	IRQSTORM_SUMMARY_ERROR_INVALID,	/* not JSON, or not an irqstorm summary */
	IRQSTORM_SUMMARY_ERROR_CHANNEL,	/* no run has the channel asked for */
} IrqstormSummaryError;

typedef struct {
	char *name;
	guint64 cycles;
	guint64 bin_ns;			/* its histogram's bin width; 0 if absent */
	gboolean percentiles_exact;	/* the samples' own, not bins' edges */
	double v[IRQSTORM_STAT_COUNT];	/* ns; NAN where the file has null */
} IrqstormStageStats;

/*
 * One channel's stages (channels.<N> of summary.json), or, as channel
 * IRQSTORM_CHANNELS_POOLED, every channel's pooled (the top-level "stages",
 * which also holds the run's probe).
 */
#define IRQSTORM_CHANNELS_POOLED	(-1)

typedef struct {
	int index;			/* N, or IRQSTORM_CHANNELS_POOLED */
	char *name;			/* [channelN] name; NULL if it has none */
	GPtrArray *stages;		/* of IrqstormStageStats *, file order */
} IrqstormChannelStats;

typedef struct {
	char *dir;			/* as given */
	char *path;			/* dir/summary.json, for messages */
	char *label;			/* how tables and plots name the run */
	gboolean complete;		/* .complete and no INCOMPLETE file */
	char *incomplete_reason;	/* NULL when complete */
	int return_code;		/* the run's exit status; -1 if absent */
	guint failed_checks;
	char *kernel_failure;		/* kernel_failures[0]: why the kernel failed
					 * the run; or NULL */
	char *stall;			/* stalls[0]: why the guest stalled, or NULL */
	char *guest_status;		/* counts.guest.status: "ok", "error"; or NULL */
	char *guest_reason;		/* counts.guest.reason, or NULL */
	char *kernel;			/* the kernel's source, flavour and build
					 * identity, in words; NULL if absent */
	gboolean deterministic;		/* sysinfo.deterministic */
	gint64 cpus;			/* sysinfo.cpus; 1 if absent */
	gint64 quantum_ns;		/* sysinfo.quantum_ns: the window of
					 * virtual time of several vCPUs; 0 */
	gint64 records;			/* counts.host.all_records; -1 if absent */
	/* window.from_ns and .to_ns: the raises (ns after the first) the
	 * statistics cover; -1 if absent */
	gint64 window_from_ns, window_to_ns;
	GPtrArray *stages;		/* of IrqstormStageStats *, file order:
					 * every channel's, pooled */
	GPtrArray *channels;		/* of IrqstormChannelStats *, each
					 * active channel's, by index */
} IrqstormSummary;

/*
 * Parse the text of a summary.json; path only names it in messages. The
 * label is the basename of dir. Requires a top-level object with a boolean
 * "complete", a "format" that is "irqstorm-summary" if there is one (older
 * files have none), and a "stages" object whose members are objects with an integer
 * "cycles"; each statistic must be a number or null (absent counts as null).
 * An incomplete run may have no "stages" (it collected nothing): none then.
 */
IrqstormSummary *irqstorm_summary_parse(const char *dir, const char *path,
					const char *text, gssize len,
					GError **error);

/* Read DIR/summary.json; an INCOMPLETE file in DIR also makes it incomplete. */
IrqstormSummary *irqstorm_summary_load(const char *dir, GError **error);

void irqstorm_summary_free(IrqstormSummary *s);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(IrqstormSummary, irqstorm_summary_free)

/* The stage called name, or NULL. */
const IrqstormStageStats *irqstorm_summary_stage(const IrqstormSummary *s,
						 const char *name);

/* Channel n's stages (IRQSTORM_CHANNELS_POOLED: the pooled ones), or NULL
 * when the run has no such channel. */
const IrqstormChannelStats *irqstorm_summary_channel(const IrqstormSummary *s, int n);

/*
 * The stage called name of channel n (IRQSTORM_CHANNELS_POOLED: pooled), or
 * NULL. The probe is the run's, not a channel's: every channel gives the
 * run's.
 */
const IrqstormStageStats *irqstorm_summary_channel_stage(const IrqstormSummary *s,
							 int n, const char *name);

/* The same, if it has samples (cycles > 0), else NULL. */
const IrqstormStageStats *irqstorm_summary_channel_stage_sampled(const IrqstormSummary *s,
								 int n, const char *name);

/* The stage called name if it has samples (cycles > 0), else NULL. */
const IrqstormStageStats *irqstorm_summary_stage_sampled(const IrqstormSummary *s,
							 const char *name);

/*
 * Labels for the runs in dirs[0..n): labels[i] when labels is non-NULL,
 * else the directory's basename, or the directory as given (without
 * trailing slashes) when two different directories share a basename.
 * Returns a GStrv.
 */
char **irqstorm_run_labels(const char *const *dirs, guint n,
			   const char *const *labels);

/* Set every run's label with irqstorm_run_labels(). */
void irqstorm_summaries_label(IrqstormSummary *const *runs, guint n,
			      const char *const *labels);

/* The union of the runs' stage names, in order of first appearance. */
GPtrArray *irqstorm_summaries_stage_names(IrqstormSummary *const *runs,
					  guint n);

/* The same, of channel c's stages (IRQSTORM_CHANNELS_POOLED: the pooled). */
GPtrArray *irqstorm_summaries_channel_stage_names(IrqstormSummary *const *runs,
						  guint n, int c);

/*
 * The channels a table, figure or gate of runs[0..n) is about, as a GArray
 * of int: each of want ("1", or a channel's name, "critical"), or without
 * want every active channel of any run, by number; pooled adds
 * IRQSTORM_CHANNELS_POOLED, the channels' stages pooled. Runs of one
 * channel each (or written before summaries had channels) give
 * IRQSTORM_CHANNELS_POOLED alone: their pooled stages are that channel's
 * and the probe's. A channel no run has is an error naming those there are.
 */
GArray *irqstorm_summaries_channels(IrqstormSummary *const *runs, guint n,
				    const char *const *want, gboolean pooled,
				    GError **error);

/* Whether channels (of irqstorm_summaries_channels()) is per channel:
 * not the pooled stages alone. */
gboolean irqstorm_channels_split(const GArray *channels);

/* Channel c as the runs name it: "channel 0 (critical)", "channel 1",
 * "all channels, pooled". */
char *irqstorm_summaries_channel_title(IrqstormSummary *const *runs, guint n, int c);

G_END_DECLS

#endif /* IRQSTORM_SUMMARY_H */
