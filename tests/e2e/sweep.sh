#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm sweep: one interrupt aimed at every instruction of a section.
#   - an irqs_off section of L us with a hard-interrupt handler, every one
#     of its 2,501 offsets (8 ns apart) in one boot: no interrupt aimed at
#     offset o is handled before the section ends (latency >= L - o, the
#     aim exact); aimed at the start, the latency is in [L, L + 20 us];
#     the worst is at least L; at least 90% of offsets are alone, no
#     other interrupt in the window (the others found another interrupt
#     held back by the same section, handled first), and the worst of
#     those is within the section's first microsecond;
#   - interference: the plugin saw the interrupts taken; at every offset
#     where no other interrupt ran in the window, the latency is exactly
#     what the section leaves (L - o plus one constant, to 16 ns), and
#     every offset above that by more than 1 us had another interrupt in
#     its window; sweep.json's worst alone is the section's own;
#   - its random twin (the same sections untriggered under a Poisson
#     storm) ran, and sweep.json says what it saw;
#   - a short sweep (126 offsets, 40 ns apart, of the shipped 50 us
#     section): its twin runs for long enough to complete, and the sweep
#     writes sweep.csv, sweep.json and sweep.png;
#   - the same sweep again without the plugin (--no-interference) gives
#     the same records.csv, byte for byte (zero perturbation), and the
#     same latencies in sweep.csv, with its <stage>_others empty;
#   - --jobs 2: every offset exactly once; each part is a sweep of its
#     own offsets, the same as one boot of just those gives, and the
#     merged sweep.csv has its rows;
#   - a --jobs sweep stopped with SIGTERM leaves no QEMU behind and its
#     directory marked INCOMPLETE;
#   - a user-space section delays no hard-interrupt handler; a section
#     that is another handler's PIO loop (sweep-pio.ini, both threaded at
#     one priority) delays the thread until the loop ends: the latency
#     falls as the offset grows, and every offset was triggered;
#   - two vCPUs (exact: the default quantum), the section on CPU 1, offsets
#     a quantum apart: an interrupt routed to CPU 0 is not delayed by it,
#     one routed to CPU 1 is;
#   - bad input (step 0, stop before start, offsets beyond the section,
#     icount off, a step below the quantum on two vCPUs) is refused with a message naming the problem, before
#     anything boots or is written.
#
#   sweep.sh IRQSTORM SCENARIO
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

L=20
"$irqstorm" sweep "$scenario" --out "$out/a" --quiet --set "guest.section_us=$L" \
	--offset "0:$((L * 1000)):8" || fail "the sweep failed: $(cat "$out/a/INCOMPLETE" 2>/dev/null)"
j=$out/a/sweep.json
jq -e '.offsets == 2501' "$j" >/dev/null || fail "offsets: $(jq -c . "$j")"
[ "$(($(wc -l <"$out/a/sweep.csv") - 1))" -eq 2501 ] || fail "sweep.csv has not 2501 rows"
jq -e --argjson l "$L" '.worst.hardirq.latency_ns >= $l * 1000' "$j" >/dev/null ||
	fail "worst hardirq not at least $L us: $(jq -c .worst "$j")"
# offset_ns,seq,hardirq_ns,thread_ns,bh_ns,done_ns,handler_ns,hardirq_others,...:
# the excess of each over L - offset; alone, no other interrupt in the window.
awk -F, -v l=$((L * 1000)) 'NR > 1 {
	ex = $3 - (l - $1)
	if (ex < 0) { print "offset " $1 " handled inside the section: " $3 " ns"; bad = 1 }
	if ($1 == 0 && (ex < 0 || ex > 20000)) { print "offset 0: " $3 " ns"; bad = 1 }
	n++
	if ($8 == 0) { alone++; if ($3 > own) { own = $3; at = $1 } }
} END {
	if (alone < 0.9 * n) { print alone " of " n " offsets alone"; bad = 1 }
	if (at >= 1000) { print "the section'"'"'s own worst, " own " ns, at offset " at; bad = 1 }
	exit bad
}' "$out/a/sweep.csv" || fail "the sweep's curve (above)"
[ -s "$out/a/sweep.png" ] || fail "no sweep.png"
jq -e '.random.interrupts > 1000 and .random.max_ns.hardirq > 0' "$j" >/dev/null ||
	fail "no random twin in sweep.json: $(jq -c .random "$j")"
[ -f "$out/a/random/summary.json" ] || fail "no random/summary.json"
echo "irqs_off $L us: $(jq -c '{worst: .worst.hardirq, random}' "$j")"

# Interference (hardirq_others, column 8): alone, latency + offset is one
# constant; every spike had another interrupt in it.
[ "$(head -1 "$out/a/sweep.csv" | cut -d, -f8)" = hardirq_others ] ||
	fail "sweep.csv has no hardirq_others: $(head -1 "$out/a/sweep.csv")"
awk -F, 'NR > 1 {
	if ($8 == "") { print "offset " $1 ": no hardirq_others"; bad = 1; next }
	v = $3 + $1
	if ($8 == 0) { if (!n0++ || v < lo) lo = v; if (v > hi) hi = v }
	else { n1++ }
	all[NR] = v; oth[NR] = $8; off[NR] = $1
} END {
	if (!n0 || !n1) { print n0 + 0 " offsets alone, " n1 + 0 " with another interrupt"; bad = 1 }
	if (hi - lo > 16) { print "alone, latency + offset spans " lo " to " hi " ns"; bad = 1 }
	for (i in all) if (all[i] > hi + 1000 && oth[i] == 0) {
		print "offset " off[i] ": a spike with no other interrupt"; bad = 1
	}
	exit bad
}' "$out/a/sweep.csv" || fail "interference does not explain the spikes (above)"
jq -e '.worst.hardirq.alone.offset_ns == 0 and .worst.hardirq.interfered_offsets > 0' "$j" \
	>/dev/null || fail "sweep.json's worst alone: $(jq -c .worst.hardirq "$j")"
