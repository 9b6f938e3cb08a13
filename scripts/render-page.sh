#!/bin/sh
# Renders an HTML page (the class page, grades/index.html, by default) to a
# PNG with headless Chromium (Debian's `chromium`), as a marker's browser
# would show it: no network, a profile of its own, thrown away after.
#   sh scripts/render-page.sh [PAGE [OUT.png [WIDTH,HEIGHT]]]
# PAGE defaults to grades/index.html, OUT.png to PAGE with .png for .html,
# the window to 1200,1600 (try 420,1600 for a phone). CHROMIUM=PATH runs that
# browser instead of the first of chromium, chromium-browser on the PATH.
set -eu
page=${1:-grades/index.html}
out=${2:-${page%.html}.png}
size=${3:-1200,1600}
[ -f "$page" ] || { echo "render-page.sh: no page $page" >&2; exit 2; }
browser=${CHROMIUM:-}
if [ -z "$browser" ]; then
    for name in chromium chromium-browser; do
        if command -v "$name" >/dev/null 2>&1; then
            browser=$name
            break
        fi
    done
fi
[ -n "$browser" ] || {
    echo "render-page.sh: chromium is not installed (apt-get install chromium)" >&2
    exit 2
}
case $page in
/*) path=$page ;;
*) path=$(pwd)/$page ;;
esac
case $out in
/*) ;;
*) out=$(pwd)/$out ;;
esac
# The page's path as a URL: every byte but the unreserved ones and '/'
# percent-encoded (a grades folder may hold spaces, '#' or '?').
url=file://$(printf '%s' "$path" | od -An -tu1 -v | awk '{
    for (i = 1; i <= NF; i++) {
        c = sprintf("%c", $i + 0)
        if (c ~ /[A-Za-z0-9\/._~-]/) printf "%s", c; else printf "%%%02X", $i
    }
}')
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --window-size="$size" --screenshot="$out" "$url" \
    >/dev/null 2>&1
[ -s "$out" ] || { echo "render-page.sh: $browser made no $out" >&2; exit 1; }
echo "$out"
