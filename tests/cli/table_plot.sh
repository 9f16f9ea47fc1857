#!/bin/sh
# bspram table --output for Valiant's tables (1992, §4): the title names the
# table; the paper's series has a colour of its own (black) and its own
# legend entries, apart from bspram's; in Table 2 each degree's point is
# named by its basis — the bases the table's CSV lists for its rows, which
# are the paper's. One run per entry: this checks the picture, not the
# factors (table_cli does).
# usage: table_plot.sh <bspram>
bspram=$1 subcommand=table
. "$(dirname "$0")/common.sh"
command -v gnuplot >/dev/null 2>&1 || { echo "table_plot_cli: no gnuplot; skipped"; exit 77; }

run "$bspram" table --paper 2 --runs 1 --format csv --output "$scratch/t2.svg"
[ "$rc" -eq 0 ] && ok || { fail "table --paper 2 --output: exit $rc"; cat "$scratch/err" >&2; }
svg="$scratch/t2.svg"
grep -q '>Valiant 1992, Table 2: performance factor against degree<' "$svg" && ok || fail "Table 2: the title"
grep -q '<text>Valiant 1992, Table 2</text>' "$svg" && ok || fail "Table 2: no legend entry for the paper"
grep -q '<text>bspram, the basis of each degree</text>' "$svg" && ok || fail "Table 2: no legend entry for bspram"
grep -q "stroke='rgb(  0,   0,   0)'" "$svg" && [ "$(grep -o "stroke='rgb([^']*)'" "$svg" | sort -u | wc -l)" -eq 2 ] &&
    ok || fail "Table 2: not two colours, one of them black (the paper's)"
for basis in $(cut -d, -f8 "$scratch/out" | tail -n +2); do
    grep -q ">$basis<" "$svg" && ok || fail "Table 2: the basis $basis is not shown"
done

run "$bspram" table --paper 3 --runs 1 --output "$scratch/t3.svg"
[ "$rc" -eq 0 ] && ok || { fail "table --paper 3 --output: exit $rc"; cat "$scratch/err" >&2; }
for basis in 32x8x4x4 32x16x8; do
    grep -q "<text>Valiant 1992, Table 3, basis $basis</text>" "$scratch/t3.svg" &&
        grep -q "<text>bspram, basis $basis</text>" "$scratch/t3.svg" && ok || fail "Table 3: the legend of basis $basis"
done
grep -q '>Valiant 1992, Table 3: performance factor against degree<' "$scratch/t3.svg" && ok || fail "Table 3: the title"

echo "table_plot_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
