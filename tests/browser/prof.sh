#!/bin/sh
# bspram prof --html in a real browser (headless chromium): the page of
# examples/stencil.c's run — process 0 holds three shares of the cells —
# renders with no error; it has one row per process, each with the work the
# process declared, which is 4 flops per cell and step of its block
# (computed here from the stencil's partition, not from the trace); one
# straggler row; the BSP cost of every label and in total equal to
# W/r + g·H + l·S summed here from the trace (awk); and a screenshot. A
# trace of 10,000 supersteps renders too, and one without loads says so.
# usage: prof.sh <bspram> <stencil> [screenshot to keep]
bspram=$1 stencil=$2 keep=${3:-} subcommand=prof
. "$(dirname "$0")/../cli/common.sh"
. "$(dirname "$0")/browser.sh"

P=4 n=200000 steps=40
BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/stencil.csv" "$stencil" $P $n $steps >/dev/null || fail "stencil did not run"
run "$bspram" prof "$scratch/stencil.csv" --g 0.5 --l 300 --rate 2 --html "$scratch/stencil.html"
[ "$rc" -eq 0 ] && [ -s "$scratch/stencil.html" ] && ok || { fail "prof --html: exit $rc"; cat "$scratch/err" >&2; }
! grep -qi 'src="http\|href="http\|<link \|src="//' "$scratch/stencil.html" && ok || fail "the page refers to the network"
# Opened on the update supersteps (#steps=I-J), where the straggler shows.
updates=$(awk -F, '$3 == "update" { if (f == "") f = $2; l = $2 } END { print f "-" l }' "$scratch/stencil.csv")
render "$scratch/stencil.html#steps=$updates" "$scratch/dom.html" "$scratch/stencil.png" 1280,1000
page_clean "$scratch/dom.html"
png_ok "$scratch/stencil.png"
[ -z "$keep" ] || cp "$scratch/stencil.png" "$keep"

# One row per process, each with its declared work: process s holds cells
# [first(s), first(s+1)), first(0) = 0, first(s) = n(s+2)/(P+2).
[ "$(grep -o '<tr class="process[ "]' "$scratch/dom.html" | wc -l)" -eq $P ] && ok || fail "not $P process rows"
first() { if [ "$1" -eq 0 ]; then echo 0; elif [ "$1" -eq $P ]; then echo $n; else echo $((n * ($1 + 2) / (P + 2))); fi; }
s=0
while [ $s -lt $P ]; do
    want=$((4 * ($(first $((s + 1))) - $(first $s)) * steps))
    grep -q "data-pid=\"$s\" data-work=\"$want\"" "$scratch/dom.html" && ok ||
        fail "process $s: work $(grep -o "data-pid=\"$s\" data-work=\"[0-9]*\"" "$scratch/dom.html"), want $want"
    s=$((s + 1))
done
[ "$(grep -c '<tr class="process straggler"' "$scratch/dom.html")" -eq 1 ] && ok || fail "not one straggler row"

# The BSP cost W/r + g·H + l·S by label and in total, from the trace's
# columns (work $11, h_bytes $9, label $3), against the page's.
awk -F, 'NR > 1 { c = ($11 / 2 + 0.5 * $9 + 300) * 1e-9; s[$3] += c; all += c; if (!($3 in s0)) { s0[$3] = 1; o[n++] = $3 } }
         END { for (i = 0; i < n; i++) printf "%s %.6e\n", o[i], s[o[i]]; printf "all %.6e\n", all }' \
    "$scratch/stencil.csv" >"$scratch/want"
grep -o '<tr class="label[^"]*" data-label="[^"]*" data-bsp-seconds="[^"]*"' "$scratch/dom.html" |
    sed 's/.*data-label="\([^"]*\)" data-bsp-seconds="\([^"]*\)"/\1 \2/' |
    awk '{ printf "%s %.6e\n", $1, $2 }' >"$scratch/got"
[ -s "$scratch/got" ] && cmp -s "$scratch/want" "$scratch/got" && ok ||
    { fail "the BSP cost by label differs from the trace's sums"; diff "$scratch/want" "$scratch/got" >&2; }

