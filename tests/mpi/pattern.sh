#!/bin/sh
# The message pattern over MPI (BSPRAM_PATTERN=1, bsp_model_keep_pattern):
# each rank keeps its processes' part and the parts are put together when
# the pattern is read, so a program's trace on 2 and 3 ranks (libbspram-mpi)
# holds the flows and loads of its shared-memory run (libbspram) — every
# column but the times, and of the loads the work — and it prints the same
# (docs/models.md's program prices its own supersteps from the pattern).
# With $BSPRAM_TOOL (the bspram command) the MPI run's trace is priced by
# `bspram models` as the shared-memory one is, and `bspram prof --html`
# draws it. $RANKS replaces the numbers of ranks.
# usage: pattern.sh <shared-memory program> <the same program, MPI build> [args...]
set -eu
shm=$1; mpi=$2; shift 2
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The columns compared: all but seconds and exchange_seconds, the loads'
# seconds dropped (work:seconds -> work).
columns() {
    awk -F, 'NR == 1 { print; next }
        { loads = $16; n = split(loads, l, " "); loads = ""
          for (i = 1; i <= n; i++) { sub(/:.*/, "", l[i]); loads = loads (i > 1 ? " " : "") l[i] }
          $12 = ""; $13 = ""; $16 = loads; print }' OFS=, "$1"
}
BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/shm.csv" "$shm" "$@" > "$scratch/want_out"
columns "$scratch/shm.csv" > "$scratch/want"
[ "$(wc -l < "$scratch/want")" -gt 1 ] || { echo "pattern.sh: $shm wrote no records"; exit 1; }
grep -q ':' "$scratch/want" || { echo "pattern.sh: $shm kept no pattern"; exit 1; }
for n in ${RANKS:-2 3}; do
  BSPRAM_PATTERN=1 BSPRAM_TRACE="$scratch/mpi.csv" sh "$here/run.sh" "$n" "$mpi" "$@" > "$scratch/out" 2>&1 ||
    { cat "$scratch/out"; exit 1; }
  columns "$scratch/mpi.csv" > "$scratch/got"
  if ! diff -u "$scratch/want" "$scratch/got" > "$scratch/diff"; then
    head -30 "$scratch/diff"
    echo "pattern.sh: on $n ranks the pattern of $mpi differs from shared memory's"
    exit 1
  fi
  if ! diff -u "$scratch/want_out" "$scratch/out" > "$scratch/diff"; then
    head -30 "$scratch/diff"
    echo "pattern.sh: on $n ranks $mpi prints otherwise than on shared memory"
    exit 1
  fi
  if [ -n "${BSPRAM_TOOL:-}" ]; then
    "$BSPRAM_TOOL" models "$scratch/shm.csv" > "$scratch/price_want"
    "$BSPRAM_TOOL" models "$scratch/mpi.csv" > "$scratch/price_got"
    if ! diff -u "$scratch/price_want" "$scratch/price_got"; then
      echo "pattern.sh: on $n ranks bspram models prices the trace of $mpi otherwise"
      exit 1
    fi
    "$BSPRAM_TOOL" prof "$scratch/mpi.csv" --html "$scratch/prof.html" > /dev/null
    grep -q '"loads":{"kept":\[1' "$scratch/prof.html" ||
      { echo "pattern.sh: bspram prof --html drew no page for $n ranks"; exit 1; }
  fi
done
echo "pattern.sh: $(($(wc -l < "$scratch/want") - 1)) records with their pattern equal on ${RANKS:-2 3} ranks"
