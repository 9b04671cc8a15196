# SPDX-License-Identifier: GPL-2.0-or-later
#
# The latency tail of each stage: the fraction of events slower than x,
# against x (1 - CDF, log scale), from an irqstorm (or cyclictest --histfile)
# histogram. Read it like this: where a curve crosses the "p99" line, 1% of
# the events were slower than that latency; the curve's last step is the max.
#
# Usage:
#   gnuplot -e 'input="histogram.txt"; output="percentiles.png"' plots/percentiles.gp
#   gnuplot -e 'input="h.txt"; format="svg"; title="6.12-rt, 10 kHz"' plots/percentiles.gp
#
# Parameters (all optional):
#   input   histfile to read                  (default "histogram.txt")
#   format  "png" or "svg"                    (default "png")
#   output  file to write                     (default "percentiles.<format>")
#   title   plot title                        (default "irqstorm latency tail")
#   stages  space-separated column names      (default: the file's "# Stages:"
#           line, else "column N")
#
# Exact (what `irqstorm plot` gives, from the run's records.csv):
#   exact         a file of one block per stage (blocks apart by two blank
#                 lines), points "x y": y the fraction of the events slower
#                 than x, 1 at 0, then at each distinct latency the fraction
#                 above it (0 after the max)
#   exact_stages  the blocks' stages, space-separated
#   exact_counts  their events
#   exact_max     their maxima (us)
# A curve then crosses the p99 line at the stage's nearest-rank p99, the
# one the tables print, and ends at its max, to the ns; without it, from
# the histogram's bins:
#
# A point is plotted at each bin's lower edge x: the fraction of the stage's
# events at or above x, so the resolution is one bin, like the histogram's,
# and a curve crosses the p99 line at the summary's p99 (a bin upper edge).
# Events beyond the last bin ("# Histogram Overflows:") count in every
# fraction; the curve then stays flat at their share to the right edge and
# the legend says how many there were. Stages without samples are left out.
# The legend's max is exact from "# Exact max (us):" when the file has it
# (irqstorm's), else cyclictest's whole "# Max Latencies:". Each stage has
# its colour of stages.gp (beside this script), the same in every figure.

if (!exists("input")) input = "histogram.txt"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "percentiles." . format
if (!exists("title")) title = "irqstorm latency tail"

# stages.gp, beside this script: one colour per stage in every figure.
plots_dir = "./"
do for [i = 1:strlen(ARG0)] { if (ARG0[i:i] eq "/") { plots_dir = ARG0[1:i] } }
if (plots_dir[1:1] ne "/" && plots_dir[1:2] ne "./") { plots_dir = "./" . plots_dir }
load plots_dir . "stages.gp"

# ---- read the comment lines: one string per line ----------------------
stages_line = ""
unit_line = ""
max_line = ""
ovf_line = ""
exact_line = ""
set datafile commentschars ""
set datafile separator "\n"
has(s, p) = strlen(s) >= strlen(p) && s[1:strlen(p)] eq p
stats input using (l = strcol(1), \
	stages_line = has(l, "# Stages:") ? l[10:*] : stages_line, \
	unit_line = has(l, "# Time unit is ") ? l[16:*] : unit_line, \
	max_line = has(l, "# Max Latencies:") ? l[17:*] : max_line, \
	ovf_line = has(l, "# Histogram Overflows:") ? l[23:*] : ovf_line, \
	exact_line = has(l, "# Exact max (us):") ? l[18:*] : exact_line, 0) nooutput
set datafile commentschars "#"
set datafile separator whitespace

if (!exists("stages")) stages = stages_line
unit = (unit_line eq "nanoseconds") ? "ns" : "us"

# "00042" would be octal to gnuplot: strip the leading zeros first.
unzero(s) = (strlen(s) > 1 && s[1:1] eq "0") ? unzero(s[2:*]) : s
footer(line, c) = (words(line) >= c - 1) ? int(unzero(word(line, c - 1)) + 0) : 0

