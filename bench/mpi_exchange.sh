#!/bin/sh
# Measure and pick the MPI transport's payload exchange (bench/RESULTS.md,
# "Over MPI"): bench/mpi_exchange.c times MPI_Alltoall + MPI_Alltoallv (what
# the transport does), NBX, fenced RMA puts into fixed slots, and the counts'
# MPI_Alltoall followed by fenced RMA gets on 2, 3 and 4 ranks, dense and
# sparse, for 24-byte (a one-word put), 4 KiB and 64 KiB messages. Every
# round runs each configuration once; the table gives the median over rounds.
# usage: bench/mpi_exchange.sh <build dir> [rounds (5)] [iterations (500)]
set -eu
build=$1; rounds=${2:-5}; iters=${3:-500}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
  for n in 2 3 4; do
    for b in 24 4096 65536; do
      # shellcheck disable=SC2086
      mpirun $flags -np "$n" "$build/bench/mpi_exchange" "$b" "$iters" >> "$out"
    done
  done
done
echo "| ranks | pattern | bytes per message | alltoall + alltoallv (us) | NBX (us) | RMA puts, fixed slots (us) | alltoall + RMA gets (us) |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for n in 2 3 4; do
  for pat in dense sparse; do
    for b in 24 4096 65536; do
      med() { grep "^exchange,$n,$pat,$b," "$out" | cut -d, -f"$1" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
      echo "| $n | $pat | $b | $(med 5) | $(med 6) | $(med 7) | $(med 8) |"
    done
  done
done
