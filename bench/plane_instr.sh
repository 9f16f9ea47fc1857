#!/bin/sh
# Instructions per operation of the data plane (cachegrind, which the load
# does not move): bench_plane with 1 and with 2 scatter-reduce calls of 2^20
# operations by 2^20 VPs, p = 4096, T = 2, at the default basis and with one
# phase; (count(2) - count(1)) / 2^20. With a second build directory, both
# side by side (before, after). FORM=fetch: fetch-and-add calls instead (the
# reverse flow).
#   usage: [FORM=fetch] bench/plane_instr.sh BUILD [BUILD2] [log2 ops (20)]
set -eu
lops=${3:-20}
count() { # build reps basis -> instructions
  f=$(mktemp)
  valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$f" \
    "$1/bench/bench_plane" "$2" "$lops" 20 4096 2 "$3" ${FORM:-} > /dev/null 2>&1
  awk '/^summary:/ { print $2 }' "$f"; rm -f "$f"
}
echo "# bench/plane_instr.sh: instructions per ${FORM:-scatter-reduce} operation, 2^$lops operations by 2^20 VPs, p = 4096, T = 2"
echo "# $(lscpu | sed -n 's/^Model name: *//p'); $(date -u '+%Y-%m-%d %H:%M UTC')"
printf '| build | default basis | one phase |\n|---|---:|---:|\n'
for b in "$@"; do
  case $b in [0-9]|[0-9][0-9]) continue;; esac
  row="| $b"
  for basis in default one; do
    c1=$(count "$b" 1 $basis); c2=$(count "$b" 2 $basis)
    row="$row | $(( (c2 - c1) >> lops ))"
  done
  echo "$row |"
done
