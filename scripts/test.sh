#!/bin/sh
# Build with warnings as errors and run every test (ctest).
# BSPRAM_SANITIZE=1 builds in build-asan with -fsanitize=address,undefined.
# BSPRAM_TSAN=1 builds in build-tsan with clang, LLVM's libomp and
# -fsanitize=thread; any ThreadSanitizer report fails its test.
set -eu
cd "$(dirname "$0")/.."
ctest_args=""
if [ "${BSPRAM_TSAN:-0}" = 1 ]; then
  dir=build-tsan
  # clang's -fopenmp links LLVM's libomp, whose synchronisation TSan sees
  # (through libarcher, below); GCC's libgomp is uninstrumented and every
  # parallel region would give false reports.
  export CC="${BSPRAM_TSAN_CC:-clang}"
  extra="-DBSPRAM_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBSPRAM_BUILD_BENCH=OFF -DBSPRAM_BUILD_DOCS=OFF"
  # Left out under TSan, the longest there whose threads' code other tests
  # already run under TSan: test_combine_table_staged (test_combine_table
  # runs the same experiment; the other *_staged tests cover the transport),
  # table_cli (the same experiment through the command line), the death
  # tests on the staged transport (*_errors_staged, test_bsplib_err_*_staged)
  # and test_null_errors (each misuse in a forked child, one line and an
  # exit, refused before any exchange; the other death tests run under
  # TSan), test_sdp_staged and test_combine_cycles_staged (test_sdp and
  # test_combine_cycles run the same code; test_router_staged the staged
  # exchanges), and the browser tests *_html_cli (a page written by one
  # thread, rendered by chromium). Together about 8 of TSan's 23 CPU minutes.
  ctest_args="-E ^(test_combine_table_staged|table_cli|.*_errors_staged|test_bsplib_err_.*_staged|test_null_errors|test_sdp_staged|test_combine_cycles_staged|.*_html_cli)\$"
elif [ "${BSPRAM_SANITIZE:-0}" = 1 ]; then
  dir=build-asan; extra="-DBSPRAM_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DBSPRAM_BUILD_BENCH=OFF -DBSPRAM_BUILD_DOCS=OFF"
else
  dir=build; extra=""
fi
if [ "$dir" = build-tsan ]; then
  cmake -S . -B "$dir" -DBSPRAM_WERROR=ON $extra "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" >/dev/null
else
  cmake -S . -B "$dir" -DBSPRAM_WERROR=ON $extra >/dev/null
fi
cmake --build "$dir" -j "$(nproc)"
if [ "$dir" = build-tsan ]; then
  # The tests must run on libomp, never libgomp.
  deps=$(ldd "$dir/tests/test_router")
  if ! echo "$deps" | grep -q 'libomp\.so' || echo "$deps" | grep -q 'libgomp'; then
    echo "test.sh: the TSan build must link LLVM's libomp, not libgomp:" >&2
    echo "$deps" >&2
    exit 1
  fi
  # libarcher, LLVM's OpenMP tool for TSan, tells TSan of libomp's barriers
  # and the start and end of parallel regions; without it every region is a
  # false report. libomp looks for it by itself, but named here it cannot
  # be missed. It sits beside the libomp the build linked.
  omp=$(sed -n 's/^OpenMP_omp_LIBRARY:FILEPATH=//p' "$dir/CMakeCache.txt")
  OMP_TOOL_LIBRARIES="$(dirname "$omp")/libarcher.so"
  [ -f "$OMP_TOOL_LIBRARIES" ] || { echo "test.sh: no $OMP_TOOL_LIBRARIES (libomp-14-dev)" >&2; exit 1; }
  export OMP_TOOL_LIBRARIES
  # halt_on_error + exitcode: the first report ends the program with 66, so
  # its test fails even if the program's own checks passed.
  # ignore_noninstrumented_modules: libomp itself is not built with TSan;
  # libarcher stands in for it (libarcher asks for this option).
  TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 ignore_noninstrumented_modules=1 suppressions=$(pwd)/tests/tsan.supp ${TSAN_OPTIONS:-}"
  export TSAN_OPTIONS
fi
ctest --test-dir "$dir" --output-on-failure -j 2 $ctest_args
