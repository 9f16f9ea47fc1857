#!/bin/sh
# A bulk machine of fewer components than ranks runs whole on every rank:
# examples/pram_prefix_sums.c on p = 1 component and 2 or 3 ranks prints, on
# every rank, the line it prints on one process (verified against its
# sequential code); with p = 3 components on 3 ranks the machine is spread,
# even with 1 thread asked for (it raises its lanes to the ranks).
# usage: small.sh <pram_prefix_sums> <the same, MPI build>
set -eu
plain=$1; mpi=$2
here=$(dirname "$0")
strip() { grep "^pram_prefix_sums" | sed 's/ (PRAM [0-9.]* s, sequential [0-9.]* s)//'; }
for run in "2 1" "3 1" "3 3"; do
  set -- $run
  n=$1; p=$2
  want=$("$plain" 100 7 "$p" 1 | strip)
  echo "$want" | grep -q verified || { echo "small.sh: p=$p did not verify on one process: $want"; exit 1; }
  out=$(sh "$here/run.sh" "$n" "$mpi" 100 7 "$p" 1 2>&1) || { echo "$out"; exit 1; }
  got=$(echo "$out" | strip | grep -cxF -- "$want" || true)
  [ "$got" -eq "$n" ] || { echo "$out"; echo "small.sh: p=$p on $n ranks: \"$want\" $got times, not once per rank"; exit 1; }
done
echo "small.sh: PRAMs of 1 and 3 components on 2 and 3 ranks print one process's line on every rank"
