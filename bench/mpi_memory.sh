#!/bin/sh
# Memory over MPI, two builds side by side: the peak RSS (/usr/bin/time -f
# %M) and peak PSS (sampled) of every rank of the PRAM prefix-sums example
# (examples/pram_prefix_sums.c), beside one process of the same build.
#   strong: n = 2^E on 1 process, then on R ranks: each rank's peak, and its
#           largest as a fraction of the one process's;
#   weak:   n = 2^E · R on R = 1 and the given ranks: the largest rank's
#           peak, flat if each rank holds its share (1 rank is the MPI
#           transport's own baseline; one process, beside it, runs on shared
#           memory).
#
#   bench/mpi_memory.sh BEFORE_BUILD AFTER_BUILD [E] [ranks]
#   bench/mpi_memory.sh /tmp/mm-before/build build 22 "2 4"
#
# A build directory is a configured and built tree with tests (cmake … &&
# make): its pram_prefix_sums and tests/pram_prefix_sums_mpi are run, with
# p = 4096 and the default threads (omp_get_max_threads() per rank). Ranks
# beyond the cores are oversubscribed (--oversubscribe): memory, not time, is
# measured. One table per build pair on stdout. BSPRAM_MPI_GET, if set, is
# passed to the ranks (a huge value: every superstep by MPI_Alltoallv), and
# MPIRUN_ARGS to mpirun (e.g. "--mca osc ^sm": MPI_Get without Open MPI's
# shared-memory windows, as between machines).
set -eu
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
e=${3:-22}
ranks=${4:-"2 4"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run="mpirun --oversubscribe"
[ "$(id -u)" = 0 ] && run="$run --allow-run-as-root"
[ -n "${BSPRAM_MPI_GET:-}" ] && run="$run -x BSPRAM_MPI_GET" # the exchange's path (docs/environment.md)
run="$run ${MPIRUN_ARGS:-}"

# one process: peak MB
one() {
    /usr/bin/time -f %M -o "$tmp/kb" "$1/pram_prefix_sums" "$2" 1 4096 >"$tmp/out" 2>&1 ||
        { cat "$tmp/out"; echo "mpi_memory.sh: $1/pram_prefix_sums $2 failed" >&2; exit 1; }
    grep -q verified "$tmp/out" || { cat "$tmp/out"; exit 1; }
    awk '{ printf "%.0f", $1 / 1024 }' "$tmp/kb"
}
# R ranks: every rank's peak RSS in MB, sorted, space-separated; and in
# $tmp/pss every rank's peak PSS, sampled from /proc/PID/smaps_rollup every
# 50 ms. PSS counts a page shared by k processes as 1/k in each: on one node
# Open MPI puts MPI_Win_allocate's windows in a shared segment that every
# rank maps, and a rank's MPI_Get reads its peers' windows there, so their
# pages enter the reader's RSS too — PSS counts each page once in all.
ranked() {
    prog="$1/tests/pram_prefix_sums_mpi"
    ( while :; do
        for pid in $(pgrep -f "^$prog $3 "); do
          awk -v p="$pid" '/^Pss:/ { print p, $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null || true
        done
        sleep 0.05
      done ) > "$tmp/samples" &
    sampler=$!
    $run -np "$2" sh -c '/usr/bin/time -f %M -o "$0.$OMPI_COMM_WORLD_RANK" "$1" "$2" 1 4096' \
        "$tmp/kb" "$prog" "$3" >"$tmp/out" 2>&1 ||
        { kill "$sampler" || true; cat "$tmp/out"; echo "mpi_memory.sh: $1 on $2 ranks failed" >&2; exit 1; }
    kill "$sampler" 2>/dev/null || true # (gone: a rank's last sample failed)
    [ "$(grep -c verified "$tmp/out")" -eq "$2" ] || { cat "$tmp/out"; exit 1; }
    awk '$2 > m[$1] { m[$1] = $2 } END { for (p in m) printf "%.0f\n", m[p] / 1024 }' "$tmp/samples" |
        sort -n | tr '\n' ' ' > "$tmp/pss"
    cat "$tmp"/kb.* | awk '{ printf "%.0f\n", $1 / 1024 }' | sort -n | tr '\n' ' '
    rm -f "$tmp"/kb.*
}
largest() { echo "$1" | awk '{ print $NF }'; }

n=$(awk -v e="$e" 'BEGIN { printf "%.0f", 2 ^ e }')
echo "strong scaling: n = 2^$e, p = 4096; each rank's peak RSS, then its peak PSS, in MB (largest ÷ one process)"
echo
printf '| build | one process | %s |\n' "$(for r in $ranks; do printf '%s ranks | ' "$r"; done | sed 's/ | $//')"
printf '|---|---:|%s\n' "$(for r in $ranks; do printf -- '---|'; done)"
for b in before after; do
    eval dir=\$$b
    base=$(one "$dir" "$n")
    row="| $b | $base |"
    for r in $ranks; do
        all=$(ranked "$dir" "$r" "$n")
        pss=$(cat "$tmp/pss")
        pct() { awk -v a="$1" -v b="$base" 'BEGIN { printf "%.0f %%", 100 * a / b }'; }
        row="$row RSS $(echo "$all" | sed 's/ *$//; s/ /, /g') ($(pct "$(largest "$all")")); PSS $(echo "$pss" | sed 's/ *$//; s/ /, /g') ($(pct "$(largest "$pss")")) |"
    done
    echo "$row"
done
echo
echo "weak scaling: n = 2^$e per rank, p = 4096; the largest rank's peak RSS (PSS) in MB"
echo
printf '| build | 1 process | %s |\n' "$(for r in 1 $ranks; do printf '%s ranks | ' "$r"; done | sed 's/ | $//')"
printf '|---|---:|%s\n' "$(for r in 1 $ranks; do printf -- '---:|'; done)"
for b in before after; do
    eval dir=\$$b
    row="| $b | $(one "$dir" "$n") |"
    for r in 1 $ranks; do
        row="$row $(largest "$(ranked "$dir" "$r" $((n * r)))") ($(largest "$(cat "$tmp/pss")")) |"
    done
    echo "$row"
done
