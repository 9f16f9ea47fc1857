#!/bin/sh
# How the library's threads wait and where they run, quiet and beside busy
# loops (bench/RESULTS.md, "Waiting and placement"), in one run that can be
# repeated: every round has a quiet block, then a loaded one (LOADS busy
# loops, `sh -c 'while :; do :; done'`, 2 unless set, started before the
# block and killed after it and by the trap on exit); within a block every
# figure is one process run, in a fixed order, so the figures of a round are
# measured side by side:
#   - an empty bsp_sync at P = 2 (bench_contention sync 2 N) as the library
#     waits by default, forced to spin, to yield and to sleep at once
#     (BSPRAM_WAIT), and unbound (OMP_PROC_BIND=false); Open MPI's
#     MPI_Barrier on 2 ranks (mpi_barrier N, bound to cores as mpirun binds
#     2 ranks): windows of about 20 ms;
#   - a whole section at P = 2 (bsp_begin, one bsp_sync, bsp_end: bench_contention
#     section 2 SECTIONS) and a small PRAM run (bench_contention pram 2 PRAMS:
#     1024 VPs, 11 steps) as the library waits by default and under
#     BSPRAM_WAIT=spin, yield and sleep; with BEFORE=<build dir> also the
#     same two under that build's library (the code before a change, whose
#     teams were OpenMP's) under OMP_WAIT_POLICY unset, passive and active.
# The tables: per figure the median over the rounds (range in brackets),
# then the ratios the goals name.
# usage: bench/wait_policy.sh BUILD [rounds (9)] [out dir (wait-out)]
#   N=<least syncs per window> (200), SECTIONS= (10), PRAMS= (5), LOADS= (2),
#   BEFORE=<another build dir> (none), MPIRUN= (mpirun).
# As root mpirun needs --allow-run-as-root; --oversubscribe lets it start
# 2 ranks beside the busy loops.
# $mpiflags is a word list on purpose:
# shellcheck disable=SC2086
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd); rounds=${2:-9}; out=${3:-wait-out}
n=${N:-200}; sections=${SECTIONS:-10}; prams=${PRAMS:-5}; loads=${LOADS:-2}
mpirun=${MPIRUN:-mpirun}
mpiflags="--oversubscribe"
[ "$(id -u)" = 0 ] && mpiflags="$mpiflags --allow-run-as-root"
mkdir -p "$out"; out=$(cd "$out" && pwd)
cc=${CC:-cc}
# bench_contention from this tree's source against each library: they differ
# in the library alone.
sides="after"
$cc -O2 -fopenmp -DBSPRAM_ENGINE_API -I"$here/bsp" -I"$here" "$here/bench/bench_contention.c" -o "$out/bc-after" \
    -L"$build" -lbspram -Wl,-rpath,"$build"
if [ -n "${BEFORE:-}" ]; then
  before=$(cd "$BEFORE" && pwd); sides="before after"
  $cc -O2 -fopenmp -DBSPRAM_ENGINE_API -I"$here/bsp" -I"$here" "$here/bench/bench_contention.c" -o "$out/bc-before" \
      -L"$before" -lbspram -Wl,-rpath,"$before"
fi
mpicc -O2 "$here/bench/mpi_barrier.c" -o "$out/mpi_barrier"

pids=""
start_load() { k=0; while [ $k -lt "$loads" ]; do sh -c 'while :; do :; done' & pids="$pids $!"; k=$((k + 1)); done; sleep 0.5; }
stop_load() { [ -z "$pids" ] || kill $pids 2>/dev/null || true; wait 2>/dev/null || true; pids=""; }
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

raw=$out/raw.txt; : > "$raw"; : > "$out/load.txt"
rec() { echo "$1|$2|$3" >> "$raw"; } # load, label, value
# policy (unset: libgomp's default), command...: the output's 4th field
omp() {
  p=$1; shift
  if [ "$p" = unset ]; then env -u OMP_WAIT_POLICY "$@"; else OMP_WAIT_POLICY=$p "$@"; fi | cut -d, -f4
}
# policy (default: BSPRAM_WAIT unset; spin, yield, sleep), command...
bspram_wait() {
  p=$1; shift
  if [ "$p" = default ]; then env -u BSPRAM_WAIT "$@"; else BSPRAM_WAIT=$p "$@"; fi | cut -d, -f4
}
wait_as() { case $1 in unset|passive|active) omp "$@" ;; *) bspram_wait "$@" ;; esac; }
one_block() { # load
  l=$1
  rec "$l" "sync P=2 default" "$(env -u BSPRAM_WAIT "$out/bc-after" sync 2 "$n" | cut -d, -f4)"
  for w in spin yield sleep; do
    rec "$l" "sync P=2 $w" "$(BSPRAM_WAIT=$w "$out/bc-after" sync 2 "$n" | cut -d, -f4)"
  done
  rec "$l" "sync P=2 unbound" "$(OMP_PROC_BIND=false "$out/bc-after" sync 2 "$n" | cut -d, -f4)"
  rec "$l" "MPI_Barrier 2 ranks" "$("$mpirun" $mpiflags -np 2 "$out/mpi_barrier" "$n" | cut -d, -f4)"
  # Before: OpenMP's teams, under OMP_WAIT_POLICY; after: the library's own
  # threads, under BSPRAM_WAIT (OMP_WAIT_POLICY reaches no code they run).
  for side in $sides; do
    if [ "$side" = before ]; then policies="unset passive active"; else policies="default spin yield sleep"; fi
    for p in $policies; do
      rec "$l" "section P=2 $side $p" "$(wait_as $p "$out/bc-$side" section 2 "$sections")"
      rec "$l" "pram T=2 $side $p" "$(wait_as $p "$out/bc-$side" pram 2 "$prams")"
    done
  done
}
i=1
while [ "$i" -le "$rounds" ]; do
  echo "round $i quiet, /proc/loadavg before: $(cut -d' ' -f1-4 /proc/loadavg)" | tee -a "$out/load.txt" >&2
  one_block quiet
  start_load
  echo "round $i loaded, /proc/loadavg before: $(cut -d' ' -f1-4 /proc/loadavg)" | tee -a "$out/load.txt" >&2
  one_block loaded
  stop_load
  i=$((i + 1))
