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
# Columns are found by their header names (t_raise, t_done, flags), never by
# position, so columns added later do not matter. Only records whose flags
# have bit 2 (DONE, value 4) set have a t_done; the others are skipped. A
# record whose flags have bit 9 (PROBE, value 512) is the probe's (channel
# 255), not an interrupt's: its t_done - t_raise is the probe stage, and it
# is drawn apart, so that the interrupts' series is the done stage. Each
# series has its stage's colour (stages.gp, beside this script). All stamps
# are ns of QEMU's virtual clock.

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
done(f) = (int(f) & 4) != 0
probe(f) = (int(f) & 512) != 0
# the latency of a done record of the kind (probe or not), else NaN
lat(want_probe) = done(column("flags")) && probe(column("flags")) == want_probe ? \
	(column("t_done") - column("t_raise")) / 1e3 : NaN
# (stats defines nothing on a file without records: only a header)
stats input using (column("t_raise")) nooutput
nrecords = exists("STATS_records") ? STATS_records : 0
array n[2]
array mean[2]
array lmax[2]
n[1] = 0
n[2] = 0
if (nrecords > 0) {
	t0 = STATS_min
	do for [k = 1:2] {
		stats input using (lat(k == 2) == lat(k == 2) ? 1 : 0) nooutput
		n[k] = int(STATS_sum)
		if (n[k] > 0) {
			stats input using (lat(k == 2)) nooutput
			mean[k] = STATS_mean
			lmax[k] = STATS_max
		}
	}
}
series_title(k) = sprintf("%s: %d events, mean %.2f us, max %.3f us", \
	k == 1 ? "interrupts, done - raise" : "probe (wake-up lateness)", n[k], mean[k], lmax[k])

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
set key top right noenhanced box opaque

if (n[1] + n[2] == 0) {
	set label 1 sprintf("no completed event among %d records", nrecords) at graph 0.5, 0.5 center
	set xrange [0:1]
	set yrange [0:1]
	plot NaN notitle
} else {
	set xrange [0:*]
	set autoscale xfixmax
	set yrange [0:*]
	set offsets 0, 0, graph 0.08, 0
	# the series with events: "1" interrupts, "2" the probe
	kinds = (n[1] > 0 ? "1 " : "") . (n[2] > 0 ? "2" : "")
	plot for [w in kinds] input using ((column("t_raise") - t0) / 1e9):(lat(w eq "2")) \
		with points pointtype 7 pointsize 0.4 \
		linecolor rgb stage_colour(w eq "1" ? "done" : "probe", int(w)) \
		title series_title(int(w))
}

set output
