#!/bin/sh
# The collectives' g and l (docs/collectives.md, "Selection"): probed at the
# first automatic choice and cached per machine and P, read back, a corrupt
# cache ignored with one notice and replaced, BSPRAM_PARAMS and
# BSPRAM_PROBE=0 winning over the cache, an unwritable cache one notice.
# The measurement runs apart from the program's supersteps (a first run's
# records equal a second run's) and its line notes the library's version and
# the load it was measured under: a loaded figure or another version's is
# not used, and measured again (a loaded one after an hour).
# usage: coll_gl.sh <coll_gl_prog> <the library's version>
set -u
prog=$1 version=$2
bspram=$prog subcommand=
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"
unset BSPRAM_PROBE BSPRAM_PARAMS
export XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache" # no `bspram probe` file
cache=$scratch/cache/bspram/params
tab=$(printf '\t')
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$scratch/out"; }
measured="^bspram: measured g = .* ns/byte, l = .* µs for P = 2"
# set_line FIELD=VALUE...: P = 2's line with these fields changed (4 g, 5 l,
# 6 version, 7 load, 9 time)
set_line() {
    awk -F'\t' -v OFS='\t' -v sets="$*" '/^#/ { print; next }
        $3 == 2 { n = split(sets, a, " "); for (i = 1; i <= n; i++) { split(a[i], kv, "="); $(kv[1]) = kv[2] } }
        { print }' "$cache" >"$scratch/c" && cp "$scratch/c" "$cache"
}
# The records as the trace has them, but the times.
records() { cut -d, -f1-11,14- "$1"; }

# 1. Nothing cached: the probe runs, says so in one line, writes P's line
#    with the version, the load (a share of the cores, or -1) and the time.
BSPRAM_TRACE=$scratch/first.csv run "$prog" 2
line=$(grep -v '^#' "$cache")
busy=$(echo "$line" | cut -f7)
quiet=$(awk -v b="$busy" 'BEGIN { print (b <= 0.25) ? 1 : 0 }')
if [ "$quiet" = 1 ]; then
    say="$measured; cached in $cache\$"
else
    say="$measured while other work kept [0-9]* % of the cores busy: not used (the defaults instead, until measured again in an hour); cached in $cache\$"
fi
if [ "$rc" -eq 0 ] && grep -q ' ok$' "$scratch/out" && [ "$(lines "$scratch/err")" -eq 1 ] &&
    grep -q "$say" "$scratch/err" && [ "$(echo "$line" | wc -l)" -eq 1 ] &&
    [ "$(echo "$line" | cut -f3)" = 2 ] && [ "$(echo "$line" | cut -f6)" = "$version" ] &&
    awk -v b="$busy" -v a="$(echo "$line" | cut -f8)" -v t="$(echo "$line" | cut -f9)" -v now="$(date +%s)" \
        'BEGIN { exit !((b == -1 || (b >= 0 && b <= 1)) && (a == -1 || a >= 0) && t <= now && now - t < 600) }'; then ok
else fail "first run: exit $rc, $(cat "$scratch/out" "$scratch/err") line '$line'"; fi
g1=$(field g) l1=$(field l)
if [ "$quiet" = 1 ]; then # used: the figures the selection prices with
    [ "$(echo "$line" | cut -f4)" = "$g1" ] && [ "$(echo "$line" | cut -f5)" = "$l1" ] && ok ||
        fail "the cached line '$line' is not the g = $g1, l = $l1 the selection used"
else # not used: the defaults
    [ "$g1" = 1 ] && [ "$l1" = 1000 ] && ok || fail "measured under load ($busy), yet used: g = $g1, l = $l1"
fi

# 2. Read back: no probe, no line, the same figures — and the same records as
#    the first run's, whose probe is not among them.
BSPRAM_TRACE=$scratch/second.csv run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = "$g1" ] && [ "$(field l)" = "$l1" ] && ok ||
    fail "second run: exit $rc, $(cat "$scratch/out" "$scratch/err")"
if [ -s "$scratch/first.csv" ] && records "$scratch/first.csv" >"$scratch/r1" &&
    records "$scratch/second.csv" >"$scratch/r2" && cmp -s "$scratch/r1" "$scratch/r2" &&
    ! grep -q bsp_coll_probe "$scratch/r1" && [ "$(wc -l <"$scratch/r1")" -eq 3 ]; then ok
else fail "the first run's records differ from the second's: $(diff "$scratch/r1" "$scratch/r2" | head -5)"; fi

# 3. The cache's figures are the ones used (changed by hand, measured quietly).
set_line 4=0.25 5=12345 7=0
run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 0.25 ] && [ "$(field l)" = 12345 ] && ok ||
    fail "edited cache: $(cat "$scratch/out" "$scratch/err")"
set_line 7=-1 # the load unknown (no /proc/stat): used
run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 0.25 ] && ok ||
    fail "unknown load: $(cat "$scratch/out" "$scratch/err")"

