# `make` builds ./puzzle and ./puzzle-grade (release); `make test` runs every
# check CI runs.
CARGO ?= cargo

.PHONY: all puzzle test clean bench bench-solve bench-grade

all: puzzle

puzzle:
	$(CARGO) build --release
	cp target/release/puzzle puzzle
	cp target/release/puzzle-grade puzzle-grade

test:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings
	$(CARGO) test
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps

# Throughput and memory against `wc -w` on generated boards (not a test).
bench: puzzle
	$(CARGO) bench --bench throughput

# The solver against its targets: Korf's 100, table build and load, 3x3, 100x100.
bench-solve: puzzle
	$(CARGO) bench --bench solve

# What grading costs beyond the programs' own run time (not a test).
bench-grade: puzzle
	$(CARGO) bench --bench grade

clean:
	$(CARGO) clean
	rm -f puzzle puzzle-grade
	rm -rf bench-out