done

awk -F'|' '
function med(key,   n, i, j, v, a) {
  n = cnt[key]
  for (i = 1; i <= n; i++) a[i] = val[key, i]
  for (i = 2; i <= n; i++) { v = a[i]; for (j = i - 1; j >= 1 && a[j] > v; j--) a[j + 1] = a[j]; a[j + 1] = v }
  lo[key] = a[1]; hi[key] = a[n]
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 SUBSEP $2; if (!($2 in seen)) { seen[$2] = 1; order[++nk] = $2 } cnt[k]++; val[k, cnt[k]] = $3 }
function cell(l, f,   k) { k = l SUBSEP f; if (!cnt[k]) return "-"; m[l, f] = med(k); return sprintf("%.3f (%.3f–%.3f)", m[l, f], lo[k], hi[k]) }
function ratio(l, a, b) { return (m[l, b] > 0 && m[l, a] != "") ? sprintf("%.2f", m[l, a] / m[l, b]) : "-" }
function best(l, pre, list,   n, x, i, b) { n = split(list, x, " "); b = ""; for (i = 1; i <= n; i++) if (m[l, pre x[i]] != "" && (b == "" || m[l, pre x[i]] < b)) b = m[l, pre x[i]]; return b }
function rbest(l, a, pre, list,   b) { b = best(l, pre, list); return (b > 0) ? sprintf("%.2f", m[l, a] / b) : "-" }
END {
  printf "| figure (us) | quiet | loaded |\n|---|---:|---:|\n"
  for (i = 1; i <= nk; i++) printf "| %s | %s | %s |\n", order[i], cell("quiet", order[i]), cell("loaded", order[i])
  printf "\n| ratio (medians) | quiet | loaded |\n|---|---:|---:|\n"
  printf "| bsp_sync P=2 default / MPI_Barrier | %s | %s |\n", ratio("quiet", "sync P=2 default", "MPI_Barrier 2 ranks"), ratio("loaded", "sync P=2 default", "MPI_Barrier 2 ranks")
  printf "| bsp_sync P=2 default / best of spin, yield, sleep | %s | %s |\n", rbest("quiet", "sync P=2 default", "sync P=2 ", "spin yield sleep"), rbest("loaded", "sync P=2 default", "sync P=2 ", "spin yield sleep")
  printf "| bsp_sync P=2 unbound / bound (default) | %s | %s |\n", ratio("quiet", "sync P=2 unbound", "sync P=2 default"), ratio("loaded", "sync P=2 unbound", "sync P=2 default")
  split("before after", sd, " ")
  for (s = 1; s <= 2; s++) for (f = 1; f <= 2; f++) {
    fig = f == 1 ? "section P=2 " : "pram T=2 "
    if (m["quiet", fig sd[s] (s == 1 ? " unset" : " default")] == "" && m["loaded", fig sd[s] (s == 1 ? " unset" : " default")] == "") continue
    if (s == 1)
      printf "| %s%s: unset / best OMP_WAIT_POLICY | %s | %s |\n", fig, sd[s], rbest("quiet", fig sd[s] " unset", fig sd[s] " ", "unset passive active"), rbest("loaded", fig sd[s] " unset", fig sd[s] " ", "unset passive active")
    else
      printf "| %s%s: default / best BSPRAM_WAIT | %s | %s |\n", fig, sd[s], rbest("quiet", fig sd[s] " default", fig sd[s] " ", "default spin yield sleep"), rbest("loaded", fig sd[s] " default", fig sd[s] " ", "default spin yield sleep")
  }
}' "$raw"
echo
echo "/proc/loadavg (1 min, 5 min, 15 min, runnable/threads) before each block:"
sed 's/^/    /' "$out/load.txt"
echo "wait_policy: $rounds rounds, N = $n, SECTIONS = $sections, PRAMS = $prams, $loads busy loops when loaded${BEFORE:+, before = $BEFORE}; $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); raw figures in $raw"
