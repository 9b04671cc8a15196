// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * irqstorm plot: the figures of finished runs (irqstorm_cmd_plot(),
 * cmd.h). Each figure is one gnuplot script of plots/, run once per
 * format with its parameters given by -e (gnuplot.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "cmd.h"
#include "gnuplot.h"
#include "core/collect.h"
#include "core/records.h"
#include "core/stages.h"
#include "core/summary.h"
#include "core/runfiles.h"

enum {
	FORMAT_PNG = 1 << 0,
	FORMAT_SVG = 1 << 1,
};

/* gnuplot, the formats asked for, and whether a figure failed */
typedef struct {
	IrqstormGnuplot g;
	guint formats;
	gboolean failed;	/* a figure could not be drawn */
} Plotter;

static void plotter_clear(Plotter *p)
{
	irqstorm_gnuplot_clear(&p->g);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Plotter, plotter_clear)

#define param_str	irqstorm_plot_param
#define param_path	irqstorm_plot_param_path

/* One figure, in every format asked for: base.png and/or base.svg. */
static void figure(Plotter *p, const char *script, const char *params,
		   const char *base)
{
	static const struct {
		guint flag;
		const char *ext;
	} formats[] = { { FORMAT_PNG, "png" }, { FORMAT_SVG, "svg" } };

	for (gsize i = 0; i < G_N_ELEMENTS(formats); i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(GString) e = NULL;
		g_autofree char *output = NULL;

		if (!(p->formats & formats[i].flag))
			continue;
		e = g_string_new(params);
		param_str(e, "format", formats[i].ext);
		output = g_strconcat(base, ".", formats[i].ext, NULL);
		if (!irqstorm_gnuplot_run(&p->g, script, e->str, output, &err)) {
			g_printerr("irqstorm: %s\n", err->message);
			p->failed = TRUE;
		}
	}
}

/* ---- the figures ------------------------------------------------------ */

typedef struct {
	const char *dir;
	const char *label;
	IrqstormSummary *summary;	/* NULL when summary.json is unreadable */
} PlotRun;

/* The runs given, with their labels and summaries. */
typedef struct {
	PlotRun *runs;
	guint n;
	char **labels;
} PlotRuns;

static void plot_runs_clear(PlotRuns *r)
{
	for (guint i = 0; i < r->n; i++)
		irqstorm_summary_free(r->runs[i].summary);
	g_free(r->runs);
	g_strfreev(r->labels);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(PlotRuns, plot_runs_clear)

static char *run_title(const PlotRun *r, const char *what)
{
	gboolean incomplete = r->summary && !r->summary->complete;

	return g_strdup_printf("%s%s: %s", r->label, incomplete ? " [INCOMPLETE]" : "", what);
}

/* Has the run a sample of any stage? */
static gboolean has_samples(const IrqstormSummary *s)
{
	for (guint i = 0; s && i < s->stages->len; i++)
		if (((const IrqstormStageStats *)s->stages->pdata[i])->cycles)
			return TRUE;
	return FALSE;
}

/* Has it a sample of a stage the breakdown stacks (from the raise), in
 * channel c? */
static gboolean has_breakdown(const IrqstormSummary *s, int c)
{
	for (int st = 0; s && st < IRQSTORM_STAGE_COUNT; st++)
		if (irqstorm_stage_from_raise(st) &&
		    irqstorm_summary_channel_stage_sampled(s, c, irqstorm_stage_name(st)))
			return TRUE;
	return FALSE;
}

/* Say plainly that a run has nothing to draw, and why if we know. */
static void say_no_samples(const PlotRun *r, const char *what)
{
	const IrqstormSummary *s = r->summary;
	g_autoptr(GString) why = g_string_new(NULL);

	if (s->records == 0)
		g_string_append(why, ": the run has no records");
	else if (s->records > 0)
		g_string_append_printf(why, " among its %" G_GINT64_FORMAT " records", s->records);
	if (!s->complete)
		g_string_append_printf(why, " (it did not finish: %s)", s->incomplete_reason);
	g_printerr("irqstorm: %s: no stage has a sample%s: %s\n", r->dir, why->str, what);
}

/* Channel c's title in run r: "channel 0 (critical)". */
static char *channel_title(const PlotRun *r, int c)
{
	return irqstorm_summaries_channel_title(&r->summary, 1, c);
}

/* Run r's histogram file of channel c (IRQSTORM_CHANNELS_POOLED: every
 * channel's, and the probe). */
static char *hist_file(const char *dir, int c)
{
	return c == IRQSTORM_CHANNELS_POOLED ? irqstorm_run_path(dir, IRQSTORM_FILE_HISTOGRAM) :
	       irqstorm_run_channel_path(dir, IRQSTORM_FILE_HISTOGRAM_CH, (guint)c);
}

static gint cmp_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *)a, y = *(const guint64 *)b;

	return x < y ? -1 : x > y;
}

