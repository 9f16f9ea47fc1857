#!/bin/sh
# The installed headers stand on their own: install the package into a
# scratch prefix, then compile every installed header alone, as C11 and as
# C++17, with only the installed include directory on the path (so a header
# that includes an uninstalled one fails). Also: no internal header is
# installed, and the umbrella bspram.h includes every public header.
# usage: run.sh <build dir> <internal header (layer/file.h)>...
# CC and CXX name the compilers (default cc and c++).
set -eu
build=$1; shift
cc=${CC:-cc}
cxx=${CXX:-c++}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "public_headers: no C++ compiler '$cxx' (Debian: apt-get install g++, part of build-essential)"
  exit 1
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
inc="$scratch/prefix/include/bspram"
fail=0

for h in "$@"; do
  if [ -e "$inc/$h" ] || [ -e "$inc/$(basename "$h")" ]; then
    echo "$h: an internal header is installed"
    fail=1
  fi
done

headers=$(cd "$inc" && find . -name '*.h' | sed 's#^\./##' | LC_ALL=C sort)
n=0
for h in $headers; do
  n=$((n + 1))
  printf '#include "%s"\ntypedef int bspram_not_empty; /* ISO C: a unit declares something */\n' "$h" > "$scratch/alone.c"
  cp "$scratch/alone.c" "$scratch/alone.cpp"
  if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" "$scratch/alone.c"; then
    echo "$h: does not compile alone as C11"
    fail=1
  fi
  if ! "$cxx" -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" "$scratch/alone.cpp"; then
    echo "$h: does not compile alone as C++17"
    fail=1
  fi
  case $h in
    bspram.h | bsp.h | bsp_shm.h | bsp_coll.h | bsp_sdp.h) ;;  # the umbrella, and the copies of bsp/bsp.h, combine/bsp_shm.h, coll/bsp_coll.h and coll/bsp_sdp.h at the top
    *) grep -q "^#include \"$h\"" "$inc/bspram.h" || { echo "bspram.h does not include $h"; fail=1; } ;;
  esac
done

if [ "$n" -eq 0 ]; then
  echo "public_headers: nothing installed under $inc"
  exit 1
fi
[ "$fail" -eq 0 ] || exit 1
echo "public_headers: $n installed headers compile alone as C11 and C++17; bspram.h includes them all"
