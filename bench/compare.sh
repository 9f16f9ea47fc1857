#!/bin/sh
# Same-run comparison of two builds of bspram (e.g. before and after a change):
# every round runs the router, BSPlib and combining benchmarks of build A, then
# of build B, so both see the same machine. Outputs go to OUT/<bench>_<A|B>_<round>.txt.
# usage: bench/compare.sh <build dir A> <build dir B> [rounds (3)] [out dir (bench-compare)]
set -eu
a=$1; b=$2; rounds=${3:-3}; out=${4:-bench-compare}
mkdir -p "$out"
i=1
while [ "$i" -le "$rounds" ]; do
  for side in A B; do
    if [ $side = A ]; then dir=$a; else dir=$b; fi
    "$dir/bench/bench_router" 8 30 > "$out/router_${side}_$i.txt" 2>&1
    "$dir/bench/bench_bsplib" > "$out/bsplib_${side}_$i.txt" 2>&1
    OMP_WAIT_POLICY=passive "$dir/bench/bench_combine" 4096 1048576 2 7 > "$out/combine_${side}_$i.txt" 2>&1
  done
  i=$((i + 1))
done
echo "compare: $rounds rounds in $out"
