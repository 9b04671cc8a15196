#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Submit a matrix as N shards (a Slurm job array) and its merge, which
# runs when every shard has succeeded (afterok).
#
#   contrib/slurm/submit.sh N RESULTS SCENARIO MATRIX-OPTIONS...
#   e.g. contrib/slurm/submit.sh 10 /shared/seeds scenarios/default.ini \
#            --vary machine.seed=1..100 -- --duration 5
#
# Extra sbatch options (partition, time, account) go in $SBATCH_ARGS; the
# merge's result is RESULTS/matrix, its output irqstorm-merge-JOB.out.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 N RESULTS SCENARIO MATRIX-OPTIONS..." >&2; exit 1; }
N=$1
RESULTS=$(realpath -m "$2")
shift 2
[[ $N =~ ^[1-9][0-9]*$ ]] || { echo "$0: N must be a positive integer, not '$N'" >&2; exit 1; }
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$RESULTS"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="0-$((N - 1))" \
	"$HERE/irqstorm-array.sbatch" "$RESULTS" "$@")
array=${array%%;*}	# "JOB;CLUSTER" on a federation
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" \
	"$HERE/irqstorm-merge.sbatch" "$RESULTS")
echo "shards: job $array (array 0-$((N - 1))), merge: job ${merge%%;*} -> $RESULTS/matrix"
