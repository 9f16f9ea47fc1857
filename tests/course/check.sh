#!/bin/sh
# One exercise of the course's problem set (docs/course/), both ways: its
# reference solution (examples/course/NAME.c) meets the exercise — `bspram
# pram check` with the options its page gives exits 0 — and every wrong
# solution (examples/course/wrong/NAME_*.c) fails it, exit 1, with exactly
# the failures its source declares on its line " * fails: KIND, KIND" (exit,
# report, violation, violations, model, steps, work, charge), each one line
# on stderr naming its n. The options come from the page's one line
# `bspram pram check ... -- ./NAME`, so the page and the test cannot part;
# the sweep is the page's (--n, or the default 16 to 4096) cut at 256: the
# wrong solutions of n steps, or n² VPs, take seconds each past it, and the
# two largest sizes left are still 4 apart (docs/course.md). The failures a
# wrong solution declares are those of the page's own sweep too (the pages'
# tables say so): its bounds were chosen so that a sweep's end does not
# change them.
# usage: check.sh <bspram> <dir of the course_* programs> <source dir> <NAME>
bspram=$1 bin=$2 src=$3 name=$4 subcommand=pram
. "$src/tests/cli/common.sh"
run_timeout=300
# One thread: the reports, and so the verdicts, are the same for any number
# (pram_check_cli checks it), and a run of a few VPs is several times
# quicker without a second thread to wake at every phase.
export OMP_NUM_THREADS=1

page=$(ls "$src"/docs/course/[0-9][0-9]_"$name".md 2>/dev/null | head -n 1)
[ -n "$page" ] || { echo "FAIL: no page docs/course/NN_$name.md"; exit 1; }
line=$(grep -c "^bspram pram check .* -- \./$name\$" "$page")
[ "$line" -eq 1 ] || { echo "FAIL: $page has $line lines 'bspram pram check ... -- ./$name' (want one)"; exit 1; }
opts=$(sed -n "s|^bspram pram check \(.*\) -- \./$name\$|\1|p" "$page")
sizes=$(echo " $opts " | sed -n 's/.* --n \([0-9,]*\) .*/\1/p')
opts=$(echo " $opts " | sed 's/ --n [0-9,]* / /')
sizes=$(echo "${sizes:-16,64,256,1024,4096}" | tr ',' '\n' | awk '$1 <= 256' | paste -sd, -)
sweep="--n $sizes"

# check <program>: bspram pram check <the page's options> -- <program>
check() { eval "run \"\$bspram\" pram check $sweep $opts -- \"\$1\""; }

# The reference: every size met.
check "$bin/course_$name"
if [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && grep -q '^passed: ' "$scratch/out"; then ok
else fail "$name (the reference): exit $rc"; cat "$scratch/out" "$scratch/err" >&2; fi

# Each wrong solution: exactly its declared failures.
wrongs=0
for source in "$src"/examples/course/wrong/"$name"_*.c; do
    [ -f "$source" ] || continue
    wrongs=$((wrongs + 1))
    w=$(basename "$source" .c)
    declared=$(sed -n 's/^ \* fails: //p' "$source" | tr -d ' ' | tr ',' '\n' | sort -u | tr '\n' ' ')
    [ -n "$declared" ] || { fail "$w: no ' * fails: KIND' line in its source"; continue; }
    check "$bin/course_wrong_$w"
    got=$(sed -n 's/^FAIL \([a-z]*\) n=.*/\1/p' "$scratch/err" | sort -u | tr '\n' ' ')
    others=$(grep -vc '^FAIL [a-z]* n=[0-9.]*: ' "$scratch/err")
    if [ "$rc" -eq 1 ] && [ "$got" = "$declared" ] && [ "$others" -eq 0 ]; then ok
    else fail "$w: exit $rc, failures '$got', want '$declared' (exit 1):"; cat "$scratch/err" >&2; fi
    # The failure lines the documentation quotes of it, at n = 16 (the first
    # size of every sweep), are its own, to the letter.
    grep -h "^FAIL [a-z]* n=16: .*\( at $w\.c:\|: $w: \)" "$src"/README.md "$src"/docs/*.md "$src"/docs/course/*.md \
        >"$scratch/quoted" || true
    if grep -vxF -f "$scratch/err" "$scratch/quoted" >"$scratch/missing"; then
        fail "$w: the docs quote lines it does not print:"; cat "$scratch/missing" >&2
    else ok; fi
done
[ "$wrongs" -ge 2 ] && ok || fail "$name: $wrongs wrong solutions, want two at least"

echo "course_$name: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
