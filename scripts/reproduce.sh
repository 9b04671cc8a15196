#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Reproduce every case of docs/results.md from nothing: build, run each
# scenario's profiles with `irqstorm matrix` (deterministic: TCG, icount,
# one vCPU, seeded), draw the figures into docs/figures/, and write
# docs/results.md from docs/results.md.in with the measured tables.
#
#   scripts/reproduce.sh [--docs DIR] [--irqstorm BIN] [OUTDIR]
#   scripts/reproduce.sh --shard I/N [--irqstorm BIN] [OUTDIR]
#   scripts/reproduce.sh --merge DIR [--merge DIR]... [--docs DIR] [--irqstorm BIN] [OUTDIR]
#   scripts/reproduce.sh --rewrite [--docs DIR] [--irqstorm BIN] [OUTDIR]
#
#   OUTDIR          the runs (default: results/reproduce)
#   --docs DIR      write results.md and figures/ under DIR, not docs/
#                   (the e2e-results test compares that with docs/)
#   --irqstorm BIN  use this irqstorm binary and skip the build
#   --shard I/N     run shard I of N of every case's matrix (`irqstorm
#                   matrix --shard`) into OUTDIR, and stop: a shard has a
#                   part of the cells, and the tables need all of them
#   --merge DIR     instead of running the cases, put the shards' OUTDIRs
#                   together (`irqstorm merge`) into OUTDIR, then draw the
#                   figures and write results.md as a full run does
#   --rewrite       run nothing: draw the figures and write results.md again
#                   from the runs, sweeps and explains a full run left in
#                   OUTDIR (after an edit of results.md.in's prose or of a
#                   table); e2e-results still reruns everything
#
# On N machines: `reproduce.sh --shard I/N shard-I` on machine I, then on
# one machine `reproduce.sh --merge shard-1 ... --merge shard-N`
# (docs/scaling.md).
#
# Each cell ends in an outcome or a tool failure (`irqstorm matrix --help`,
# docs/analysis.md). Outcomes are table entries: passed, a threshold (exit
# 2), a stall (exit 3), and in the cases of REFUSALS a refusal (the guest
# reported the kernel's error, e.g. shared-line's "Flags mismatch"). A tool
# failure (QEMU did not start or crashed, a rig error, failed cross-checks,
# no summary.json), or a refusal where no table shows one, stops the script
# naming the cells: it never becomes a row of the page.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage() { die "usage: reproduce.sh [--docs DIR] [--irqstorm BIN] [--shard I/N | --merge DIR... | --rewrite] [OUTDIR]"; }
DOCS=docs
IRQSTORM=
SHARD=
MERGE=()
REWRITE=
while [ $# -gt 0 ]; do
	case "$1" in
	--docs) [ $# -ge 2 ] || usage; DOCS=$(realpath -m "$2"); shift 2 ;;
	--irqstorm) [ $# -ge 2 ] || usage; IRQSTORM=$(realpath "$2"); shift 2 ;;
	--shard) [ $# -ge 2 ] || usage; SHARD=$2; shift 2 ;;
	--merge) [ $# -ge 2 ] || usage; MERGE+=("$(realpath "$2")"); shift 2 ;;
	--rewrite) REWRITE=1; shift ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ $# -le 1 ] || usage
