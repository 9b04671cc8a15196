#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A matrix as a Slurm job array (contrib/slurm/): a one-node cluster on
# localhost (munged, slurmctld and slurmd of Debian 12's slurm-wlm, run as
# this user from a temporary directory), a seed sweep submitted as 2
# shards and their merge (afterok), on two vCPUs; the merged matrix.json
# and the seeds' summed histograms must be those of the same matrix run
# here, unsharded.
# Skipped (77) where Slurm or munge is not installed.
#
#   slurm.sh IRQSTORM SCENARIO [matrix options, e.g. --set kernel.flavour=rt]
set -euo pipefail
. "$(dirname "$0")/lib.sh"
e2e_init "$@"

for p in munged slurmctld slurmd sbatch squeue scontrol sinfo; do
	command -v "$p" >/dev/null || { echo "SKIP: no $p (apt-get install slurm-wlm munge)"; exit 77; }
done
TOP=$(cd "$(dirname "$0")/../.." && pwd)
irqstorm=$(realpath "$irqstorm")
scenario=$(realpath "$scenario")
D=$out/slurm
mkdir -p "$D/state" "$D/spool" "$D/munge"
chmod 700 "$D/munge"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT

# munge, with its own key and socket.
dd if=/dev/urandom of="$D/munge/munge.key" bs=1024 count=1 status=none
chmod 600 "$D/munge/munge.key"
munged --foreground --force --key-file="$D/munge/munge.key" --socket="$D/munge/sock" \
	--pid-file="$D/munge/pid" --log-file="$D/munge/log" --seed-file="$D/munge/seed" &
pids+=($!)

# A one-node cluster on this host, its daemons as this user.
port=$((20000 + RANDOM % 20000))
node=$(hostname -s)
cat >"$D/slurm.conf" <<CONF
ClusterName=irqstorm-e2e
SlurmctldHost=$node
SlurmUser=$(id -un)
SlurmdUser=$(id -un)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$D/munge/sock
CredType=cred/munge
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MinJobAge=600
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=e2e Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$D/slurm.conf
sleep 1
slurmctld -D -f "$SLURM_CONF" >"$D/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$D/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
	[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] && break
	sleep 1
done
[ "$(sinfo -h -o %T 2>/dev/null)" = idle ] ||
	{ tail "$D"/*.log "$D"/*.out >&2; fail "the Slurm node did not become idle"; }

# The shards and their merge, built from this build directory.
export IRQSTORM_TOP=$TOP IRQSTORM_NODE_BUILD
IRQSTORM_NODE_BUILD=$(dirname "$(dirname "$irqstorm")")
# On two vCPUs (exact in windows of virtual time, docs/determinism.md;
# e2e-shards shards one vCPU's runs).
opts=(--vary machine.seed=1..3 --set machine.cpus=2 "${extra[@]}")
cd "$out"
said=$(SBATCH_ARGS="--cpus-per-task=1" "$TOP/contrib/slurm/submit.sh" 2 "$out/results" "$scenario" "${opts[@]}")
merge=$(sed -n 's/.* merge: job \([0-9]*\) .*/\1/p' <<<"$said")
[ -n "$merge" ] || fail "submit.sh said: $said"
for _ in $(seq 900); do
	state=$(scontrol show job "$merge" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
	case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL) break ;; esac
	sleep 1
done
[ "$state" = COMPLETED ] ||
	{ cat "$out"/irqstorm-*.out >&2 || true; fail "the merge job ended $state"; }

# The same matrix here, unsharded: the same result.
"$irqstorm" matrix "$scenario" "${opts[@]}" --out "$out/local" >"$out/local.log" 2>&1 ||
	{ cat "$out/local.log" >&2; fail "the local matrix failed"; }
for f in matrix.json merged/histogram.txt merged/merged.json; do
	cmp "$out/local/$f" "$out/results/matrix/$f" ||
		{ diff "$out/local/$f" "$out/results/matrix/$f" | head -20 >&2; fail "$f differs"; }
done
for i in 1 2; do
	jq -e ".shard == {\"index\": $i, \"count\": 2}" "$out/results/shard-$i/matrix.json" >/dev/null ||
		fail "shard-$i/matrix.json is not shard $i of 2"
done
echo "PASS: 2 Slurm shards of 3 seeds on two vCPUs merged equal the matrix run here"
