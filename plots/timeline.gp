# SPDX-License-Identifier: GPL-2.0-or-later
#
# Latency over time: one point per event, its done - raise latency (us)
# against when it was raised (s of virtual time after the first raise), from
# an irqstorm run's records.csv. Shows whether the slow events cluster (boot
# activity, a periodic timer, a storm) or are spread evenly.
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
# have bit 2 (DONE, value 4) set have a t_done; the others are skipped. All
# stamps are ns of QEMU's virtual clock.

if (!exists("input")) input = "records.csv"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "timeline." . format
if (!exists("title")) title = "irqstorm latency over time"

set datafile separator ","
set datafile columnheaders

# ---- the numbers ------------------------------------------------------
done(f) = (int(f) & 4) != 0
# (stats defines nothing on a file without records: only a header)
stats input using (column("t_raise")) nooutput
nrecords = exists("STATS_records") ? STATS_records : 0
ndone = 0
if (nrecords > 0) {
	t0 = STATS_min
	stats input using (done(column("flags")) ? 1 : 0) nooutput
	ndone = int(STATS_sum)
}
if (ndone > 0) {
	stats input using (done(column("flags")) ? (column("t_done") - column("t_raise")) / 1e3 : NaN) nooutput
	lmax = STATS_max
	lmean = STATS_mean
}

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
set ylabel "done - raise (us)"
set grid
set key top right noenhanced box opaque

if (ndone == 0) {
	set label 1 sprintf("no completed event among %d records", nrecords) at graph 0.5, 0.5 center
	set xrange [0:1]
	set yrange [0:1]
	plot NaN notitle
} else {
	set xrange [0:*]
	set autoscale xfixmax
	set yrange [0:*]
	set offsets 0, 0, graph 0.08, 0
	plot input using ((column("t_raise") - t0) / 1e9): \
		(done(column("flags")) ? (column("t_done") - column("t_raise")) / 1e3 : NaN) \
		with points pointtype 7 pointsize 0.4 \
		title sprintf("done - raise: %d events, mean %.2f us, max %.3f us", ndone, lmean, lmax)
}

set output
