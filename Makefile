# `make` builds ./puzzle and ./puzzle-grade (release); `make test` runs every
# check CI runs, on every crate of the workspace (the root package `puzzle`,
# crates/grade, crates/sandbox).
CARGO ?= cargo
# Where cargo builds: CARGO_TARGET_DIR when it is set, as cargo does.
TARGET_DIR = $(if $(CARGO_TARGET_DIR),$(CARGO_TARGET_DIR),target)

.PHONY: all puzzle test clean bench bench-solve bench-grade bench-similar gradescope-zip

all: puzzle

# Each binary is copied beside its place and renamed over it, so that a
# grading running the old one goes on undisturbed ("Text file busy" is a
# write into a running executable; a rename never is).
puzzle:
	$(CARGO) build --release --workspace
	cp $(TARGET_DIR)/release/puzzle .puzzle.new && mv -f .puzzle.new puzzle
	cp $(TARGET_DIR)/release/puzzle-grade .puzzle-grade.new && mv -f .puzzle-grade.new puzzle-grade

# The grading tests spend half their time waiting: on programs that sleep
# past a time limit, on gradings that confirm a timeout, on a lock. One test
# a core left the cores idle half the time (92 s of CPU in 92 s on two
# cores); two a core, at most 8, fill them (66 s). The other tests compute
# and keep cargo's one a core. Everything is built first, in one go, so
# that the crates compile side by side.
GRADE_TEST_THREADS ?= $(shell n=$$(nproc 2>/dev/null || echo 1); t=$$((2 * n)); [ $$t -gt 8 ] && t=8; echo $$t)

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) test --workspace --no-run
	$(CARGO) test --workspace --exclude puzzle-grade
	$(CARGO) test -p puzzle-grade -- --test-threads=$(GRADE_TEST_THREADS)
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

# Throughput and memory against `wc -w` on generated boards (not a test).
bench: puzzle
	$(CARGO) bench --bench throughput

# The solver against its targets: Korf's 100, table build and load, 3x3, 100x100.
bench-solve: puzzle
	$(CARGO) bench --bench solve

# What grading costs beyond the programs' own run time (not a test).
bench-grade: puzzle
	$(CARGO) bench -p puzzle-grade --bench grade

# `similar` on a class of 1,000 submissions of 300 lines: time and memory
# (not a test; docs/benchmarks.md has its figures).
bench-similar: puzzle
	$(CARGO) bench -p puzzle-grade --bench similar

# Gradescope's autograder zip: setup.sh, run_autograder and the sources
# (docs/grading-guide.md, "Grade on Gradescope or PrairieLearn"; examples/gradescope/).
gradescope-zip:
	sh scripts/gradescope-zip.sh

clean:
	$(CARGO) clean
	rm -f puzzle puzzle-grade .puzzle.new .puzzle-grade.new gradescope-autograder.zip
	rm -rf bench-out
