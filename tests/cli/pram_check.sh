#!/bin/sh
# `bspram pram check` (tools/cmd_pram_check.c) on check_prog, whose every mode
# is a known way to meet or fail an exercise (tests/cli/check_prog.c): the
# tree meets EREW, log n steps and n work (exit 0, "passed"); each failure is
# one line on stderr naming what, which n and where — the model a step
# needed beyond --model with its line of check_prog.c and its VPs, a
# violation that ended the run, violations in report mode, an exit status
# with the program's last stderr line, a signal, no report, the growth of
# the steps past log n, CRCW-priority's differing writes — and exit 1;
# usage errors are one line, exit 2, before any run; CSV and JSON (valid,
# with the failures); the same output for 1 and 3 threads; --plot (valid
# SVG: a panel per quantity, the failing one in red) and --html (a page per
# size, -2 for a second PRAM); the completion of the subcommand.
# And docs/course.md's program (the test doc_course_1 builds it) prints what
# the page shows.
# usage: pram_check.sh <bspram> <check_prog> <doc_course_1> <docs/course.md>
bspram=$1 prog=$2 doc_prog=$3 doc_page=$4 subcommand=pram
. "$(dirname "$0")/common.sh"
# One thread but where the threads are the point (1 against 3, below): the
# reports are the same for any number, and small runs are quicker so.
export OMP_NUM_THREADS=1
sizes=16,64,256
set -- # (the arguments are read)
set -- $("$prog" lines)
a_line=$1 b_line=$2 priority_line=$3
set --
at="check_prog.c:$a_line and check_prog.c:$b_line"

# check <args...>: bspram pram check <args>; stdout, stderr, rc as run's.
check() { run "$bspram" pram check "$@"; }
# expect_fail <what> <exact stderr lines, \n-separated> <args...>: exit 1, stderr exactly those lines.
expect_fail() {
    what=$1 want=$2; shift 2
    check "$@"
    printf '%s\n' "$want" >"$scratch/want"
    if [ "$rc" -eq 1 ] && cmp -s "$scratch/want" "$scratch/err"; then ok
    else fail "$what: exit $rc (want 1), stderr:"; diff "$scratch/want" "$scratch/err" | head -10 >&2; fi
}

# ---- met: exit 0, a row per size, "passed", nothing on stderr
check --n $sizes --model EREW --steps "log n" --work n -- "$prog" tree
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && ok || { fail "tree: exit $rc"; cat "$scratch/err" >&2; }
grep -q '^passed: every run exited 0, needed at most EREW, had no violation, and kept its bounds$' "$scratch/out" &&
    ok || fail "tree: no 'passed' line"
for n in 16 64 256; do
    grep -Eq "^ +$n +0 +1  EREW " "$scratch/out" && ok || fail "tree: no row for n = $n"
done
grep -Eq '^steps +log n +1 +0 +64 and 256 +1.333x +1.333x +1.467x  within the bound$' "$scratch/out" && ok ||
    fail "tree: the steps' fit (log2 n steps: c = 1, d = 0): $(grep '^steps' "$scratch/out")"
# The same for 1 and 3 threads (the library's figures are the same for any T).
OMP_NUM_THREADS=1 "$bspram" pram check --n $sizes --model EREW --steps "log n" -- "$prog" tree >"$scratch/t1" 2>&1
OMP_NUM_THREADS=3 "$bspram" pram check --n $sizes --model EREW --steps "log n" -- "$prog" tree >"$scratch/t3" 2>&1
cmp -s "$scratch/t1" "$scratch/t3" && ok || fail "the output differs between 1 and 3 threads"
# The default sweep: 16, 64, 256, 1024, 4096.
check --model EREW -- "$prog" tree
[ "$rc" -eq 0 ] && [ "$(grep -Ec '^ +(16|64|256|1024|4096) +0 +1 ' "$scratch/out")" -eq 5 ] && ok ||
    fail "the default sweep: exit $rc, $(grep -Ec '^ +[0-9]+ +0 +1 ' "$scratch/out") rows"

# docs/course.md's output, to the letter (the program's name aside).
mkdir "$scratch/doc" && cp "$doc_prog" "$scratch/doc/tree_sum"
(cd "$scratch/doc" && "$bspram" pram check --model EREW --steps "log n" --work n -- ./tree_sum) >"$scratch/doc_out" 2>&1
awk '/^program   .\/tree_sum N$/ { on = 1 } on { print } on && /^passed:/ { exit }' "$doc_page" >"$scratch/doc_want"
[ -s "$scratch/doc_want" ] && cmp -s "$scratch/doc_want" "$scratch/doc_out" && ok ||
    { fail "docs/course.md's output differs:"; diff "$scratch/doc_want" "$scratch/doc_out" >&2; }

# ---- each failure, one line per size
expect_fail "crew on EREW" "FAIL model n=16: needs CREW, more than EREW: step 2 at $at: VPs 0 and 4 both read cell A[0]
FAIL model n=64: needs CREW, more than EREW: step 2 at $at: VPs 0 and 4 both read cell A[0]
FAIL model n=256: needs CREW, more than EREW: step 2 at $at: VPs 0 and 4 both read cell A[0]" \
    --n $sizes --model EREW -- "$prog" crew
