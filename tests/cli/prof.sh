#!/bin/sh
# bspram prof: the summary's BSP cost W/r + g*H + l*S equals the same sums
# taken from the trace here (awk), for a BSPlib program's CSV trace and its
# JSON twin; the picture (gnuplot) of that trace has the heat strips and the
# labels, and the one of a combining run its phases' labels; every bad
# option or file is one line and a non-zero exit, checked before any work.
# usage: prof.sh <bspram> <inprod example>
bspram=$1 inprod=$2 subcommand=prof
. "$(dirname "$0")/common.sh"
unset BSPRAM_PARAMS
export BSPRAM_PARAMS="$scratch/no-params" # no probe's figures: only those given

for ext in csv json; do
    BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/inprod.$ext" "$inprod" 4 1000 >/dev/null 2>&1 ||
        fail "inprod did not run"
done
# Valiant's sums from the CSV itself: S rows, W = sum of work, H = sum of h_bytes.
want=$(awk -F, 'NR > 1 { s++; w += $11; h += $9 } END { printf "%.6g", (w / 2 + 0.5 * h + 300 * s) * 1e-9 }' \
    "$scratch/inprod.csv")
for ext in csv json; do
    run "$bspram" prof "$scratch/inprod.$ext" --g 0.5 --l 300 --rate 2
    got=$(sed -n 's/.*BSP cost W\/r + g\*H + l\*S = \([0-9.e+-]*\) s.*/\1/p' "$scratch/out")
    [ "$rc" -eq 0 ] && [ -n "$got" ] && [ "$got" = "$want" ] && ok ||
        { fail "prof $ext: exit $rc, BSP cost '$got', want '$want'"; cat "$scratch/out" "$scratch/err" >&2; }
done
run "$bspram" prof "$scratch/inprod.csv"
grep -q "no BSP cost: no g and l" "$scratch/out" && ok || fail "prof without g and l"

if command -v gnuplot >/dev/null 2>&1; then
    run "$bspram" prof "$scratch/inprod.csv" --g 0.5 --l 300 --output "$scratch/inprod.svg"
    svg="$scratch/inprod.svg"
    [ "$rc" -eq 0 ] && [ -s "$svg" ] && grep -q "bytes sent per process" "$svg" &&
        grep -q "bytes received per process" "$svg" && grep -q "bsp_sync" "$svg" &&
        grep -q "predicted w/r + g h + l" "$svg" && ok || { fail "prof --output: exit $rc"; cat "$scratch/err" >&2; }
    BSPRAM_TRACE="$scratch/combine.csv" "$bspram" table --p 16 --v 64 --degrees 1,4 --basis 4x4 --runs 1 \
        --format csv >/dev/null
    run "$bspram" prof "$scratch/combine.csv" --output "$scratch/combine.svg"
    [ "$rc" -eq 0 ] && grep -q "combine:forward:1" "$scratch/combine.svg" && grep -q "combine:forward:2" "$scratch/combine.svg" &&
        ! grep -q "bytes sent per process" "$scratch/combine.svg" && ok ||
        { fail "prof of a combining run: exit $rc"; cat "$scratch/err" >&2; }
    expect_error "missing directory" "--output $scratch/no/dir/x.svg: cannot write in" "$scratch/inprod.csv" \
        --output "$scratch/no/dir/x.svg"
else
    echo "skipped: gnuplot not installed"
fi

expect_error "no trace" "bspram prof: no trace given"
expect_error "missing trace" "bspram prof: $scratch/none.csv:" "$scratch/none.csv"
printf 'not,a,trace\n' >"$scratch/bad.csv"
expect_error "not a trace" "not a bspram trace" "$scratch/bad.csv"
expect_error "unknown option" "bspram prof: unknown option '--bogus'" "$scratch/inprod.csv" --bogus 1
expect_error "missing value" "bspram prof: --g needs a value" "$scratch/inprod.csv" --g
expect_error "bad number" "bspram prof: --l 'x': not a finite number >= 0" "$scratch/inprod.csv" --g 1 --l x
expect_error "g without l" "give both --g and --l" "$scratch/inprod.csv" --g 1
expect_error "no such machine" "has no machine 7" "$scratch/inprod.csv" --machine 7
expect_error "two traces" "one trace at a time" "$scratch/inprod.csv" "$scratch/inprod.json"

echo "prof_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
