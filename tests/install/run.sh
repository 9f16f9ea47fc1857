#!/bin/sh
# Install the package into a scratch prefix, then build a program against it
# with pkg-config and with find_package(bspram), and run both without
# LD_LIBRARY_PATH; the same for every program of README.md and docs/ (and, where
# the MPI build is installed, a BSPlib program on libbspram-mpi both ways
# and the installed bspram under mpirun, on 2 ranks).
# usage: run.sh <build dir> <source dir of this test>
# Containers may forbid the cross-process reads of Open MPI's shared-memory transport.
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"
set -eu
build=$1; here=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/$(gcc -print-multiarch)/pkgconfig"
# No LD_LIBRARY_PATH: programs built against any prefix find the library
# by their RPATH (pkg-config's Libs carry it; CMake adds it in the build tree).
unset LD_LIBRARY_PATH
cc -std=c11 -o "$scratch/consumer_pc" "$here/consumer.c" $(pkg-config --cflags --libs bspram)
"$scratch/consumer_pc"
cmake -S "$here" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
"$scratch/cmake/consumer_cmake"
passed=2
# The programs of README.md and docs/ (the build extracts them: tests/docs/),
# against the installed package, as a user would build them.
for src in "$build"/tests/docs/doc_*.c; do
  cc -o "$scratch/doc" "$src" $(pkg-config --cflags --libs bspram) -lm
  BSPRAM_NPROCS=5 "$scratch/doc" >/dev/null || { echo "install: $src failed against the package"; exit 1; }
  passed=$((passed + 1))
done
if pkg-config --exists bspram-mpi; then # the MPI build: both ways, on 2 ranks
  flags="--oversubscribe"
  [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
  cc -std=c11 -o "$scratch/consumer_mpi_pc" "$here/consumer_mpi.c" $(pkg-config --cflags --libs bspram-mpi)
  mpirun $flags -np 2 "$scratch/consumer_mpi_pc"
  mpirun $flags -np 2 "$scratch/cmake/consumer_mpi_cmake"
  mpirun $flags -np 2 "$scratch/prefix/bin/bspram" table --p 64 --v 4096 --degrees 1,8 --basis 8x8 --runs 2 > "$scratch/table"
  grep -q "^8x8 " "$scratch/table" || { cat "$scratch/table"; echo "install: bspram under mpirun printed no table"; exit 1; }
  passed=$((passed + 3))
fi
echo "install: $passed passed, 0 failed"
