#!/bin/sh
# PrairieLearn's external grader entry point: grades the student's files in
# /grade/student with puzzle-grade, every run in its sandbox, and writes
# /grade/results/results.json (gradable, a score from 0 to 1, tests with
# points and max_points; a submission that does not build is not gradable).
# In the question's info.json: "externalGradingOptions": {"image": an image
# with the puzzle repository built in /puzzle (see ../gradescope/setup.sh for
# the tools), "entrypoint": "/puzzle/examples/prairielearn/run.sh"}.
#   GRADE_ROOT=DIR    the platform's root (default /grade)
#   PUZZLE_REPO=DIR   the built repository (default /puzzle)
#   PUZZLE_GRADE=PATH the grader (default $PUZZLE_REPO/puzzle-grade)
set -eu
root=${GRADE_ROOT:-/grade}
repo=${PUZZLE_REPO:-/puzzle}
grader=${PUZZLE_GRADE:-$repo/puzzle-grade}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/subs/student" "$root/results"
cp -R "$root/student/." "$work/subs/student/"
cd "$repo"
status=0
"$grader" grade-all --format prairielearn --grades "$work/grades" ${SCHEME:+--scheme "$SCHEME"} \
    "$work/subs" || status=$?
if [ -f "$work/grades/student.prairielearn.json" ]; then
    cp "$work/grades/student.prairielearn.json" "$root/results/results.json"
else
    printf '{"gradable": false, "score": 0, "message": "The grader could not grade this submission (status %s).", "tests": []}\n' \
        "$status" > "$root/results/results.json"
fi