[ -z "$SHARD" ] || [ ${#MERGE[@]} -eq 0 ] || die "--shard runs a shard, --merge puts shards together: not both"
[ -z "$REWRITE" ] || { [ -z "$SHARD" ] && [ ${#MERGE[@]} -eq 0 ]; } ||
	die "--rewrite runs nothing: not with --shard or --merge"
OUT=$(realpath -m "${1:-$IRQSTORM_TOP/results/reproduce}")

cd "$IRQSTORM_TOP"
FIG=$DOCS/figures
# The cases: every "case" line of scripts/results-tables, in its order.
mapfile -t CASES < <(awk -F'\t' '$1 == "case" { print $2 }' scripts/results-tables)
[ "${#CASES[@]}" -gt 0 ] || die "scripts/results-tables names no case"

if [ -z "$IRQSTORM" ]; then
	"$IRQSTORM_TOP/scripts/build.sh" build
	IRQSTORM=build/rig/irqstorm
fi
[ -x "$IRQSTORM" ] || die "$IRQSTORM is not an executable"
mkdir -p "$OUT" "$FIG"

REFUSALS=" shared-line "	# the cases whose table shows a refusal

profiles() {	# the profiles of a scenario file, comma-separated, in file order
	sed -n 's/^\[profile\.\(.*\)\]$/\1/p' "scenarios/$1.ini" | paste -sd, -
}

cells() {	# CASE JQ-FILTER: "  cell: ended: reason" of this run's cells it selects
	jq -r ".cells[] | select(.status != \"other shard\") | select($2) |
		\"  \\(.dir): \\(.ended): \\(.reason // .status)\"" "$OUT/$1/matrix.json"
}

# run_case CASE: every profile of it (or this shard's, or the shards
# merged), each cell an outcome its table shows.
run_case() {
	local c=$1 rc=0 bad d shards=()
	if [ -n "$REWRITE" ]; then
		[ -f "$OUT/$c/matrix.json" ] || die "--rewrite: $OUT/$c has no runs; run reproduce.sh in full first"
		return
	fi
	# From nothing: a matrix resumes finished cells, which may come from
	# another build; every number here must come from this one.
	rm -rf "${OUT:?}/$c"
	if [ ${#MERGE[@]} -gt 0 ]; then
		for d in "${MERGE[@]}"; do shards+=("$d/$c"); done
		"$IRQSTORM" merge "$OUT/$c" "${shards[@]}" >"$OUT/$c.log" 2>&1 || rc=$?
	else
		"$IRQSTORM" matrix "scenarios/$c.ini" --vary "run.profile=$(profiles "$c")" \
			${SHARD:+--shard "$SHARD"} --out "$OUT/$c" --jobs "$(nproc)" \
			>"$OUT/$c.log" 2>&1 || rc=$?
	fi
	[ -f "$OUT/$c/matrix.json" ] ||
		die "matrix of $c wrote nothing (exit status $rc); see $OUT/$c.log"
	case $rc in
	0 | 2 | 3) ;;	# every cell an outcome
	4) die "case $c: tool failures, not results (see $OUT/$c.log):"$'\n'"$(cells "$c" '.outcome | not')" ;;
	*) die "case $c: irqstorm matrix failed with exit status $rc (see $OUT/$c.log):"$'\n'"$(cells "$c" '.outcome | not')" ;;
	esac
	bad=$(cells "$c" '.ended == "refused"')
	[ -z "$bad" ] || [[ $REFUSALS == *" $c "* ]] ||
		die "case $c: refused, which its table cannot show (see $OUT/$c.log):"$'\n'"$bad"
}

for c in "${CASES[@]}"; do
	log "case $c: $(profiles "$c")${SHARD:+, shard $SHARD}"
	run_case "$c"
done

# ---- Linux 6.1 against 6.12 --------------------------------------------------
# ide-pio's profiles on the dyn kernel again, on Debian's linux-source-6.1
# ([kernel] source = debian-6.1), as the case ide-pio-6.1 of OUT.
dyn_profiles() {	# CASE: its profiles that boot the dyn kernel of the default source, comma-separated
	awk '/^\[profile\./ { p = substr($0, 10, length($0) - 10); n++; name[n] = p }
		/^kernel\.flavour = dyn$/ { dyn[p] = 1 }
		/^kernel\.source = / { other[p] = 1 }
		END { for (i = 1; i <= n; i++) if (dyn[name[i]] && !other[name[i]]) print name[i] }' \
		"scenarios/$1.ini" | paste -sd, -
}
# run_case_as CASE AS PROFILES [--set KEY=VALUE]...: CASE's PROFILES
# (comma-separated) again with the overrides, as the case AS of OUT.
run_case_as() {
	local c=$1 as=$2 pr=$3 rc=0 d shards=()
	shift 3
	if [ -n "$REWRITE" ]; then
		[ -f "$OUT/$as/matrix.json" ] || die "--rewrite: $OUT/$as has no runs; run reproduce.sh in full first"
		return
	fi
	rm -rf "${OUT:?}/$as"
	if [ ${#MERGE[@]} -gt 0 ]; then
		for d in "${MERGE[@]}"; do shards+=("$d/$as"); done
		"$IRQSTORM" merge "$OUT/$as" "${shards[@]}" >"$OUT/$as.log" 2>&1 || rc=$?
	else
		"$IRQSTORM" matrix "scenarios/$c.ini" --vary "run.profile=$pr" "$@" \
			${SHARD:+--shard "$SHARD"} --out "$OUT/$as" --jobs "$(nproc)" \
			>"$OUT/$as.log" 2>&1 || rc=$?
	fi
	case $rc in
	0 | 2 | 3) ;;
	*) die "case $as: irqstorm matrix/merge failed with exit status $rc (see $OUT/$as.log)" ;;
	esac
}
log "case ide-pio on linux-source-6.1: $(dyn_profiles ide-pio)${SHARD:+, shard $SHARD}"
run_case_as ide-pio ide-pio-6.1 "$(dyn_profiles ide-pio)" --set kernel.source=debian-6.1

# ---- Linux 7.3 against 6.12 --------------------------------------------------
# The cases where 7.3 changed what they are about, on Debian's
# linux-source-7.3: priority (the secondary thread's FIFO 49),
# irqd-vs-threads (the series as ported) and bh-lock, whose PREEMPT_RT lock
# 7.3 makes a choice, off by default: bh-lock-7.3 without it, bh-lock-7.3-lock
# with it ([kernel] bh_lock = on).
K73_CASES="priority irqd-vs-threads bh-lock"
for c in $K73_CASES; do
	log "case $c on linux-source-7.3: $(profiles "$c")${SHARD:+, shard $SHARD}"
	run_case_as "$c" "$c-7.3" "$(profiles "$c")" --set kernel.source=debian-7.3
done
log "case bh-lock on linux-source-7.3 with its BH lock: $(profiles bh-lock)${SHARD:+, shard $SHARD}"
run_case_as bh-lock bh-lock-7.3-lock "$(profiles bh-lock)" --set kernel.source=debian-7.3 \
	--set kernel.bh_lock=on

# ---- on two CPUs -------------------------------------------------------------
# Three cases again on two vCPUs, exact under icount in windows of virtual
# time ([machine] quantum_ns, its default), as CASE-2cpu: what one CPU
# cannot separate, on two. Each interrupt is set to the CPU the guest's
# vector allocator gives it (CPU 1; irqd-vs-threads' channel 1, CPU 0): x86
# carries out a move when the interrupt next fires, so a moved one's first
# event would still land on the old CPU. The tables say where every event
# ran.
SMP2=(--set machine.cpus=2)
IDE_2CPU=hardirq-none,forced-full,threaded-voluntary,threaded-rt
log "case i8042-spin on two CPUs: $(profiles i8042-spin)${SHARD:+, shard $SHARD}"
run_case_as i8042-spin i8042-spin-2cpu "$(profiles i8042-spin)" "${SMP2[@]}" \
	--set guest.irq_cpu=1 --set guest.section_cpu=0
log "case ide-pio on two CPUs: $IDE_2CPU${SHARD:+, shard $SHARD}"
run_case_as ide-pio ide-pio-2cpu "$IDE_2CPU" "${SMP2[@]}" --set guest.irq_cpu=1 \
	--set guest.probe_cpu=0
log "case irqd-vs-threads on two CPUs: $(profiles irqd-vs-threads)${SHARD:+, shard $SHARD}"
run_case_as irqd-vs-threads irqd-vs-threads-2cpu "$(profiles irqd-vs-threads)" "${SMP2[@]}" \
	--set channel0.irq_cpu=1 --set channel1.irq_cpu=0

# ---- worst case by construction: triggered sweeps ----------------------------
# Each kind of section on rt and on dyn booted with preempt=full, under a
# hard-interrupt handler and a threaded one: `irqstorm sweep` of
# scenarios/sweep-irqs-off.ini (an interrupt at every instruction of a
# 50 us section) with the kind and the handler set, and its random twin.
# And scenarios/sweep-pio.ini: the section another channel's PIO handler,
# hard-interrupt or threaded. A --shard run leaves them to shard 1;
# --merge takes them from it.
SWEEP_KINDS="irqs_off preempt_off bh_off spinlock raw_spinlock user"
SWEEP_KERNELS="rt dyn"
sweep_dir() { echo "$OUT/sweep/$1-$2-$3"; }	# KERNEL HANDLER KIND

# And the bh_off sections on 7.3's rt, without its BH lock and with it.
SWEEP_73_KERNELS="rt-7.3 rt-7.3-bh-lock"
kernel_args() {	# KERNEL: the overrides that boot it
	case $1 in
	rt) ;;
	dyn) echo "--set kernel.flavour=dyn --set kernel.cmdline=preempt=full" ;;
	rt-7.3) echo "--set kernel.source=debian-7.3" ;;
	rt-7.3-bh-lock) echo "--set kernel.source=debian-7.3 --set kernel.bh_lock=on" ;;
	*) die "no sweep kernel $1" ;;
	esac
}