[ -s "$out/a/irq-trace.txt" ] || fail "no irq-trace.txt"

"$irqstorm" sweep "$scenario" --out "$out/b" --quiet --no-random --no-interference \
	--set "guest.section_us=$L" --offset "0:$((L * 1000)):8" || fail "the second sweep failed"
cmp "$out/a/records.csv" "$out/b/records.csv" ||
	fail "recording the interrupts changed the run: records.csv differs from --no-interference's"
cmp <(cut -d, -f1-7 "$out/a/sweep.csv") <(cut -d, -f1-7 "$out/b/sweep.csv") ||
	fail "a rerun gave another sweep.csv"
! cut -d, -f8- "$out/b/sweep.csv" | tail -n +2 | grep -q '[0-9]' ||
	fail "--no-interference: sweep.csv has <stage>_others"
[ ! -e "$out/b/random" ] || fail "--no-random ran the random twin"
[ ! -e "$out/b/irq-trace.txt" ] || fail "--no-interference recorded the interrupts"

"$irqstorm" sweep "$scenario" --out "$out/j" --quiet --no-random --jobs 2 \
	--set "guest.section_us=$L" --offset "0:$((L * 1000)):8" >/dev/null ||
	fail "the sweep in 2 parts failed: $(cat "$out/j/INCOMPLETE" 2>/dev/null)"
[ "$(tail -n +2 "$out/j/sweep.csv" | cut -d, -f1 | sort -n | uniq | wc -l)" -eq 2501 ] &&
	[ "$(($(wc -l <"$out/j/sweep.csv") - 1))" -eq 2501 ] || fail "--jobs 2: not every offset once"
# Part 1 has offsets 0 .. 9992 ns: the same sweep as one boot of them.
"$irqstorm" sweep "$scenario" --out "$out/p1" --quiet --no-random --set "guest.section_us=$L" \
	--offset 0:9992:8 || fail "the sweep of part 1's offsets failed"
cmp "$out/p1/sweep.csv" "$out/j/part-1/sweep.csv" ||
	fail "--jobs 2: part 1 differs from one boot of its offsets"
cmp <(sed -n 2,1251p "$out/p1/sweep.csv") <(sed -n 2,1251p "$out/j/sweep.csv") ||
	fail "--jobs 2: the merged sweep.csv lacks part 1's rows"
[ ! -e "$out/j/INCOMPLETE" ] || fail "--jobs 2: left INCOMPLETE"

# Stopped midway: the parts and their QEMUs end, the directory says so.
"$irqstorm" sweep "$scenario" --out "$out/k" --quiet --no-random --jobs 2 \
	--set "guest.section_us=200" --offset "0:200000:8" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -f "$out/k/part-2/qemu-cmdline.txt" ] && break
	sleep 0.1
done
sleep 1
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -ne 0 ] || fail "a stopped sweep exited 0"
[ -f "$out/k/INCOMPLETE" ] || fail "a stopped sweep's directory is not marked INCOMPLETE"
sleep 1
! pgrep -f "$out/k" >/dev/null || fail "processes of the stopped sweep remain: $(pgrep -af "$out/k")"

# ^C during the random twin: the sweep exits non-zero and is not complete
# (no sweep.json), though its offsets were swept.
"$irqstorm" sweep "$scenario" --out "$out/c" --quiet --set "guest.section_us=$L" \
	--offset "0:$((L * 1000)):400" >"$out/c.txt" 2>&1 &
pid=$!
# (once its guest prints: the run is past its start-up, in its main loop)
for _ in $(seq 900); do
	[ -s "$out/c/random/console.log" ] && break
	sleep 0.1
done
[ -s "$out/c/random/console.log" ] || fail "the random twin never started: $(cat "$out/c.txt")"
kill -INT "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -ne 0 ] || fail "a sweep stopped with ^C during its twin exited 0"
[ ! -e "$out/c/sweep.json" ] || fail "a sweep stopped during its twin wrote sweep.json (complete)"
grep -q "interrupted by a signal during the random twin" "$out/c.txt" ||
	fail "not said: $(cat "$out/c.txt")"

