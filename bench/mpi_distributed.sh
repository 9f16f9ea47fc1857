#!/bin/sh
# Past one machine, in one run: what a rank holds and what a small superstep
# costs over MPI, two builds side by side (bench/RESULTS.md, "Over MPI").
#   memory:  bench/mpi_memory.sh — the PRAM prefix-sums example's peak RSS
#            and PSS per rank, strong (n = 2^E on 1 process, then on the
#            ranks) and weak (2^E per rank);
#   latency: bench/mpi_small.sh — an empty bsp_sync, the 8-byte collectives
#            and a sparse superstep against Open MPI's own calls, on 2 and 4
#            ranks, medians of the rounds.
# Both tables come from the same two builds in the same run, so their figures
# stand beside each other; the machine and the time are printed first.
#
#   bench/mpi_distributed.sh BEFORE_BUILD AFTER_BUILD [rounds (11)] [E (22)]
#
# A build is a configured and built tree with tests and benchmarks (its
# pram_prefix_sums, tests/pram_prefix_sums_mpi and bench/mpi_small); ranks
# beyond the cores are oversubscribed.
set -eu
before=$1; after=$2; rounds=${3:-11}; e=${4:-22}
here=$(dirname "$0")
echo "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC');" \
     "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## Latency (bench/mpi_small.sh $after $rounds $before)"
echo
"$here/mpi_small.sh" "$after" "$rounds" "$before"
echo
echo "## Memory (bench/mpi_memory.sh $before $after $e)"
echo
"$here/mpi_memory.sh" "$before" "$after" "$e" "2 4"
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
