#!/bin/sh
# The bspram command and the benchmarks build against the installed package
# only, as a user's program does: the installed headers, the exported API
# (pkg-config's libbspram), and of the source tree nothing but their own
# files (prof's page template among them), the PRAM examples they run, and
# the self-contained utilities that the command compiles as its own (strict
# numbers: base/number.*; bounded reading of files: base/input.*; a clock:
# base/clock.h; the environment: base/environment.*; files written whole:
# base/output.*; the collectives' cache of g and l, which prof prices with:
# coll/gl_cache.*). Any other
# header of the library's inside is absent here, and any internal symbol is
# hidden in libbspram.so: either fails the build.
# usage: tools.sh <build dir> <source dir>
set -eu
build=$1; src=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
export PKG_CONFIG_PATH="$scratch/prefix/lib/pkgconfig:$scratch/prefix/lib/$(gcc -print-multiarch)/pkgconfig"
unset LD_LIBRARY_PATH
support="$scratch/support"
mkdir -p "$support/base" "$support/coll" "$support/tools" "$support/examples/pram"
cp "$src"/base/number.h "$src"/base/input.h "$src"/base/clock.h "$src"/base/environment.h "$src"/base/api.h \
   "$src"/base/output.h "$support/base/"
cp "$src"/coll/gl_cache.h "$support/coll/"
cp "$src"/tools/*.h "$support/tools/"
cp "$src"/examples/pram/*.h "$support/examples/pram/"
# The command and the benchmarks use the engine API, as the build compiles them.
cflags="-std=c11 -O1 -D_GNU_SOURCE -DBSPRAM_ENGINE_API -I$support -I$support/examples $(pkg-config --cflags bspram)"
libs="$(pkg-config --libs bspram) -lm"
cd "$scratch"

# The PRAM examples as the command and bench_pram run them (without their mains).
for f in "$src"/examples/pram_*.c; do
  case ${f##*/} in pram_intro.c) continue ;; esac
  cc $cflags -DPRAM_EXAMPLES_LIBRARY -c "$f" -o "ex_$(basename "$f" .c).o"
done
cc $cflags -c "$src/examples/pram/registry.c" -o registry.o

# The page prof --html writes, from its template as the build embeds it.
cmake -DIN="$src/tools/html/prof.html" -DOUT="$scratch/prof_page.c" -DNAME=bspram_tool_page_prof \
      -P "$src/cmake/embed.cmake"
# shellcheck disable=SC2086
if ! cc $cflags -DBSPRAM_VERSION='"test"' -o bspram "$src"/tools/*.c "$src/base/number.c" \
     "$src/base/input.c" "$src/base/environment.c" "$src/base/output.c" "$src/coll/gl_cache.c" \
     prof_page.c ex_*.o registry.o $libs > tool.err 2>&1; then
  sed 20q tool.err; echo "install: the bspram command does not build against the installed package"; exit 1
fi
./bspram help > help.out || { echo "install: the bspram command built against the package fails"; exit 1; }
grep -q '^  pram ' help.out || { cat help.out; echo "install: bspram help lists no pram command"; exit 1; }
./bspram pram --example prefix_sums --n 64 > pram.out 2>&1 || { cat pram.out; echo "install: bspram pram fails"; exit 1; }
n=1
for f in "$src"/bench/bench_*.c; do
  name=$(basename "$f" .c)
  extra=""
  [ "$name" = bench_pram ] && extra="ex_*.o registry.o"
  # shellcheck disable=SC2086
  if ! cc $cflags -o "$name" "$f" $extra $libs > bench.err 2>&1; then
    sed 20q bench.err; echo "install: bench/$name.c does not build against the installed package"; exit 1
  fi
  n=$((n + 1))
done
echo "install: the bspram command and $((n - 1)) benchmarks build against the installed package only"
