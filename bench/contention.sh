#!/bin/sh
# bspram's superstep barrier on a loaded machine (bench/RESULTS.md,
# "Contention"), in one run: quiet, and with two busy loops
# (`sh -c 'while :; do :; done'`, one per core of a 2-core machine; LOADS=N
# for N of them) started before and killed after each loaded block (and by
# the trap on exit). Every round alternates, quiet then loaded:
#   - an empty bsp_sync at P = 2 (bench_contention sync 2 N), before (the
#     starting commit's libbspram) and after (this build's), after also with
#     OMP_WAIT_POLICY=passive and =active; Open MPI's MPI_Barrier on 2 ranks
#     (mpi_barrier N): all timed over windows of about 20 ms (at least N
#     episodes), longer than a scheduler timeslice;
#   - a whole section at P = 2, bsp_begin, one bsp_sync, bsp_end
#     (bench_contention section 2 SECTIONS), before and after with the three wait
#     policies: what libgomp's idle threads cost between sections;
#   - an 8-byte allgather and an 8-byte broadcast with bsp_coll at p = 2
#     (bench_coll ops, AUTO), before and after, against Open MPI's
#     (mpi_coll): both time windows of about 20 ms;
#   - an empty bsp_sync at P = 64 (oversubscribed), before and after.
# The table gives per figure the median over the rounds (range in brackets)
# and the ratios.
# usage: bench/contention.sh [after build (build-c)] [rounds (3)] [out dir (contention-out)]
#   BEFORE=<commit> (4d5bb13): the code before, built from `git archive` in
#   /tmp/c-before (sources in /tmp/c-before-src) unless already there.
#   N=<least episodes per window at P = 2> (200; windows of about 20 ms:
#   bench_contention.c says why); N64= the same at P = 64 (20);
#   SECTIONS=<sections per window> (10).
# As root, mpirun needs --allow-run-as-root; --oversubscribe lets it start 2
# ranks beside the busy loops.
# $mpiflags is a word list on purpose:
# shellcheck disable=SC2086
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
after=$(cd "${1:-$here/build-c}" && pwd); rounds=${2:-3}; out=${3:-contention-out}
before_commit=${BEFORE:-4d5bb13}
bsrc=/tmp/c-before-src; bbuild=/tmp/c-before
n=${N:-200}; loads=${LOADS:-2}; sections=${SECTIONS:-10}; n64=${N64:-20}
mpirun=${MPIRUN:-mpirun}
mpiflags="--oversubscribe"
[ "$(id -u)" = 0 ] && mpiflags="$mpiflags --allow-run-as-root"
mkdir -p "$out"; out=$(cd "$out" && pwd)

# The code before: its own sources and build, untouched by this worktree.
if [ ! -e "$bbuild/libbspram.so" ] || [ ! -x "$bbuild/bench/bench_coll" ]; then
  rm -rf "$bsrc"; mkdir -p "$bsrc"
  git -C "$here" archive "$before_commit" | tar -x -C "$bsrc"
  cmake -S "$bsrc" -B "$bbuild" -DCMAKE_BUILD_TYPE=Release -DBSPRAM_BUILD_DOCS=OFF \
        -DBSPRAM_BUILD_TESTS=OFF > "$out/before-build.log"
  make -C "$bbuild" -j2 bspram bench_coll >> "$out/before-build.log"
fi
# bench_contention is built from this tree's source against each library, so
# before and after differ in the library alone.
cc=${CC:-cc}
for side in before after; do
  if [ $side = before ]; then src=$bsrc; lib=$bbuild; else src=$here; lib=$after; fi
  $cc -O2 -fopenmp -I"$src/bsp" -I"$src" "$here/bench/bench_contention.c" -o "$out/bc-$side" \
      -L"$lib" -lbspram -Wl,-rpath,"$lib"
done
mpicc -O2 "$here/bench/mpi_barrier.c" -o "$out/mpi_barrier"
bcoll_before=$bbuild/bench/bench_coll; bcoll_after=$after/bench/bench_coll
mpi_coll=$after/bench/mpi_coll
[ -x "$mpi_coll" ] || { echo "contention: $mpi_coll not built (no MPI found by cmake)" >&2; exit 1; }

pids=""
start_load() { k=0; while [ $k -lt "$loads" ]; do sh -c 'while :; do :; done' & pids="$pids $!"; k=$((k + 1)); done; sleep 0.5; }
stop_load() { [ -z "$pids" ] || kill $pids 2>/dev/null || true; wait 2>/dev/null || true; pids=""; }
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM

