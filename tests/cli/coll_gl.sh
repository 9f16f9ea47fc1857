#!/bin/sh
# The collectives' g and l (docs/collectives.md, "Selection"): probed at the
# first automatic choice and cached per machine and P, read back, a corrupt
# cache ignored with one notice and replaced, BSPRAM_PARAMS and
# BSPRAM_PROBE=0 winning over the cache, an unwritable cache one notice.
# usage: coll_gl.sh <coll_gl_prog>
set -u
prog=$1
bspram=$prog subcommand=
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"
unset BSPRAM_PROBE BSPRAM_PARAMS
export XDG_CONFIG_HOME="$scratch/config" XDG_CACHE_HOME="$scratch/cache" # no `bspram probe` file
cache=$scratch/cache/bspram/params
tab=$(printf '\t')
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" "$scratch/out"; }

# 1. Nothing cached: the probe runs, says so in one line, writes P's line.
run "$prog" 2
if [ "$rc" -eq 0 ] && grep -q ' ok$' "$scratch/out" && [ "$(lines "$scratch/err")" -eq 1 ] &&
    grep -q "^bspram: measured g = .* ns/byte, l = .* µs for P = 2; cached in $cache\$" "$scratch/err" &&
    [ "$(grep -c "${tab}2${tab}[^$tab]*${tab}[^$tab]*\$" "$cache")" -eq 1 ]; then ok
else fail "first run: exit $rc, $(cat "$scratch/out" "$scratch/err")"; fi
g1=$(field g) l1=$(field l)
line=$(grep -v '^#' "$cache")
[ "$(echo "$line" | cut -f4)" = "$g1" ] && [ "$(echo "$line" | cut -f5)" = "$l1" ] && ok ||
    fail "the cached line '$line' is not the g = $g1, l = $l1 the selection used"

# 2. Read back: no probe, no line, the same figures.
run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = "$g1" ] && [ "$(field l)" = "$l1" ] && ok ||
    fail "second run: exit $rc, $(cat "$scratch/out" "$scratch/err")"

# 3. The cache's figures are the ones used (changed by hand).
awk -F'\t' -v OFS='\t' '/^#/ { print; next } { $4 = 0.25; $5 = 12345; print }' "$cache" >"$scratch/c" &&
    cp "$scratch/c" "$cache"
run "$prog" 2
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$(field g)" = 0.25 ] && [ "$(field l)" = 12345 ] && ok ||
    fail "edited cache: $(cat "$scratch/out" "$scratch/err")"

# 4. Another P adds its line and keeps the others.
run "$prog" 3
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "for P = 3; cached" "$scratch/err" &&
    [ "$(grep -vc '^#' "$cache")" -eq 2 ] && grep -q "${tab}2${tab}0.25${tab}12345\$" "$cache" && ok ||
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
    grep -q "for P = 2; cached in" "$scratch/err" && [ "$(grep -vc '^#' "$cache")" -eq 1 ] &&
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
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "for P = 2; not cached" "$scratch/err" && ok ||
    fail "no cache: $(cat "$scratch/err")"

echo "coll_gl: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