# ---- shape of the data ------------------------------------------------
stats input using 1 nooutput
ncols = STATS_columns
nbins = STATS_records
binwidth = (nbins > 1) ? (STATS_max - STATS_min) / (nbins - 1) : 1

# Per stage: events (in the bins plus overflows), highest non-empty bin.
array total[ncols]
array top[ncols]
array cols[ncols]
nplot = 0
xmax = 0
nmax = 1
do for [c = 2:ncols] {
	stats input using (column(c)) nooutput
	total[c] = STATS_sum + footer(ovf_line, c)
	stats input using (column(c) > 0 ? column(1) : -1) nooutput
	top[c] = STATS_max
	if (total[c] > 0) {
		nplot = nplot + 1
		cols[nplot] = c
		if (top[c] > xmax) { xmax = top[c] }
		if (total[c] > nmax) { nmax = total[c] }
	}
}
if (exists("exact")) {
	nplot = words(exact_stages)
	nmax = 1
	xmax = 0
	do for [k = 1:nplot] {
		if (int(word(exact_counts, k)) > nmax) { nmax = int(word(exact_counts, k)) }
		if (word(exact_max, k) + 0 > xmax) { xmax = word(exact_max, k) + 0 }
	}
	binwidth = xmax / 200.0
}
if (nplot == 0) exit error sprintf("%s: no stage has any samples", input)

stage_name(c) = (c - 1 <= words(stages)) ? word(stages, c - 1) : sprintf("column %d", c)
stage_max(c) = (words(exact_line) >= c - 1) ? sprintf("max %s %s", word(exact_line, c - 1), unit) : \
	(words(max_line) >= c - 1) ? sprintf("max %d %s", footer(max_line, c), unit) : \
	sprintf("max bin %d %s", int(top[c]), unit)
stage_ovf(c) = (footer(ovf_line, c) > 0) ? \
	sprintf(", %d beyond the histogram", footer(ovf_line, c)) : ""
stage_title(c) = sprintf("%s (%d events, %s%s)", stage_name(c), int(total[c]), stage_max(c), stage_ovf(c))

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

# The smallest non-zero fraction is 1/N; a fraction of 0 (past the max) is
# drawn below the axis so each curve visibly drops at its last event.
ymin = 0.5 / nmax
floor = ymin / 10
set title title noenhanced
set xlabel sprintf("Latency x (%s)", unit)
set ylabel "Fraction of events slower than x (1 - CDF)"
set logscale y
set format y "10^{%L}"
set yrange [ymin:1.5]
set logscale y2
set y2range [ymin:1.5]
set y2tics ("p50" 0.5, "p90" 0.1, "p99" 0.01, "p99.9" 0.001, "p99.99" 0.0001, \
	"p99.999" 0.00001, "p99.9999" 0.000001)
set xrange [0:(xmax + binwidth) * 1.05 + binwidth]
set grid xtics ytics y2tics
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box

# Column 1 is a bin's lower edge x; below is the count of the bins under
# it, so the point is the exact fraction of events >= x, and each step holds
# that value across the bin (an upper bound inside it). acc is the running
# count, restarted on each pass over the file ($0 == 0).
tail(below, n) = (n - below > 0) ? (n - below) / n : floor
exact_title(k) = sprintf("%s (%s events, max %s us)", word(exact_stages, k), \
	word(exact_counts, k), word(exact_max, k))
if (exists("exact")) {
	plot for [k = 1:nplot] exact index (k - 1) using 1:($2 > 0 ? $2 : floor) \
		with steps linewidth 1.5 \
		linecolor rgb stage_colour(word(exact_stages, k), k) title exact_title(k)
} else {
plot for [k = 1:nplot] input \
	using 1:(below = ($0 == 0 ? 0 : acc), acc = below + column(cols[k]), \
		 tail(below, total[cols[k]])) \
	with steps linewidth 1.5 linecolor rgb stage_colour(stage_name(cols[k]), cols[k] - 1) \
	title stage_title(cols[k])
}

set output
