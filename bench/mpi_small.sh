#!/bin/sh
# Small supersteps over MPI beside Open MPI's own calls (bench/mpi_small.c;
# bench/RESULTS.md, "Over MPI"): an empty bsp_sync against MPI_Barrier,
# bsp_coll's 8-byte collectives against Open MPI's, and a sparse superstep
# (each process puts 8 bytes to the next) on the transport's default way and
# forced to each other way (BSPRAM_MPI_EXCHANGE) — on 2 and 4 ranks, one
# process per rank. Each round runs every configuration once, back to back;
# the table gives the median over the rounds of each figure, and of the
# ratio measured within each run (each run alternates the library's batches
# with Open MPI's). With a second build dir (of an earlier commit, with
# bench/mpi_small built in it), its default way is measured in the same
# rounds, as "before". Each round also runs bench/mpi_reduce (the reduction's
# ways in plain Open MPI beside MPI_Barrier): a second table.
# A busy machine: $BUSY busy loops (sh -c 'while :; do :; done') run beside
# every round, and $WHAT (default all) restricts the runs to one figure
# (e.g. WHAT=sync: the forced ways' sparse runs and the second table are
# then skipped).
# usage: bench/mpi_small.sh <build dir> [rounds (5)] [before build dir]; $PS: the ranks ("2 4")
set -eu
build=$1; rounds=${2:-5}; before=${3:-}; ps=${PS:-2 4}; what=${WHAT:-all}; busy=${BUSY:-0}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
out=$(mktemp)
loops=""
trap 'rm -f "$out"; [ -z "$loops" ] || kill $loops 2>/dev/null || true' EXIT
for _ in $(seq "$busy"); do
  sh -c 'while :; do :; done' &
  loops="$loops $!"
done
run() { # <label> <build> <P> <way or -> [what]
  iters=2000; [ "$3" -gt 2 ] && iters=200
  # shellcheck disable=SC2086
  if [ "$4" = - ]; then
    env -u BSPRAM_MPI_EXCHANGE mpirun $flags -np "$3" "$2/bench/mpi_small" "$iters" ${5:-$what}
  else
    BSPRAM_MPI_EXCHANGE=$4 mpirun $flags -np "$3" "$2/bench/mpi_small" "$iters" ${5:-$what}
  fi | sed "s/^small,/$1,/" >> "$out"
}
for r in $(seq "$rounds"); do
  for P in $ps; do
    [ -n "$before" ] && run before "$before" "$P" -
    run after "$build" "$P" -
    [ "$what" = all ] || continue
    run nbx "$build" "$P" nbx sparse
    run alltoall "$build" "$P" alltoall sparse
    # shellcheck disable=SC2086
    mpirun $flags -np "$P" "$build/bench/mpi_reduce" "$([ "$P" -gt 2 ] && echo 200 || echo 2000)" >> "$out"
  done
done
med() { awk -F, -v k="$1" -v w="$2" -v p="$3" -v c="$4" '$1 == k && $2 == w && $3 == p {
          v[++n] = c == "r" ? $4 / $5 : $c } END { if (!n) { print "-"; exit }
          for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
          printf c == "r" ? "%.2f" : "%.3f", v[int((n + 1) / 2)] }' "$out"; }
echo "| P | superstep | Open MPI's call | Open MPI (us) | before (us) | before / Open MPI | now (us) | now / Open MPI |"
echo "|---:|---|---|---:|---:|---:|---:|---:|"
for P in $ps; do
  figures="sync broadcast allgather allreduce alltoall sparse"
  [ "$what" = all ] || figures=$what
  for w in $figures; do
    case $w in sync|sparse) call=MPI_Barrier ;; broadcast) call=MPI_Bcast ;; *) call=MPI_$(echo "$w" | sed 's/^./\U&/') ;; esac
    echo "| $P | $w | $call | $(med after $w $P 5) | $(med before $w $P 4) | $(med before $w $P r) | $(med after $w $P 4) | $(med after $w $P r) |"
  done
  [ "$what" = all ] || continue
  for k in nbx alltoall; do
    echo "| $P | sparse, way $k | MPI_Barrier | $(med $k sparse $P 5) | | | $(med $k sparse $P 4) | $(med $k sparse $P r) |"
  done
done
[ "$what" = all ] || exit 0
echo
echo "| P | reduction (plain Open MPI) | us | / MPI_Barrier |"
echo "|---:|---|---:|---:|"
for P in $ps; do
  for w in barrier allreduce-user-op allreduce-max allreduce-bor-1 sendrecv-doubling; do
    m() { awk -F, -v p="$P" -v w="$w" -v c="$1" '$1 == "reduce" && $2 == p && $3 == w { v[++n] = $c }
          END { if (!n) { print "-"; exit }
          for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
          print v[int((n + 1) / 2)] }' "$out"; }
    echo "| $P | $w | $(m 4) | $(m 5) |"
  done
done
