#!/bin/sh
# A BSPlib section whose threads the OpenMP runtime cannot create (here: 4000
# threads with their default stacks under a 4 GB address-space limit) ends
# with exit status 1, the runtime's own line, then one line of ours that
# names bsp_begin and P — not a line blaming the program for exiting inside
# its section. (Not under sanitizers: they need more address space than the
# limit leaves.)
# usage: thread_start.sh <path of examples/inprod>
set -u
prog=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(ulimit -v 4000000 && exec "$prog" 4000 4000) >"$scratch/out" 2>"$scratch/err"; rc=$?
ours=$(grep -c '^bspram:' "$scratch/err")
if [ "$rc" -eq 1 ] && [ "$ours" -eq 1 ] &&
   grep -q '^bspram: bsp_begin(P=4000): the OpenMP runtime could not start 4000 threads' "$scratch/err"; then
    echo "thread_start: passed"
    exit 0
fi
echo "FAIL: exit $rc, stderr:" >&2
cat "$scratch/err" >&2
exit 1
