#!/bin/sh
# bspram pram --html in a real browser (headless chromium): the page of the
# erew_violation example — a CREW broadcast run on EREW in report mode, all
# its VPs reading B[0] in step 1 — renders with no error, opened at step 1
# shows every VP active and the violation with the two least VPs, 0 and 1,
# and its cell B[0] (what the example is built to do); a prefix-sums run of
# 8192 VPs (its arrays past 4096 cells: the density view) renders too, with
# as many steps as the per-step trace (--output) of the same run has rows;
# the same page for --threads 1 and 3; a screenshot of each.
# usage: pram.sh <bspram> [screenshot to keep]
bspram=$1 keep=${2:-} subcommand=pram
. "$(dirname "$0")/../cli/common.sh"
. "$(dirname "$0")/browser.sh"

n=16
run "$bspram" pram --example erew_violation --n $n --p 4 --threads 1 --html "$scratch/v.html"
[ "$rc" -eq 0 ] && [ -s "$scratch/v.html" ] && ok || { fail "pram --html: exit $rc"; cat "$scratch/err" >&2; }
! grep -qi 'src="http\|href="http\|<link \|src="//' "$scratch/v.html" && ok || fail "the page refers to the network"
render "$scratch/v.html#step=1" "$scratch/dom.html" "$scratch/v.png" 1100,1000
page_clean "$scratch/dom.html"
png_ok "$scratch/v.png"
[ -z "$keep" ] || cp "$scratch/v.png" "$keep"
grep -q '<tr class="violation current" data-step="1" data-vps="0 1" data-cell="B\[0\]"' "$scratch/dom.html" && ok ||
    fail "no violation of step 1 by VPs 0 and 1 on B[0]: $(grep -o '<tr class="violation[^>]*>' "$scratch/dom.html")"
[ "$(grep -c '<tr class="violation' "$scratch/dom.html")" -eq 1 ] && ok || fail "not one violation row"
grep -q '<div class="stepviolation" data-vps="0 1" data-cell="B\[0\]">EREW violation: VPs 0 and 1 both read B\[0\]<' \
    "$scratch/dom.html" && ok || fail "step 1 does not spell its violation"
grep -q "id=\"stepinfo\" data-step=\"1\" data-active=\"$n\"" "$scratch/dom.html" && ok || fail "step 1: not $n VPs active"

# Past 4096 cells, and the page against the per-step trace of the same run.
run "$bspram" pram --example prefix_sums --n 8192 --p 16 --threads 1 --output "$scratch/t.csv" --html "$scratch/s.html"
[ "$rc" -eq 0 ] && ok || { fail "prefix_sums --html: exit $rc"; cat "$scratch/err" >&2; }
render "$scratch/s.html" "$scratch/dom.html" "$scratch/s.png" 1100,800
page_clean "$scratch/dom.html"
steps=$(($(wc -l <"$scratch/t.csv") - 1))
grep -q "8192 VPs on 16 components, $steps steps<" "$scratch/dom.html" && ok || fail "the title: not $steps steps"
grep -q 'density: accesses per' "$scratch/dom.html" && ok || fail "no density view for 8192 cells"
run "$bspram" pram --example prefix_sums --n 8192 --p 16 --threads 3 --html "$scratch/s3.html"
cmp -s "$scratch/s.html" "$scratch/s3.html" && ok || fail "the page differs between --threads 1 and 3"

# The page's name is checked before the run.
expect_usage "--html x.txt" "--html $scratch/x.txt: the name must end in .html" --example prefix_sums --n 64 \
    --html "$scratch/x.txt"
expect_error "--html no directory" "--html $scratch/no/x.html: cannot write in $scratch/no" --example prefix_sums \
    --n 64 --html "$scratch/no/x.html"

echo "pram_html_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
