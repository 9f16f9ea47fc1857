#!/bin/sh
# The main job: build, then reproduce Valiant's Table 2 (combining, 100 runs per
# entry, the paper's values beside ours) with every charge read from the router's
# records, then show one superstep-by-superstep log of the BSP machine.
# Arguments are passed to `bspram table` (e.g. --runs 500, --paper 3, --output t.svg).
set -eu
cd "$(dirname "$0")/.."
cmake -S . -B build >/dev/null
cmake --build build -j "$(nproc)" --target bspram_tool >/dev/null
echo "== bspram table --paper 2: Valiant 1992, Table 2, reproduced on p = 4096 components =="
./build/bspram table --paper 2 --runs 100 "$@"
echo
echo "== bspram demo: random 32-relations on 4096 components, the router's records =="
./build/bspram demo
