#!/bin/sh
# The engine's goals, before and after a change, in one run (builds nothing):
# every round runs, for the "before" build and then the "after" build,
#   bench_combine 4096 1048576 T 5 1   the degree-1 rows (p = 4096, 2^20 REDUCE
#                                      sum:u64 requests; one phase = "best:4096",
#                                      and the one-phase base it alternates with)
#   bench_pram atomics 1 T             2^24 operations by 2^20 VPs, p = 4096,
#                                      default settings: PRAM scatter-reduce
#                                      against `omp atomic`, fetch-and-add against
#                                      `omp atomic capture`, degree 1, 64 and all
#                                      to one cell (alternating inside too)
# and prints the medians over the rounds as markdown tables. The cores are
# shared, so only ratios taken in the same run mean much.
#
# usage: bench/engine.sh <before build dir> <after build dir> [rounds (3)] [threads (2)] [out dir]
set -eu
A=$1
B=$2
rounds=${3:-3}
T=${4:-2}
out=${5:-$(mktemp -d)}
mkdir -p "$out"
echo "# bench/engine.sh $A (before) $B (after): $rounds rounds, T = $T, outputs in $out"
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC')"
i=1
while [ "$i" -le "$rounds" ]; do
  for side in before after; do
    if [ $side = before ]; then d=$A; else d=$B; fi
    OMP_WAIT_POLICY=passive "$d/bench/bench_combine" 4096 1048576 "$T" 5 1 > "$out/combine_${side}_$i.txt"
    "$d/bench/bench_pram" atomics 1 "$T" > "$out/pram_${side}_$i.txt"
  done
  echo "# round $i done ($(date -u +%H:%M:%S))"
  i=$((i + 1))
done

# The rows, one line each: side key value.
for side in before after; do
  for f in "$out"/combine_${side}_*.txt; do
    # " 1  best:4096  ms  Mreq/s  base ms (Mreq/s) ..."
    awk -v s=$side '$2 ~ /^best:/ { print s, "combine_best", $4; gsub(/[()]/, " "); print s, "combine_base", $6 }
                    $2 ~ /^auto:/ { print s, "combine_auto", $4 }' "$f"
  done
  for f in "$out"/pram_${side}_*.txt; do
    # "| degree | cells | atomic | SR | SR/atomic | capture | FA | FA/capture |"
    awk -F'|' -v s=$side '/^\| [0-9a]/ { d = $2; gsub(/ |\(.*\)/, "", d);
        r1 = $6; r2 = $9; gsub(/[ ×]/, "", r1); gsub(/[ ×]/, "", r2);
        print s, "atomic_" d, $4 + 0; print s, "sr_" d, $5 + 0; print s, "srratio_" d, r1;
        print s, "capture_" d, $7 + 0; print s, "fa_" d, $8 + 0; print s, "faratio_" d, r2 }' "$f"
  done
done > "$out/rows.txt"

awk '
function med(k,   n, i, j, t, a) {
    n = cnt[k]; if (!n) return "-";
    for (i = 1; i <= n; i++) a[i] = val[k, i];
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 " " $2; val[k, ++cnt[k]] = $3 }
END {
    print ""
    print "| bench_combine, degree 1 (M requests/s) | before | after | after / before |"
    print "|---|---:|---:|---:|"
    split("combine_best combine_base combine_auto", K, " ")
    split("one phase (best:4096)|the one-phase base it alternates with|auto, no hint (32x16x8)", N, "|")
    for (i = 1; i <= 3; i++) {
        b = med("before " K[i]); a = med("after " K[i])
        printf "| %s | %.1f | %.1f | %.2f× |\n", N[i], b, a, a / b
    }
    print ""
    print "| PRAM, default settings | before | after |"
    print "|---|---:|---:|"
    split("1 64 all", D, " ")
    for (i = 1; i <= 3; i++) {
        d = D[i]
        printf "| degree %s: omp atomic (Mop/s) | %.1f | %.1f |\n", d, med("before atomic_" d), med("after atomic_" d)
        printf "| degree %s: PRAM scatter-reduce (Mop/s) | %.2f | %.2f |\n", d, med("before sr_" d), med("after sr_" d)
        printf "| degree %s: **scatter-reduce / atomic** (time) | %.1f× | %.1f× |\n", d, med("before srratio_" d), med("after srratio_" d)
        printf "| degree %s: omp atomic capture (Mop/s) | %.1f | %.1f |\n", d, med("before capture_" d), med("after capture_" d)
        printf "| degree %s: PRAM fetch-and-add (Mop/s) | %.2f | %.2f |\n", d, med("before fa_" d), med("after fa_" d)
        printf "| degree %s: **fetch-and-add / atomic capture** (time) | %.1f× | %.1f× |\n", d, med("before faratio_" d), med("after faratio_" d)
    }
}' "$out/rows.txt"
