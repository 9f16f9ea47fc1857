# What the browser tests share (sourced after tests/cli/common.sh): Debian's
# chromium, headless, renders a page of the bspram command from its file —
# no network: the page holds everything — and hands back the DOM after its
# scripts ran and a screenshot. A test that needs chromium fails without it
# (CI installs it: scripts/setup-debian.sh).
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "FAIL: chromium is not installed (apt-get install chromium)" >&2; exit 1; }
# Each run its own profile, so that tests in parallel share nothing.
chrome() {
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --no-first-run --disable-extensions --hide-scrollbars --user-data-dir="$scratch/profile" "$@"
}
# render <page.html> <dom out> <png out> <width,height>: the DOM after the
# page's scripts ran (the browser's console on $scratch/console), then a
# screenshot.
render() {
    chrome --enable-logging=stderr --v=0 --dump-dom "file://$1" >"$2" 2>"$scratch/console" ||
        fail "chromium --dump-dom $1: exit $?"
    chrome --screenshot="$3" --window-size="$4" "file://$1" >/dev/null 2>&1 ||
        fail "chromium --screenshot $1: exit $?"
}
# page_clean <dom>: the page ran to its end (data-ready="1") with no error
# of its own (window.onerror and console.error count on <body>), and the
# browser's console has no uncaught exception.
page_clean() {
    grep -q 'data-ready="1"' "$1" && ok || fail "the page's script did not finish (no data-ready=\"1\")"
    grep -q 'data-errors="0"' "$1" && ok || fail "the page recorded errors: $(grep -o 'data-errors="[^"]*"' "$1")"
    if grep -i "uncaught\|CONSOLE.*error" "$scratch/console" >&2; then fail "errors on the browser's console"; else ok; fi
}
# png_ok <file>: a PNG, not a blank one.
png_ok() {
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c <"$1")" -gt 20000 ] &&
        ok || fail "$1: no screenshot (or a blank one)"
}
