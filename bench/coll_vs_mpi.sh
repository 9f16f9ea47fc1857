#!/bin/sh
# bspram's collectives against Open MPI's, in one run (bench/RESULTS.md,
# "Collectives"): every round runs, for each p, bench_coll ops (bspram) and
# then mpi_coll (Open MPI) with the same operations and sizes, so both see the
# same machine; the table gives per (op, p, size) the median over the rounds
# of each one's time per call (each itself a median of 5 repetitions), with
# the range, and the ratio Open MPI / bspram (> 1: bspram faster), for
# bspram's AUTO and for its best forced algorithm.
# usage: bench/coll_vs_mpi.sh <build dir> [rounds (3)] [out dir (coll-vs-mpi)] [p list (2 4)]
# Extra arguments of both programs (e.g. "ms=10 sizes=8,4096") go in $ARGS.
# As root, mpirun needs --allow-run-as-root; --oversubscribe lets p exceed the cores.
set -eu
build=$1; rounds=${2:-3}; out=${3:-coll-vs-mpi}; plist=${4:-2 4}
args=${ARGS:-}
mpirun=${MPIRUN:-mpirun}
mpiflags="--oversubscribe"
[ "$(id -u)" = 0 ] && mpiflags="$mpiflags --allow-run-as-root"
[ -x "$build/bench/mpi_coll" ] || { echo "coll_vs_mpi: $build/bench/mpi_coll not built (no MPI found by cmake)" >&2; exit 1; }
mkdir -p "$out"
i=1
while [ "$i" -le "$rounds" ]; do
  for p in $plist; do
    # shellcheck disable=SC2086
    "$build/bench/bench_coll" ops "p=$p" $args > "$out/bspram_p${p}_$i.txt"
    # shellcheck disable=SC2086
    "$mpirun" $mpiflags -np "$p" "$build/bench/mpi_coll" $args > "$out/mpi_p${p}_$i.txt"
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
  if ($2 == "bspram") { aalg[k] = $7; balg[k] = $9 }
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
echo "coll_vs_mpi: $rounds rounds, p = $plist, outputs in $out"
