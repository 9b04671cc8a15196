# SPDX-License-Identifier: GPL-2.0-or-later
#
# A triggered sweep: each stage's latency (us) against the offset from the
# section's start at which the device raised the interrupt (us), from the
# sweep.csv that `irqstorm sweep` writes. Where the curve peaks is where an
# interrupt arriving hurts most; its height is the section's worst case,
# measured at every offset rather than met by chance.
#
# Usage:
#   gnuplot -e 'input="sweep.csv"; output="sweep.png"' plots/sweep.gp
#
# Parameters (all optional):
#   input   sweep.csv to read                  (default "sweep.csv")
#   format  "png" or "svg"                     (default "png")
#   output  file to write                      (default "sweep.<format>")
#   title   plot title                         (default "irqstorm sweep")
#   stages  the stages to draw, space-separated (default
#           "hardirq thread bh done handler": the interrupt stages)
#   interference  1: sweep.csv has <stage>_others (the interrupts other
#           than the event's own that ran in the stage's window): offsets
#           where none ran are drawn as the stage's curve, those where
#           another interrupt ran as open circles of its colour
#           (default 0: every offset on the curve)
#
# Columns are found by their header names: offset_ns and <stage>_ns; an
# empty field (a stage the event lacks, such as thread under a hard-
# interrupt handler) is no point, and a stage with none is left out of
# the key. Log-scale y, from 0.8 us or below the smallest value drawn.

if (!exists("input")) input = "sweep.csv"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "sweep." . format
if (!exists("title")) title = "irqstorm sweep"
if (!exists("stages")) stages = "hardirq thread bh done handler"
if (!exists("interference")) interference = 0

plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

set datafile separator ","
set datafile columnheaders
set datafile missing ""

# (stats defines nothing on a file without rows: only a header)
stats input using (column("offset_ns")) nooutput
nrows = exists("STATS_records") ? STATS_records : 0
# The stages with at least one value, and the smallest value of any (us):
# the log axis starts below it, so that every series its key lists shows
# (a handler's 0.3 us too).
drawn = ""
lowest = 1e30
if (nrows > 0) {
	do for [i = 1:words(stages)] {
		undefine STATS_records
		stats input using (column(word(stages, i) . "_ns")) nooutput
		if (exists("STATS_records") && STATS_records > 0) {
			drawn = drawn . word(stages, i) . " "
			if (STATS_min / 1e3 < lowest) { lowest = STATS_min / 1e3 }
		}
	}
}

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
set xlabel "offset of the raise from the section's start (us of virtual time)"
set ylabel "latency from the raise (us)"
set grid
set logscale y
set yrange [(lowest < 0.8 ? (lowest > 0 ? lowest * 0.8 : 0.001) : 0.8):*]
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box

if (words(drawn) == 0) {
	set label 1 "no offset swept" at graph 0.5, 0.5 center
	unset logscale y
	set xrange [0:1]
	set yrange [0:1]
	plot NaN notitle
} else {
	if (interference) {
		# A stage's latency where as many other interrupts as wanted ran
		# (0: alone; 1: one or more), else no point.
		others(stage, want) = (column(stage . "_others") > 0) == want ? \
			column(stage . "_ns") / 1e3 : NaN
		# The stages with an offset where another interrupt ran.
		met = ""
		do for [i = 1:words(drawn)] {
			undefine STATS_records
			stats input using (others(word(drawn, i), 1)) nooutput
			if (exists("STATS_records") && STATS_records > 0) { met = met . word(drawn, i) . " " }
		}
		plot for [i = 1:words(drawn)] input \
			using (column("offset_ns") / 1e3):(others(word(drawn, i), 0)) \
			with linespoints pointtype 7 pointsize 0.3 \
			linecolor rgb stage_colour(word(drawn, i), i) title word(drawn, i) . ", alone", \
		     for [i = 1:words(met)] input \
			using (column("offset_ns") / 1e3):(others(word(met, i), 1)) \
			with points pointtype 6 pointsize 0.8 \
			linecolor rgb stage_colour(word(met, i), i) \
			title word(met, i) . ", another interrupt ran in it"
	} else {
		plot for [i = 1:words(drawn)] input \
			using (column("offset_ns") / 1e3):(column(word(drawn, i) . "_ns") / 1e3) \
			with linespoints pointtype 7 pointsize 0.3 \
			linecolor rgb stage_colour(word(drawn, i), i) title word(drawn, i)
	}
}
set output
