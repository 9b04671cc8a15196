# SPDX-License-Identifier: GPL-2.0-or-later
#
# One explained event (irqstorm explain): what the vCPU ran across its
# latency, on the virtual-time axis from the raise (us; a probe event's
# from its expected wake-up). Each row is a
# function, largest share first (the last row may gather the rest as
# "(other)"), each stretch of its code a coloured span; dashed lines mark
# the event's points (raise, hardirq, thread, done, or the probe's expected
# wake-up and wake-up).
#
# Usage:
#   gnuplot -e 'spans="event-7.spans"; marks="event-7.marks"; rows=8' \
#           plots/explain.gp
#
# Parameters:
#   spans   the spans file explain writes: from_us to_us row colour "label"
#   marks   the points: t_us name
#   rows    how many rows spans uses
#   format  "png" or "svg"                     (default "png")
#   output  file to write                      (default "explain.<format>")
#   title   plot title                         (default "irqstorm explain")
#   origin  what the time axis counts from     (default "the raise"; a probe
#           event's: "the expected wake-up")
#
# Not a distribution: the y axis is functions, not counts, so no log
# scale here.

if (!exists("spans") || !exists("marks") || !exists("rows")) \
	exit error "explain.gp needs spans, marks and rows"
if (!exists("format")) format = "png"
if (format ne "png" && format ne "svg") exit error sprintf("format must be png or svg, not %s", format)
if (!exists("output")) output = "explain." . format
if (!exists("title")) title = "irqstorm explain"
if (!exists("origin")) origin = "the raise"

if (format eq "png") {
	set terminal pngcairo size 1100, 160 + 34 * rows font "sans,10"
} else {
	set terminal svg size 1100, 160 + 34 * rows font "sans,10"
}
set output output
set title title noenhanced
set xlabel sprintf("virtual time from %s (us)", origin) noenhanced
set yrange [rows - 0.5 : -0.5]
set ytics scale 0 noenhanced
set grid xtics
set key off
set style fill solid 0.9 noborder
palette = "#0072b2 #009e73 #d55e00 #cc79a7 #e69f00 #56b4e9 #9400d3 #8c510a #01665e #808000 #404040 #999999"
do for [i = 1:words(palette)] { set linetype i lc rgb word(palette, i) }
set linetype cycle words(palette)

plot spans using (($1 + $2) / 2):3:(($2 - $1) / 2):(0.38):4 \
	with boxxyerror lc variable, \
     '' using (0):3:ytic(5) with points pt -1, \
     marks using 1:(-0.5):(0):(rows) with vectors nohead dt 2 lc rgb "#404040", \
     marks using 1:(-0.5):2 with labels offset 0, 0.6 font ",9" noenhanced
