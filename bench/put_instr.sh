#!/bin/sh
# Instructions per single-word bsp_put, sender and receiver together
# (cachegrind, which the load does not move): bench_bsplib part 6 (P = 2,
# every put to the other process) and part 7 (P = 4, puts to the three
# others in turn), with K and 2K supersteps of 1024 puts per process;
# (count(2K) - count(K)) / (K * 1024 * P), which includes 1/1024 of a
# superstep's sync per put. Waiting threads sleep (OMP_WAIT_POLICY=passive,
# BSPRAM_WAIT=sleep) and valgrind schedules fairly, so that spinning counts
# little. Several build directories: side by side.
#   usage: bench/put_instr.sh BUILD [BUILD2 ...]
set -eu
K=${K:-16}
count() { # build part supersteps -> instructions
  f=$(mktemp)
  OMP_WAIT_POLICY=passive BSPRAM_WAIT=sleep valgrind --tool=cachegrind --cache-sim=no --fair-sched=yes \
    --cachegrind-out-file="$f" \
    "$1/bench/bench_bsplib" "$3" "$2" > /dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$f"; rm -f "$f"
}
echo "# bench/put_instr.sh: instructions per single-word bsp_put (sender + receiver), K = $K and $((2 * K)) supersteps of 1024 puts a process"
echo "# $(lscpu | sed -n 's/^Model name: *//p'); $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '| build | P = 2, one destination | P = 4, three destinations interleaved |\n|---|---:|---:|\n'
for b in "$@"; do
  row="| $b"
  for part in 6 7; do
    P=$([ $part = 6 ] && echo 2 || echo 4)
    c1=$(count "$b" $part $K); c2=$(count "$b" $part $((2 * K)))
    row="$row | $(echo "scale=1; ($c2 - $c1) / ($K * 1024 * $P)" | bc)"
  done
  echo "$row |"
done