# Hovering a superstep shows its whole record (#hover=N shows it at once):
# the 10th update superstep's q, r and max(q, r) as the trace has them, and
# each process's declared work in it.
k=$(awk -F, '$3 == "update" { if (++u == 10) { print $2; exit } }' "$scratch/stencil.csv")
want=$(awk -F, -v k="$k" 'NR > 1 && $2 == k { printf "q %s, r %s, max(q, r) %s", $6, $7, $8 }' "$scratch/stencil.csv")
chrome --dump-dom "file://$scratch/stencil.html#hover=$k" >"$scratch/dom.html" 2>/dev/null || fail "chromium: exit $?"
tip=$(sed -n "/id=\"tip\"/,/<\/div>/p" "$scratch/dom.html")
echo "$tip" | grep -q "data-superstep=\"$k\"" && echo "$tip" | grep -q "superstep $k  update" &&
    echo "$tip" | grep -qF "$want" && echo "$tip" | grep -q "process 0: w $((4 * $(first 1)))," && ok ||
    fail "hover of superstep $k: want '$want' and process 0's w; got: $(echo "$tip" | head -c 600)"

# Without g and l given or saved by bspram probe, the collectives' own for
# this P (their cache) price the page, which says so (it showed '-').
gl_cache "$scratch/cache" $P 0.5 300 0.01
run env -u BSPRAM_PARAMS -u BSPRAM_PROBE XDG_CONFIG_HOME="$scratch/no-config" XDG_CACHE_HOME="$scratch/cache" \
    "$bspram" prof "$scratch/stencil.csv" --html "$scratch/gl.html"
chrome --dump-dom "file://$scratch/gl.html" >"$scratch/dom.html" 2>/dev/null || fail "chromium: exit $?"
want=$(awk -F, 'NR > 1 { all += (0.5 * $9 + 300) * 1e-9 } END { printf "%.6e", all }' "$scratch/stencil.csv")
got=$(grep -o '<tr class="label[^"]*" data-label="all" data-bsp-seconds="[^"]*"' "$scratch/dom.html" |
    sed 's/.*data-bsp-seconds="\([^"]*\)"/\1/' | awk '{ printf "%.6e", $1 }')
[ "$rc" -eq 0 ] && [ "$got" = "$want" ] && ok || fail "the page with the collectives' g and l: cost $got, want $want"
sed -n '/id="summary"/,/<\/div>/p' "$scratch/dom.html" |
    grep -q "g = 0.5 ns per byte, l = 300 ns, measured by the collectives for P = $P on 20" && ok ||
    fail "the page does not say its g and l are the collectives': $(sed -n '/id="summary"/,/<\/div>/p' "$scratch/dom.html" | head -c 400)"

# Without BSPRAM_PATTERN the trace has no loads: the page says so, with no
# process rows, and still renders the rest.
BSPRAM_TRACE="$scratch/plain.csv" "$stencil" $P 3000 4 >/dev/null || fail "stencil did not run"
run "$bspram" prof "$scratch/plain.csv" --html "$scratch/plain.html"
[ "$rc" -eq 0 ] && ok || fail "prof --html of a trace without loads: exit $rc"
chrome --dump-dom "file://$scratch/plain.html" >"$scratch/dom.html" 2>/dev/null || fail "chromium: exit $?"
grep -q 'data-ready="1"' "$scratch/dom.html" && grep -q 'data-errors="0"' "$scratch/dom.html" && ok ||
    fail "the page of a trace without loads did not render cleanly"
grep -q 'kept no loads: run the program with BSPRAM_PATTERN=1' "$scratch/dom.html" &&
    ! grep -q '<tr class="process' "$scratch/dom.html" && ok || fail "a trace without loads: the page shows processes"

# 10,000 supersteps (a bulk machine's random h-relations): the page renders
# them aggregated, without errors.
BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/long.csv" "$bspram" demo --p 4 --h 1 --supersteps 10000 >/dev/null ||
    fail "demo did not run"
run "$bspram" prof "$scratch/long.csv" --g 0.5 --l 300 --html "$scratch/long.html"
[ "$rc" -eq 0 ] && ok || fail "prof --html of 10,000 supersteps: exit $rc"
render "$scratch/long.html" "$scratch/dom.html" "$scratch/long.png" 1280,700
[ -z "$keep" ] || cp "$scratch/long.png" "${keep%.png}_long.png"
page_clean "$scratch/dom.html"
S=$(($(wc -l <"$scratch/long.csv") - 1))
grep -q ">machine 0: p = 4, $S supersteps<" "$scratch/dom.html" && [ "$S" -gt 10000 ] && ok || fail "the long run's title"

echo "prof_html_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
