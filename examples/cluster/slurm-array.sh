#!/bin/sh
# A grading in 64 shards as a Slurm job array: task I (0 to 63) gets
# SLURM_ARRAY_TASK_ID=I, which examples/cluster/grade-shard.sh maps to
# `puzzle-grade grade-all --shard I+1/64`; then one job merges them, once
# every task has ended (afterany: a shard that failed is then named, not
# silently left out). From the repository, built with make, on a file system
# every node sees:
#
#   jobid=$(sbatch --parsable examples/cluster/slurm-array.sh ../submissions --time-limit 5)
#   sbatch --dependency=afterany:$jobid --job-name=puzzle-grade-merge \
#       --output=merge-%j.log --wrap 'SHARDS=64 sh examples/cluster/grade-shard.sh --merge grades'
#
# Each shard grades into grades-shards/shard-I-of-64; the merged grading, with
# its class page grades/index.html, goes to grades/. The sandbox is strongest
# run as root; as a user it uses user namespaces where the nodes allow them
# (each report's first line names the protections active).
#SBATCH --job-name=puzzle-grade
#SBATCH --array=0-63
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=01:00:00
#SBATCH --output=grade-%A_%a.log
set -eu
cd "${SLURM_SUBMIT_DIR:-.}"
# Three runs at once on the task's core (JOBS=N to change): a run that waits
# until the time limit overlaps the others, and runs that compute get a
# third of the core each, their waits made up (docs/grading-design.md, "Time and
# the machine's load"); more would leave them NOT GRADED, the machine's.
exec sh examples/cluster/grade-shard.sh "$@" --jobs "${JOBS:-3}"
