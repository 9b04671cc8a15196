#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# irqstorm explain: a run replayed under QEMU's explain plugin.
#   - zero perturbation: the rerun's records equal the run's, and explain
#     says so; a run whose records.csv was altered afterwards is not
#     explained ("did NOT hold", exit 1), nothing written as explained;
#   - a hard-interrupt PIO handler's worst events: each window's functions
#     add up to the window, the windows to the latency of records.csv;
#     the driver's own functions are named (the module placed) and the
#     PIO read's instructions are a whole multiple of the words read (every
#     call seen, none twice);
#   - the probe's stage; a threaded handler's work seen in its IRQ thread,
#     named as the guest knows it (comm irq/N-irqstorm0 as the kernel cuts
#     it, the pid and priority init reported), and its hard interrupt by
#     IRQ number and action name;
#   - the whole run's tasks (explain/tasks.json) name the IRQ thread and
#     its interrupts; export writes the run as a Chrome trace-event
#     timeline, every handled event, the tasks' track and the explained
#     functions under their task in it;
#   - --gdb --at hardirq stops the guest exactly at the event's hardirq
#     stamp: gdb, attached, finds the vCPU at the instruction after the
#     stamp's register write (the block the plugin saw start at that
#     time), and the run ends when gdb detaches;
#   - --event writes that event's files and no others'; bad input (a seq
#     not in records.csv, an unknown stage, --top 0, not a result
#     directory) and runs that cannot be replayed (incomplete, not
#     deterministic, made by other builds) are refused, naming why; a
#     rerun that does not finish is reported as that, leaving no process
#     and an earlier explain of the run as it was.
#
#   explain.sh IRQSTORM SCENARIO [run options]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

W=256
run() {
	local name=$1
	shift
	"$irqstorm" run "$scenario" --out "$out/$name" --quiet "${extra[@]}" \
		--set channel0.work=pio --set "channel0.pio_words=$W" "$@" ||
		fail "run $name: $(cat "$out/$name/INCOMPLETE" 2>/dev/null)"
}
# refused DIR WORDS [explain options]: explain fails with WORDS in its message.
refused() {
	local dir=$1 words=$2 status=0
	shift 2
	"$irqstorm" explain "$dir" "$@" >"$out/msg" 2>&1 || status=$?
	[ "$status" -ne 0 ] || fail "explain $* of $dir did not fail"
	grep -q -- "$words" "$out/msg" || fail "explain $*: no '$words' in: $(cat "$out/msg")"
}

run hard --set channel0.threading=hardirq --set guest.probe=true
"$irqstorm" explain "$out/hard" --top 2 >"$out/hard.txt" || fail "explain failed"
cat "$out/hard.txt"
head -n 1 "$out/hard.txt" | grep -q '^Zero perturbation held' || fail "no zero-perturbation line"
[ "$(grep -c '^#[0-9]* done +[0-9.]* us: ' "$out/hard.txt")" -eq 2 ] || fail "not two event lines"
j=$out/hard/explain/explain.json
jq -e '.zero_perturbation == true and (.events | length) == 2 and .module_base != "0x0" and (.module_base | endswith("000"))' "$j" \
	>/dev/null || fail "explain.json: $(jq -c 'del(.events)' "$j")"
# A function by its source name: the compiler's clones of it (irqstorm_process.isra.0,
# .constprop.0, .part.0) are it too, named so in the kernel's symbols.
FN='def fn: split(".")[0]; '
# Each window's functions add up to it; the windows run from raise to done.
jq -e '.events[] | (.windows | map(.functions | map(.ns) | add) | add) == .latency_ns
	and .windows[0].from_ns == .t_raise and .windows[-1].to_ns == .t_raise + .latency_ns
	and ([.windows[] | .to_ns - .from_ns] | add) == .latency_ns' "$j" >/dev/null ||
	fail "windows do not add up to the latency"
for seq in $(jq -r '.events[].seq' "$j"); do
	want=$(awk -F, -v s="$seq" 'NR > 1 && $1 == s { print $7 - $4 }' "$out/hard/records.csv")
	got=$(jq -r --argjson s "$seq" '.events[] | select(.seq == $s) | .latency_ns' "$j")
	[ "$want" = "$got" ] || fail "event $seq: latency $got, records.csv says $want"
	[ -s "$out/hard/explain/event-$seq.txt" ] && [ -s "$out/hard/explain/event-$seq.png" ] ||
		fail "no event-$seq.txt or .png"
done
jq -e --argjson w "$W" "$FN"'.events[] | .windows[] | select(.window == "hardirq->done")
	| (.functions | map(select(.function == "ioread16"))[0].insns) as $n
	| $n > 0 and $n % $w == 0 and any(.functions[]; .function | fn == "irqstorm_process")' "$j" \
	>/dev/null || fail "hardirq->done: no irqstorm_process, or ioread16 not a multiple of $W: $(
		jq -c '[.events[].windows[] | select(.window == "hardirq->done") | .functions[:3]]' "$j")"