static void latencies_free(GArray **lat)
{
	for (int st = 0; lat && st < IRQSTORM_STAGE_COUNT; st++)
		g_array_unref(lat[st]);
	g_free(lat);
}

/* Each stage's latencies (GArray of guint64 ns) of run r's channel c
 * (IRQSTORM_CHANNELS_POOLED: every record's, the probe's too) over the
 * raises the statistics cover (the summary's window), sorted; NULL when
 * the run has no records.csv (--no-csv). */
static GArray **stage_latencies(const PlotRun *r, int c)
{
	g_autofree char *csv = irqstorm_run_path(r->dir, IRQSTORM_FILE_RECORDS);
	g_autoptr(GArray) recs = NULL;
	GArray **lat;
	guint64 start;

	if (!g_file_test(csv, G_FILE_TEST_IS_REGULAR) ||
	    !(recs = irqstorm_records_read(csv, FALSE, NULL)))
		return NULL;
	lat = g_new0(GArray *, IRQSTORM_STAGE_COUNT);
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++)
		lat[st] = g_array_new(FALSE, FALSE, sizeof(guint64));
	start = recs->len ? g_array_index(recs, struct irqstorm_record, 0).t_raise : 0;
	for (guint i = 0; i < recs->len; i++) {
		const struct irqstorm_record *rec = &g_array_index(recs, struct irqstorm_record, i);

		if ((c != IRQSTORM_CHANNELS_POOLED && rec->channel != (guint)c) ||
		    (r->summary->window_to_ns >= 0 &&
		     !irqstorm_in_window(start, rec->t_raise, (guint64)r->summary->window_from_ns,
					 (guint64)r->summary->window_to_ns)))
			continue;
		for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
			guint64 ns;

			if (irqstorm_stage_value(rec, st, &ns))
				g_array_append_val(lat[st], ns);
		}
	}
	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		const IrqstormStageStats *ss = irqstorm_summary_channel_stage(
			r->summary, c, irqstorm_stage_name(st));

		g_array_sort(lat[st], cmp_u64);
		/* The curve must be the table's: records.csv cut or edited
		 * since is not drawn from. */
		if (lat[st]->len != (ss ? ss->cycles : 0)) {
			g_printerr("irqstorm: %s: records.csv has %u %s latencies in the window, "
				   "summary.json counts %" G_GUINT64_FORMAT ": the tail is drawn "
				   "from the histogram's bins\n", r->dir, lat[st]->len,
				   irqstorm_stage_name(st), ss ? ss->cycles : 0);
			latencies_free(lat);
			return NULL;
		}
	}
	return lat;
}

/*
 * percentiles.gp's exact tail: into path, for each stage with samples a
 * block (blocks apart by two blank lines: gnuplot's index) of points
 * "x y", y the fraction of the events slower than x: 1 at 0, then at each
 * distinct latency the fraction above it, 0 after the max; its stages,
 * counts and maxima (us) into e. The curve crosses p99's line at the p99
 * the table prints, and ends at the max, whatever the histogram's bins.
 */
