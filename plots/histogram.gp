# SPDX-License-Identifier: GPL-2.0-or-later
#
# Plot an irqstorm (or cyclictest --histfile) latency histogram as a PNG or SVG.
#
# Usage:
#   gnuplot -e 'input="histogram.txt"; output="histogram.png"' plots/histogram.gp
#   gnuplot -e 'input="h.txt"; output="h.png"; title="6.12-rt, 10 kHz"' plots/histogram.gp
#   gnuplot -e 'input="h.txt"; format="svg"' plots/histogram.gp
#
# Parameters (all optional):
#   input   histfile to read                  (default "histogram.txt")
#   format  "png" or "svg"                    (default "png")
#   output  file to write                     (default "histogram.<format>")
#   title   plot title                        (default "irqstorm latency histogram")
#   stages  space-separated column names      (default: the file's "# Stages:"
#           line, else "column N")
#
# The file's layout is cyclictest's: column 1 is the bin (lower edge), columns
# 2.. are the counts of each stage, and comment lines carry the footer. The
# unit comes from "# Time unit is ..." (microseconds when absent, as in
# cyclictest). Each legend entry shows the stage's max, exact from irqstorm's
# "# Exact max (us):" (else cyclictest's whole "# Max Latencies:", else its
# highest non-empty bin), and its count from "# Histogram Overflows:" when
# there are any. A stage without samples is left out; each stage has its
# colour of stages.gp (beside this script), the same in every figure.

if (!exists("input")) input = "histogram.txt"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "histogram." . format
if (!exists("title")) title = "irqstorm latency histogram"

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

# ---- shape of the data ------------------------------------------------
stats input using 1 nooutput
ncols = STATS_columns
nbins = STATS_records
binwidth = (nbins > 1) ? (STATS_max - STATS_min) / (nbins - 1) : 1

footer(line, c) = (words(line) >= c - 1) ? int(unzero(word(line, c - 1)) + 0) : 0

# Per stage: its samples (in the bins and beyond), highest non-empty bin;
# the stages with samples, in cols[1..nplot].
xmax = 0
nplot = 0
array top[ncols]
array cols[ncols]
do for [c = 2:ncols] {
	stats input using (column(c) > 0 ? column(1) : -1) nooutput
	top[c] = STATS_max
	stats input using (column(c)) nooutput
	if (STATS_sum + footer(ovf_line, c) > 0) {
		nplot = nplot + 1
		cols[nplot] = c
		if (top[c] > xmax) { xmax = top[c] }
	}
}
if (nplot == 0) exit error sprintf("%s: no stage has any samples: nothing to plot", input)

stage_name(c) = (c - 1 <= words(stages)) ? word(stages, c - 1) : sprintf("column %d", c)
stage_max(c) = (words(exact_line) >= c - 1) ? sprintf("max %s %s", word(exact_line, c - 1), unit) : \
	(words(max_line) >= c - 1) ? sprintf("max %d %s", footer(max_line, c), unit) : \
	sprintf("max bin %d %s", int(top[c]), unit)
stage_ovf(c) = (footer(ovf_line, c) > 0) ? \
	sprintf(", %d beyond the histogram", footer(ovf_line, c)) : ""
stage_title(c) = sprintf("%s (%s%s)", stage_name(c), stage_max(c), stage_ovf(c))

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
set xlabel sprintf("Latency (%s)", unit)
set ylabel "Number of samples"
set logscale y
set yrange [0.8:*]
set xrange [0:(xmax + binwidth) * 1.05 + binwidth]
set grid
# Above the axes: a legend never covers data.
set key tmargin left vertical noenhanced box
set style data histeps

# Column 1 is a bin's lower edge: centre the steps on their bins. Empty bins
# are drawn below the axis, so each curve drops to the floor.
nonzero(v) = (v > 0) ? v : 0.1
plot for [k = 1:nplot] input using ($1 + binwidth / 2):(nonzero(column(cols[k]))) with histeps \
	linewidth 1.5 linecolor rgb stage_colour(stage_name(cols[k]), cols[k] - 1) \
	title stage_title(cols[k])

set output