grep -Eq "^ +16 +0 +1  CREW .*  step 2 at $at\$" "$scratch/out" && ok || fail "crew: the row does not say where"
check --n $sizes --model CREW -- "$prog" crew
[ "$rc" -eq 0 ] && ok || fail "crew on CREW: exit $rc"
violation="EREW violation in step 2 at $at: VPs 0 and 4 both read cell A[0]"
expect_fail "a fatal violation" "FAIL violation n=16: the run ended at a violation of its own model: $violation
FAIL model n=16: needs CREW, more than EREW: step 2 at $at: VPs 0 and 4 both read cell A[0]" \
    --n 16 --model EREW -- "$prog" fatal
expect_fail "a fatal violation, CREW allowed" \
    "FAIL violation n=16: the run ended at a violation of its own model: $violation" --n 16 --model CREW -- "$prog" fatal
expect_fail "report mode" "FAIL violations n=16: 1 violation of the program's own model; the first: $violation" \
    --n 16 --model CREW -- "$prog" report
expect_fail "steps" "FAIL steps n=64..256: grew 4.048x (from 63 to 255), more than log n allows: 1.333x + 10 % = 1.467x" \
    --n $sizes --model EREW --steps "log n" --work n -- "$prog" linear
check --n $sizes --model EREW --steps n -- "$prog" linear
[ "$rc" -eq 0 ] && ok || fail "linear within n: exit $rc"
expect_fail "exit" "FAIL exit n=16: the program exited with status 1 (its own check of its result, or an error): check_prog: wrong sum 7
FAIL exit n=64: the program exited with status 1 (its own check of its result, or an error): check_prog: wrong sum 7" \
    --n 16,64 --model EREW --steps "log n" -- "$prog" exit
grep -q 'not judged: a run failed' "$scratch/out" && ok || fail "exit: the bounds are judged over failed runs"
expect_fail "abort" "FAIL exit n=16: the program was killed by signal 6 (Aborted)" --n 16 --model EREW -- "$prog" abort
expect_fail "no report" "FAIL report n=16: no PRAM reported a run (a PRAM reports when bspram_pram_destroy is called)" \
    --n 16 --model EREW -- "$prog" none
expect_fail "priority on arbitrary" "FAIL model n=16: needs CRCW-priority, more than CRCW-arbitrary: step 1 at check_prog.c:$priority_line: VPs 0 and 1 write different values to cell A[0]" \
    --n 16 --model CRCW-arbitrary -- "$prog" priority
check --n 16 --model CRCW-priority -- "$prog" priority
[ "$rc" -eq 0 ] && ok || fail "priority on CRCW-priority: exit $rc"

# ---- formats
check --n 16,64 --model EREW --format csv -- "$prog" crew
[ "$rc" -eq 1 ] && [ "$(head -n 1 "$scratch/out")" = "n,exit,prams,weakest_model,beyond_step,beyond_at,violations,steps,work,charge" ] &&
    [ "$(sed -n 2p "$scratch/out" | cut -d, -f1-7)" = "16,0,1,CREW,2,$at,0" ] && [ "$(lines "$scratch/out")" -eq 3 ] &&
    [ "$(lines "$scratch/err")" -eq 2 ] && ok || { fail "csv: exit $rc"; cat "$scratch/out" >&2; }
check --n 16,64 --model EREW --steps "log n" --format json -- "$prog" crew
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["passed"] is False and len(d["failures"]) == 2 and d["failures"][0].startswith("FAIL model n=16: needs CREW")
assert [s["n"] for s in d["sizes"]] == [16, 64] and d["sizes"][0]["weakest_model"] == "CREW"
b = d["bounds"][0]
assert b["quantity"] == "steps" and b["bound"] == "log n" and b["met"] and b["c"] == 1 and b["d"] == 0
' "$scratch/out" && [ "$rc" -eq 1 ] && ok || { fail "json: exit $rc"; cat "$scratch/out" >&2; }

# ---- the picture and the pages
check --n $sizes --model EREW --steps "log n" --work n --plot "$scratch/p.svg" --html "$scratch/pages" -- "$prog" linear
[ "$rc" -eq 1 ] && ok || fail "plot: exit $rc"
python3 -c 'import sys, xml.etree.ElementTree as E
ns = "{http://www.w3.org/2000/svg}"
r = E.parse(sys.argv[1]).getroot()
panels = [g for g in r.iter(ns + "g") if g.get("class") == "panel"]
assert [g.get("data-quantity") for g in panels] == ["steps", "work", "charge"], panels
for g in panels:
    assert len([c for c in g.iter(ns + "circle") if c.get("class") == "point"]) == 3
titles = [next(g.iter(ns + "text")) for g in panels]
assert titles[0].text == "steps: grows faster than log n" and titles[0].get("fill") == "#c00"
assert titles[1].text == "work: within n" and titles[1].get("fill") is None
assert titles[2].text == "charge"
assert len([p for p in r.iter(ns + "polyline") if p.get("class") == "fit"]) == 2
' "$scratch/p.svg" && ok || fail "the plot"
for n in 16 64 256; do
    grep -q '"model":"EREW"' "$scratch/pages/n$n.html" 2>/dev/null && ok || fail "no page $scratch/pages/n$n.html"