static gboolean write_tail(GArray **lat, const char *path, GString *e, GError **error)
{
	g_autoptr(GString) d = g_string_new(NULL), names = g_string_new(NULL);
	g_autoptr(GString) counts = g_string_new(NULL), maxes = g_string_new(NULL);
	char buf[G_ASCII_DTOSTR_BUF_SIZE], frac[G_ASCII_DTOSTR_BUF_SIZE];

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		const GArray *a = lat[st];

		if (!a->len)
			continue;
		g_string_append_printf(d, "%s0 1\n", d->len ? "\n\n" : "");
		for (guint i = 0; i < a->len; i++) {
			guint64 v = g_array_index(a, guint64, i);

			if (i + 1 < a->len && g_array_index(a, guint64, i + 1) == v)
				continue;	/* the last of equal values */
			g_string_append_printf(d, "%s %s\n", g_ascii_formatd(buf, sizeof(buf),
					       "%.3f", v / 1e3), g_ascii_formatd(frac, sizeof(frac),
					       "%.9g", (double)(a->len - 1 - i) / a->len));
		}
		g_string_append_printf(names, "%s%s", names->len ? " " : "", irqstorm_stage_name(st));
		g_string_append_printf(counts, "%s%u", counts->len ? " " : "", a->len);
		g_string_append_printf(maxes, "%s%s", maxes->len ? " " : "",
				       g_ascii_formatd(buf, sizeof(buf), "%.3f",
						       g_array_index(a, guint64, a->len - 1) / 1e3));
	}
	if (!names->len)
		return TRUE;
	param_path(e, "exact", path);
	param_str(e, "exact_stages", names->str);
	param_str(e, "exact_counts", counts->str);
	param_str(e, "exact_max", maxes->str);
	return g_file_set_contents(path, d->str, (gssize)d->len, error);
}

/* percentiles.gp with e, from the records' exact latencies where the run
 * has records.csv (else from the histogram's bins, as for cyclictest's). */
static void exact_tail(Plotter *p, const PlotRun *r, int c, GString *e, const char *base)
{
	GArray **lat = stage_latencies(r, c);
	g_autoptr(GError) err = NULL;
	g_autofree char *tmp = lat ? g_dir_make_tmp("irqstorm-plot-XXXXXX", &err) : NULL;
	g_autofree char *data = tmp ? g_build_filename(tmp, "tail.dat", NULL) : NULL;

	if (lat && (!tmp || !write_tail(lat, data, e, &err))) {
		g_printerr("irqstorm: %s\n", err->message);
		p->failed = TRUE;
	} else {
		figure(p, "percentiles.gp", e->str, base);
	}
	latencies_free(lat);
	if (data)
		g_unlink(data);
	if (tmp)
		g_rmdir(tmp);
}

/* The histogram and percentiles of channel c (titled with it when split)
 * from its histogram file, into out/. */
static void plot_hist(Plotter *p, const PlotRun *r, const char *out, int c, gboolean split)
{
	g_autofree char *hist = hist_file(r->dir, c);
	g_autofree char *which = split ? channel_title(r, c) : NULL;
	static const struct {
		const char *script;
		IrqstormRunFile name, channel_name;
		const char *what;
	} from_hist[] = {
		{ "histogram.gp", IRQSTORM_FILE_FIG_HISTOGRAM, IRQSTORM_FILE_FIG_HISTOGRAM_CH,
		  "latency histogram" },
		{ "percentiles.gp", IRQSTORM_FILE_FIG_PERCENTILES,
		  IRQSTORM_FILE_FIG_PERCENTILES_CH, "latency tail (1 - CDF)" },
	};

	if (!g_file_test(hist, G_FILE_TEST_IS_REGULAR)) {
		g_printerr("irqstorm: %s: no such file (not a finished run?): "
			   "no histogram, no percentiles\n", hist);
		p->failed = TRUE;
		return;
	}
	for (gsize i = 0; i < G_N_ELEMENTS(from_hist); i++) {
		g_autoptr(GString) e = g_string_new(NULL);
		g_autofree char *what = which ? g_strdup_printf("%s: %s", which,
							     from_hist[i].what) :
				       g_strdup(from_hist[i].what);
		g_autofree char *title = run_title(r, what);
		g_autofree char *base = c == IRQSTORM_CHANNELS_POOLED ?
			irqstorm_run_path(out, from_hist[i].name) :
			irqstorm_run_channel_path(out, from_hist[i].channel_name, (guint)c);

		param_path(e, "input", hist);
		param_str(e, "title", title);
		if (i == 1)
			exact_tail(p, r, c, e, base);
		else
			figure(p, from_hist[i].script, e->str, base);
	}
}

/* The timeline from records.csv, into out/: each channel of channels a
 * series of its own when split. */
