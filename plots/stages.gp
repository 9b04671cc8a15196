# SPDX-License-Identifier: GPL-2.0-or-later
#
# One colour per stage, the same in every figure: loaded by the other
# scripts of this directory (from beside themselves), never run alone.
# A stage of include/irqstorm/stages.h without a colour here fails the
# plot test; a column of another file (cyclictest's threads) or an
# unknown stage gets one of the others, by its position.
#
#   stage_colour(name, i)  the colour of stage name, the i-th of its file
#   run_colour(i)          the colour of the i-th run where curves are runs
#                          (compare.gp), none of a stage's

stage_colour_of(name) = \
	name eq "hardirq" ? "#9400d3" : \
	name eq "thread"  ? "#009e73" : \
	name eq "bh"      ? "#b2182b" : \
	name eq "done"    ? "#0072b2" : \
	name eq "handler" ? "#e69f00" : \
	name eq "probe"   ? "#404040" : ""
other_colours = "#cc79a7 #d55e00 #56b4e9 #f0e442 #999999"
stage_colour(name, i) = stage_colour_of(name) ne "" ? stage_colour_of(name) : \
	word(other_colours, 1 + (int(i) - 1) % words(other_colours))

# Runs (the curves of compare.gp) never take a stage's colour, so that a
# colour never means a stage in one figure and a run in another.
run_colours = "#d55e00 #56b4e9 #cc79a7 #000000 #808000 #999999 #8c510a #01665e"
run_colour(i) = word(run_colours, 1 + (int(i) - 1) % words(run_colours))
