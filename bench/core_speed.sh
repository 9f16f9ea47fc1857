#!/bin/sh
# The core's speed, two builds side by side in one run (e.g. before and after
# a change): the router at p = 4096 with 64 MiB per superstep (8- and 64-byte
# messages) beside memcpy, BSPlib's empty sync, g and 1 MiB puts beside their
# references, the combining engine's degree-1 pattern, and the wall time of
# Valiant's three tables. Every round runs each figure for build A, then at
# once for build B, so both see the same machine; the medians over the rounds
# (with the least and the most) are printed as a table (Markdown), each figure
# beside its same-run reference. Table runs 0 leaves the tables out.
# usage: bench/core_speed.sh <build dir A> <build dir B> [rounds (3)] [table runs (500)]
set -eu
a=$1; b=$2; rounds=${3:-3}; table_runs=${4:-500}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# field <file> <awk program>: one number picked from a benchmark's output.
field() { awk "$2" "$1" | head -n 1; }

# Each figure runs for A, then at once for B, so that the two see the same
# machine (this kind of VM changes speed over minutes).
combine() { # <dir> <file>: the first row (degree 1, best basis) is all we need
  OMP_WAIT_POLICY=passive stdbuf -oL "$1/bench/bench_combine" 4096 1048576 2 5 > "$2" &
  pid=$!
  while kill -0 $pid 2>/dev/null && ! grep -q '^ *1  *best' "$2"; do sleep 0.2; done
  kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true
}
tables() { # <dir> <file>
  t0=$(date +%s.%N)
  for n in 1 2 3; do "$1/bspram" table --paper $n --runs "$table_runs" --threads 2 > /dev/null; done
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.1f\n", $2 - $1 }' > "$2"
}

i=1
while [ "$i" -le "$rounds" ]; do
  for s in A B; do if [ $s = A ]; then d=$a; else d=$b; fi; "$d/bench/bench_router" 64 6 4096 64 > "$out/${s}_$i.r64"; done
  for s in A B; do if [ $s = A ]; then d=$a; else d=$b; fi; "$d/bench/bench_router" 64 6 4096 8 > "$out/${s}_$i.r8"; done
  for s in A B; do if [ $s = A ]; then d=$a; else d=$b; fi; "$d/bench/bench_bsplib" > "$out/${s}_$i.bsp"; done
  for s in A B; do if [ $s = A ]; then d=$a; else d=$b; fi; combine "$d" "$out/${s}_$i.comb"; done
  if [ "$table_runs" -gt 0 ]; then
    for s in A B; do if [ $s = A ]; then d=$a; else d=$b; fi; tables "$d" "$out/${s}_$i.table"; done
  fi
  i=$((i + 1))
done

# median <side> <suffix> <awk program>: "median (least–most)" over the rounds
median() {
  for r in $(seq 1 "$rounds"); do [ -f "$out/${1}_$r.$2" ] && field "$out/${1}_$r.$2" "$3"; done |
    grep -v '^-$' | sort -g |
    awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR == 1) print v[1];
          else printf "%s (%s–%s)\n", v[int((NR + 1) / 2)], v[1], v[NR] }'
}

row() { # <figure> <suffix> <awk for the figure> <awk for the reference> <reference name>
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$(median A "$2" "$3")" "$(median B "$2" "$3")" \
    "$(median A "$2" "$4")" "$(median B "$2" "$4")"
}

router='$1 == 4096 && $4 == 2 { print $5 }'
memcpy='$1 == 4096 && $4 == 2 { print $6 }'
echo "rounds: $rounds; A = $a, B = $b; medians (reference: the same run's, A then B)"
echo
echo "| figure | A | B | reference (A) | reference (B) |"
echo "|---|---:|---:|---:|---:|"
row "router, 64-byte messages, p = 4096, T = 2, 64 MiB (GB/s; reference memcpy GB/s)" r64 "$router" "$memcpy"
row "router, 8-byte messages, same (GB/s; memcpy)" r8 "$router" "$memcpy"
row "empty bsp_sync, P = 2 (µs; a plain 2-thread dissemination barrier)" bsp \
  '/^empty sync P=2:/ { print $4 }' '/^empty sync P=2:/ { for (i = 1; i <= NF; i++) if ($i == "barrier:") { v = $(i + 1); sub(/[^0-9.]/, "", v); print v } }'
row "g, single-word bsp_put, P = 2 (ns per put)" bsp '/^g, single-word/ { print $5 }' '/^g, single-word/ { print "-" }'
row "1 MiB bsp_put, P = 2 (GB/s per process; memcpy GB/s)" bsp '/^1 MiB puts/ { print $5 }' \
  '/^1 MiB puts/ { v = $10; print v }'
row "empty bsp_sync, P = 4 on 2 cores (µs; libgomp barrier, 4 threads)" bsp '/^empty sync P=4:/ { print $4 }' \
  '/^empty sync P=4:/ { v = $10; print v }'
row "empty bsp_sync, P = 64 on 2 cores (µs; 64 threads yielding once each)" bsp '/^empty sync P=64:/ { print $4 }' \
  '/^empty sync P=64:/ { v = $11; print (v == "" ? "-" : v) }'
row "combining, degree 1, one phase, p = 4096, v = 2^20, T = 2 (M requests/s)" comb \
  '$1 == 1 && $2 ~ /^best/ { print $4 }' '$1 == 1 && $2 ~ /^best/ { print "-" }'
row "bspram table --paper 1, 2, 3 --runs $table_runs --threads 2 (s, wall, the three)" table '{ print $1 }' '{ print "-" }'