"$irqstorm" explain "$out/hard" --stage probe --top 1 >"$out/probe.txt" || fail "probe stage"
grep -q '^#[0-9]* probe +' "$out/probe.txt" || fail "probe: $(cat "$out/probe.txt")"
jq -e '.events[0].windows[0].window == "expected->wake-up"' "$j" >/dev/null || fail "probe window"

seq=$(awk -F, 'NR > 10 && $2 == 0 { print $1; exit }' "$out/hard/records.csv")
"$irqstorm" explain "$out/hard" --event "$seq" --stage handler >/dev/null || fail "--event $seq"
[ "$(ls "$out/hard/explain" | grep -c '^event-.*\.txt$')" -eq 1 ] &&
	[ -s "$out/hard/explain/event-$seq.txt" ] || fail "--event $seq: $(ls "$out/hard/explain")"

# --gdb: stopped at the hardirq stamp, exactly where the trace says.
t=$(awk -F, -v s="$seq" 'NR > 1 && $1 == s { print $5 }' "$out/hard/records.csv")
want=$(awk -v t="$t" '$1 == t { print "0x" $2; exit }' "$out/hard/explain/trace.txt")
[ -n "$want" ] || fail "no block of the trace starts at the hardirq stamp, $t ns"
pc=$(gdb_pc "$out/hard" "$seq" hardirq)
[ "$pc" = "$want" ] || fail "--gdb --at hardirq: stopped at $pc, the stamp's next block is $want"
echo "--gdb: stopped at $pc, the block after the hardirq stamp"

run thread --set channel0.threading=threaded
"$irqstorm" explain "$out/thread" --top 1 >/dev/null || fail "explain of the threaded run"
# The IRQ thread by the name (comm: cut at 15 bytes), pid and priority the
# guest itself reported.
sj=$out/thread/summary.json
irq=$(jq -r '.counts.guest.irq[0]' "$sj")
comm=irq/$irq-irqstorm0
task="${comm:0:15} (pid $(jq -r '.counts.guest.thread_pid[0]' "$sj"), FIFO $(jq -r '.counts.guest.thread_sched | split(",")[0] | split(":")[1]' "$sj"))"
jq -e --arg task "$task" "$FN"'.events[0].windows[] | select(.window == "thread->done") | .functions[0]
	| (.function | fn == "irqstorm_process" or fn == "ioread16") and .context == $task' \
	"$out/thread/explain/explain.json" >/dev/null ||
	fail "thread->done, not in $task: $(jq -c '.events[0].windows[-1].functions[:2]' "$out/thread/explain/explain.json")"
jq -e --arg irq "hard interrupt IRQ $irq (irqstorm0) over " '[.events[0].windows[].functions[].context
	| select(startswith($irq))] | length > 0' "$out/thread/explain/explain.json" >/dev/null ||
	fail "no hard interrupt named IRQ $irq (irqstorm0): $(jq -c '[.events[0].windows[].functions[].context] | unique' "$out/thread/explain/explain.json")"
echo "explain names: $task, IRQ $irq (irqstorm0)"

# The whole run's tasks (explain/tasks.json): the IRQ thread among them,
# by the name the guest reported, and its hard interrupts by IRQ.
jq -e --arg task "$task" --arg irq "IRQ $irq (irqstorm0)" '.format == "irqstorm-tasks" and
	any(.slices[]; .kind == "task" and .name == $task) and
	any(.slices[]; .kind == "interrupt" and .name == $irq) and
	all(.slices[]; .to_ns > .from_ns)' "$out/thread/explain/tasks.json" >/dev/null ||
	fail "tasks.json: no $task or no $irq: $(jq -c '[.slices[].name] | unique | .[:20]' "$out/thread/explain/tasks.json")"

# export: the threaded run as a Chrome trace-event timeline, every handled
# event in it; CPU 0's tasks track (tid 2) with the IRQ thread and its
# interrupts; its explained track (tid 3) with the window's functions under
# their task; a file Perfetto UI and speedscope open (docs/export.md).
"$irqstorm" export "$out/thread" >/dev/null || fail "export of the threaded run"
tj=$out/thread/trace.json
handled=$(awk -F, 'NR > 1 && ($5 != "" || $6 != "" || $7 != "" || $14 != "")' \
	"$out/thread/records.csv" | wc -l)
