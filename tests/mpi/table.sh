#!/bin/sh
# `mpirun -np N bspram table ...` prints the table one process prints, for
# the same seed: N = 2, 3, 4, with 1 and 2 lanes per rank (the plain command
# hands over to bspram-mpi under mpirun; rank 0 prints).
# usage: table.sh <bspram>
set -eu
tool=$1
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
args="--p 256 --v 8192 --degrees 1,4,16,64 --basis 16x16 --basis 4x4x4x4 --basis auto --runs 3 --seed 7 --format csv"
# shellcheck disable=SC2086
"$tool" table $args --threads 2 > "$scratch/want"
[ "$(wc -l < "$scratch/want")" -ge 12 ] || { cat "$scratch/want"; echo "table.sh: no table"; exit 1; }
for n in 2 3 4; do
  for t in 1 2; do
    # shellcheck disable=SC2086
    sh "$here/run.sh" "$n" "$tool" table $args --threads $((n * t)) > "$scratch/got" 2>&1 ||
      { cat "$scratch/got"; exit 1; }
    if ! diff -u "$scratch/want" "$scratch/got"; then
      echo "table.sh: on $n ranks with $((n * t)) lanes the table differs from one process's"
      exit 1
    fi
  done
done
echo "table.sh: the same $(wc -l < "$scratch/want")-line table on 1 to 4 ranks"