done
grep -q "^pages: $scratch/pages/n<N>.html\$" "$scratch/out" && ok || fail "the pages are not named"
check --n 16 --model EREW --html "$scratch/pages" -- "$prog" two
[ "$rc" -eq 0 ] && [ -s "$scratch/pages/n16.html" ] && [ -s "$scratch/pages/n16-2.html" ] && ok ||
    fail "two PRAMs: exit $rc, $(ls "$scratch/pages")"

# ---- usage errors: one line, exit 2, nothing run
expect_usage "no model" "bspram pram check: --model M is required" check -- "$prog" tree
expect_usage "bad model" "--model 'ERW': unknown model" check --model ERW -- "$prog" tree
expect_usage "model with an operation" "--model 'crcw-combining:max': unknown model" check --model crcw-combining:max -- "$prog" tree
expect_usage "bad bound" "--steps 'log log n': unknown bound" check --model EREW --steps "log log n" -- "$prog" tree
expect_usage "bad size" "--n '16,x': 'x' is not a whole number in [2, 2^40]" check --n 16,x --model EREW -- "$prog" tree
expect_usage "size 1" "--n '1,16': '1' is not a whole number" check --n 1,16 --model EREW -- "$prog" tree
expect_usage "an empty size" "--n '16,,64': an empty item after '16'" check --n 16,,64 --model EREW -- "$prog" tree
expect_usage "size twice" "--n '16,64,16': 16 is given twice" check --n 16,64,16 --model EREW -- "$prog" tree
expect_usage "one size, a bound" "--n '16': a bound is judged over two sizes at least" check --n 16 --model EREW --work n -- "$prog" tree
expect_usage "no program" "no program: give it after --" check --model EREW
expect_usage "nothing after --" "no program: give it after --" check --model EREW --
expect_usage "the program before --" "no program: give it after --" check --model EREW "$prog"
expect_usage "no such program" "PROGRAM '$scratch/nope': not an executable file" check --model EREW -- "$scratch/nope"
expect_usage "not on PATH" "PROGRAM 'no-such-program-here': not found on PATH" check --model EREW -- no-such-program-here
expect_usage "unknown option" "unknown option '--steps-bound'" check --steps-bound n --model EREW -- "$prog" tree
expect_usage "twice" "--model is given twice" check --model EREW --model CREW -- "$prog" tree
expect_usage "ambiguous" "ambiguous option '--h'" check --h x --model EREW -- "$prog" tree
check --n 16,64 --mod crcw_common --st logn -- "$prog" tree
[ "$rc" -eq 0 ] && grep -q '^model     CRCW-common$' "$scratch/out" && ok || fail "--mod crcw_common --st logn: exit $rc"
expect_usage "format" "--format 'xml': unknown" check --format xml --model EREW -- "$prog" tree
# Options after -- are the program's: check takes none of them.
check --n 16 --model EREW -- "$prog" tree --model CREW
[ "$rc" -eq 1 ] && grep -q "^FAIL exit n=16: the program exited with status 2" "$scratch/err" && ok ||
    fail "words after -- are the program's: exit $rc"
# Files: --plot's name, --html a file.
: >"$scratch/file"
expect_usage "--plot x.png" "--plot $scratch/x.png: the name must end in .svg" check --model EREW --plot "$scratch/x.png" -- "$prog" tree
expect_error "--plot in no directory" "--plot $scratch/no/x.svg: cannot write in $scratch/no" check --model EREW --plot "$scratch/no/x.svg" -- "$prog" tree
[ "$rc" -eq 1 ] && ok || fail "--plot in no directory: exit $rc (want 1)"
expect_error "--html a file" "--html $scratch/file: not a directory" check --model EREW --html "$scratch/file" -- "$prog" tree
expect_error "--html no parent" "--html $scratch/no/dir: cannot make the directory" check --model EREW --html "$scratch/no/dir" -- "$prog" tree

# ---- help and completion
run "$bspram" pram check --help
[ "$rc" -eq 0 ] && head -n 1 "$scratch/out" | grep -q '^usage: bspram pram check --model M' && ok || fail "check --help"
run "$bspram" help pram
grep -q 'bspram pram check --help' "$scratch/out" && ok || fail "help pram does not name pram check"
[ "$("$bspram" --complete pram ch)" = check ] && ok || fail "completion of 'pram ch'"
[ "$("$bspram" --complete pram check --mo)" = --model ] && ok || fail "completion of 'pram check --mo'"
[ "$("$bspram" --complete pram check --model CREW --steps n^2l)" = n^2logn ] && ok || fail "completion of a bound"
[ "$("$bspram" --complete pram check --model CR | head -n 1)" = CREW ] && ok || fail "completion of a model"
[ "$("$bspram" --complete pram check --model EREW -- x)" = @files ] && ok || fail "completion after --"

echo "pram_check_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