sweep_one() {	# KERNEL HANDLER KIND: HANDLER of the swept channel, or for pio of the PIO one
	local d rc=0 args=() sc=sweep-irqs-off
	d=$(sweep_dir "$1" "$2" "$3")
	read -r -a args <<<"$(kernel_args "$1")"
	if [ "$3" = pio ]; then
		sc=sweep-pio
		args+=(--set "channel1.threading=$2")
	else
		args+=(--set "guest.section=$3" --set "channel0.threading=$2")
	fi
	"$IRQSTORM" sweep "scenarios/$sc.ini" --out "$d" --quiet "${args[@]}" \
		>"$d.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || die "sweep $1 $2 $3: exit status $rc, not a result (see $d.log)"
}

# And on two CPUs: the irqs_off section on CPU S, the interrupt (a hard one)
# on CPU 1, an offset every quantum (a timer armed inside a window fires at
# its end: closer offsets are not distinct).
SMP_SWEEP_OFFSETS=0:50000:10000
sweep_smp_dir() { echo "$OUT/sweep/2cpu-section$1"; }	# S
sweep_smp() {	# S
	local d rc=0
	d=$(sweep_smp_dir "$1")
	"$IRQSTORM" sweep scenarios/sweep-irqs-off.ini --out "$d" --quiet "${SMP2[@]}" \
		--set guest.irq_cpu=1 --set guest.section_cpu="$1" --offset "$SMP_SWEEP_OFFSETS" --no-random --no-interference \
		>"$d.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || die "sweep on two CPUs, section on CPU $1: exit status $rc, not a result (see $d.log)"
}

