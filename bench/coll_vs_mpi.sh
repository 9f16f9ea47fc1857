#!/bin/sh
# bspram's collectives against Open MPI's, in one run (bench/RESULTS.md,
# "Collectives"): every round runs, for each p, operation and size, bench_coll
# ops (bspram) and mpi_coll (Open MPI) back to back, so both see the same
# machine; the table gives per (op, p, size) the median over the rounds
# of each one's time per call (each itself a median of 5 repetitions), with
# the range, and the ratio Open MPI / bspram (> 1: bspram faster), for
# bspram's AUTO and for its best forced algorithm (the "best" column names
# the algorithm that was best in most rounds).
# usage: bench/coll_vs_mpi.sh <build dir> [rounds (3)] [out dir (coll-vs-mpi)] [p list (2 4)]
# (rounds 0: no runs, only the table of the outputs already in the out dir,
# e.g. of several runs' files gathered there under distinct round numbers)
# Extra arguments of both programs (e.g. "ms=10 reps=7") go in $ARGS; the
# operations and sizes in $OPS and $SIZES (space-separated). OPS defaults to
# alltoall allgather broadcast allreduce; all eight of bsp_coll.h are
# available: those and scatter gather reduce scan (rooted ones at root 0;
# reduce and scan on size/8 int64 words, as allreduce).
# QUIET=N (seconds, default 0: off): before each program, wait up to N s for
# a quiet machine (no other runnable task in 3 samples of /proc/loadavg one
# second apart); /proc/loadavg before and after every program goes to
# OUT/load.txt either way.
# As root, mpirun needs --allow-run-as-root; --oversubscribe lets p exceed the cores.
# $args, $mpiflags, $ops, $sizes and $plist are word lists on purpose:
# shellcheck disable=SC2086
set -eu
build=$1; rounds=${2:-3}; out=${3:-coll-vs-mpi}; plist=${4:-2 4}
args=${ARGS:-}
ops=${OPS:-alltoall allgather broadcast allreduce}
sizes=${SIZES:-8 64 512 4096 32768 262144}
mpirun=${MPIRUN:-mpirun}
mpiflags="--oversubscribe"
[ "$(id -u)" = 0 ] && mpiflags="$mpiflags --allow-run-as-root"
[ -x "$build/bench/mpi_coll" ] || { echo "coll_vs_mpi: $build/bench/mpi_coll not built (no MPI found by cmake)" >&2; exit 1; }
quiet=${QUIET:-0}
mkdir -p "$out"
if [ "$rounds" -gt 0 ]; then # rounds 0: tabulate what OUT already holds
  rm -f "$out"/bspram_p*_*.txt "$out"/mpi_p*_*.txt
  : > "$out/load.txt"
fi
wait_quiet() {
  [ "$quiet" -gt 0 ] || return 0
  t=0; calm=0
  while [ "$t" -lt "$quiet" ] && [ "$calm" -lt 3 ]; do
    r=$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)   # runnable now, this reader included
    if [ "$r" -le 1 ]; then calm=$((calm + 1)); else calm=0; fi
    sleep 1; t=$((t + 1))
  done
}
run() { # label, command...
  label=$1; shift
  wait_quiet
  echo "$label before: $(cat /proc/loadavg)" >> "$out/load.txt"
  "$@"
  echo "$label after:  $(cat /proc/loadavg)" >> "$out/load.txt"
}
# Fine-grained alternation: each (p, op, size) is one bench_coll and one
# mpi_coll run, back to back, the order swapped every round; on a shared
# machine both sides then see nearly the same load.
i=1
while [ "$i" -le "$rounds" ]; do
  for p in $plist; do
    for op in $ops; do
      for size in $sizes; do
        b="$out/bspram_p${p}_$i.txt"; m="$out/mpi_p${p}_$i.txt"
        one_b() { run "bspram p=$p $op $size round $i" "$build/bench/bench_coll" ops "p=$p" "ops=$op" "sizes=$size" $args >> "$b"; }
        one_m() { run "openmpi p=$p $op $size round $i" "$mpirun" $mpiflags -np "$p" "$build/bench/mpi_coll" "ops=$op" "sizes=$size" $args >> "$m"; }
        if [ $((i % 2)) = 1 ]; then one_b; one_m; else one_m; one_b; fi
      done
    done
  done
  i=$((i + 1))
done

# The table: lines "coll,<impl>,<op>,<p>,<size>,<auto us>,<auto alg>,<best us>,<best alg>".
cat "$out"/bspram_p*_*.txt "$out"/mpi_p*_*.txt | grep '^coll,' | awk -F, '
function med(key,   n, i, j, v, a) {
  n = cnt[key]
  for (i = 1; i <= n; i++) a[i] = val[key, i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  lo[key] = a[1]; hi[key] = a[n]
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(key, v) { if (v == "-") return; cnt[key]++; val[key, cnt[key]] = v }
{
  k = $3 SUBSEP $4 SUBSEP $5
  if (!(k in seen)) { seen[k] = 1; order[++nk] = k }
  add($2 "auto" SUBSEP k, $6); add($2 "best" SUBSEP k, $8)
  if ($2 == "bspram") { aalg[k] = $7; nb[k, $9]++; if (nb[k, $9] > nbest[k]) { nbest[k] = nb[k, $9]; balg[k] = $9 } }
}
END {
  printf "| op | p | size (B) | bspram AUTO (us) | AUTO picks | bspram best forced (us) | best | Open MPI (us) | MPI / AUTO | MPI / best |\n"
  printf "|---|---:|---:|---:|---|---:|---|---:|---:|---:|\n"
  for (i = 1; i <= nk; i++) {
    k = order[i]; split(k, f, SUBSEP)
    ba = "bspramauto" SUBSEP k; bb = "bsprambest" SUBSEP k; m = "openmpiauto" SUBSEP k
    if (!cnt[m] || (!cnt[ba] && !cnt[bb])) continue
    mm = med(m)
    s1 = "-"; r1 = "-"; s2 = "-"; r2 = "-"
    if (cnt[ba]) { x = med(ba); s1 = sprintf("%.2f (%.2f–%.2f)", x, lo[ba], hi[ba]); r1 = sprintf("%.2f", mm / x) }
    if (cnt[bb]) { y = med(bb); s2 = sprintf("%.2f (%.2f–%.2f)", y, lo[bb], hi[bb]); r2 = sprintf("%.2f", mm / y) }
    a = aalg[k]; sub(/^auto=/, "", a)
    printf "| %s | %s | %s | %s | %s | %s | %s | %.2f (%.2f–%.2f) | %s | %s |\n", f[1], f[2], f[3], s1, a, s2, balg[k], mm, lo[m], hi[m], r1, r2
  }
}'
echo
sed 's/.*: *//' "$out/load.txt" | awk 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
  END { printf "load average (1 min) around the programs: %.2f to %.2f (%s)\n", lo, hi, f }' f="$out/load.txt"
echo "coll_vs_mpi: $rounds rounds, p = $plist, outputs in $out"
