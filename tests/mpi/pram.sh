#!/bin/sh
# The PRAM examples over MPI: each, on 2 and 3 ranks (2 lanes per rank),
# prints the line it prints on one process — the same steps, work, charge,
# slowdown and result, verified against its sequential code — on every rank
# (each rank gathers what it reads whole, or checks its own share). Only the
# seconds are left out.
# usage: pram.sh <dir of the examples> <dir of their MPI builds> <n>
set -eu
plain=$1; mpi=$2; n=$3
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
strip() { sed 's/ (PRAM [0-9.]* s, sequential [0-9.]* s)//'; }
count=0
for ex in prefix_sums max_erew max_crcw or list_ranking components histogram sort erew_violation; do
  size=$n
  [ "$ex" = max_crcw ] && size=48 # n^2 processors
  "$plain/pram_$ex" "$size" 7 64 2 | strip > "$scratch/want"
  grep -q "verified" "$scratch/want" || { cat "$scratch/want"; echo "pram.sh: pram_$ex did not verify"; exit 1; }
  for ranks in 2 3; do
    sh "$here/run.sh" "$ranks" "$mpi/pram_${ex}_mpi" "$size" 7 64 $((2 * ranks)) > "$scratch/raw" 2>&1 ||
      { cat "$scratch/raw"; exit 1; }
    grep "^pram_$ex" "$scratch/raw" | strip > "$scratch/got"
    [ "$(wc -l < "$scratch/got")" -eq "$ranks" ] ||
      { cat "$scratch/raw"; echo "pram.sh: pram_$ex on $ranks ranks: not one line per rank"; exit 1; }
    if grep -vxF -f "$scratch/want" "$scratch/got" > "$scratch/diff"; then
      echo "want: $(cat "$scratch/want")"; echo "got:"; cat "$scratch/diff"
      echo "pram.sh: pram_$ex on $ranks ranks differs from one process"
      exit 1
    fi
    count=$((count + 1))
  done
done
echo "pram.sh: $count runs of the PRAM examples over MPI equal one process's"