static void plot_timeline(Plotter *p, const PlotRun *r, const char *out,
			  const GArray *channels, gboolean split)
{
	g_autofree char *csv = irqstorm_run_path(r->dir, IRQSTORM_FILE_RECORDS);
	g_autoptr(GString) e = g_string_new(NULL);
	g_autoptr(GString) list = g_string_new(NULL);
	g_autofree char *title = run_title(r, "latency over time");
	g_autofree char *base = irqstorm_run_path(out, IRQSTORM_FILE_FIG_TIMELINE);

	if (!g_file_test(csv, G_FILE_TEST_IS_REGULAR)) {
		/* Not an error: runs with --no-csv have no records. */
		g_printerr("irqstorm: %s: no records.csv (run with --no-csv?): no timeline\n",
			   r->dir);
		return;
	}
	param_path(e, "input", csv);
	param_str(e, "title", title);
	if (r->summary->window_to_ns >= 0) {
		char from[G_ASCII_DTOSTR_BUF_SIZE], to[G_ASCII_DTOSTR_BUF_SIZE];

		/* The window the table covers: marked, and what the legend counts. */
		g_string_append_printf(e, "window_from=%s; window_to=%s; ",
				       g_ascii_dtostr(from, sizeof(from),
						      r->summary->window_from_ns / 1e9),
				       g_ascii_dtostr(to, sizeof(to), r->summary->window_to_ns / 1e9));
	}
	for (guint k = 0; split && k < channels->len; k++) {
		int c = g_array_index(channels, int, k);
		g_autofree char *key = g_strdup_printf("channel_title%d", c);
		g_autofree char *name = channel_title(r, c);

		if (c == IRQSTORM_CHANNELS_POOLED)
			continue;
		g_string_append_printf(list, "%s%d", list->len ? " " : "", c);
		param_str(e, key, name);
	}
	if (list->len)
		param_str(e, "channels", list->str);
	figure(p, "timeline.gp", e->str, base);
}

/* histogram, percentiles (of each channel of channels) and the timeline of
 * one run, into out/. */
static void plot_run(Plotter *p, const PlotRun *r, const char *out, const GArray *channels)
{
	gboolean split = irqstorm_channels_split(channels);

	for (guint k = 0; k < channels->len; k++)
		plot_hist(p, r, out, g_array_index(channels, int, k), split);
	plot_timeline(p, r, out, channels, split);
}

/* A label as one field of breakdown.gp's tab-separated data file. */
static char *data_field(const char *label)
{
	char *s = g_strdup(*label ? label : "?");

	/* gnuplot reads '"' as the start of a quoted field, whatever the
	 * separator; tabs and newlines would split the line. */
	for (char *c = s; *c; c++) {
		if (*c == '"')
			*c = '\'';
		else if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	}
	return s;
}

static double or0(double v)
{
	return isnan(v) ? 0 : v;
}

/* "\t" and v with three decimals, whatever the locale: gnuplot reads C. */
static void append_field(GString *out, double v)
{
	char buf[G_ASCII_DTOSTR_BUF_SIZE];

	g_string_append_c(out, '\t');
	g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.3f", v));
}

/*
 * The stacked segments of one statistic (us), one per stage measured from
 * the raise (raise -> hardirq -> thread -> done, in the stage table's
 * order): each from the previous stage present. A stage without samples is
 * a 0 segment and the next one starts from the last stage present.
 */
static void segments(const IrqstormSummary *s, int c, IrqstormStat stat, GString *out)
{
	double below = 0;

	for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
		const IrqstormStageStats *ss;
		double v;

		if (!irqstorm_stage_from_raise(st))
			continue;
		ss = irqstorm_summary_channel_stage_sampled(s, c, irqstorm_stage_name(st));
		v = ss ? or0(ss->v[stat]) : NAN;
		append_field(out, isnan(v) ? 0 : MAX(v - below, 0) / 1e3);
		if (!isnan(v))
			below = MAX(v, below);
	}
}

/* The slowest event from the raise: the last sampled stage's max, in us;
 * -1 when no stage from the raise has a sample. */
static double slowest(const IrqstormSummary *s, int c)
{
	for (int st = IRQSTORM_STAGE_COUNT - 1; st >= 0; st--) {
		const IrqstormStageStats *ss;

		if (!irqstorm_stage_from_raise(st))
			continue;
		ss = irqstorm_summary_channel_stage_sampled(s, c, irqstorm_stage_name(st));
		if (ss && !isnan(ss->v[IRQSTORM_STAT_MAX]))
			return ss->v[IRQSTORM_STAT_MAX] / 1e3;
	}
	return -1;
}