# 3a. Measured under load a moment ago: not used (the defaults), not measured again.
set_line 7=0.6 9="$(date +%s)"
cp "$cache" "$scratch/before"
run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 1 ] && [ "$(field l)" = 1000 ] &&
    cmp -s "$cache" "$scratch/before" && ok || fail "recent loaded line: $(cat "$scratch/out" "$scratch/err")"
# 3b. Measured under load over an hour ago: measured again, the line replaced.
set_line 7=0.6 9=1000
run "$prog" 2
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "$measured" "$scratch/err" &&
    [ "$(grep -vc '^#' "$cache")" -eq 1 ] && ! grep -q "${tab}1000\$" "$cache" && ok ||
    fail "old loaded line: $(cat "$scratch/err" "$cache")"
# 3c. Measured by another version: measured again, the line replaced.
set_line 4=0.25 5=12345 6=0.0.0-other 7=0
run "$prog" 2
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "$measured" "$scratch/err" &&
    grep -q "${tab}2${tab}[^$tab]*${tab}[^$tab]*${tab}$version${tab}" "$cache" && ! grep -q 0.0.0-other "$cache" &&
    [ "$(field l)" != 12345 ] && ok || fail "another version: $(cat "$scratch/out" "$scratch/err" "$cache")"
# 3d. A line of the older format (no version): measured again, without a notice about it.
printf '%s\n' "$(grep -v '^#' "$cache" | cut -f1-5)" >"$cache"
run "$prog" 2
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "$measured" "$scratch/err" &&
    [ "$(grep -vc '^#' "$cache")" -eq 1 ] && grep -q "$tab$version$tab" "$cache" && ok ||
    fail "older format: $(cat "$scratch/err" "$cache")"
set_line 4=0.25 5=12345 7=0

# 4. Another P adds its line and keeps the others.
run "$prog" 3
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "for P = 3[; ].*cached in" "$scratch/err" &&
    [ "$(grep -vc '^#' "$cache")" -eq 2 ] && grep -q "${tab}2${tab}0.25${tab}12345${tab}" "$cache" && ok ||
    fail "P = 3: $(cat "$scratch/err" "$cache")"

# 5. BSPRAM_PARAMS wins: its figures, no probe, the cache untouched.
printf 'g_ns_per_byte = 0.5\nl_ns = 7777\n' >"$scratch/p"
cp "$cache" "$scratch/before"
BSPRAM_PARAMS=$scratch/p run "$prog" 4
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 0.5 ] && [ "$(field l)" = 7777 ] &&
    cmp -s "$cache" "$scratch/before" && ok || fail "BSPRAM_PARAMS: $(cat "$scratch/out" "$scratch/err")"
BSPRAM_PARAMS=$scratch/missing run "$prog" 4 # named but missing: the defaults, still no probe
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 1 ] && [ "$(field l)" = 1000 ] &&
    cmp -s "$cache" "$scratch/before" && ok || fail "BSPRAM_PARAMS missing: $(cat "$scratch/out" "$scratch/err")"

# 6. BSPRAM_PROBE=0: the defaults, even with a cache line for P.
BSPRAM_PROBE=0 run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 1 ] && [ "$(field l)" = 1000 ] &&
    cmp -s "$cache" "$scratch/before" && ok || fail "BSPRAM_PROBE=0: $(cat "$scratch/out" "$scratch/err")"

# 7. A corrupt cache: one notice naming the line, a new probe, the file replaced.
printf 'AMD\t2\tx\t1\t2\n' >"$cache"
run "$prog" 2
if [ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 2 ] &&
    grep -q "^bspram: cache file $cache: line 1 is not .*; ignored (measuring again and replacing it)\$" "$scratch/err" &&
    grep -q "for P = 2[; ].*cached in" "$scratch/err" && [ "$(grep -vc '^#' "$cache")" -eq 1 ] &&
    ! grep -q "${tab}x${tab}" "$cache"; then ok
else fail "corrupt cache: $(cat "$scratch/err" "$cache")"; fi
printf 'AMD\t2\t2\t-1\t2\n' >"$cache" # a negative g
run "$prog" 2
[ "$rc" -eq 0 ] && grep -q "line 1 is not" "$scratch/err" && ok || fail "negative g: $(cat "$scratch/err")"
rm -f "$cache" && mkdir "$cache" # a directory where the file should be
run "$prog" 2
[ "$rc" -eq 0 ] && grep -q "^bspram: cache file $cache: .*; ignored" "$scratch/err" &&
    grep -q "not cached" "$scratch/err" && [ "$(lines "$scratch/err")" -eq 2 ] && ok ||
    fail "a directory: $(cat "$scratch/err")"

# 8. No place to cache: measured, one line saying it is not cached.
XDG_CACHE_HOME=/dev/null/nowhere run "$prog" 2
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "for P = 2[; ].* not cached" "$scratch/err" && ok ||
    fail "no cache: $(cat "$scratch/err")"

echo "coll_gl: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
