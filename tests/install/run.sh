#!/bin/sh
# Install the package into a scratch prefix, then build a program against it
# with pkg-config and with find_package(bspram), and run both.
# usage: run.sh <build dir> <source dir of this test>
set -eu
build=$1; here=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/$(gcc -print-multiarch)/pkgconfig"
export LD_LIBRARY_PATH="$scratch/prefix/lib:$scratch/prefix/lib/$(gcc -print-multiarch)"
cc -std=c11 -o "$scratch/consumer_pc" "$here/consumer.c" $(pkg-config --cflags --libs bspram)
"$scratch/consumer_pc"
cmake -S "$here" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
"$scratch/cmake/consumer_cmake"
echo "install: 2 passed, 0 failed"
