#!/bin/sh
# The records of fixed programs (records_programs.c) must equal the golden
# file, for every thread count: all columns but the seconds.
# usage: run.sh <records_programs> <golden dir>
set -eu
prog=$1; here=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for t in 1 2 3; do
  "$prog" $t > "$scratch/out"
  BSPRAM_TRACE="$scratch/trace.csv" "$prog" $t bsplib
  cut -d, -f2-11 "$scratch/trace.csv" | sed 's/^/bsplib,/' >> "$scratch/out"
  if ! diff -u "$here/records.csv" "$scratch/out" > "$scratch/diff"; then
    head -40 "$scratch/diff"
    echo "records_golden: the records differ from the golden file with $t threads"
    exit 1
  fi
done
echo "records_golden: $(wc -l < "$here/records.csv") rows equal for 1, 2 and 3 threads"