run_sweeps() {
	local k th kind pids=() d have=()
	if [ -n "$REWRITE" ]; then
		[ -d "$OUT/sweep" ] || die "--rewrite: $OUT has no sweeps; run reproduce.sh in full first"
		return
	fi
	rm -rf "${OUT:?}/sweep"
	if [ ${#MERGE[@]} -gt 0 ]; then
		for d in "${MERGE[@]}"; do [ -d "$d/sweep" ] && have+=("$d/sweep"); done
		[ ${#have[@]} -eq 1 ] || die "--merge: ${#have[@]} shards have the sweeps; shard 1 alone runs them"
		cp -a "${have[0]}" "$OUT/sweep"
		return
	fi
	[ -z "$SHARD" ] || [ "${SHARD%%/*}" = 1 ] || return 0
	mkdir -p "$OUT/sweep"
	for k in $SWEEP_KERNELS $SWEEP_73_KERNELS; do
		for th in hardirq threaded; do
			kinds="$SWEEP_KINDS pio"
			[[ " $SWEEP_KERNELS " == *" $k "* ]] || kinds=bh_off
			for kind in $kinds; do
				sweep_one "$k" "$th" "$kind" &
				pids+=($!)
				if [ ${#pids[@]} -ge "$(nproc)" ]; then
					wait "${pids[0]}" || die "a sweep failed (above)"
					pids=("${pids[@]:1}")
				fi
			done
		done
	done
	sweep_smp 0 &
	pids+=($!)
	sweep_smp 1 &
	pids+=($!)
	for d in "${pids[@]}"; do wait "$d" || die "a sweep failed (above)"; done
}
log "sweeps: $SWEEP_KINDS on $SWEEP_KERNELS, bh_off on $SWEEP_73_KERNELS, irqs_off on two CPUs${SHARD:+, shard $SHARD}"
run_sweeps
if [ -n "$SHARD" ]; then
	log "shard $SHARD of every case is in $OUT; results.md needs every shard:" \
		"reproduce.sh --merge SHARD-OUTDIR (once per shard) [OUTDIR]"
	exit 0
fi

# ---- figures ---------------------------------------------------------------
# Each figure FIG/NAME.png has beside it FIG/NAME.dat, the data it is drawn
# from as text, so that e2e-results can check what a figure shows, not only
# that it exists.

cell() { echo "$OUT/$1/profile=$2"; }

# hist_data HISTFILE STAGE LABEL: what compare.gp draws of one run: the
# stage's footers (its legend; the exact max where the file has one) and
# its bins with samples (its curve)
hist_data() {
	awk -v stage="$2" -v label="$3" '
		/^# Time unit is / { unit = $5 }
		/^# Stages:/ { for (i = 3; i <= NF; i++) if ($i == stage) k = i - 2 }
		/^# Total:/ { total = $(2 + k) + 0 }
		/^# Max Latencies:/ { max = sprintf("%d", $(3 + k)) }
		/^# Exact max \(us\):/ { exact = sprintf("%.3f", $(4 + k)) }
		/^# Histogram Overflows:/ { over = $(3 + k) + 0 }
		/^[0-9]/ && k && $(k + 1) > 0 { bins = bins ($1 + 0) " " ($(k + 1) + 0) "\n" }
		END {
			if (!k) { print "no stage " stage " in " FILENAME > "/dev/stderr"; exit 1 }
			printf "# run %s: %s, %d samples, max %s, %d overflows (%s)\n%s", \
				label, stage, total, exact != "" ? exact : max, over, unit, bins
		}' "$1"
}

# compare FIGURE STAGE CHANNEL CASE PROFILE...: one stage of several runs,
# of one channel (CHANNEL its number, "-": a case of one channel), drawn by
# `irqstorm plot` as a user gets it (its compare-STAGE[-chN] figure)
compare() {
	local out=$1 stage=$2 ch=$3 case=$4 hist=histogram.txt fig tmp
	local dirs=() labels=() sel=()
	shift 4
	[ "$ch" = - ] || { hist=histogram-ch$ch.txt sel=(--channel "$ch"); }
	echo "# $out.png: $case, the $stage column of $hist of each run (bin, count)" >"$FIG/$out.dat.tmp"
	for p in "$@"; do
		dirs+=("$(cell "$case" "$p")")
		labels+=(--label "$p")
		hist_data "$(cell "$case" "$p")/$hist" "$stage" "$p" >>"$FIG/$out.dat.tmp"
	done
	mv "$FIG/$out.dat.tmp" "$FIG/$out.dat"
	tmp=$(mktemp -d)
	"$IRQSTORM" plot "${dirs[@]}" "${labels[@]}" --stage "$stage" "${sel[@]}" --out "$tmp" >/dev/null
	fig=compare-$stage
	[ "$ch" = - ] || fig=$fig-ch$ch
	mv "$tmp/$fig.png" "$FIG/$out.png"
	rm -rf "$tmp"
}

# breakdown_data CASE PROFILE...: what the breakdown draws of each run, from
# its summary.json: avg (rounded), p99 and max in ns of the stages from the
# raise, "-" for a stage the run does not have
breakdown_data() {
	local case=$1
	shift
	echo "# ide-pio-breakdown.png: $case, per run and stage: avg p99 max (ns)"
	for p in "$@"; do
		jq -r --arg run "$p" '.stages | ["hardirq", "thread", "done"][] as $st |
			[$run, $st, (.[$st] | .avg, .p99, .max | if . == null then "-" else round end)] |
			join(" ")' "$(cell "$case" "$p")/summary.json"
	done
}

compare ide-pio-probe probe - ide-pio hardirq-voluntary forced-full \
	threaded-voluntary resched-voluntary threaded-rt
compare ide-pio-done done - ide-pio hardirq-voluntary threaded-full threaded-rt \
	resched-voluntary
compare priority-critical thread 0 priority critical-high critical-low
compare msi-vs-intx-done done - msi-vs-intx intx msi intx-light msi-light
compare irqd-vs-threads-critical done 0 irqd-vs-threads per-irq-threads equal-threads \
	single-irqd
compare softirq-exit-probe probe - softirq-exit none full rt
compare bh-lock-critical done 0 bh-lock tasklets bh-off threads
compare workqueue-probe probe - workqueue tasklet-full bh-full kworker-full \
	tasklet-rt kworker-rt
# The stage breakdown of three ways to run the same IDE handler.
tmp=$(mktemp -d)
"$IRQSTORM" plot "$(cell ide-pio hardirq-voluntary)" "$(cell ide-pio threaded-rt)" \
	"$(cell ide-pio resched-voluntary)" --label hardirq-voluntary --label threaded-rt \
	--label resched-voluntary --out "$tmp" >/dev/null
mv "$tmp/compare-breakdown.png" "$FIG/ide-pio-breakdown.png"
rm -rf "$tmp"
breakdown_data ide-pio hardirq-voluntary threaded-rt resched-voluntary >"$FIG/ide-pio-breakdown.dat"

# sweep_stats CSV STAGE: "min median max worst-offset" of a sweep.csv column, ns
sweep_stats() {
	awk -F, -v col="$2_ns" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) k = i; next }
		k && $k != "" { print $k, $1 }' "$1" | sort -n -k1,1 -k2,2 | awk '
		{ v[NR] = $1; o[NR] = $2 }
		END {
			if (!NR) { print "- - - -"; exit }
			w = NR; while (w > 1 && v[w - 1] == v[NR]) w--
			print v[1], v[int((NR + 1) / 2)], v[NR], o[w]
		}'
}

# sweeps_figure KERNEL HANDLER STAGE: the section kinds' curves of one stage
sweeps_figure() {
	local out=sweep-$1-$2 i=0 params="" kind csv
	echo "# $out.png: $1, $2 handler, $3 latency against offset: kind min median max worst-offset (ns)" \
		>"$FIG/$out.dat.tmp"
	for kind in $SWEEP_KINDS; do
		i=$((i + 1))
		csv=$(sweep_dir "$1" "$2" "$kind")/sweep.csv
		params+="input$i=\"$csv\"; label$i=\"$kind\"; "
		echo "$kind $(sweep_stats "$csv" "$3")" >>"$FIG/$out.dat.tmp"
	done
	mv "$FIG/$out.dat.tmp" "$FIG/$out.dat"
	gnuplot -e "n=$i; $params stage=\"$3\"; output=\"$FIG/$out.png\"; title=\"$1: a $2 handler's $3 latency, an interrupt at every instruction of a 50 us section\"" \
		plots/sweeps.gp
}
sweeps_figure rt threaded thread
sweeps_figure dyn threaded thread

# ---- why: worst events explained ---------------------------------------------
# Each case's worst event replayed by `irqstorm explain`, which fails unless
# the replay equals the run: the stage the case is about (the probe's where
# its cells have one, else done), in its profile with that stage's largest
# maximum. And two of the sweeps' events (rt, threaded, the interrupt aimed
# 40 us into the section): bh_off against preempt_off.
EXPLAINED=()	# "CASE PROFILE STAGE" of each case explained

explain_case() {	# CASE
	local c=$1 p s stage=done best='' max=-1 v
	for p in $(profiles "$c" | tr , ' '); do
		s=$(cell "$c" "$p")/summary.json
		[ -f "$s" ] && jq -e '.stages.probe.cycles > 0' "$s" >/dev/null && stage=probe
	done
	for p in $(profiles "$c" | tr , ' '); do
		s=$(cell "$c" "$p")/summary.json
		[ -f "$s" ] && jq -e '.complete' "$s" >/dev/null || continue
		v=$(jq -r --arg st "$stage" '.stages[$st].max // -1' "$s")
		if awk -v a="$v" -v b="$max" 'BEGIN { exit !(a > b) }'; then best=$p max=$v; fi
	done
	if awk -v m="$max" 'BEGIN { exit !(m < 0) }'; then
		EXPLAINED+=("$c - $stage")	# no cell has an event with the stage
		return
	fi
	explain "$(cell "$c" "$best")" "$c-$best" --stage "$stage" --top 1
	EXPLAINED+=("$c $best $stage")
}

explain() {	# DIR NAME [explain options]: its output in OUT/explain/NAME.log
	local d=$1 log=$OUT/explain/$2.log
	shift 2
	if [ -n "$REWRITE" ]; then
		[ -f "$d/explain/explain.json" ] || die "--rewrite: $d was not explained; run reproduce.sh in full first"
		return
	fi
	mkdir -p "$OUT/explain"
	"$IRQSTORM" explain "$d" "$@" >"$log" 2>&1 ||
		die "$2: irqstorm explain failed (see $log): $(tail -n 1 "$log")"
}

EXPLAIN_OFFSET=40000
explain_sweep() {	# KIND [KERNEL]: KERNEL (rt), threaded, the event aimed at EXPLAIN_OFFSET
	local d seq k=${2:-rt}
	d=$(sweep_dir "$k" threaded "$1")
	seq=$(awk -F, -v o=$EXPLAIN_OFFSET 'NR > 1 && $1 == o { print $2; exit }' "$d/sweep.csv")
	[ -n "$seq" ] || die "sweep $k threaded $1: no event at offset $EXPLAIN_OFFSET"
	explain "$d" "sweep-$k-threaded-$1" --stage thread --event "$seq"
}

log "explain: each case's worst event; the bh_off and preempt_off sweeps at $EXPLAIN_OFFSET ns"
for c in "${CASES[@]}"; do explain_case "$c"; done
explain_sweep bh_off
explain_sweep preempt_off
for k in $SWEEP_73_KERNELS; do explain_sweep bh_off "$k"; done
# irqd-vs-threads: what channel 0's latency with its thread above
# channel 1's is made of, its own worst event.
explain "$(cell irqd-vs-threads per-irq-threads)" irqd-vs-threads-per-irq-threads \
	--stage done --top 1 --channel 0
# 6.1 against 6.12: the profile whose probe maximum moved the most, its
# worst probe wake-up on each kernel.
K61_PROFILE=$(for p in $(dyn_profiles ide-pio | tr , ' '); do
	a=$(jq '.stages.probe.max' "$(cell ide-pio "$p")/summary.json")
	b=$(jq '.stages.probe.max' "$OUT/ide-pio-6.1/profile=$p/summary.json")
	awk -v p="$p" -v a="$a" -v b="$b" 'BEGIN { d = a - b; print (d < 0 ? -d : d), p }'
done | sort -k1,1gr -k2 | head -n 1 | cut -d' ' -f2)
explain "$(cell ide-pio "$K61_PROFILE")" "ide-pio-6.12-$K61_PROFILE" --stage probe --top 1
explain "$OUT/ide-pio-6.1/profile=$K61_PROFILE" "ide-pio-6.1-$K61_PROFILE" --stage probe --top 1

# ---- tables ----------------------------------------------------------------
#
# The tables are data, scripts/results-tables: render_table draws one.
# Below, the helpers its cells call, then the two tables that are
# functions (table_NAME).

TABLES=$IRQSTORM_TOP/scripts/results-tables

us() { jq -r "$1 // empty | . / 1000 | . * 10 | round / 10" "$2"; }

# p99_max STAGE S: "p99 / max" in us of STAGE (a jq path to its statistics)
p99_max() { echo "$(us "$1.p99" "$2") / $(us "$1.max" "$2")"; }

# kernel_of S: the run's kernel flavour (with the source when it is not
# linux-source-6.12: dyn-6.1, dyn-7.3) and the boot options its profile gave
kernel_of() {
	local src
	src=$(jq -r '.kernel["kernel-debian-source"] // ""' "$1" | sed -n 's/^linux-source-\([0-9.]*\) .*/\1/p')
	[ "$src" != 6.12 ] || src=
	echo "$(jq -r '.kernel["kernel-flavour"]' "$1")${src:+-$src} $(jq -r '.scenario' "$1" | sed -n 's/^cmdline = //p')"
}

# softirqs S NAME: the softirq NAME raised during the storm (CPU 0), and
# ksoftirqd's context switches there
softirqs() {
	jq -r --arg n "$2" '.counts.guest | "\(.softirqs[$n][0] // 0) | \(.ksoftirqd[0])"' "$1"
}

# sweep_rows KERNELS KINDS: "KERNEL:HANDLER:KIND" of each sweep, in order
sweep_rows() {
	local k th kind
	for k in $1; do
		for th in hardirq threaded; do
			for kind in $2; do echo "$k:$th:$kind"; done
		done
	done
}

# sweep_cells DIR STAGE: a sweep's cells of a table row: its stage aimed at
# offset 0, the median, the worst and where, the other interrupt that ran
# in it, the worst alone (no other interrupt) and where, how many offsets
# had another interrupt, and what the random twin saw
sweep_cells() {
	local med
	read -r _ med _ _ < <(sweep_stats "$1/sweep.csv" "$2")
	echo "$(awk -F, -v c="$2_ns" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i }
			NR == 2 { printf "%.1f", $k / 1000 }' "$1/sweep.csv") |" \
		"$(awk -v v="$med" 'BEGIN { printf "%.1f", v / 1000 }') |" \
		"$(jq -r --arg s "$2" '.worst[$s] | "\(.latency_ns / 100 | round / 10), at \(.offset_ns / 1000)"' "$1/sweep.json") |" \
		"$(jq -r --arg s "$2" '.worst[$s] | "\(.other // "none") | \(.alone // null |
			if . then "\(.latency_ns / 100 | round / 10), at \(.offset_ns / 1000)"
			else "none alone" end) | \(.interfered_offsets)"' "$1/sweep.json") |" \
		"$(jq -r --arg s "$2" '.random | "\(.max_ns[$s] / 100 | round / 10), \(.interrupts)"' "$1/sweep.json")"
}

kernel_label() { echo "$1$([ "$1" = rt ] || echo " preempt=full")"; }

k73_label() {	# KERNEL: as the 7.3 tables name it
	case $1 in
	rt) echo "rt 6.12 (BH lock)" ;;
	rt-7.3) echo "rt 7.3 without the BH lock" ;;
	rt-7.3-bh-lock) echo "rt 7.3 with the BH lock" ;;
	esac
}

