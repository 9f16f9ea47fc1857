#!/bin/sh
# Over MPI the records are those of one machine: a program's trace on 1 to 4
# ranks (libbspram-mpi) equals its trace on shared memory (libbspram), all
# columns but the seconds. $RANKS replaces the numbers of ranks.
# usage: records.sh <shared-memory program> <the same program, MPI build> [args...]
set -eu
shm=$1; mpi=$2; shift 2
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
BSPRAM_TRACE="$scratch/shm.csv" "$shm" "$@" > /dev/null
cut -d, -f1-11,14 "$scratch/shm.csv" > "$scratch/want"
[ "$(wc -l < "$scratch/want")" -gt 1 ] || { echo "records.sh: $shm wrote no records"; exit 1; }
for n in ${RANKS:-1 2 3 4}; do
  BSPRAM_TRACE="$scratch/mpi.csv" sh "$here/run.sh" "$n" "$mpi" "$@" > "$scratch/out" 2>&1 ||
    { cat "$scratch/out"; exit 1; }
  cut -d, -f1-11,14 "$scratch/mpi.csv" > "$scratch/got"
  if ! diff -u "$scratch/want" "$scratch/got" > "$scratch/diff"; then
    head -30 "$scratch/diff"
    echo "records.sh: on $n ranks the records of $mpi differ from shared memory's"
    exit 1
  fi
done
echo "records.sh: $(($(wc -l < "$scratch/want") - 1)) records equal on ${RANKS:-1 2 3 4} ranks"
