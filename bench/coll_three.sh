#!/bin/sh
# bspram's collectives on shared memory (bench_coll) and over MPI
# (bench_coll_mpi, one rank per process), beside Open MPI's own (mpi_coll), in
# one run (bench/RESULTS.md, "Over MPI"): each round runs the three back to
# back for each p; the table gives per (op, p, size) the median over the
# rounds of each one's time per call (bspram: its AUTO selection).
# usage: bench/coll_three.sh <build dir> [rounds (3)] [p list (2 4)]
# $OPS, $SIZES: comma-separated lists; $ARGS: more options of all three (ms=, reps=).
# shellcheck disable=SC2086
set -eu
build=$1; rounds=${2:-3}; plist=${3:-2 4}
ops=${OPS:-alltoall,allgather,broadcast,allreduce}
sizes=${SIZES:-8,4096,262144}
args=${ARGS:-ms=10 reps=5}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for r in $(seq "$rounds"); do
  for p in $plist; do
    "$build/bench/bench_coll" ops p="$p" ops="$ops" sizes="$sizes" algs=none $args | grep '^coll,' | sed 's/^coll,bspram,/shm,/' >> "$out"
    mpirun $flags -np "$p" "$build/bench/bench_coll_mpi" ops p="$p" ops="$ops" sizes="$sizes" algs=none $args |
      grep '^coll,' | sed 's/^coll,bspram,/mpi,/' >> "$out"
    mpirun $flags -np "$p" "$build/bench/mpi_coll" ops="$ops" sizes="$sizes" $args | grep '^coll,' |
      sed 's/^coll,openmpi,/openmpi,/' >> "$out"
  done
done
med() { grep "^$1,$2,$3,$4," "$out" | cut -d, -f5 | sort -g | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]; else print "-"}'; }
echo "| op | p | bytes | bspram, shared memory (us) | bspram over MPI (us) | Open MPI (us) | over MPI / Open MPI |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for op in $(echo "$ops" | tr , ' '); do
  for p in $plist; do
    for b in $(echo "$sizes" | tr , ' '); do
      s=$(med shm "$op" "$p" "$b"); m=$(med mpi "$op" "$p" "$b"); o=$(med openmpi "$op" "$p" "$b")
      ratio=$(awk -v m="$m" -v o="$o" 'BEGIN { if (o > 0 && m != "-") printf "%.2f", m / o; else print "-" }')
      echo "| $op | $p | $b | $s | $m | $o | $ratio |"
    done
  done
done
