#!/bin/sh
# Build with warnings as errors and run every test (ctest).
# BSPRAM_SANITIZE=1 builds in build-asan with -fsanitize=address,undefined.
set -eu
cd "$(dirname "$0")/.."
if [ "${BSPRAM_SANITIZE:-0}" = 1 ]; then
  dir=build-asan; extra="-DBSPRAM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DBSPRAM_BUILD_BENCH=OFF"
else
  dir=build; extra=""
fi
cmake -S . -B "$dir" -DBSPRAM_WERROR=ON $extra >/dev/null
cmake --build "$dir" -j "$(nproc)"
ctest --test-dir "$dir" --output-on-failure -j 2
