#!/bin/sh
# Gradescope's image set-up (runs once, as root, when the autograder is
# built). Upload the zip that `make gradescope-zip` builds
# (gradescope-autograder.zip: this file and run_autograder at its top, the
# repository's sources as puzzle/); Gradescope unpacks it to
# /autograder/source.
set -eu
apt-get update -qq
# A C compiler and make for the submissions; util-linux for the sandbox.
apt-get install -y -qq build-essential util-linux curl ca-certificates
# Rust 1.87 or later: the distribution's cargo is often older, so rustup.
if ! command -v cargo >/dev/null 2>&1; then
    curl -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    . "$HOME/.cargo/env"
fi
cd /autograder/source/puzzle
make
