#!/bin/sh
# Install the package into a scratch prefix, then build a program against it
# with pkg-config and with find_package(bspram), and run both without
# LD_LIBRARY_PATH; the man page and the bash completion in their places;
# the same for every program of README.md and docs/ and every
# example installed under share/doc/bspram/examples (and, where
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
# The manual page and the bash completion, where man and bash-completion look;
# the completion asks the installed bspram.
[ -s "$scratch/prefix/share/man/man1/bspram.1" ] || { echo "install: no share/man/man1/bspram.1"; exit 1; }
completion="$scratch/prefix/share/bash-completion/completions/bspram"
[ -s "$completion" ] || { echo "install: no share/bash-completion/completions/bspram"; exit 1; }
if command -v bash >/dev/null; then
  got=$(bash -c '. "$1"; COMP_WORDS=("$2" pr); COMP_CWORD=1; _bspram; echo "${COMPREPLY[*]}"' _ \
        "$completion" "$scratch/prefix/bin/bspram")
  [ "$got" = "pram probe prof" ] || { echo "install: the completion of 'bspram pr' is '$got'"; exit 1; }
fi
passed=$((passed + 2))
# The programs of README.md and docs/ (the build extracts them: tests/docs/),
# against the installed package, as a user would build them.
for src in "$build"/tests/docs/doc_*.c; do
  cc -o "$scratch/doc" "$src" $(pkg-config --cflags --libs bspram) -lm
  BSPRAM_NPROCS=5 "$scratch/doc" >/dev/null || { echo "install: $src failed against the package"; exit 1; }
  passed=$((passed + 1))
done
# Every example installed beside the documentation (share/doc/bspram/examples),
# each built from its one file as README.md builds a program — its cc line to
# the letter, the installed package only — and run with small arguments (each
# checks its own result); then compiled once more as strict C11 with every
# warning an error. Every examples/*.c of the source tree must be installed.
examples="$scratch/prefix/share/doc/bspram/examples"
for src in "$here"/../../examples/*.c; do
  [ -f "$examples/${src##*/}" ] || { echo "install: examples/${src##*/} is not installed in $examples"; exit 1; }
done
failed=""
for src in $(find "$examples" -name '*.c' | sort); do
  name=$(basename "$src" .c)
  if ! (cd "$scratch" && cc "$src" $(pkg-config --cflags --libs bspram) -o "ex_$name") >"$scratch/ex_out" 2>&1; then
    sed 10q "$scratch/ex_out"; echo "install: the installed example $name.c does not build against the package"
    failed="$failed $name"; continue
  fi
  run_it=1
  case $src in
    */course/wrong/*) run_it=0 ;;             # the problem set's wrong solutions: built, compiled strictly
    */course/*) case $name in                 # the problem set's solutions: N (N² VPs for two)
                  crcw_max|matvec) args="16" ;;
                  *) args="64" ;;
                esac ;;
    *) case $name in
         pram_intro) args="100" ;;                 # [n]
         pram_max_crcw) args="24 7 50 2" ;;        # [n] [seed] [p] [threads]: n² VPs
         pram_matmul) args="8 7 50 2" ;;           # n³ VPs
         pram_*) args="300 7 50 2" ;;              # [n] [seed] [p] [threads]
         histogram) args="64 8 16" ;;              # [p] [samples per component] [bins]
         bsp_shm_histogram) args="4 500 16" ;;     # [P] [samples per process] [bins]
         inprod) args="4 1000" ;;                  # [P] [n]
         stencil) args="3 3000 4" ;;               # [P] [n] [steps]
         shared_ranking) args="100 7" ;;           # [p] [seed]
         *) echo "install: no arguments known for the installed example $name (tests/install/run.sh)"
            failed="$failed $name"; continue ;;
       esac ;;
  esac
  if [ "$run_it" = 1 ] && ! "$scratch/ex_$name" $args >"$scratch/ex_out" 2>&1; then
    tail -n 5 "$scratch/ex_out"; echo "install: the installed example $name $args failed"
    failed="$failed $name"; continue
  fi
  if ! cc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "$src" $(pkg-config --cflags bspram) >"$scratch/ex_out" 2>&1; then
    sed 10q "$scratch/ex_out"; echo "install: the installed example $name.c is not warning-free C11"
    failed="$failed $name"; continue
  fi
  passed=$((passed + 1))
done
[ -z "$failed" ] || { echo "install: installed examples failed:$failed"; exit 1; }
if pkg-config --exists bspram-mpi; then # the MPI build: both ways, on 2 ranks
  flags="--oversubscribe"
  [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
  cc -std=c11 -o "$scratch/consumer_mpi_pc" "$here/consumer_mpi.c" $(pkg-config --cflags --libs bspram-mpi)
  mpirun $flags -np 2 "$scratch/consumer_mpi_pc"
  mpirun $flags -np 2 "$scratch/cmake/consumer_mpi_cmake"
  mpirun $flags -np 2 "$scratch/prefix/bin/bspram" table --p 64 --v 4096 --degrees 1,8 --basis 8x8 --runs 2 > "$scratch/table"
  grep -Eq '(^|[[:space:]])8x8[[:space:]]' "$scratch/table" || { cat "$scratch/table"; echo "install: bspram under mpirun printed no table"; exit 1; }
  passed=$((passed + 3))
fi
echo "install: $passed passed, 0 failed"