/* The breakdown's first line: the segments' titles, avg then p99. */
static void breakdown_titles(GString *d, guint *n)
{
	g_string_append(d, "run");
	for (const char *prefix = ""; prefix; prefix = *prefix ? NULL : "p99: ") {
		gboolean first = TRUE;

		*n = 0;
		for (int st = 0; st < IRQSTORM_STAGE_COUNT; st++) {
			if (!irqstorm_stage_from_raise(st))
				continue;
			g_string_append_printf(d, "\t%s%s-> %s", prefix,
					       first ? "raise " : "",
					       irqstorm_stage_name(st));
			first = FALSE;
			(*n)++;
		}
	}
	g_string_append(d, "\tmax\n");
}

/* breakdown.dat: a bar per run, or per run and channel of channels when
 * split (named "run: channel 0 (critical)"); *segs is the number of
 * segments. */
static gboolean write_breakdown_data(const char *path, const PlotRun *runs, guint n,
				     const GArray *channels, guint *segs, GError **error)
{
	g_autoptr(GString) d = g_string_new(NULL);
	gboolean split = irqstorm_channels_split(channels);

	breakdown_titles(d, segs);
	for (guint i = 0; i < n; i++) {
		for (guint k = 0; runs[i].summary && k < channels->len; k++) {
			int c = g_array_index(channels, int, k);
			g_autofree char *which = split ? channel_title(&runs[i], c) : NULL;
			g_autofree char *name = which ? g_strdup_printf("%s: %s", runs[i].label,
									which) :
					       g_strdup(runs[i].label);
			g_autofree char *label = data_field(name);

			if (split && !irqstorm_summary_channel(runs[i].summary, c) &&
			    c != IRQSTORM_CHANNELS_POOLED)
				continue;
			g_string_append(d, label);
			segments(runs[i].summary, c, IRQSTORM_STAT_AVG, d);
			segments(runs[i].summary, c, IRQSTORM_STAT_P99, d);
			append_field(d, slowest(runs[i].summary, c));
			g_string_append_c(d, '\n');
		}
	}
	return g_file_set_contents(path, d->str, (gssize)d->len, error);
}

/* breakdown.gp over the runs with a summary, to base.{png,svg}. */
static void plot_breakdown(Plotter *p, const PlotRun *runs, guint n,
			   const GArray *channels, const char *title, const char *base)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *tmp = g_dir_make_tmp("irqstorm-plot-XXXXXX", &err);
	g_autofree char *data = NULL;
	g_autoptr(GString) e = g_string_new(NULL);
	guint usable = 0, segs = 0;

	for (guint i = 0; i < n; i++)
		for (guint k = 0; k < channels->len; k++)
			usable += has_breakdown(runs[i].summary, g_array_index(channels, int, k));
	if (!usable) {
		g_printerr("irqstorm: no run has a sample of an interrupt stage: no %s\n", base);
		p->failed = TRUE;
		return;
	}
	if (!tmp) {
		g_printerr("irqstorm: %s\n", err->message);
		p->failed = TRUE;
		return;
	}
	data = g_build_filename(tmp, "breakdown.dat", NULL);
	if (!write_breakdown_data(data, runs, n, channels, &segs, &err)) {
		g_printerr("irqstorm: %s\n", err->message);
		p->failed = TRUE;
	} else {
		param_path(e, "input", data);
		g_string_append_printf(e, "segments=%u; ", segs);
		param_str(e, "title", title);
		figure(p, "breakdown.gp", e->str, base);
	}
	g_unlink(data);
	g_rmdir(tmp);
}

/* compare.gp: stage of every run overlaid, of channel c (titled when
 * split), to out/compare-<stage>[-ch<c>]. */
