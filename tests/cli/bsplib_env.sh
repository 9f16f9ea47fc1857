#!/bin/sh
# A BSPlib program under OMP_THREAD_LIMIT below P: the section's threads are
# the library's own, not OpenMP's (bsp/threads.h), so OpenMP's limit does not
# shorten the team — the program (P = 1..4) runs to its end with exit status
# 0 and nothing on stderr, every time (it once failed: a short OpenMP team).
# OMP_THREAD_LIMIT is read when libgomp starts, so each run is a process of
# its own. KMP_WARNINGS=0: LLVM's libomp (the ThreadSanitizer build) would
# warn about the limit itself; libgomp ignores the variable.
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
    if [ "$rc" -eq 0 ] && [ "$n" -eq 0 ]; then
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
