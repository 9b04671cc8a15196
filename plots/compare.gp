# SPDX-License-Identifier: GPL-2.0-or-later
#
# Several runs on one figure: one stage's latency histogram from each run's
# histogram.txt (irqstorm or cyclictest --histfile layout), overlaid, one
# curve per run, log-scale counts.
#
# Usage:
#   gnuplot -e 'n=2; input1="a/histogram.txt"; input2="b/histogram.txt"' plots/compare.gp
#   gnuplot -e 'n=2; input1="a/histogram.txt"; label1="hardirq"; \
#               input2="b/histogram.txt"; label2="threaded"; stage="thread"; \
#               output="compare-thread.svg"; format="svg"' plots/compare.gp
#
# Parameters:
#   n       number of runs (required)
#   inputI  histfile of run I, I = 1..n (required)
#   labelI  legend label of run I                 (default "run I")
#   stage   the stage (column) to compare         (default "done"); each file's
#           column is found by name from its "# Stages:" line
#   format  "png" or "svg"                        (default "png")
#   output  file to write                         (default "compare-<stage>.<format>")
#   title   plot title                            (default "irqstorm: <stage> latency, N runs")
#
# Each legend entry shows the run's max for that stage, exact from
# "# Exact max (us):" when the file has it (irqstorm's), else cyclictest's
# whole "# Max Latencies:", and its overflow count from
# "# Histogram Overflows:" when there are any.
# A run whose file has no such stage, or no sample of it, is listed as such.
# Files may differ in bin width; their time units must match. The curves
# take the run colours of stages.gp (beside this script), none of which is
# a stage's.

if (!exists("n")) exit error "compare.gp: set n and input1..inputN"
if (!exists("stage")) stage = "done"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = sprintf("compare-%s.%s", stage, format)
if (!exists("title")) title = sprintf("irqstorm: %s latency, %d runs", stage, n)

# stages.gp, beside this script: where the runs get their colours.
plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

has(s, p) = strlen(s) >= strlen(p) && s[1:strlen(p)] eq p
# "00042" would be octal to gnuplot: strip the leading zeros first.
unzero(s) = (strlen(s) > 1 && s[1:1] eq "0") ? unzero(s[2:*]) : s
input(i) = value(sprintf("input%d", i))
label(i) = exists(sprintf("label%d", i)) ? value(sprintf("label%d", i)) : sprintf("run %d", i)

# ---- per run: the stage's column, bin width, max, overflows -------------
array col[n]
array binw[n]
array maxs[n]
array exact[n]
array ovfs[n]
array top[n]
xmax = 0
unit = ""
nplot = 0
do for [i = 1:n] {
	stages_line = ""
	unit_line = ""
	max_line = ""
	ovf_line = ""
	exact_line = ""
	set datafile commentschars ""
	set datafile separator "\n"
	stats input(i) using (l = strcol(1), \
		stages_line = has(l, "# Stages:") ? l[10:*] : stages_line, \
		unit_line = has(l, "# Time unit is ") ? l[16:*] : unit_line, \
		max_line = has(l, "# Max Latencies:") ? l[17:*] : max_line, \
		ovf_line = has(l, "# Histogram Overflows:") ? l[23:*] : ovf_line, \
		exact_line = has(l, "# Exact max (us):") ? l[18:*] : exact_line, 0) nooutput
	set datafile commentschars "#"
	set datafile separator whitespace

	u = (unit_line eq "nanoseconds") ? "ns" : "us"
	if (unit ne "" && u ne unit) {
		exit error sprintf("%s is in %s, the runs before it in %s", input(i), u, unit)
	}
	unit = u
	col[i] = 0
	do for [w = 1:words(stages_line)] {
		if (word(stages_line, w) eq stage) { col[i] = w + 1 }
	}
	maxs[i] = col[i] > 0 && words(max_line) >= col[i] - 1 ? \
		int(unzero(word(max_line, col[i] - 1)) + 0) : -1
	exact[i] = col[i] > 0 && words(exact_line) >= col[i] - 1 ? word(exact_line, col[i] - 1) : ""
	ovfs[i] = col[i] > 0 && words(ovf_line) >= col[i] - 1 ? \
		int(unzero(word(ovf_line, col[i] - 1)) + 0) : 0

	stats input(i) using 1 nooutput
	binw[i] = (STATS_records > 1) ? (STATS_max - STATS_min) / (STATS_records - 1) : 1
	top[i] = -1
	if (col[i] > 0) {
		stats input(i) using (column(col[i]) > 0 ? column(1) : -1) nooutput
		top[i] = STATS_max
	}
	if (top[i] >= 0) {
		nplot = nplot + 1
		if (top[i] + binw[i] > xmax) { xmax = top[i] + binw[i] }
	}
}
if (nplot == 0) exit error sprintf("compare.gp: no run has a sample of stage %s", stage)

run_title(i) = col[i] == 0 ? sprintf("%s (no %s stage)", label(i), stage) : \
	top[i] < 0 ? sprintf("%s (no samples)", label(i)) : \
	sprintf("%s (max %s%s)", label(i), \
		exact[i] ne "" ? sprintf("%s %s", exact[i], unit) : \
		maxs[i] >= 0 ? sprintf("%d %s", maxs[i], unit) : sprintf("bin %d %s", int(top[i]), unit), \
		ovfs[i] > 0 ? sprintf(", %d beyond the histogram", ovfs[i]) : "")

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
set xlabel sprintf("%s latency (%s)", stage, unit) noenhanced
set ylabel "Number of samples"
set logscale y
set yrange [0.8:*]
set xrange [0:xmax * 1.05]
set grid
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box

# Column 1 is a bin's lower edge: centre the steps on their bins. Empty bins
# are drawn below the axis, so each curve drops to the floor; a run without
# the stage contributes only its legend entry.
nonzero(v) = (v > 0) ? v : 0.1
plot for [i = 1:n] input(i) \
	using ($1 + binw[i] / 2):(col[i] > 0 ? nonzero(column(col[i])) : 0.1) \
	with histeps linewidth 1.5 linecolor rgb run_colour(i) title run_title(i)

set output
