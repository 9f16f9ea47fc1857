#!/bin/sh
# The records of the fixed programs (tests/golden) on 1 to 4 MPI ranks equal
# the golden file: the bulk machine, combining batches of every species and
# the BSPlib program, all columns but the seconds. The lines of values (cells
# and results read back on rank 0, which holds only its components' share
# over MPI) are left out; tests/mpi/combine.c checks the values over MPI.
# usage: records_golden.sh <records_programs built with libbspram-mpi> <golden dir>
set -eu
prog=$1; golden=$2
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
grep -v ',values,' "$golden/records.csv" > "$scratch/want"
for n in 1 2 3 4; do
  for t in 1 2; do # lanes of the whole machine: t per rank
    sh "$here/run.sh" "$n" "$prog" $((n * t)) > "$scratch/raw" 2>&1 || { cat "$scratch/raw"; exit 1; }
    grep -v ',values,' "$scratch/raw" > "$scratch/out"
    BSPRAM_TRACE="$scratch/trace.csv" sh "$here/run.sh" "$n" "$prog" $((n * t)) bsplib > "$scratch/raw" 2>&1 ||
      { cat "$scratch/raw"; exit 1; }
    cut -d, -f2-11 "$scratch/trace.csv" | sed 's/^/bsplib,/' >> "$scratch/out"
    if ! diff -u "$scratch/want" "$scratch/out" > "$scratch/diff"; then
      head -40 "$scratch/diff"
      echo "records_golden.sh: on $n ranks with $((n * t)) lanes the records differ from the golden file"
      exit 1
    fi
  done
done
echo "records_golden.sh: $(wc -l < "$scratch/want") rows equal on 1 to 4 ranks, 1 and 2 lanes per rank"
