#!/bin/sh
# The main job: build, then run the flagship demo.
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build >/dev/null
cmake --build build -j "$(nproc)" --target bspram_tool >/dev/null
./build/bspram demo "$@"
