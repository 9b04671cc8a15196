# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where the time goes, per run: one stacked bar per run, its segments the
# stages of an interrupt from the device's raise: to the hard-interrupt
# handler, on to the threaded handler's start (the wake-up), on to done.
# Left panel: averages. Right panel: the same for p99, where the top of each
# segment is that stage's own p99 from the raise (stages are cumulative, so
# these are ordered; the segments are not per-event percentiles of the gaps).
#
# Usage:
#   gnuplot -e 'input="breakdown.dat"; output="breakdown.png"' plots/breakdown.gp
#   gnuplot -e 'input="b.dat"; format="svg"; title="threading modes"' plots/breakdown.gp
#
# `irqstorm plot` writes the data file from each run's summary.json and
# removes it afterwards. Its layout, tab-separated, first line the titles:
#   run  the avg segments  the p99 segments  max
# with one segment per stage measured from the raise, in the stage table's
# order (include/irqstorm/stages.h: raise -> hardirq, -> thread, -> done);
# one line per run, values in us; max (the run's slowest event from the
# raise, -1 for a run without samples) goes under the run's name. A stage
# a run does not have is a 0 segment: in hardirq mode there is no thread; in
# forced mode on PREEMPT_RT the driver's handler never runs in
# hard-interrupt context, so the raise goes straight to the thread.
#
# Each segment has its stage's colour (stages.gp, beside this script), the
# same in every figure. The figure widens with the runs and the length of
# their names, so that names never collide (past 2400 pixels they stand
# upright), and its margins fit the y tick labels.
#
# Parameters (all optional):
#   input   data file to read                  (default "breakdown.dat")
#   format  "png" or "svg"                     (default "png")
#   output  file to write                      (default "breakdown.<format>")
#   title   plot title                         (default "irqstorm latency breakdown")
#   segments  segments per statistic           (default 3)

if (!exists("input")) input = "breakdown.dat"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "breakdown." . format
if (!exists("title")) title = "irqstorm latency breakdown"
if (!exists("segments")) segments = 3

# stages.gp, beside this script: one colour per stage in every figure.
plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

# ---- the data -----------------------------------------------------------
# The first line, whole: the stage of each segment is the word after "->".
set datafile separator "\n"
set datafile commentschars ""
stats input using (header = strcol(1), 0) every ::0::0 nooutput
seg_stages = ""
do for [w = 1:words(header) - 1] {
	if (word(header, w) eq "->" && words(seg_stages) < segments) {
		seg_stages = seg_stages . " " . word(header, w + 1)
	}
}

# Labels are run names: no comment character, no quoting, tabs only.
set datafile separator "\t"

# Columns: 1 the run, 2.. the avg segments, then the p99 ones, then max.
avg0 = 2
p990 = 2 + segments
maxcol = 2 + 2 * segments
total(first) = sum [i = first:first + segments - 1] column(i)

stats input using 2 skip 1 nooutput
nruns = STATS_records
stats input using (strlen(strcol(1))) skip 1 nooutput
namelen = STATS_max
stats input using (total(p990) > total(avg0) ? total(p990) : total(avg0)) skip 1 nooutput
ytop = STATS_max

has_max(dummy) = column(maxcol) >= 0
run_label(dummy) = sprintf("%s\n%s", strcol(1), has_max(0) ? \
	sprintf("max %.3f us", column(maxcol)) : "no samples")
top_label(first) = has_max(0) ? sprintf("%.2f", total(first)) : ""

# ---- the layout, in pixels ------------------------------------------------
# A run's slot fits its name and "max 1234.567 us" at ~8 px a character; the
# left margin and the gap between the panels fit the y tick labels (up to
# ytop's digits) and the y label.
char_px = 8
label_px = char_px * (namelen > 16 ? namelen : 16)
slot_px = label_px + 24
digits = ytop >= 10 ? floor(log10(ytop * 1.1)) + 1 : 2
lm_px = char_px * (digits + 2) + 36
panel_px = nruns * slot_px < 300 ? 300 : nruns * slot_px
width = lm_px + 2 * panel_px + lm_px + 20
slant = 0
if (width > 2400) {
	width = 2400
	panel_px = (width - 2 * lm_px - 20) / 2
	slant = label_px + 8 > panel_px / nruns
}
bottom_px = slant ? label_px + 40 : 52
height = 668 + bottom_px

# ---- output -------------------------------------------------------------
if (format eq "svg") {
	set terminal svg size width,height dynamic enhanced font "sans,10" background rgb "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo enhanced size width,height font ",10"
	} else {
		set terminal png size width,height
	}
}
set output output

set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6 relative
set grid ytics
set xrange [-0.6:nruns - 0.4]
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xtics noenhanced nomirror
if (slant) { set xtics rotate by 90 right }
# One key for both panels, between the title and the panels (each panel
# draws it at the same place, with the same entries).
set key at screen 0.5, 1 - 50.0 / height center top vertical maxrows 1 width 2 noenhanced autotitle columnheader samplen 2

colour(i) = stage_colour(word(seg_stages, i), i)

set multiplot layout 1, 2 title title noenhanced \
	margins 1.0 * lm_px / width, 1 - 20.0 / width, 1.0 * bottom_px / height, 1 - 120.0 / height \
	spacing 1.0 * lm_px / width
set title "average"
set ylabel "us from the raise"
plot input using avg0:xtic(run_label(0)) linecolor rgb colour(1) title columnheader(avg0), \
	for [i = 1:segments - 1] '' using avg0 + i linecolor rgb colour(i + 1) title columnheader(avg0 + i), \
	'' using 0:(total(avg0)):(top_label(avg0)) with labels offset 0, 0.8 notitle

set title "p99 (segment tops: each stage's p99)"
plot input using p990:xtic(run_label(0)) linecolor rgb colour(1) title columnheader(avg0), \
	for [i = 1:segments - 1] '' using p990 + i linecolor rgb colour(i + 1) title columnheader(avg0 + i), \
	'' using 0:(total(p990)):(top_label(p990)) with labels offset 0, 0.8 notitle
unset multiplot

set output
