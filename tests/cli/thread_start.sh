#!/bin/sh
# A BSPlib section whose threads cannot be created (here: 2000 threads with
# their default stacks under a 4 GB address-space limit, which the router's
# tables of 2000 processes leave room for, those of 4000 not) ends with exit
# status 1 and one line, which names bsp_begin and P, the reason and what to
# change — not a line blaming the program for exiting inside its section. (Not under sanitizers: they need more address space than the
# limit leaves.)
# usage: thread_start.sh <path of examples/inprod>
set -u
prog=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(ulimit -v 4000000 && exec "$prog" 2000 2000) >"$scratch/out" 2>"$scratch/err"; rc=$?
lines=$(wc -l <"$scratch/err" | tr -d ' ')
if [ "$rc" -eq 1 ] && [ "$lines" -eq 1 ] &&
   grep -q '^bspram: bsp_begin(P=2000): could not start 2000 threads (.* after [0-9]*); lower the number of threads, or raise the limits on threads and memory (ulimit -u, ulimit -v) or lower OMP_STACKSIZE$' "$scratch/err"; then
    echo "thread_start: passed"
    exit 0
fi
echo "FAIL: exit $rc, stderr:" >&2
cat "$scratch/err" >&2
exit 1
