#!/bin/sh
# Makes the demo folder of submissions that README.md and docs/grading-guide.md
# grade: tests/grading/checker.c built ten ways, one folder each, with a
# Makefile that calls the course's dcc with the macros its name describes.
#   sh tests/grading/make-demo.sh [DIR]      (default: demo)
# Run it from the repository's root.
set -eu
demo=${1:-demo}
checker=tests/grading/checker.c
[ -f "$checker" ] || { echo "make-demo.sh: run it from the repository's root" >&2; exit 2; }

# one NAME FLAGS [no-makefile]
one() {
    rm -rf "$demo/$1"
    mkdir -p "$demo/$1"
    cp "$checker" "$demo/$1/puzzle.c"
    [ $# -gt 2 ] || printf 'puzzle: puzzle.c\n\tdcc %s -o puzzle puzzle.c\n' "$2" > "$demo/$1/Makefile"
}

one assignment_exact ''
one echoes_then_error -DECHO_FIRST
one errors_on_stderr -DERRORS_TO_STDERR
one exits_0_on_error -DERROR_STATUS=0
one forgets_blank_row '-DNO_ROW_TERM -DSPACED'
one hangs -DHANG
one int32_counter '-fwrapv -DINT32_COUNTER'
one lenient_reader -DLENIENT
one no_makefile '' no-makefile
# The source itself does not compile, so no fallback build can save it.
one does_not_compile ''
{ echo '#define BROKEN'; cat "$checker"; } > "$demo/does_not_compile/puzzle.c"
echo "made $demo/: $(ls "$demo" | wc -l) submissions"
