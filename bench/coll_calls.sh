#!/bin/sh
# Instructions per collective call, before and after a change, counted by
# callgrind (bench/bench_coll_calls.c, built here against each build's
# libbspram): unlike wall time they do not depend on the machine's load.
# Per call = (I(2N calls) − I(N calls)) / N, so the section's setup cancels;
# both processes' instructions count. callgrind runs the threads in turn,
# so a waiting thread's spinning would count as well: the runs use
# --fair-sched=yes and OMP_WAIT_POLICY=passive, which leave a few % of
# noise from run to run. BSPRAM_PROBE=0: the automatic choice with the
# default g and l, the same on every machine (docs/collectives.md).
#   bench/coll_calls.sh BEFORE_BUILD AFTER_BUILD
#   CASES="broadcast 2 8 2000" bench/coll_calls.sh …   (lines: OP P BLOCK CALLS [ALGORITHM])
set -eu
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src_of() { sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt"; }
for b in before after; do
    eval dir=\$$b
    src=$(src_of "$dir")
    cc -O2 -std=c11 -D_GNU_SOURCE -DBSPRAM_ENGINE_API -fopenmp -I"$src" -I"$src/bsp" -I"$src/coll" "$here/bench_coll_calls.c" \
        -o "$tmp/calls_$b" -L"$dir" -lbspram -Wl,-rpath,"$dir"
done
ir() { # side, args...
    side=$1; shift
    BSPRAM_PROBE=0 BSPRAM_WAIT=sleep OMP_WAIT_POLICY=passive valgrind --tool=callgrind --fair-sched=yes --callgrind-out-file="$tmp/cg" \
        "$tmp/calls_$side" "$@" 2>&1 |
        sed -n 's/.*Collected : //p'
}
echo "# bench/coll_calls.sh $before $after; $(lscpu | sed -n 's/^Model name: *//p'); $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "| call | before (instructions per call) | after | after / before |"
echo "|---|---:|---:|---:|"
while read -r op p block n alg; do
    for side in before after; do
        a=$(ir $side "$op" "$p" "$block" "$n" $alg)
        b=$(ir $side "$op" "$p" "$block" $((2 * n)) $alg)
        eval "$side=$(( (b - a) / n ))"
    done
    echo "| $op, P = $p, $block B${alg:+, $alg} | $before | $after | $(awk -v a="$after" -v b="$before" 'BEGIN { printf "%.2f", a / b }') |"
done <<CASES
${CASES:-sync 2 0 2000
sync 4 0 1000
allgather 2 8 2000
broadcast 2 8 2000
broadcast 4 8 1000
allreduce 2 8 2000
allreduce 4 8 1000
alltoall 2 4096 400 direct
alltoall 2 32768 200 direct
alltoall 4 32768 100 direct
allreduce 4 262144 40}
CASES
