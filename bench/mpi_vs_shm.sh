#!/bin/sh
# l and g of BSPlib supersteps on three transports, in one run (bench/RESULTS.md,
# "Over MPI"): bench_gl on libbspram (P threads, shared memory), bench_gl on
# libbspram-mpi (P ranks, one process each; and P = 4 on 2 ranks of 2
# threads: hybrid), and mpi_ref (the same MPI calls in plain Open MPI: the
# floor of the MPI transport). Every round runs each once, back to back; the
# table gives the median over the rounds of each column.
# usage: bench/mpi_vs_shm.sh <build dir> [rounds (5)] [iterations (1000)]
# As root mpirun needs --allow-run-as-root; --oversubscribe lets P exceed the cores.
set -eu
build=$1; rounds=${2:-5}; iters=${3:-1000}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
  for P in 2 4; do
    "$build/bench/bench_gl" "$P" "$iters" | sed "s/^gl/shm/" >> "$out"
    # shellcheck disable=SC2086
    mpirun $flags -np "$P" "$build/bench/bench_gl_mpi" "$P" "$iters" | sed "s/^gl/mpi/" >> "$out"
    # shellcheck disable=SC2086
    mpirun $flags -np "$P" "$build/bench/mpi_ref" "$iters" >> "$out"
  done
  # shellcheck disable=SC2086
  mpirun $flags -np 2 "$build/bench/bench_gl_mpi" 4 "$iters" | sed "s/^gl/hybrid/" >> "$out"
done
echo "| transport | P | l (us) | g per one-word put (ns) | g per byte, 1 MiB puts (ns) |"
echo "|---|---:|---:|---:|---:|"
for kind in shm mpi hybrid ref; do
  for P in 2 4; do
    grep "^$kind,$P," "$out" > /dev/null || continue
    med() { grep "^$kind,$P," "$out" | cut -d, -f"$1" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
    echo "| $kind | $P | $(med 3) | $(med 4) | $(med 5) |"
  done
done
