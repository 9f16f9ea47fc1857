#!/bin/sh
# The data plane's six goals, before and after, in one run on one machine
# (bench/RESULTS.md, "The data plane"): the code before is a commit built
# apart from `git archive`, with this tree's bench_router.c, bench_combine.c
# and bench_pram.c laid over it so that both sides run the same harness;
# "after" is a configured and built Release tree. In order:
#   1. router: bench_router 64 8 4096 LEN (p = 4096, 64 MiB per superstep,
#      LEN = 64 and 8 bytes), before then after, ROUNDS times; the T = 2 rows'
#      router rate against memcpy in the same run, medians;
#   2-3. bench/engine.sh: the combining engine at degree 1 and the PRAM
#      against OpenMP atomics (2^24 operations, 2^20 VPs, p = 4096, T = 2);
#   4. bench/memory.sh: peak RSS of the prefix sums at n = 2^22 and of a
#      BSPlib program that only synchronises at P = 4096 and 16384;
#   5. bench/contention.sh: bsp_sync and 8-byte collectives beside two busy
#      loops, against Open MPI's under the same load;
# (6, records and results unchanged, is the test suite's: records_golden.)
#
# usage: bench/data_plane.sh [after build (build)] [rounds (3)] [out dir (data-plane-out)]
#   BEFORE=<commit> (4d5bb13), built in /tmp/dp-before-src/build unless there.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
after=$(cd "${1:-$here/build}" && pwd); rounds=${2:-3}; out=${3:-data-plane-out}
before_commit=${BEFORE:-4d5bb13}
bsrc=/tmp/dp-before-src; before=$bsrc/build
mkdir -p "$out"; out=$(cd "$out" && pwd)

if [ ! -x "$before/bench/bench_pram" ] || [ ! -x "$before/pram_prefix_sums" ]; then
  rm -rf "$bsrc"; mkdir -p "$bsrc"
  git -C "$here" archive "$before_commit" | tar -x -C "$bsrc"
  cp "$here/bench/bench_router.c" "$here/bench/bench_combine.c" "$here/bench/bench_pram.c" "$bsrc/bench/"
  cmake -S "$bsrc" -B "$before" -DCMAKE_BUILD_TYPE=Release -DBSPRAM_BUILD_DOCS=OFF > "$out/before-build.log"
  make -C "$before" -j2 bspram bench_router bench_combine bench_pram pram_prefix_sums >> "$out/before-build.log"
fi

echo "# bench/data_plane.sh: before $before_commit ($before), after $after; $rounds rounds"
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"

echo; echo "## 1. Router (bench_router, p = 4096, T = 2, 64 MiB per superstep)"
i=1
while [ "$i" -le "$rounds" ]; do
  for side in before after; do
    if [ $side = before ]; then d=$before; else d=$after; fi
    for len in 64 8; do
      "$d/bench/bench_router" 64 8 4096 "$len" > "$out/router_${side}_${len}_$i.txt"
    done
  done
  i=$((i + 1))
done
# "  p  len  h  T  router GB/s  memcpy GB/s  pct  speedup": the T = 2 rows.
for f in "$out"/router_*_*_*.txt; do
  side=$(basename "$f" | cut -d_ -f2)
  awk -v s="$side" '$1 == 4096 && $4 == 2 { sub(/%/, "", $7); print s, $2, $5, $6, $5 / $6 * 100 }' "$f"
done > "$out/router_rows.txt"
awk '
function med(k,   n, i, j, t, a) {
    n = cnt[k]; for (i = 1; i <= n; i++) a[i] = val[k, i]
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ for (c = 3; c <= 5; c++) { k = $1 " " $2 " " c; val[k, ++cnt[k]] = $c } }
END {
    print "| message | before: router GB/s | memcpy GB/s | % of memcpy | after: router GB/s | memcpy GB/s | % of memcpy |"
    print "|---|---:|---:|---:|---:|---:|---:|"
    split("64 8", L, " ")
    for (i = 1; i <= 2; i++)
        printf "| %s B | %.2f | %.2f | %.1f %% | %.2f | %.2f | %.1f %% |\n", L[i],
            med("before " L[i] " 3"), med("before " L[i] " 4"), med("before " L[i] " 5"),
            med("after " L[i] " 3"), med("after " L[i] " 4"), med("after " L[i] " 5")
}' "$out/router_rows.txt"

echo; echo "## 2-3. Combining engine and PRAM against OpenMP atomics (bench/engine.sh)"
"$here/bench/engine.sh" "$before" "$after" "$rounds" 2 "$out/engine"

echo; echo "## 4. Peak memory (bench/memory.sh)"
"$here/bench/memory.sh" "$before" "$after" "22" "4096 16384"

echo; echo "## 5. Contention (bench/contention.sh)"
BEFORE=$before_commit "$here/bench/contention.sh" "$after" "$rounds" "$out/contention"
