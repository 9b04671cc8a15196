# SPDX-License-Identifier: GPL-2.0-or-later
#
# Latency over time: one point per event against when it was raised (s of
# virtual time after the first raise), from an irqstorm run's records.csv:
# the interrupts' done - raise (us), and the real-time probe's wake-up
# lateness as a series of its own. Shows whether the slow events cluster
# (boot activity, a periodic timer, a storm) or are spread evenly.
#
# Usage:
#   gnuplot -e 'input="records.csv"; output="timeline.png"' plots/timeline.gp
#   gnuplot -e 'input="run/records.csv"; format="svg"; title="6.12-rt"' plots/timeline.gp
#
# Parameters (all optional):
#   input   records.csv to read                (default "records.csv")
#   format  "png" or "svg"                     (default "png")
#   output  file to write                      (default "timeline.<format>")
#   title   plot title                         (default "irqstorm latency over time")
#
# Columns are found by their header names (t_raise, t_done, flags, channel),
# never by position, so columns added later do not matter. Only records
# whose flags have bit 2 (DONE, value 4) set have a t_done; the others are
# skipped. A record whose flags have bit 9 (PROBE, value 512) is the
# probe's (channel 255), not an interrupt's: its t_done - t_raise is the
# probe stage, and it is drawn apart, so that the interrupts' series is the
# done stage. Each series has its stage's colour (stages.gp, beside this
# script). All stamps are ns of QEMU's virtual clock.
#
# A run of several channels draws each channel's interrupts as a series of
# its own (a pooled cloud would hide which channel is slow): give
#   channels       the channels' numbers, space-separated ("0 1")
#   channel_titleN each one's legend name ("channel 0 (critical)")
# Each channel's series then takes a run colour of stages.gp, none of them
# a stage's.
#
# The measurement window (what `irqstorm plot` gives from summary.json):
#   window_from, window_to  s after the first raise: the raises the
#                           statistics cover (the warm-up before, the
#                           guest's stop tail after, are left out of them)
# It is marked by two dashed lines, and each legend counts the events in
# it, as the run's table does (with those outside it in brackets), and
# their mean and max.

if (!exists("input")) input = "records.csv"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "timeline." . format
if (!exists("title")) title = "irqstorm latency over time"

# stages.gp, beside this script: one colour per stage in every figure.
plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

set datafile separator ","
set datafile columnheaders

# ---- the numbers ------------------------------------------------------
if (!exists("channels")) channels = ""
windowed = exists("window_from") && exists("window_to")
if (!windowed) { window_from = 0; window_to = 1e30 }
done(f) = (int(f) & 4) != 0
probe(f) = (int(f) & 512) != 0
# Series k: 1..4 channel k - 1 (or, without channels, k = 1 every
# interrupt), 5 the probe. The latency of a done record of series k, else NaN.
in_series(k) = k == 5 ? probe(column("flags")) : !probe(column("flags")) && \
	(channels eq "" || int(column("channel")) == k - 1)
lat(k) = done(column("flags")) && in_series(k) ? \
	(column("t_done") - column("t_raise")) / 1e3 : NaN
# the same, of the events in the window only (t0: the first raise)
in_window(dummy) = (column("t_raise") - t0) / 1e9 >= window_from && \
	(column("t_raise") - t0) / 1e9 < window_to
wlat(k) = in_window(0) ? lat(k) : NaN
# (stats defines nothing on a file without records: only a header)
stats input using (column("t_raise")) nooutput
nrecords = exists("STATS_records") ? STATS_records : 0
array n[5]
array nall[5]
array mean[5]
array lmax[5]
# the series drawn: channels' numbers + 1 (or "1"), then "5" for the probe
kinds_all = channels eq "" ? "1 5" : ""
do for [w in channels] { kinds_all = kinds_all . sprintf("%d ", int(w) + 1) }
if (channels ne "") { kinds_all = kinds_all . "5" }
do for [k = 1:5] { n[k] = 0; nall[k] = 0 }
if (nrecords > 0) {
	t0 = STATS_min
	do for [w in kinds_all] {
		k = int(w)
		stats input using (lat(k) == lat(k) ? 1 : 0) nooutput
		nall[k] = int(STATS_sum)
		stats input using (wlat(k) == wlat(k) ? 1 : 0) nooutput
		n[k] = int(STATS_sum)
		if (n[k] > 0) {
			stats input using (wlat(k)) nooutput
			mean[k] = STATS_mean
			lmax[k] = STATS_max
		}
	}
}
series_name(k) = k == 5 ? "probe (wake-up lateness)" : channels eq "" ? \
	"interrupts, done - raise" : value(sprintf("channel_title%d", k - 1)) . ", done - raise"
outside(k) = nall[k] > n[k] ? sprintf(" (+%d outside it)", nall[k] - n[k]) : ""
series_title(k) = sprintf("%s: %d events%s%s, mean %.2f us, max %.3f us", series_name(k), \
	n[k], windowed ? " in the window" : "", outside(k), mean[k], lmax[k])
series_colour(k) = k == 5 ? stage_colour("probe", 2) : channels eq "" ? \
	stage_colour("done", 1) : run_colour(k)

# ---- output -------------------------------------------------------------
if (format eq "svg") {
	set terminal svg size 1200,720 dynamic enhanced font "sans,10" background rgb "white"
} else {
	if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {
		set terminal pngcairo enhanced size 1200,720 font ",10"
	} else {
		set terminal png size 1200,720
	}
}
set output output

set title title noenhanced
set xlabel "Raised at (s of virtual time after the first raise)"
set ylabel "latency from the raise (us)"
set grid
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box

# the series with events
kinds = ""
total = 0
do for [w in kinds_all] { if (nall[int(w)] > 0) { kinds = kinds . w . " "; total = total + nall[int(w)] } }
if (windowed) {
	set arrow 1 from window_from, graph 0 to window_from, graph 1 nohead dashtype 2 linecolor rgb "#808080"
	set arrow 2 from window_to, graph 0 to window_to, graph 1 nohead dashtype 2 linecolor rgb "#808080"
	set label 2 "window" at window_from, graph 1 offset 0.5, -1 textcolor rgb "#808080"
}
if (total == 0) {
	set label 1 sprintf("no completed event among %d records", nrecords) at graph 0.5, 0.5 center
	set xrange [0:1]
	set yrange [0:1]
	plot NaN notitle
} else {
	set xrange [0:*]
	set autoscale xfixmax
	set yrange [0:*]
	set offsets 0, 0, graph 0.08, 0
	plot for [w in kinds] input using ((column("t_raise") - t0) / 1e9):(lat(int(w))) \
		with points pointtype 7 pointsize 0.4 \
		linecolor rgb series_colour(int(w)) title series_title(int(w))
}

set output
