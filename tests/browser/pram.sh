#!/bin/sh
# bspram pram --html in a real browser (headless chromium): the page of the
# erew_violation example — a CREW broadcast run on EREW in report mode, all
# its VPs reading B[0] in step 1 — renders with no error, opened at step 1
# shows every VP active, the violation with the engine's two least VPs, 0
# and 1, its cell B[0], its line of the example and all 16 VPs that read
# B[0] (named and marked in the VP strip), the model the run needed (CREW,
# first in step 1, where and by whom), and a value for every access (the
# reads' the value they got); a prefix-sums run of 8192 VPs (its arrays
# past 4096 cells: the density view) renders too, with as many steps as the
# per-step trace (--output) of the same run has rows; the same page for
# --threads 1 and 3; a page that a violation ended (fatal mode, written by
# BSPRAM_PRAM_HTML through bspram pram check --html) shows it and says so;
# a combining run names its updates' operation; bspram pram check's --plot
# renders; a screenshot of each.
# usage: pram.sh <bspram> <check_prog> [screenshot to keep]
bspram=$1 prog=$2 keep=${3:-} subcommand=pram
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
grep -q '<tr class="violation current" data-step="1" data-vps="0 1" data-cell="B\[0\]" data-count="16" data-at="pram_erew_violation.c:44"' "$scratch/dom.html" && ok ||
    fail "no violation of step 1 by VPs 0 and 1 (16 in all) on B[0] at line 44: $(grep -o '<tr class="violation[^>]*>' "$scratch/dom.html")"
[ "$(grep -o '<tr class="violation' "$scratch/dom.html" | wc -l)" -eq 1 ] && ok || fail "not one violation row"
grep -q '<div class="stepviolation" data-vps="0 1" data-cell="B\[0\]" data-count="16">EREW violation at pram_erew_violation.c:44: 16 VPs read B\[0\] at once (VPs 0, 1, 2, 3, 4, 5, 6, 7 and 8 more)<' \
    "$scratch/dom.html" && ok || fail "step 1 does not spell its violation: $(grep -o '<div class="stepviolation[^<]*' "$scratch/dom.html")"
grep -q '<canvas id="vps"[^>]* data-marked="16"' "$scratch/dom.html" && ok ||
    fail "not every VP of the violation marked: $(grep -o '<canvas id="vps"[^>]*>' "$scratch/dom.html")"
grep -q '<div id="needs" data-weakest="CREW" data-step="1">' "$scratch/dom.html" && ok || fail "the model the run needed"
grep -q '<div class="need rise" data-model="CREW" data-step="1"[^>]*>• CREW in step 1: VPs 0 and 1 both read cell B\[0\] at pram_erew_violation.c:44<' \
    "$scratch/dom.html" && ok || fail "where the run first needed CREW: $(grep -o '<div class="need rise[^<]*' "$scratch/dom.html")"
grep -q '<div class="need stepneed" data-model="CREW">Here the run first needed CREW in step 1: ' "$scratch/dom.html" && ok ||
    fail "step 1 does not say it first needed CREW"
# A value for every access shown (32 of step 1: 16 reads of B[0], 16 writes), none blank.
values=$(grep -o '<td class="v">[^<]*</td>' "$scratch/dom.html")
[ "$(echo "$values" | wc -l)" -eq 32 ] && [ "$(echo "$values" | grep -c '<td class="v"></td>')" -eq 0 ] && ok ||
    fail "the accesses' values: $(echo "$values" | wc -l) cells, $(echo "$values" | grep -c '<td class="v"></td>') blank"
# (the page's words only, without its script)
perl -0pe 's/<script.*?<\/script>//gs' "$scratch/dom.html" >"$scratch/text.html"
! grep -q 'not kept' "$scratch/text.html" && ok || fail "'not kept' beside kept accesses"
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

# A run that a violation ended: its page (BSPRAM_PRAM_HTML, set by bspram
# pram check --html) shows the violation, every VP of it and its lines.
set -- $("$prog" lines)
a_line=$1 b_line=$2
set --
run "$bspram" pram check --n 16 --model EREW --html "$scratch/pages" -- "$prog" fatal
[ "$rc" -eq 1 ] && [ -s "$scratch/pages/n16.html" ] && ok || fail "pram check --html of a fatal run: exit $rc"
render "$scratch/pages/n16.html#step=2" "$scratch/dom.html" "$scratch/f.png" 1100,900
page_clean "$scratch/dom.html"
png_ok "$scratch/f.png"
grep -q 'the run ended at its first violation, in step 2 (outside report mode a violation ends the run): it is shown below' \
    "$scratch/dom.html" && ok || fail "the fatal page does not say the run ended"
grep -q "<tr class=\"violation current\" data-step=\"2\" data-vps=\"0 4\" data-cell=\"A\\[0\\]\" data-count=\"2\" data-at=\"check_prog.c:$a_line and check_prog.c:$b_line\"" \
    "$scratch/dom.html" && ok || fail "the fatal violation: $(grep -o '<tr class="violation[^>]*>' "$scratch/dom.html")"
grep -q 'The run ended here, at the violation below, before the step’s writes.' "$scratch/dom.html" && ok ||
    fail "step 2 does not say the run ended there"

# bspram pram check --plot: the SVG renders (a screenshot, not blank).
run "$bspram" pram check --n 16,64,256 --model EREW --steps "log n" --work n --plot "$scratch/p.svg" -- "$prog" linear
[ "$rc" -eq 1 ] && [ -s "$scratch/p.svg" ] && ok || fail "pram check --plot: exit $rc"
chrome --screenshot="$scratch/p.png" --window-size=1200,400 "file://$scratch/p.svg" >/dev/null 2>&1 || fail "chromium --screenshot of the plot"
png_ok "$scratch/p.png"

# A combining run: its updates named by their operation, every value shown.
run "$bspram" pram --example histogram --n 64 --threads 1 --html "$scratch/h.html"
[ "$rc" -eq 0 ] && ok || fail "histogram --html: exit $rc"
render "$scratch/h.html" "$scratch/dom.html" "$scratch/h.png" 1100,900
page_clean "$scratch/dom.html"
grep -q '<td>adds (sum:u64)</td>' "$scratch/dom.html" && ok || fail "the histogram's additions are not named"
! grep -q '<td class="v"></td>' "$scratch/dom.html" && ok || fail "a blank value"

# The page's name is checked before the run.
expect_usage "--html x.txt" "--html $scratch/x.txt: the name must end in .html" --example prefix_sums --n 64 \
    --html "$scratch/x.txt"
expect_error "--html no directory" "--html $scratch/no/x.html: cannot write in $scratch/no" --example prefix_sums \
    --n 64 --html "$scratch/no/x.html"

echo "pram_html_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
