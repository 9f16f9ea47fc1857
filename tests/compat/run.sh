#!/bin/sh
# bsp.h's two modes at compile time (docs/bsplib.md, "Int-typed programs"),
# in every C dialect a BSPlib program is built with (c99 for BSPedupack 2.0,
# gnu89 up to c17) and as C++11 to C++20:
#  - with -DBSPRAM_BSPLIB_INT, bsp.h compiles alone, and a 1998 int-typed
#    program compiles without a warning, as does a program written for the
#    Oxford toolset's bsp.h (bsp_size_t is int; <stdio.h> comes with bsp.h);
#    and the same with MulticoreBSP's -DMCBSP_COMPATIBILITY_MODE instead, on
#    the command line or defined before bsp.h inside extern "C" in C++;
#  - without it, that program (and each int * on its own) does not compile in
#    C, and the error says to add -DBSPRAM_BSPLIB_INT; the same calls with
#    bsp.h's own types compile without a warning.
# Run with $CC, and with clang too when it is installed and is not $CC.
# usage: run.sh <source dir>
# CC and CXX name the compilers (default cc and c++).
set -eu
src=$1
here=$src/tests/compat
cc=${CC:-cc}
cxx=${CXX:-c++}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
flags="-Wall -Wextra -Wpedantic -Werror -fsyntax-only -I$src -I$src/bsp"
fail=0
n=0

ok() { # description, command...
  what=$1; shift
  n=$((n + 1))
  if ! "$@" 2> "$scratch/err"; then
    echo "compat: $what: does not compile:"; cat "$scratch/err"; fail=1
  elif [ -s "$scratch/err" ]; then
    echo "compat: $what: warnings:"; cat "$scratch/err"; fail=1
  fi
}

refused() { # description, expected message, command...
  what=$1; msg=$2; shift 2
  n=$((n + 1))
  if "$@" 2> "$scratch/err"; then
    echo "compat: $what: compiles, but must not"; fail=1
  elif ! grep -qF "$msg" "$scratch/err"; then
    echo "compat: $what: fails without the message \"$msg\":"; cat "$scratch/err"; fail=1
  fi
}

hint="an int-typed BSPlib program needs -DBSPRAM_BSPLIB_INT"
compilers=$cc
if command -v clang >/dev/null 2>&1 && [ "$(basename "$cc")" != clang ]; then
  compilers="$compilers clang"
fi

printf '#define BSPRAM_BSPLIB_INT\n#include <bsp.h>\ntypedef int bspram_not_empty;\n' > "$scratch/alone.c"
cp "$scratch/alone.c" "$scratch/alone.cpp"
printf '#include <bsp.h>\ntypedef int bspram_not_empty;\n' > "$scratch/default.c"
cp "$scratch/default.c" "$scratch/default.cpp"
cxxs=$cxx
if command -v clang++ >/dev/null 2>&1 && [ "$(basename "$cxx")" != clang++ ]; then
  cxxs="$cxxs clang++"
fi
for x in $cxxs; do
  for std in c++11 c++14 c++17 c++20; do
    ok "$x -std=$std: bsp.h alone, compat mode" "$x" -std=$std $flags "$scratch/alone.cpp"
    ok "$x -std=$std: bsp.h alone, default mode" "$x" -std=$std $flags "$scratch/default.cpp"
    ok "$x -std=$std: sized program" "$x" -std=$std $flags -x c++ "$here/sized_program.c"
  done
done
# The umbrella header: no other header trips over the macros.
printf '#define BSPRAM_BSPLIB_INT\n#define BSPRAM_ENGINE_API\n#include <bspram.h>\ntypedef int bspram_not_empty;\n' > "$scratch/umbrella.c"
cp "$scratch/umbrella.c" "$scratch/umbrella.cpp"
ok "bspram.h, compat mode, C11" "$cc" -std=c11 $flags "$scratch/umbrella.c"
ok "bspram.h, compat mode, C++17" "$cxx" -std=c++17 $flags "$scratch/umbrella.cpp"
ok "int program as C++17, -DBSPRAM_BSPLIB_INT" \
  "$cxx" -std=c++17 $flags -DBSPRAM_BSPLIB_INT -x c++ "$here/int_program.c"
