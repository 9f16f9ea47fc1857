#!/bin/sh
# Ranks that run no process of a section wait for rank 0's next one and
# leave when its program ends; leaving must be as clean as running: a
# program whose sections are smaller than the job (mpi/idle_ranks.c, both
# shapes) run many times on 4 ranks, every run with status 0, SUCCESS once
# and no line of a rank stopped by a signal or a sanitizer. Bounded by a
# count of runs (RUNS, 16 by default: well under a minute on a quiet
# 2-core machine), not by time. Under ASan, LeakSanitizer is off: Open MPI's
# own allocations outlive the program.
# usage: idle_ranks.sh <idle_ranks program>
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
set -u
prog=$1
runs=${RUNS:-16}
flags="--oversubscribe"
[ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fails=0
i=0
while [ "$i" -lt "$runs" ]; do
  shape=one
  [ $((i % 2)) -eq 1 ] && shape=sections
  # shellcheck disable=SC2086
  timeout 300 mpirun $flags -np 4 "$prog" "$shape" > "$out" 2>&1
  status=$?
  if [ "$status" -ne 0 ] || [ "$(grep -c '^SUCCESS$' "$out")" -ne 1 ] ||
      grep -qiE 'signal|segmentation|sanitizer|runtime error' "$out"; then
    echo "idle_ranks.sh: run $((i + 1)) ($shape) on 4 ranks: status $status:"
    cat "$out"
    fails=$((fails + 1))
  fi
  i=$((i + 1))
done
[ "$fails" -eq 0 ] || { echo "idle_ranks.sh: $fails of $runs runs failed"; exit 1; }
echo "idle_ranks.sh: $runs runs on 4 ranks, every rank left cleanly"
