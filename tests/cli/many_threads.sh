#!/bin/sh
# OMP_NUM_THREADS beyond what a process can hold (70000): the default T of
# `bspram demo` is capped at 4096 (BSPRAM_DEFAULT_MAX_THREADS), and `bspram
# table`'s at 1024, never a crash inside the OpenMP runtime. The runs need
# those threads: where the OS refuses 4096 (threads_free), the test skips
# with one line (exit 77) instead of failing.
# usage: many_threads.sh <bspram> <threads_free>
bspram=$1 threads_free=$2 subcommand=demo
. "$(dirname "$0")/common.sh"
export BSPRAM_PARAMS="$scratch/params" # no probe's figures

"$threads_free" 4096 || exit $?
OMP_NUM_THREADS=70000 run "$bspram" demo --p 64 --supersteps 1
if [ "$rc" -eq 0 ] && grep -q "p = 64 components on T = 4096 threads" "$scratch/out"; then ok
else fail "demo with OMP_NUM_THREADS=70000: exit $rc"; head -c 400 "$scratch/err" >&2; fi
OMP_NUM_THREADS=70000 run "$bspram" table --p 16 --v 64 --degrees 1 --basis 16 --runs 1 --format csv
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && ok || { fail "table with OMP_NUM_THREADS=70000: exit $rc"; head -c 300 "$scratch/err" >&2; }

echo "many_threads_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
