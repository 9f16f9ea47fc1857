#!/bin/sh
# An example over MPI prints, on every rank, what it prints on one process:
# each line of its shared-memory output appears once per rank (each rank's
# host gathers what it prints), on 1 to 4 ranks.
# usage: same_output.sh <shared-memory program> <the same program, MPI build> [args...]
set -eu
shm=$1; mpi=$2; shift 2
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$shm" "$@" > "$scratch/want"
[ -s "$scratch/want" ] || { echo "same_output.sh: $shm printed nothing"; exit 1; }
for n in 1 2 3 4; do
  sh "$here/run.sh" "$n" "$mpi" "$@" > "$scratch/raw" 2>&1 || { cat "$scratch/raw"; exit 1; }
  while IFS= read -r line; do
    got=$(grep -cxF -- "$line" "$scratch/raw" || true)
    if [ "$got" -ne "$n" ]; then
      cat "$scratch/raw"
      echo "same_output.sh: on $n ranks \"$line\" appears $got times, not once per rank"
      exit 1
    fi
  done < "$scratch/want"
done
echo "same_output.sh: $(basename "$mpi") prints one process's $(wc -l < "$scratch/want") lines on every rank of 1 to 4"