static void plot_compare(Plotter *p, const PlotRun *runs, guint n,
			 const char *stage, int c, gboolean split, const char *out)
{
	g_autoptr(GString) e = g_string_new(NULL);
	g_autofree char *safe = irqstorm_plot_safe_name(stage);
	g_autofree char *name = c == IRQSTORM_CHANNELS_POOLED ?
		g_strconcat("compare-", safe, NULL) :
		g_strdup_printf("compare-%s-ch%d", safe, c);
	g_autofree char *base = g_build_filename(out, name, NULL);
	g_autofree char *which = split ? channel_title(&runs[0], c) : NULL;
	g_autofree char *title = which ?
		g_strdup_printf("%s latency of %u runs, %s", stage, n, which) :
		g_strdup_printf("%s latency of %u runs", stage, n);
	gboolean sampled = FALSE;

	for (guint i = 0; i < n; i++)
		sampled = sampled || irqstorm_summary_channel_stage_sampled(runs[i].summary, c,
									    stage);
	if (!sampled) {
		g_printerr("irqstorm: no run has a sample of %s%s%s: no %s\n", stage,
			   which ? " in " : "", which ? which : "", name);
		p->failed = TRUE;
		return;
	}
	g_string_append_printf(e, "n=%u; ", n);
	for (guint i = 0; i < n; i++) {
		g_autofree char *hist = hist_file(runs[i].dir, c);
		g_autofree char *key_in = g_strdup_printf("input%u", i + 1);
		g_autofree char *key_label = g_strdup_printf("label%u", i + 1);
		g_autofree char *label = g_strdup_printf("%s%s", runs[i].label,
			runs[i].summary && !runs[i].summary->complete ? " [INCOMPLETE]" : "");

		if (!g_file_test(hist, G_FILE_TEST_IS_REGULAR)) {
			g_printerr("irqstorm: %s: no such file: no %s\n", hist, name);
			p->failed = TRUE;
			return;
		}
		param_path(e, key_in, hist);
		param_str(e, key_label, label);
	}
	param_str(e, "stage", stage);
	param_str(e, "title", title);
	figure(p, "compare.gp", e->str, base);
}

/* ---- the command ------------------------------------------------------ */

static const char plot_description[] =
	"Draws the figures of finished runs with gnuplot, one script of plots/\n"
	"per figure (each script's head says how to run it by hand). Each stage\n"
	"has the same colour in every figure; a stage without samples is left\n"
	"out of the legends.\n"
	"\n"
	"One DIR: its figures, into DIR (or --out):\n"
	"  histogram    events per latency bin, one curve per stage, log counts\n"
	"  percentiles  the tail: fraction of events slower than x (1 - CDF, log\n"
	"               scale); where a curve crosses the p99 line, 1% were slower\n"
	"  timeline     each event's latency against when it was raised (from\n"
	"               records.csv): the interrupts' done - raise, and the probe\n"
	"               as a series of its own: do the slow ones cluster?\n"
	"  breakdown    one stacked bar: raise -> hardirq -> thread -> bh -> done,\n"
	"               average and p99\n"
	"Several DIRs: a comparison, written only into --out (required):\n"
	"  compare-breakdown  the breakdown bars of every run side by side\n"
	"  compare-STAGE      STAGE's histogram of every run overlaid\n"
	"                     (--stage, default done)\n"
	"Nothing is written into the DIRs then; plot a run alone for its own.\n"
	"\n"
	"Runs of several channels are drawn channel by channel, each titled with\n"
	"its number and [channelN] name: histogram-chN and percentiles-chN (from\n"
	"histogram-chN.txt), compare-STAGE-chN, a breakdown bar and a timeline\n"
	"series per channel; a pooled figure would hide one channel's latency\n"
	"under the other's events. --channel N|NAME draws only that one;\n"
	"--pooled adds histogram, percentiles and compare-STAGE of every\n"
	"channel's events pooled (with the probe's), titled so.\n"
	"\n"
	"Each written file's path is printed. An incomplete run is plotted with\n"
	"[INCOMPLETE] in its titles. A run without a sample of any stage (no\n"
	"records) has no figures, and says so. Needs gnuplot (apt-get install\n"
	"gnuplot-nox); the scripts are looked up in $IRQSTORM_PLOTS_DIR, else\n"
	"the source tree's plots/.\n"
	"\n"
	"Exit status: 0 every figure written, 1 error (a figure not drawn, a\n"
	"single DIR with nothing to plot).\n"
	"\n"
	"Examples:\n"
	"  irqstorm plot results/default\n"
	"  irqstorm plot results/default --format both --out figures/\n"
	"  irqstorm plot results/hardirq results/threaded results/forced --out cmp/\n"
	"  irqstorm plot results/a results/b --out cmp/ --label before --label after --stage thread\n"
	"  irqstorm plot results/prio-high results/prio-low --out cmp/ --channel critical\n";

