#!/bin/sh
# The installed headers stand on their own: install the package into a
# scratch prefix, then compile every installed header alone, as C11 and as
# C++17, with only the installed include directory on the path (so a header
# that includes an uninstalled one fails). Also: no internal header is
# installed, and the umbrella bspram.h includes every public header.
#
# The two tiers (docs/architecture.md, "Two tiers"): a stable header (the
# list CMakeLists.txt gives, and the copies of bsp.h, bsp_shm.h, bsp_coll.h
# and bsp_sdp.h at the top) and base/api.h compile alone without
# BSPRAM_ENGINE_API, and so do all the stable headers in one program; every
# other installed header (the engine's, and the umbrella) compiles only with
# it: without it, the compiler stops at an #error that names the header and
# BSPRAM_ENGINE_API — also when a stable header that includes it came first.
# usage: run.sh <build dir> "<stable header (layer/file.h)> ..." <internal header (layer/file.h)>...
# CC and CXX name the compilers (default cc and c++).
set -eu
build=$1; stable=$2; shift 2
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
tier() { # stable (base/api.h too: macros only) or engine
  case " $stable base/api.h bsp.h bsp_shm.h bsp_coll.h bsp_sdp.h " in
    *" $1 "*) echo stable ;;
    *) echo engine ;;
  esac
}
n=0; n_stable=0; n_engine=0
for h in $headers; do
  n=$((n + 1))
  printf '#include "%s"\ntypedef int bspram_not_empty; /* ISO C: a unit declares something */\n' "$h" > "$scratch/alone.c"
  cp "$scratch/alone.c" "$scratch/alone.cpp"
  engine=""
  if [ "$(tier "$h")" = engine ]; then
    n_engine=$((n_engine + 1))
    engine=-DBSPRAM_ENGINE_API
    if "$cc" -std=c11 -fsyntax-only -I"$inc" "$scratch/alone.c" 2> "$scratch/err"; then
      echo "$h: compiles without BSPRAM_ENGINE_API, but is not a stable header"
      fail=1
    elif ! grep -q "\"$h .*BSPRAM_ENGINE_API" "$scratch/err"; then
      cat "$scratch/err"
      echo "$h: refused without BSPRAM_ENGINE_API, but not by its own #error naming the macro"
      fail=1
    fi
    for s in $stable; do # a stable header first, which includes engine headers
      printf '#include "%s"\n#include "%s"\ntypedef int bspram_not_empty;\n' "$s" "$h" > "$scratch/after.c"
      if "$cc" -std=c11 -fsyntax-only -I"$inc" "$scratch/after.c" 2>/dev/null; then
        echo "$h: compiles without BSPRAM_ENGINE_API after $s"
        fail=1
      fi
    done
  else
    n_stable=$((n_stable + 1))
  fi
  # shellcheck disable=SC2086
  if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only $engine -I"$inc" "$scratch/alone.c"; then
    echo "$h: does not compile alone as C11${engine:+ (with $engine)}"
    fail=1
  fi
  # shellcheck disable=SC2086
  if ! "$cxx" -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only $engine -I"$inc" "$scratch/alone.cpp"; then
    echo "$h: does not compile alone as C++17${engine:+ (with $engine)}"
    fail=1
  fi
  case $h in
    bspram.h | bsp.h | bsp_shm.h | bsp_coll.h | bsp_sdp.h) ;;  # the umbrella, and the copies of bsp/bsp.h, combine/bsp_shm.h, coll/bsp_coll.h and coll/bsp_sdp.h at the top
    *) grep -q "^#include \"$h\"" "$inc/bspram.h" || { echo "bspram.h does not include $h"; fail=1; } ;;
  esac
done
# The stable headers together, without the macro, each included twice.
: > "$scratch/stable.c"
for s in $stable $stable; do
  [ -e "$inc/$s" ] || { echo "$s: a stable header, but not installed"; fail=1; }
  printf '#include "%s"\n' "$s" >> "$scratch/stable.c"
done
echo 'typedef int bspram_not_empty;' >> "$scratch/stable.c"
if ! "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$inc" "$scratch/stable.c"; then
  echo "the stable headers ($stable) do not compile together without BSPRAM_ENGINE_API"
  fail=1
fi

if [ "$n" -eq 0 ]; then
  echo "public_headers: nothing installed under $inc"
  exit 1
fi
[ "$fail" -eq 0 ] || exit 1
echo "public_headers: $n installed headers compile alone as C11 and C++17; bspram.h includes them all;"
echo "public_headers: $n_stable of them without BSPRAM_ENGINE_API (the stable tier and base/api.h), $n_engine only with it"
