# SPDX-License-Identifier: GPL-2.0-or-later
#
# Several sweeps on one figure: one stage's latency (us) against the
# offset of the raise from the section's start (us), from each sweep's
# sweep.csv (`irqstorm sweep`), one curve per sweep, log-scale y. Shows
# which kinds of section delay the stage, and how the delay falls as the
# interrupt arrives later in the section.
#
# Usage:
#   gnuplot -e 'n=2; input1="a/sweep.csv"; label1="irqs_off"; \
#               input2="b/sweep.csv"; label2="spinlock"; stage="thread"' plots/sweeps.gp
#
# Parameters:
#   n       number of sweeps (required)
#   inputI  sweep.csv of sweep I, I = 1..n (required)
#   labelI  legend label of sweep I                (default "sweep I")
#   stage   the stage to draw: its column <stage>_ns (default "done")
#   format  "png" or "svg"                         (default "png")
#   output  file to write                          (default "sweeps-<stage>.<format>")
#   title   plot title                             (default "irqstorm sweeps: <stage>")
#
# Each legend entry shows the sweep's worst latency and its offset; a
# sweep without a sample of the stage is listed as such. The curves take
# the run colours of stages.gp (beside this script), none of which is a
# stage's.

if (!exists("n")) exit error "sweeps.gp: set n and input1..inputN"
if (!exists("stage")) stage = "done"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = sprintf("sweeps-%s.%s", stage, format)
if (!exists("title")) title = sprintf("irqstorm sweeps: %s", stage)

plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

input(i) = value(sprintf("input%d", i))
label(i) = exists(sprintf("label%d", i)) ? value(sprintf("label%d", i)) : sprintf("sweep %d", i)
col = stage . "_ns"

set datafile separator ","
set datafile columnheaders
set datafile missing ""

# ---- per sweep: its worst latency and where ------------------------------
array worst[n]
array at[n]
array has[n]
lowest = 1e30
do for [i = 1:n] {
	undefine STATS_records
	stats input(i) using (column(col)) nooutput
	has[i] = exists("STATS_records") && STATS_records > 0
	if (has[i]) {
		worst[i] = STATS_max
		if (STATS_min / 1e3 < lowest) { lowest = STATS_min / 1e3 }
		stats input(i) using (column(col) == worst[i] ? column("offset_ns") : NaN) nooutput
		at[i] = STATS_min
	}
}
legend(i) = has[i] ? sprintf("%s: worst %.3f us at %.3f us", label(i), worst[i] / 1e3, at[i] / 1e3) \
		   : sprintf("%s: no %s sample", label(i), stage)

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
set ylabel sprintf("%s latency from the raise (us)", stage)
set grid
set logscale y
# From 0.8 us, or below the smallest value drawn: every curve shows.
set yrange [(lowest < 0.8 ? (lowest > 0 ? lowest * 0.8 : 0.001) : 0.8):*]
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box

plot for [i = 1:n] (has[i] ? input(i) : NaN) \
	using (column("offset_ns") / 1e3):(column(col) / 1e3) \
	with lines linewidth 1.5 linecolor rgb run_colour(i) title legend(i)
set output