# explained DIR: the worst event of DIR/explain/explain.json (explain
# --top 1 explains each channel's worst: the run's is the longest of
# them, its channel named where there are several), as the table's
# cells: stage, event, latency (us), context switches, hard-interrupt
# entries, what the time went to (its line: causes, then functions).
explained() {
	jq -r '(.events | map(.channel) | unique | length) as $n | .events | max_by(.latency_ns) |
		"\(.stage)\(if $n > 1 then " (channel \(.channel))" else "" end) | #\(.seq) |" +
		" \(.latency_ns / 100 | round / 10) |" +
		" \([.windows[].context_switches] | add) | \([.windows[].interrupts] | add) |" +
		" `\(.summary | sub("^[^:]*: "; ""))`"' \
		"$1/explain/explain.json"
}

# ran_on CELL CH: the CPUs channel CH's events were handled on (their hard
# interrupt's, else their thread's, from records.csv): "1", or with two,
# "0 (12), 1 (3988)"
ran_on() {
	awk -F, -v ch="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["channel"] == ch { c = $col["cpu_hardirq"]; if (c == "") c = $col["cpu_thread"]
			if (c != "") n[c]++ }
		END { for (c = 0; c < 64; c++) if (c in n) k++
			for (c = 0; c < 64; c++) if (c in n) printf "%s%s", (s++ ? ", " : ""), (k > 1 ? c " (" n[c] ")" : c) }' \
		"$1/records.csv"
}

