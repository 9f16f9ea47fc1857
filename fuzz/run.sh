#!/bin/sh
# Build the parsers' libFuzzer harnesses with clang (build-fuzz) and run each
# for a few seconds on a copy of its seed corpus (fuzz/corpus/<name>; the
# tree is never written). Any crash, failed invariant, leak or timeout fails.
#   BSPRAM_FUZZ_SECONDS  seconds per harness (default 10)
#   BSPRAM_FUZZ_SEED     libFuzzer's -seed (default 1: the same run each time)
set -eu
cd "$(dirname "$0")/.."
seconds=${BSPRAM_FUZZ_SECONDS:-10}
seed=${BSPRAM_FUZZ_SEED:-1}
dir=build-fuzz
CC=${FUZZ_CC:-clang} cmake -S . -B "$dir" -DBSPRAM_FUZZ=ON -DBSPRAM_WERROR=ON -DCMAKE_BUILD_TYPE=Debug \
  -DBSPRAM_BUILD_TESTS=OFF -DBSPRAM_BUILD_BENCH=OFF >/dev/null
cmake --build "$dir" -j "$(nproc)" --target fuzz_number fuzz_basis fuzz_params fuzz_table_options fuzz_pram_report

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for name in number basis params table_options pram_report; do
  mkdir -p "$tmp/$name/corpus" "$tmp/$name/artifacts"
  cp fuzz/corpus/"$name"/* "$tmp/$name/corpus/"
  # -timeout: one input taking a second is a hang; -rss_limit_mb: a
  # runaway allocation; detect_leaks is on by default under ASan.
  if "$dir/fuzz/fuzz_$name" -max_total_time="$seconds" -seed="$seed" -timeout=1 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$tmp/$name/artifacts/" "$tmp/$name/corpus" \
       >"$tmp/$name/log" 2>&1; then
    echo "fuzz_$name: ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$tmp/$name/log" | grep -o '[0-9]*$') runs in ${seconds}s)"
  else
    status=1
    echo "fuzz_$name: FAILED; the end of its log:"
    tail -n 60 "$tmp/$name/log"
    for f in "$tmp/$name/artifacts"/*; do
      [ -e "$f" ] || continue
      echo "-- input $(basename "$f") (base64; add it to fuzz/corpus/$name once fixed):"
      base64 "$f"
    done
  fi
done
exit $status
