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
# raise) goes under the run's name. A stage a run does not have is a 0
# segment: in hardirq mode there is no thread; in forced mode on PREEMPT_RT
# the driver's handler never runs in hard-interrupt context, so the raise
# goes straight to the thread.
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

# Labels are run names: no comment character, no quoting, tabs only.
set datafile separator "\t"
set datafile commentschars ""

stats input using 2 skip 1 nooutput
nruns = STATS_records

# ---- output -------------------------------------------------------------
width = 700 + 90 * nruns
if (width > 2400) { width = 2400 }
if (format eq "svg") {
	set terminal svg size width,720 dynamic enhanced font "sans,10" background rgb "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo enhanced size width,720 font ",10"
	} else {
		set terminal png size width,720
	}
}
set output output

set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.6 relative
set grid ytics
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
set xtics noenhanced nomirror
bottom_margin = 0.11
right_margin = 0.98
if (nruns > 4) { set xtics rotate by -30; bottom_margin = 0.2; right_margin = 0.93 }
# One key for both panels, between the title and the panels (each panel
# draws it at the same place, with the same entries).
set key at screen 0.5, 0.93 center top vertical maxrows 1 width 2 noenhanced autotitle columnheader samplen 2

# Columns: 1 the run, 2.. the avg segments, then the p99 ones, then max.
avg0 = 2
p990 = 2 + segments
total(first) = sum [i = first:first + segments - 1] column(i)
run_label(dummy) = sprintf("%s\nmax %.2f us", strcol(1), column(2 + 2 * segments))

set multiplot layout 1, 2 title title noenhanced margins 0.07, right_margin, bottom_margin, 0.84 spacing 0.09
set title "average"
set ylabel "us from the raise"
plot input using avg0:xtic(run_label(0)) linecolor 1 title columnheader(avg0), \
	for [i = 1:segments - 1] '' using avg0 + i linecolor i + 1 title columnheader(avg0 + i), \
	'' using 0:(total(avg0)):(sprintf("%.2f", total(avg0))) \
	with labels offset 0, 0.8 notitle

set title "p99 (segment tops: each stage's p99)"
plot input using p990:xtic(run_label(0)) linecolor 1 title columnheader(avg0), \
	for [i = 1:segments - 1] '' using p990 + i linecolor i + 1 title columnheader(avg0 + i), \
	'' using 0:(total(p990)):(sprintf("%.2f", total(p990))) \
	with labels offset 0, 0.8 notitle
unset multiplot

set output