# render_table NAME: the table [NAME] of $TABLES, its header, alignment and
# rows (the file says how a block reads). A cell "@" is spanned by the one
# before it, whose helper gives several cells ("a | b").
render_table() {
	# Its locals start with _: the cells' own variables are the file's.
	local _spec _kind _a _b _c _line _head="|" _align="|" _rows='' r cell
	local -a _lets=() _cols=() _skips=()
	_spec=$(awk -v t="[$1]" '$0 == t { on = 1; next } /^\[/ { on = 0 }
		on && NF && !/^#/' "$TABLES")
	[ -n "$_spec" ] || return 1
	while IFS=$'\t' read -r _kind _a _b _c; do
		case $_kind in
		case) ;;	# for the runs, above
		rows) _rows=$_a ;;
		let) _lets+=("$_a"$'\t'"$_b") ;;
		skip) _skips+=("$_a"$'\t'"$_b") ;;
		col) _head+=" $_a |"; _align+="$_b|"; _cols+=("$_c") ;;
		*) die "$TABLES [$1]: no such line: $_kind" ;;
		esac
	done <<<"$_spec"
	echo "$_head"
	echo "$_align"
	# shellcheck disable=SC2034 # r: read by the cells, in eval
	for r in $(eval "echo $_rows"); do
		for _a in "${_lets[@]}"; do
			eval "${_a%%$'\t'*}=\"${_a#*$'\t'}\""
		done
		_line=
		for _a in "${_skips[@]}"; do
			! eval "${_a%%$'\t'*}" || { eval "_line=\"| ${_a#*$'\t'}\""; break; }
		done
		if [ -z "$_line" ]; then
			_line="|"
			for _c in "${_cols[@]}"; do
				[ "$_c" != @ ] || continue
				eval "cell=\"$_c\""
				_line+=" $cell |"
			done
		fi
		echo "$_line"
	done
}

