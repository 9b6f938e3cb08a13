#!/bin/sh
# Builds Gradescope's autograder zip (`make gradescope-zip`): setup.sh and
# run_autograder at its top, as Gradescope wants them, and beside them
# puzzle/, the repository's files that building the grader and grading need
# (the manifests, the sources, the fixtures, the marking scheme example):
# no .git, no build output, no grades folder, no links.
#   sh scripts/gradescope-zip.sh [OUT]   (default gradescope-autograder.zip)
set -eu
out=${1:-gradescope-autograder.zip}
case $out in
    /*) ;;
    *) out=$(pwd)/$out ;;
esac
cd "$(dirname "$0")/.."
command -v zip >/dev/null 2>&1 || {
    echo "gradescope-zip: zip is not installed (apt-get install zip)" >&2
    exit 1
}

# What puzzle/ holds, as paths from the repository's top.
wanted() {
    grep -E '^(Cargo\.toml|Cargo\.lock|Makefile|src/|benches/|crates/[^/]+/(Cargo\.toml|src/|benches/)|Tests/|examples/gradescope/|examples/marking-scheme\.txt$)'
}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/puzzle"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    # The tracked files as they are in the work tree.
    git ls-files -z --cached --others --exclude-standard | tr '\0' '\n' | wanted > "$stage/list"
else
    find . -type f ! -path './target/*' | sed 's|^\./||' | wanted > "$stage/list"
fi
while IFS= read -r path; do
    [ -f "$path" ] && [ ! -L "$path" ] || continue
    mkdir -p "$stage/puzzle/$(dirname "$path")"
    cp -p "$path" "$stage/puzzle/$path"
done < "$stage/list"
cp -p examples/gradescope/setup.sh examples/gradescope/run_autograder "$stage/"
rm -f "$out"
(cd "$stage" && zip -q -r -X "$out" setup.sh run_autograder puzzle)
echo "gradescope-zip: $out ($(wc -c < "$out") bytes, $(wc -l < "$stage/list") files of the repository)"
