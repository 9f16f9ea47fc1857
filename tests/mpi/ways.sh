#!/bin/sh
# The MPI transport's ways of moving a superstep (router/mpi_transport.c):
# each gives the records of shared memory, and each is the way taken — the
# MPI calls it makes, counted on every rank by a profiling layer
# (count_calls.c), are its own. By default, with every rank on this one
# node, the program's small supersteps ride in the node's reduction in
# shared memory (router/mpi_node.h): no MPI call at all. With
# BSPRAM_MPI_NODE=0 ("messages", as across nodes) they ride in the
# recursive-doubling reduction: MPI_Sendrecv alone on 2 and 4 ranks, and on
# 3 (no recursive doubling) the counts way. With BSPRAM_MPI_NODE=2 (every
# 2 ranks a node) the node's first rank reduces for both: on 3 and 4 ranks
# the two leaders by MPI_Sendrecv alone, on 2 ranks (one node) no call.
# Forced by BSPRAM_MPI_EXCHANGE:
# "counts" sends by MPI_Isend with neither MPI_Alltoall nor MPI_Ibarrier;
# "nbx" by MPI_Issend and MPI_Ibarrier, without MPI_Alltoall; "alltoall" by
# MPI_Alltoall, with neither MPI_Isend nor MPI_Ibarrier.
# BSPRAM_MPI_GET keeps every superstep below the MPI_Get way; BSPRAM_NPROCS
# makes P the ranks, for a program that begins bsp_begin(bsp_nprocs()).
# usage: ways.sh <count_calls.so> <shared-memory program> <the same program, MPI build> [args...]
set -eu
layer=$1; shm=$2; mpi=$3; shift 3
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export BSPRAM_MPI_GET=140737488355327
for n in 2 3 4; do
  export BSPRAM_NPROCS=$n
  BSPRAM_TRACE="$scratch/shm.csv" "$shm" "$@" > /dev/null
  cut -d, -f1-11,14 "$scratch/shm.csv" > "$scratch/want"
  [ "$(wc -l < "$scratch/want")" -gt 1 ] || { echo "ways.sh: $shm wrote no records"; exit 1; }
  for way in default messages nodes2 counts nbx alltoall; do
    unset BSPRAM_MPI_EXCHANGE BSPRAM_MPI_NODE
    case $way in
      default) ;;
      messages) export BSPRAM_MPI_NODE=0 ;;
      nodes2) export BSPRAM_MPI_NODE=2 ;;
      *) export BSPRAM_MPI_EXCHANGE=$way ;;
    esac
    # shellcheck disable=SC2086
    if ! BSPRAM_TRACE="$scratch/mpi.csv" timeout 600 mpirun $flags -x LD_PRELOAD="$layer" -np "$n" \
         "$mpi" "$@" > "$scratch/out" 2> "$scratch/err"; then
      cat "$scratch/out" "$scratch/err"; echo "ways.sh: $way on $n ranks failed"; exit 1
    fi
    if grep -q "failed on pid\|CHECK failed" "$scratch/out" "$scratch/err"; then
      cat "$scratch/out" "$scratch/err"; echo "ways.sh: $way on $n ranks: a check failed"; exit 1
    fi
    cut -d, -f1-11,14 "$scratch/mpi.csv" > "$scratch/got"
    if ! diff -u "$scratch/want" "$scratch/got" > "$scratch/diff"; then
      head -30 "$scratch/diff"; echo "ways.sh: $way on $n ranks: the records differ from shared memory's"; exit 1
    fi
    # The calls of every rank, summed: alltoall isend issend ibarrier sendrecv.
    calls=$(awk '$1 == "calls" { a += $4; i += $6; s += $8; b += $10; r += $12; k++ }
                 END { printf "%d %d %d %d %d %d", k, a, i, s, b, r }' "$scratch/err")
    read -r ranks alltoall isend issend ibarrier sendrecv <<END
$calls
END
    [ "$ranks" = "$n" ] || { cat "$scratch/err"; echo "ways.sh: $n ranks but $ranks lines of calls"; exit 1; }
    expect=$way
    [ "$way" = messages ] && [ "$n" = 3 ] && expect=counts
    [ "$way" = nodes2 ] && expect=$([ "$n" = 2 ] && echo default || echo messages)
    case $expect in
      default) ok=$([ "$sendrecv" = 0 ] && [ "$isend" = 0 ] && [ "$issend" = 0 ] && [ "$alltoall" = 0 ] &&
                    [ "$ibarrier" = 0 ] && echo y || echo n) ;;
      messages) ok=$([ "$sendrecv" -gt 0 ] && [ "$isend" = 0 ] && [ "$issend" = 0 ] && [ "$alltoall" = 0 ] &&
                    [ "$ibarrier" = 0 ] && echo y || echo n) ;;
      counts) ok=$([ "$isend" -gt 0 ] && [ "$alltoall" = 0 ] && [ "$ibarrier" = 0 ] && echo y || echo n) ;;
      nbx) ok=$([ "$issend" -gt 0 ] && [ "$ibarrier" -gt 0 ] && [ "$alltoall" = 0 ] && echo y || echo n) ;;
      *) ok=$([ "$alltoall" -gt 0 ] && [ "$isend" = 0 ] && [ "$ibarrier" = 0 ] && echo y || echo n) ;;
    esac
    [ "$ok" = y ] || { echo "ways.sh: $way on $n ranks made alltoall $alltoall, isend $isend, issend $issend," \
                            "ibarrier $ibarrier, sendrecv $sendrecv: not that way's calls"; exit 1; }
    echo "ways.sh: $way on $n ranks: records equal; alltoall $alltoall, isend $isend, issend $issend," \
         "ibarrier $ibarrier, sendrecv $sendrecv"
  done
done