/* --format as FORMAT_* flags; 0 when it is none of them. */
static guint parse_format(const char *format)
{
	if (!format || !strcmp(format, "png"))
		return FORMAT_PNG;
	if (!strcmp(format, "svg"))
		return FORMAT_SVG;
	if (!strcmp(format, "both"))
		return FORMAT_PNG | FORMAT_SVG;
	return 0;
}

/* gnuplot and the scripts; FALSE after saying gnuplot is missing. */
static gboolean find_gnuplot(Plotter *p)
{
	g_autoptr(GError) err = NULL;

	if (!irqstorm_gnuplot_init(&p->g, &err)) {
		irqstorm_cmd_fail("%s", err->message);
		return FALSE;
	}
	return TRUE;
}

/* Each DIR's summary, labelled; FALSE after saying which is missing. */
static gboolean load_runs(PlotRuns *r, char **dirs, guint n, char **labels)
{
	gboolean ok = TRUE;

	r->n = n;
	r->labels = irqstorm_run_labels((const char *const *)dirs, n,
					(const char *const *)labels);
	r->runs = g_new0(PlotRun, n);
	for (guint i = 0; i < n; i++) {
		g_autoptr(GError) e = NULL;

		r->runs[i].dir = dirs[i];
		r->runs[i].label = r->labels[i];
		if (!g_file_test(dirs[i], G_FILE_TEST_IS_DIR)) {
			irqstorm_cmd_fail("%s: no such directory", dirs[i]);
			ok = FALSE;
			continue;
		}
		r->runs[i].summary = irqstorm_summary_load(dirs[i], &e);
		if (!r->runs[i].summary) {
			irqstorm_cmd_fail("%s", e->message);
			ok = FALSE;
		}
	}
	return ok;
}

/* Does any channel of channels have a breakdown in s? */
static gboolean any_breakdown(const IrqstormSummary *s, const GArray *channels)
{
	for (guint k = 0; k < channels->len; k++)
		if (has_breakdown(s, g_array_index(channels, int, k)))
			return TRUE;
	return FALSE;
}

/* One run: its figures into out (or its DIR), its breakdown too, of each
 * of channels. A run without samples gets none: that is said, and the plot
 * fails. */
static void plot_one(Plotter *p, const PlotRun *run, const char *out, const GArray *channels)
{
	const char *dest = out ? out : run->dir;
	g_autofree char *title = run_title(run, "where the time goes");
	g_autofree char *base = irqstorm_run_path(dest, IRQSTORM_FILE_FIG_BREAKDOWN);

	if (!has_samples(run->summary)) {
		say_no_samples(run, "nothing to plot");
		p->failed = TRUE;
		return;
	}
	plot_run(p, run, dest, channels);
	if (any_breakdown(run->summary, channels))
		plot_breakdown(p, run, 1, channels, title, base);
	else	/* the probe alone, say: not an error */
		g_printerr("irqstorm: %s: no interrupt stage has a sample: no breakdown\n",
			   run->dir);
}

/* Several: the comparisons, into out and nowhere else (each run's own
 * figures are plot_one()'s, asked for with the run alone), of each of
 * channels. */
static void plot_many(Plotter *p, const PlotRuns *r, char **stages, const GArray *channels,
		      const char *out)
{
	static const char *const done_only[] = { "done", NULL };
	const char *const *cmp = stages ? (const char *const *)stages : done_only;
	g_autofree char *title = g_strdup_printf("where the time goes, %u runs", r->n);
	g_autofree char *base = g_build_filename(out, "compare-breakdown", NULL);
	gboolean split = irqstorm_channels_split(channels);

	for (guint i = 0; i < r->n; i++)
		if (!has_samples(r->runs[i].summary))
			say_no_samples(&r->runs[i], "\"no samples\" in the comparison");
	plot_breakdown(p, r->runs, r->n, channels, title, base);
	for (gsize s = 0; cmp[s]; s++)
		for (guint k = 0; k < channels->len; k++)
			plot_compare(p, r->runs, r->n, cmp[s], g_array_index(channels, int, k),
				     split, out);
}

