#!/bin/sh
# Every measurement in bench/RESULTS.md says when it was made: each section
# that runs a command (`Command:`, ./build/…, bench/*.sh) names its day
# (YYYY-MM-DD) in its heading or text, or its enclosing section does — so
# that a figure of older code reads as such (the router's instruction
# counts stood undated after the router had changed).
# usage: results_dated.sh <source dir>
set -eu
cd "$1"
undated=$(awk '
  function flush() { if (name != "" && !dated && !parent_dated[level - 1] && figures) print start ": " name }
  /^##+ / {
    flush()
    level = length($1); name = $0; start = NR; figures = 0
    dated = ($0 ~ /20[0-9][0-9]-[01][0-9]-[0-3][0-9]/)
    for (k = level; k <= 6; k++) parent_dated[k] = dated && k == level
    next
  }
  /20[0-9][0-9]-[01][0-9]-[0-3][0-9]/ { dated = 1; parent_dated[level] = 1 }
  /Command|\.\/build\/|bench\/[a-z_]+\.sh/ { figures = 1 }
  END { flush() }' bench/RESULTS.md)
if [ -n "$undated" ]; then
  echo "results_dated: these sections of bench/RESULTS.md show measurements without their day:"
  printf '%s\n' "$undated"
  exit 1
fi
echo "results_dated: every measured section of bench/RESULTS.md names its day"