raw=$out/raw.txt; : > "$raw"; : > "$out/load.txt"
rec() { # load, label, value
  echo "$1|$2|$3" >> "$raw"
}
pol() { # policy (default: unset), command...: the output's 4th field
  p=$1; shift
  if [ "$p" = default ]; then env -u OMP_WAIT_POLICY "$@"; else OMP_WAIT_POLICY=$p "$@"; fi | cut -d, -f4
}
coll() { # program and its arguments: "op,us" of the 8-byte allgather and broadcast (AUTO)
  "$@" p=2 ops=allgather,broadcast sizes=8 algs=none | grep '^coll,' | cut -d, -f3,6 | tr '\n' ' '
}
one_round() { # load
  l=$1
  rec "$l" "sync P=2 before" "$(pol default "$out/bc-before" sync 2 "$n")"
  rec "$l" "MPI_Barrier 2 ranks" "$("$mpirun" $mpiflags -np 2 "$out/mpi_barrier" "$n" | cut -d, -f4)"
  for p in default passive active; do
    rec "$l" "sync P=2 after $p" "$(pol $p "$out/bc-after" sync 2 "$n")"
  done
  for p in default passive active; do
    rec "$l" "section P=2 before $p" "$(pol $p "$out/bc-before" section 2 "$sections")"
    rec "$l" "section P=2 after $p" "$(pol $p "$out/bc-after" section 2 "$sections")"
  done
  for side in before mpi after; do
    case $side in
      before) r=$(coll "$bcoll_before" ops) ;;
      after) r=$(coll "$bcoll_after" ops) ;;
      mpi) r=$(coll "$mpirun" $mpiflags -np 2 "$mpi_coll") ;;
    esac
    for kv in $r; do rec "$l" "${kv%%,*} 8 B $side" "${kv#*,}"; done
  done
  rec "$l" "sync P=64 before" "$(pol default "$out/bc-before" sync 64 "$n64")"
  rec "$l" "sync P=64 after" "$(pol default "$out/bc-after" sync 64 "$n64")"
}
i=1
while [ "$i" -le "$rounds" ]; do
  echo "round $i quiet, /proc/loadavg before: $(cut -d' ' -f1-4 /proc/loadavg)" | tee -a "$out/load.txt" >&2
  one_round quiet
  start_load
  echo "round $i loaded, /proc/loadavg before: $(cut -d' ' -f1-4 /proc/loadavg)" | tee -a "$out/load.txt" >&2
  one_round loaded
  stop_load
  i=$((i + 1))
done

# The table: median (range) per load and figure, then the ratios.
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
function ratio(l, a, b) { return (m[l, b] > 0) ? sprintf("%.2f", m[l, a] / m[l, b]) : "-" }
END {
  printf "| figure (us) | quiet | loaded |\n|---|---:|---:|\n"
  for (i = 1; i <= nk; i++) printf "| %s | %s | %s |\n", order[i], cell("quiet", order[i]), cell("loaded", order[i])
  printf "\n| ratio | quiet | loaded |\n|---|---:|---:|\n"
  printf "| bsp_sync P=2 / MPI_Barrier, before | %s | %s |\n", ratio("quiet", "sync P=2 before", "MPI_Barrier 2 ranks"), ratio("loaded", "sync P=2 before", "MPI_Barrier 2 ranks")
  printf "| bsp_sync P=2 / MPI_Barrier, after | %s | %s |\n", ratio("quiet", "sync P=2 after default", "MPI_Barrier 2 ranks"), ratio("loaded", "sync P=2 after default", "MPI_Barrier 2 ranks")
  split("allgather broadcast", ops, " ")
  for (j = 1; j <= 2; j++) for (s = 0; s < 2; s++) {
    side = s ? "after" : "before"
    printf "| %s 8 B bspram / Open MPI, %s | %s | %s |\n", ops[j], side, ratio("quiet", ops[j] " 8 B " side, ops[j] " 8 B mpi"), ratio("loaded", ops[j] " 8 B " side, ops[j] " 8 B mpi")
  }
  printf "| sync P=2 after / before | %s | %s |\n", ratio("quiet", "sync P=2 after default", "sync P=2 before"), ratio("loaded", "sync P=2 after default", "sync P=2 before")
  printf "| sync P=64 after / before | %s | %s |\n", ratio("quiet", "sync P=64 after", "sync P=64 before"), ratio("loaded", "sync P=64 after", "sync P=64 before")
  for (j = 1; j <= 3; j++) { split("default passive active", ps, " ")
    printf "| section P=2 after, %s / default | %s | %s |\n", ps[j], ratio("quiet", "section P=2 after " ps[j], "section P=2 after default"), ratio("loaded", "section P=2 after " ps[j], "section P=2 after default") }
}' "$raw"
echo
echo "/proc/loadavg (1 min, 5 min, 15 min, runnable/threads) before each block:"
sed 's/^/    /' "$out/load.txt"
echo "contention: $rounds rounds, N = $n, N64 = $n64, SECTIONS = $sections, $loads busy loops when loaded; $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); raw figures in $raw"