# A short sweep, as the docs show it: complete, with its twin and its files.
"$irqstorm" sweep "$scenario" --out "$out/short" --quiet --offset 0:5000:40 >/dev/null ||
	fail "the short sweep failed: $(cat "$out/short/INCOMPLETE" 2>/dev/null)"
for f in sweep.csv sweep.json sweep.png random/summary.json; do
	[ -s "$out/short/$f" ] || fail "the short sweep wrote no $f"
done
jq -e '.offsets == 126 and .random.interrupts > 0 and (.random | has("failed") | not)' \
	"$out/short/sweep.json" >/dev/null || fail "the short sweep's twin: $(jq -c .random "$out/short/sweep.json")"

# A user-space busy loop: 251 offsets, 80 ns apart.
"$irqstorm" sweep "$scenario" --out "$out/u" --quiet --no-random --set guest.section=user \
	--set "guest.section_us=$L" --offset "0:$((L * 1000)):80" >/dev/null ||
	fail "the user-space sweep failed: $(cat "$out/u/INCOMPLETE" 2>/dev/null)"
awk -F, 'NR > 1 { n++; if ($3 < 10000) fast++ } END { exit !(n == 251 && fast >= 0.9 * n) }' \
	"$out/u/sweep.csv" || fail "a user-space section delayed the hard-interrupt handler"

# Inside another handler's PIO loop: 376 offsets, 80 ns apart, up to 30 us.
"$irqstorm" sweep "$(dirname "$scenario")/sweep-pio.ini" --out "$out/pio" --quiet --no-random \
	--offset 0:30000:80 >/dev/null ||
	fail "the PIO sweep failed: $(cat "$out/pio/INCOMPLETE" 2>/dev/null)"
jq -e '.counts.device.triggers == 376' "$out/pio/summary.json" >/dev/null ||
	fail "the PIO sweep triggered $(jq .counts.device.triggers "$out/pio/summary.json") of 376 offsets"
awk -F, 'NR == 2 { first = $4 } NR > 1 { last = $4; n++ }
	END { exit !(n == 376 && first > last + 20000) }' "$out/pio/sweep.csv" ||
	fail "channel 0's thread did not wait for the PIO loop: $(sed -n '2p;$p' "$out/pio/sweep.csv")"
echo "pio: $(jq -c .worst.thread "$out/pio/sweep.json")"

# Two vCPUs: the interrupt on CPU 1 (where the vector allocator puts it: no
# pending move), the section on CPU 0, then on CPU 1; offsets a quantum
# apart (the aimed interrupt is raised at the end of the window of virtual
# time its offset falls in).
for cpu in 0 1; do
	"$irqstorm" sweep "$scenario" --out "$out/smp$cpu" --quiet --no-random \
		--set machine.cpus=2 --set "guest.section_cpu=$cpu" \
		--set guest.irq_cpu=1 --set "guest.section_us=$L" --offset "0:$((L * 1000)):10000" \
		>/dev/null || fail "the sweep on two vCPUs (section on CPU $cpu) failed"
	ran=$(awk -F, 'NR > 1 && $10 != 1' "$out/smp$cpu/records.csv" | head -n 3)
	[ -z "$ran" ] || fail "an aimed interrupt not on CPU 1 (section on CPU $cpu): $ran"
done
# 10 us into the section: its rest delays the interrupt on its own CPU, not
# one on the other CPU.
awk -F, '$1 == 10000 { exit !($3 < 10000) }' "$out/smp0/sweep.csv" ||
	fail "a section on CPU 0 delayed an interrupt on CPU 1: $(grep '^10000,' "$out/smp0/sweep.csv")"
awk -F, '$1 == 10000 { exit !($3 > 10000) }' "$out/smp1/sweep.csv" ||
	fail "a section on CPU 1 did not delay an interrupt on CPU 1: $(grep '^10000,' "$out/smp1/sweep.csv")"

# refused WHAT EXPECTED ARGS...: exit 1, the message, nothing written.
refused() {
	local what=$1 want=$2 status=0
	shift 2
	"$irqstorm" sweep "$scenario" --out "$out/bad" --quiet "$@" 2>"$out/err" || status=$?
	[ "$status" -eq 1 ] || fail "$what: exit $status"
	grep -q -- "$want" "$out/err" || fail "$what: message '$(cat "$out/err")'"
	[ ! -e "$out/bad" ] || fail "$what: wrote $out/bad"
}
refused "step 0" "STEP must be at least 1 ns" --offset 0:100:0
refused "stop before start" "STOP is before START" --offset 500:100
refused "beyond the section" "is beyond the section" --offset "0:$((L * 1000 + 8))" \
	--set "guest.section_us=$L"
refused "icount off" "a sweep needs \[machine\] icount" --set machine.icount=off
refused "a step below the quantum" "offsets closer than the quantum are not distinct" \
	--set machine.cpus=2 --offset 0:20000:400
refused "two vCPUs, the interrupt's CPU not given" "goes to a CPU the guest chooses" \
	--set machine.cpus=2 --offset 0:20000:10000
echo "ok: the sweep's worst case, repeated exactly; bad input refused"
