#!/bin/sh
# libbspram.so exports exactly the API of the installed headers: every
# dynamic symbol it defines is named bsp_* or bspram_* (no bsplib_* internals,
# no bspram__ names) and is declared in an installed header, and every
# function the installed headers declare (not static inline) is exported.
# The API stays small: at most BSPRAM_API_MAX symbols (below).
# In libbspram.a, where nothing is hidden, every other global symbol is named
# bspram__<layer>_* (libuv's rule), so that no internal name can clash with a
# program's own symbols when it links the static library.
# usage: run.sh <build dir> <libbspram.so> <libbspram.a>
# CC names the C compiler (default cc); the second direction needs GCC's
# -aux-info and is skipped, saying so, without it.
set -eu
build=$1; lib=$2; archive=$3
# The size of the user API (docs/architecture.md lists it, with reasons):
# a symbol more is a decision, to be made there and here.
BSPRAM_API_MAX=240
layers='base|hash|router|bsp|combine|models|coll|pram'
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

# 1. Names: the API's prefixes only, and no more of them than BSPRAM_API_MAX.
if grep -Ev '^(bsp|bspram)_' "$scratch/exported" > "$scratch/bad" ||
   grep -E '^(bsplib_|bspram__|__)' "$scratch/exported" >> "$scratch/bad"; then
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

n_api=$(wc -l < "$scratch/exported")
if [ "$n_api" -gt "$BSPRAM_API_MAX" ]; then
  echo "symbols: $lib exports $n_api symbols, more than the $BSPRAM_API_MAX of the API"
  fail=1
fi

# 4. The static library: every global symbol it defines is the API or
#    bspram__<layer>_*.
nm --defined-only -g "$archive" | awk 'NF == 3 { print $3 }' | sort -u > "$scratch/archive"
if [ ! -s "$scratch/archive" ]; then
  echo "symbols: $archive defines nothing"
  exit 1
fi
comm -23 "$scratch/archive" "$scratch/exported" | grep -Ev "^bspram__($layers)_[a-z0-9]" > "$scratch/unfenced" || true
if [ -s "$scratch/unfenced" ]; then
  sed "s#^#global in $archive but neither API nor bspram__<layer>_*: #" "$scratch/unfenced"
  fail=1
fi
comm -13 "$scratch/archive" "$scratch/exported" | sed "s#^#exported by $lib but not defined in $archive: #" > "$scratch/apart"
if [ -s "$scratch/apart" ]; then cat "$scratch/apart"; fail=1; fi
n_internal=$(comm -23 "$scratch/archive" "$scratch/exported" | wc -l)

# 5. docs/architecture.md lists the exported symbols, name for name, under
#    "The public surface" (lines of `names` only), each with its reason.
doc="$(dirname "$0")/../../docs/architecture.md"
awk '/^## The public surface/ { on = 1; next } /^## / { on = 0 }
     on && /^  (`[A-Za-z_][A-Za-z0-9_]*` ?)+$/' "$doc" | tr -d '`' | tr ' ' '\n' | grep . | sort > "$scratch/listed"
comm -23 "$scratch/exported" "$scratch/listed" | sed 's#^#exported but not listed in docs/architecture.md: #' > "$scratch/unlisted"
comm -13 "$scratch/exported" "$scratch/listed" | sed 's#^#listed in docs/architecture.md but not exported: #' >> "$scratch/unlisted"
if [ -s "$scratch/unlisted" ]; then cat "$scratch/unlisted"; fail=1; fi

[ "$fail" -eq 0 ] || exit 1
echo "symbols: $n_api exported (at most $BSPRAM_API_MAX), all declared in installed headers$both;"
echo "symbols: $archive's other $n_internal globals are all bspram__<layer>_*;"
echo "symbols: docs/architecture.md lists the $n_api, name for name"