jq -e --argjson n "$handled" --arg task "$task" --arg irq "IRQ $irq (irqstorm0)" "$FN"'
	.otherData.clock == "QEMU_CLOCK_VIRTUAL" and
	([.traceEvents[] | select(.ph == "f")] | length) == $n and
	any(.traceEvents[]; .ph == "B" and .tid == 2 and .cat == "task" and .name == $task) and
	any(.traceEvents[]; .ph == "B" and .tid == 2 and .cat == "interrupt" and .name == $irq) and
	any(.traceEvents[]; .ph == "B" and .tid == 3 and .cat == "context" and .name == $task) and
	any(.traceEvents[]; .ph == "B" and .tid == 3 and .cat == "function" and (.name | fn == "irqstorm_process")) and
	([.traceEvents[] | select(.ph == "B")] | length) == ([.traceEvents[] | select(.ph == "E")] | length)' \
	"$tj" >/dev/null ||
	fail "export: not every handled event ($handled), or not the tasks or explained functions in $tj"
echo "export: $(stat -c %s "$tj") bytes for $handled events"

# Refusals: bad input, and runs that cannot be replayed.
refused "$out/hard" "no such seq" --event 99999999
refused "$out/hard" "no such stage" --stage nosuch
refused "$out/hard" "at least 1" --top 0
refused "$out/hard" "exactly one --event" --gdb
refused "$out/hard" "no such point" --event "$seq" --gdb --at thread
refused "$out/hard" "is for --gdb" --at done
refused "$out/nothing" "no summary.json"
copy() {
	rm -rf "$out/$1"
	mkdir "$out/$1"
	cp "$out/hard"/{summary.json,scenario.ini,records.csv} "$out/$1/"
}
copy altered
awk -F, -v OFS=, 'NR > 10 && $2 == 0 && !done { $7 = sprintf("%d", $7 + 8); done = 1 } { print }' "$out/hard/records.csv" >"$out/altered/records.csv"
refused "$out/altered" "zero perturbation did NOT hold"
[ ! -e "$out/altered/explain/explain.json" ] || fail "an altered run got an explain.json"
copy nondet
jq '.sysinfo.deterministic = false' "$out/hard/summary.json" >"$out/nondet/summary.json"
refused "$out/nondet" "not a deterministic run"
copy other
jq '.qemu["irqstorm-device"] = "0000000000000000"' "$out/hard/summary.json" >"$out/other/summary.json"
refused "$out/other" "other builds"
copy incomplete
echo "stopped" >"$out/incomplete/INCOMPLETE"
refused "$out/incomplete" "incomplete run"
# A rerun that does not finish (here its wall-clock bound cut to 5 s for a
# minute of storm) is said to be that, not a perturbation; no QEMU is left.
# An earlier explain there (hard's) stays as it was.
copy cut
cp -a "$out/hard/explain" "$out/cut/explain"
sed -i -e 's/^duration = .*/duration = 60.000/' -e 's/^timeout = .*/timeout = 5/' "$out/cut/scenario.ini"
refused "$out/cut" "the rerun did not complete"
! pgrep -f "$out/cut/" >/dev/null || fail "a process of the cut rerun is left: $(pgrep -af "$out/cut/")"
cmp -s "$out/hard/explain/explain.json" "$out/cut/explain/explain.json" ||
	fail "a failed explain changed the earlier explain.json"
grep -q "the earlier explain in $out/cut/explain/ is as it was" "$out/msg" ||
	fail "not said that the earlier explain stays: $(cat "$out/msg")"

# Two channels: --top N is each channel's N worst (channel 1's long PIO
# handlers would otherwise take every place); --channel picks one, by name.
"$irqstorm" run "$scenario" --out "$out/two" --quiet "${extra[@]}" --set guest.irq_mode=msix \
	--set channel0.name=critical --set channel1.pattern=periodic --set channel1.rate=100 \
	--set channel1.work=pio --set channel1.pio_words=1024 >/dev/null || fail "the two-channel run"
"$irqstorm" explain "$out/two" --top 1 >/dev/null || fail "explain of two channels"
[ "$(jq -c '[.events[].channel]' "$out/two/explain/explain.json")" = "[0,1]" ] ||
	fail "--top 1 of two channels: $(jq -c '[.events[] | {seq, channel}]' "$out/two/explain/explain.json")"
"$irqstorm" explain "$out/two" --top 2 --channel critical >/dev/null || fail "--channel critical"
[ "$(jq -c '[.events[].channel]' "$out/two/explain/explain.json")" = "[0,0]" ] ||
	fail "--channel critical: $(jq -c '[.events[] | {seq, channel}]' "$out/two/explain/explain.json")"
status=0
"$irqstorm" explain "$out/two" --channel bulk >"$out/msg" 2>&1 || status=$?
[ "$status" = 1 ] && grep -q "the run has no such channel (channels: 0 (critical), 1)" "$out/msg" ||
	fail "--channel bulk: exit $status: $(cat "$out/msg")"
echo "explain: ok"
