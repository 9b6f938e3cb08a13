#!/bin/sh
# One shard of a grading, on whichever engine runs it, and the merge after:
# the one script the Kubernetes Job, the Slurm array and the GitHub Actions
# workflow of this folder call (docs/grading-guide.md, "On many machines").
#
#   sh examples/cluster/grade-shard.sh SUBMISSIONS [GRADE-ALL OPTIONS...]
#   sh examples/cluster/grade-shard.sh --merge INTO
#
# Run it from the folder that holds Tests/ (the repository, built with make).
# The shard, `--shard I/N` with I from 1, comes from the first of these set:
#   JOB_COMPLETION_INDEX  a Kubernetes Indexed Job's (0 to N-1); N is SHARDS
#   SLURM_ARRAY_TASK_ID   a Slurm job array's: I is (ID - SLURM_ARRAY_TASK_MIN)
#                         / SLURM_ARRAY_TASK_STEP + 1 (--array=0-63 and
#                         --array=1-64 both give 1 to 64); N is SHARDS, else
#                         SLURM_ARRAY_TASK_COUNT
#   SHARD_INDEX           any other engine's, from 0 (a GitHub Actions matrix:
#                         ${{ strategy.job-index }}); N is SHARDS
# SHARDS=N               how many shards (every shard must be told the same N)
# GRADES_ROOT=DIR        where the shards' grades folders go, each
#                        DIR/shard-I-of-N (default grades-shards)
# PUZZLE_GRADE=PATH      the grader (default ./puzzle-grade)
# A shard whose folder already holds its grading (a pod or task run again)
# goes on with --resume: what was graded is kept.
#
# Exit status: 0 when the shard is graded, whether its students passed or not
# (a failing submission is not a failed job, which an engine would run again);
# 2 for a bad setting or a grading that could not be done; 128+N when signal N
# stopped it (--resume then finishes it).
#
# --merge INTO merges every DIR/shard-*-of-N (of any N when SHARDS is not set)
# into INTO, which then holds the whole class's summaries and class page
# (puzzle-grade merge): exit 0 when the merged grading is complete, 1 when a
# shard is missing or incomplete or a submission was graded twice (each named
# on stderr), 2 when the shards cannot be merged (other options).
set -eu
grader=${PUZZLE_GRADE:-./puzzle-grade}
root=${GRADES_ROOT:-grades-shards}

die() {
    echo "grade-shard.sh: $*" >&2
    exit 2
}

# whole NAME VALUE: VALUE is a whole number, or the script stops.
whole() {
    case $2 in
    '' | *[!0-9]*) die "$1 should be a whole number, but is '$2'" ;;
    esac
}

if [ "${1:-}" = --merge ]; then
    [ $# -eq 2 ] || die "usage: grade-shard.sh --merge INTO"
    into=$2
    of=${SHARDS:-*}
    set --
    for dir in "$root"/shard-*-of-$of; do
        [ -d "$dir" ] && set -- "$@" "$dir"
    done
    [ $# -gt 0 ] || die "no shard's folder in $root (shard-I-of-${SHARDS:-N})"
    exec "$grader" merge --into "$into" "$@"
fi

[ $# -ge 1 ] || die "usage: grade-shard.sh SUBMISSIONS [GRADE-ALL OPTIONS...] | --merge INTO"
count=${SHARDS:-}
if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    whole JOB_COMPLETION_INDEX "$JOB_COMPLETION_INDEX"
    index=$((JOB_COMPLETION_INDEX + 1))
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    first=${SLURM_ARRAY_TASK_MIN:-0}
    step=${SLURM_ARRAY_TASK_STEP:-1}
    whole SLURM_ARRAY_TASK_ID "$SLURM_ARRAY_TASK_ID"
    whole SLURM_ARRAY_TASK_MIN "$first"
    whole SLURM_ARRAY_TASK_STEP "$step"
    [ "$step" -ge 1 ] || die "SLURM_ARRAY_TASK_STEP should be 1 or more"
    index=$(((SLURM_ARRAY_TASK_ID - first) / step + 1))
    count=${count:-${SLURM_ARRAY_TASK_COUNT:-}}
elif [ -n "${SHARD_INDEX:-}" ]; then
    whole SHARD_INDEX "$SHARD_INDEX"
    index=$((SHARD_INDEX + 1))
else
    die "no shard index: JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID and SHARD_INDEX are all unset"
fi
[ -n "$count" ] || die "SHARDS (how many shards) is not set"
whole SHARDS "$count"
[ "$index" -ge 1 ] && [ "$index" -le "$count" ] ||
    die "shard $index of $count: the index is past the count (is SHARDS the engine's count?)"

grades=$root/shard-$index-of-$count
mkdir -p "$root"
resume=
[ ! -f "$grades/grading.json" ] || resume=--resume
echo "grade-shard.sh: shard $index/$count into $grades${resume:+, resumed}" >&2
status=0
"$grader" grade-all --shard "$index/$count" --grades "$grades" $resume "$@" || status=$?
# 1: graded, and some submission failed: the job itself went well.
[ "$status" -ne 1 ] || status=0
exit "$status"
