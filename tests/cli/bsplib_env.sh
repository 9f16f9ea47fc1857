#!/bin/sh
# A BSPlib program under OMP_THREAD_LIMIT below P: OpenMP gives the section
# fewer threads than processes, and every short-handed lane finds out at
# once; the program must still end with exit status 1 and exactly one line
# on stderr (that line was once printed twice). Repeated, as which threads
# race to report is up to the scheduler. OMP_THREAD_LIMIT is read when
# libgomp starts, so each run is a process of its own. KMP_WARNINGS=0: LLVM's
# libomp (the ThreadSanitizer build) prints its own two-line warning about
# the short team, which is not ours to count; libgomp ignores the variable.
# usage: bsplib_env.sh <path of a BSPlib test program that runs P = 1..4>
set -u
prog=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0
i=0
while [ $i -lt 20 ]; do
    KMP_WARNINGS=0 OMP_THREAD_LIMIT=2 "$prog" >"$scratch/out" 2>"$scratch/err"; rc=$?
    n=$(wc -l <"$scratch/err" | tr -d ' ')
    if [ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -q "OMP_THREAD_LIMIT" "$scratch/err"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: run $i: exit $rc, $n stderr lines:" >&2
        cat "$scratch/err" >&2
    fi
    i=$((i + 1))
done
echo "bsplib_env: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
