#!/bin/sh
# libbspram.so exports exactly the API of the installed headers: every
# dynamic symbol it defines is named bsp_* or bspram_* (no bsplib_* internals,
# no __ names) and is declared in an installed header, and every function the
# installed headers declare (not static inline) is exported.
# usage: run.sh <build dir> <libbspram.so>
# CC names the C compiler (default cc); the second direction needs GCC's
# -aux-info and is skipped, saying so, without it.
set -eu
build=$1; lib=$2
cc=${CC:-cc}
export LC_ALL=C
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
inc="$scratch/prefix/include/bspram"
fail=0

nm -D --defined-only "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$scratch/exported"
if [ ! -s "$scratch/exported" ]; then
  echo "symbols: $lib exports nothing"
  exit 1
fi

# 1. Names: the API's prefixes only.
if grep -Ev '^(bsp|bspram)_' "$scratch/exported" > "$scratch/bad" ||
   grep -E '^(bsplib_|__)' "$scratch/exported" >> "$scratch/bad"; then
  sed 's/^/exported but not API (name): /' "$scratch/bad"
  fail=1
fi

# 2. Every exported name is declared by the installed headers: a translation
#    unit that includes them all and takes the address of each name compiles.
(cd "$inc" && find . -name '*.h' | sed 's#^\./##' | sort) > "$scratch/headers"
{
  sed 's/.*/#include "&"/' "$scratch/headers"
  echo 'void bspram_symbols_check(void);'
  echo 'void bspram_symbols_check(void)'
  echo '{'
  sed 's/.*/    (void)\&&;/' "$scratch/exported"
  echo '}'
} > "$scratch/uses.c"
if ! "$cc" -std=c11 -fsyntax-only -I"$inc" "$scratch/uses.c" 2> "$scratch/uses.err"; then
  names=$(grep -o "'[A-Za-z_][A-Za-z0-9_]*' undeclared" "$scratch/uses.err" | cut -d"'" -f2 | sort -u)
  if [ -n "$names" ]; then
    for s in $names; do echo "exported but not declared in any installed header: $s"; done
  else
    cat "$scratch/uses.err"
  fi
  fail=1
fi

# 3. Every function the installed headers declare is exported.
sed 's/.*/#include "&"/' "$scratch/headers" > "$scratch/all.c"
if "$cc" -std=c11 -fsyntax-only -I"$inc" -aux-info "$scratch/all.aux" "$scratch/all.c" 2>/dev/null; then
  grep -F "/* $inc/" "$scratch/all.aux" | sed 's#^/\* [^ ]* \*/ ##' | grep '^extern ' |
    sed -e 's/ (.*$//' -e 's/.*[ *]//' | sort -u > "$scratch/declared"
  if [ ! -s "$scratch/declared" ]; then
    echo "symbols: found no function declared in the installed headers"
    fail=1
  fi
  comm -23 "$scratch/declared" "$scratch/exported" | sed 's/^/declared in an installed header but not exported: /' > "$scratch/missing"
  if [ -s "$scratch/missing" ]; then cat "$scratch/missing"; fail=1; fi
  both="; the $(wc -l < "$scratch/declared") functions they declare are all exported"
else
  both=" (declared -> exported not checked: $cc has no -aux-info)"
fi

[ "$fail" -eq 0 ] || exit 1
echo "symbols: $(wc -l < "$scratch/exported") exported, all declared in installed headers$both"