/* Every --stage must be a stage of some run. */
static gboolean check_stages(GOptionContext *ctx, const PlotRuns *r, char **stages)
{
	g_autofree IrqstormSummary **runs = g_new0(IrqstormSummary *, r->n);
	g_autoptr(GPtrArray) known = NULL;
	g_autofree char *list = NULL;

	for (guint i = 0; i < r->n; i++)
		runs[i] = r->runs[i].summary;
	known = irqstorm_summaries_stage_names(runs, r->n);
	for (gsize i = 0; stages && stages[i]; i++) {
		if (g_ptr_array_find_with_equal_func(known, stages[i], g_str_equal, NULL))
			continue;
		g_ptr_array_add(known, NULL);
		list = g_strjoinv(", ", (char **)known->pdata);
		irqstorm_usage_error(ctx, "no run has a stage '%s' (stages: %s)", stages[i],
				     *list ? list : "none");
		return FALSE;
	}
	return TRUE;
}

int irqstorm_cmd_plot(int argc, char **argv)
{
	g_autofree char *out = NULL;
	g_autofree char *format = NULL;
	g_auto(GStrv) labels = NULL;
	g_auto(GStrv) stages = NULL;
	g_auto(GStrv) channel_args = NULL;
	gboolean pooled = FALSE;
	const GOptionEntry entries[] = {
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out,
		  "Where to write: with one DIR its figures (default: DIR); with "
		  "several, the comparison (required)", "DIR" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format,
		  "png (default), svg or both", "FORMAT" },
		IRQSTORM_CMD_OPTION_LABEL(&labels),
		{ "stage", 's', 0, G_OPTION_ARG_STRING_ARRAY, &stages,
		  "Stage of the compare-STAGE figure (repeatable; default: done)", "NAME" },
		IRQSTORM_CMD_OPTION_CHANNEL(&channel_args),
		IRQSTORM_CMD_OPTION_POOLED(&pooled),
		{ NULL }
	};
	g_autoptr(GOptionContext) ctx = irqstorm_cmd_options(
		"DIR... - plot finished runs", entries, plot_description);
	g_auto(PlotRuns) runs = { 0 };
	g_auto(Plotter) p = { 0 };
	g_autoptr(GArray) channels = NULL;
	g_autofree IrqstormSummary **sums = NULL;
	guint n;

	if (!irqstorm_cmd_parse(ctx, &argc, &argv))
		return IRQSTORM_EXIT_ERROR;
	if (argc < 2)
		return irqstorm_usage_error(ctx, "plot needs at least one result DIR");
	n = (guint)argc - 1;
	p.formats = parse_format(format);
	if (!p.formats)
		return irqstorm_usage_error(ctx, "--format must be png, svg or both");
	if (!irqstorm_cmd_check_labels(ctx, labels, n))
		return IRQSTORM_EXIT_ERROR;
	if (stages && n == 1)
		return irqstorm_usage_error(ctx, "--stage chooses the compare figure: "
					    "give several DIRs");
	if (n > 1 && !out)
		return irqstorm_usage_error(ctx, "plotting several DIRs is a comparison: say "
					    "where it goes with --out DIR (nothing is written "
					    "into the DIRs)");
	if (!find_gnuplot(&p) || !load_runs(&runs, argv + 1, n, labels) ||
	    !check_stages(ctx, &runs, stages))
		return IRQSTORM_EXIT_ERROR;
	sums = g_new0(IrqstormSummary *, n);
	for (guint i = 0; i < n; i++)
		sums[i] = runs.runs[i].summary;
	if (!(channels = irqstorm_cmd_channels(sums, n, channel_args, pooled)))
		return IRQSTORM_EXIT_ERROR;
	if (out && g_mkdir_with_parents(out, 0755) < 0)
		return irqstorm_cmd_fail("cannot create %s: %s", out, g_strerror(errno));
	if (n == 1)
		plot_one(&p, &runs.runs[0], out, channels);
	else
		plot_many(&p, &runs, stages, channels, out);
	return p.failed ? IRQSTORM_EXIT_ERROR : IRQSTORM_EXIT_PASSED;
}