# As C++ wrappers of MulticoreBSP write it: the switch defined inside extern "C".
printf 'extern "C" {\n#define MCBSP_COMPATIBILITY_MODE\n#include <bsp.h>\n}\n#include "%s"\n' \
  "$here/int_program.c" > "$scratch/mcbsp.cpp"
ok "int program as C++17, MCBSP_COMPATIBILITY_MODE defined before bsp.h" \
  "$cxx" -std=c++17 $flags "$scratch/mcbsp.cpp"

# Before C11 the int * guard names its message as an array of negative size.
old_hint=INT_PROGRAMS_NEED_DBSPRAM_BSPLIB_INT
for c in $compilers; do
  for std in gnu89 c99 gnu99 c11 c17 gnu11; do
    ok "$c -std=$std: bsp.h alone, compat mode" "$c" -std=$std $flags "$scratch/alone.c"
    ok "$c -std=$std: bsp.h alone, default mode" "$c" -std=$std $flags "$scratch/default.c"
    ok "$c -std=$std: int program, -DBSPRAM_BSPLIB_INT" \
      "$c" -std=$std $flags -DBSPRAM_BSPLIB_INT "$here/int_program.c"
    ok "$c -std=$std: Oxford toolset's program, -DBSPRAM_BSPLIB_INT" \
      "$c" -std=$std $flags -DBSPRAM_BSPLIB_INT "$here/oxford_program.c"
    ok "$c -std=$std: int program, -DMCBSP_COMPATIBILITY_MODE" \
      "$c" -std=$std $flags -DMCBSP_COMPATIBILITY_MODE "$here/int_program.c"
    ok "$c -std=$std: Oxford toolset's program, -DMCBSP_COMPATIBILITY_MODE" \
      "$c" -std=$std $flags -DMCBSP_COMPATIBILITY_MODE "$here/oxford_program.c"
    [ "$std" = gnu89 ] && continue # the sized program mixes declarations and code
    ok "$c -std=$std: bsp_size_t program" "$c" -std=$std $flags "$here/sized_program.c"
    ok "$c -std=$std -O2: bsp_size_t program" "$c" -std=$std -O2 $flags "$here/sized_program.c"
    case $std in c11 | c17 | gnu11) msg="bsp_set_tagsize takes a bsp_size_t * (size_t *); $hint" ;;
                 *) msg="bsp_set_tagsize_takes_a_size_t_pointer_$old_hint" ;; esac
    refused "$c -std=$std: int program without -DBSPRAM_BSPLIB_INT" "$msg" \
      "$c" -std=$std -fsyntax-only -I"$src" -I"$src/bsp" "$here/int_program.c"
  done
  # Without -Werror and at any optimisation level: an error, not a warning.
  for opt in -O0 -O2; do
    refused "$c $opt: int program without -DBSPRAM_BSPLIB_INT" \
      "bsp_set_tagsize takes a bsp_size_t * (size_t *); $hint" \
      "$c" -std=c11 $opt -fsyntax-only -I"$src" -I"$src/bsp" "$here/int_program.c"
  done
  refused "$c: bsp_set_tagsize(int *)" "bsp_set_tagsize takes a bsp_size_t * (size_t *); $hint" \
    "$c" -std=c11 -fsyntax-only -I"$src" -I"$src/bsp" -DCASE=1 "$here/int_args.c"
  refused "$c: bsp_qsize(int *, size_t *)" \
    "bsp_qsize takes a bsp_nprocs_t * (unsigned *) as packets; $hint" \
    "$c" -std=c11 -fsyntax-only -I"$src" -I"$src/bsp" -DCASE=2 "$here/int_args.c"
  refused "$c: bsp_qsize(unsigned *, int *)" \
    "bsp_qsize takes a bsp_size_t * (size_t *) as accumulated_size; $hint" \
    "$c" -std=c11 -fsyntax-only -I"$src" -I"$src/bsp" -DCASE=3 "$here/int_args.c"
  refused "$c: bsp_get_tag(int *, ...)" "bsp_get_tag takes a bsp_size_t * (size_t *) as status; $hint" \
    "$c" -std=c11 -fsyntax-only -I"$src" -I"$src/bsp" -DCASE=4 "$here/int_args.c"
  # The same file is clean once no int * is passed.
  ok "$c: int_args.c without an int *" "$c" -std=c11 $flags -DCASE=0 "$here/int_args.c"
done

[ "$fail" -eq 0 ] || exit 1
echo "compat: $n compile checks passed ($compilers; $cxx)"