# The Debian inputs of every run (their build identities, as summary.json
# holds them), with how scripts/debian-pins takes each.
table_inputs() {
	local inputs pkg ver how
	inputs=$(find "$OUT" -name summary.json -exec jq -r \
		'.qemu, .kernel, .initramfs | .["debian-inputs"] // "none" | split(", ")[]' {} + |
		LC_ALL=C sort -u)
	! grep -qx none <<<"$inputs" ||
		die "a run's build names no Debian inputs (built before scripts/debian-pins): rebuild"
	echo "| Debian package | version | how |"
	echo "|---|---|---|"
	while read -r pkg ver; do
		how=$(awk -v p="$pkg" '!/^#/ && $2 == p { print $1 }' scripts/debian-pins)
		echo "| $pkg | $ver | ${how:-not pinned} |"
	done <<<"$inputs"
}

# The section sweep on two CPUs: a column per offset swept.
table_sweep_2cpu() {
	local s offs
	offs=$(awk -F, 'NR > 1 { printf " %g |", $1 / 1000 }' "$(sweep_smp_dir 0)/sweep.csv")
	echo "| section on CPU | interrupt handled on CPU | hardirq latency (us) at offset (us):$offs"
	echo "|---:|---:|$(awk -F, 'NR > 1 { printf "---:|" }' "$(sweep_smp_dir 0)/sweep.csv")"
	for s in 0 1; do
		echo "| $s | $(ran_on "$(sweep_smp_dir "$s")" 0) |" \
			"$(awk -F, 'NR > 1 { printf "%s%.1f |", (NR > 2 ? " " : ""), $3 / 1000 }' "$(sweep_smp_dir "$s")/sweep.csv")"
	done
}

out=$DOCS/results.md
{
	while IFS= read -r line; do
		case "$line" in
		@TABLE\ *@)
			name=${line#@TABLE }
			name=${name%@}
			render_table "$name" || "table_$name" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <docs/results.md.in
} >"$out.tmp"
# Last guard: a value no run gave (jq's null) is never a number of the page.
! grep -nw null "$out.tmp" >&2 || die "$out.tmp: null above, from a run the tables cannot read"
mv "$out.tmp" "$out"
log "wrote $out and $FIG/*.png from $OUT"
