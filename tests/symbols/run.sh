#!/bin/sh
# libbspram.so exports exactly the API of the installed headers: every
# dynamic symbol it defines is named bsp_* or bspram_* (no bsplib_* internals,
# no bspram__ names) and is declared in an installed header, and every
# function the installed headers declare (not static inline) is exported.
# The API stays small: at most BSPRAM_API_MAX symbols (below).
# Each exported symbol is of one of the two tiers (docs/architecture.md,
# "Two tiers"): declared in a stable header (the list CMakeLists.txt gives),
# or in an engine header, which refuses to be included without
# BSPRAM_ENGINE_API — never in a header of neither; docs/architecture.md
# lists it under its header and its tier.
# libbspram-mpi.so, where built, exports the same names.
# In libbspram.a, where nothing is hidden, every other global symbol is named
# bspram__<layer>_* (libuv's rule), so that no internal name can clash with a
# program's own symbols when it links the static library.
# usage: run.sh <build dir> "<stable header (layer/file.h)> ..." <libbspram.so> <libbspram.a> [<libbspram-mpi.so>]
# CC names the C compiler (default cc); the second direction needs GCC's
# -aux-info and is skipped, saying so, without it.
set -eu
build=$1; stable=$2; lib=$3; archive=$4; lib_mpi=${5:-}
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
if ! "$cc" -std=c11 -fsyntax-only -DBSPRAM_ENGINE_API -I"$inc" "$scratch/uses.c" 2> "$scratch/uses.err"; then
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
if "$cc" -std=c11 -fsyntax-only -DBSPRAM_ENGINE_API -I"$inc" -aux-info "$scratch/all.aux" "$scratch/all.c" 2>/dev/null; then
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

# 5. The tiers. Where each exported symbol is declared: the functions from
#    the parser the header tests share (tests/headers/declarations.sh), the
#    objects from their extern declaration. A symbol of a stable header is
#    stable; any other must be declared in a header that, included without
#    BSPRAM_ENGINE_API, stops at its #error naming the macro.
sh "$(dirname "$0")/../headers/declarations.sh" "$inc" |
  awk -F'\t' '$4 == "extern" { print $3 "\t" $1 }' | sort -u > "$scratch/where"
cut -f1 "$scratch/where" > "$scratch/functions"
comm -23 "$scratch/exported" "$scratch/functions" | while read -r s; do
  h=$(cd "$inc" && grep -lE "^extern [^;(]*[^A-Za-z0-9_]$s([^A-Za-z0-9_]|$)" */*.h | head -1) || true
  [ -n "$h" ] && printf '%s\t%s\n' "$s" "$h"
done >> "$scratch/where"
sort -o "$scratch/where" "$scratch/where"
cut -f1 "$scratch/where" | comm -23 "$scratch/exported" - |
  sed 's/^/exported but declared in no installed header: /' > "$scratch/nowhere"
if [ -s "$scratch/nowhere" ]; then cat "$scratch/nowhere"; fail=1; fi
: > "$scratch/tiers"
for h in $(cut -f2 "$scratch/where" | sort -u); do
  case " $stable " in
    *" $h "*) tier=stable ;;
    *)
      tier=engine
      printf '#include "%s"\ntypedef int bspram_not_empty;\n' "$h" > "$scratch/alone.c"
      if "$cc" -std=c11 -fsyntax-only -I"$inc" "$scratch/alone.c" 2> "$scratch/alone.err" ||
         ! grep -q BSPRAM_ENGINE_API "$scratch/alone.err"; then
        echo "$h: declares exported symbols, but is neither stable ($stable) nor refused without BSPRAM_ENGINE_API"
        fail=1
      fi ;;
  esac
  printf '%s\t%s\n' "$h" "$tier" >> "$scratch/tiers"
done
n_stable=$(awk -F'\t' 'NR == FNR { t[$1] = $2; next } t[$2] == "stable"' "$scratch/tiers" "$scratch/where" | wc -l)

# 6. docs/architecture.md lists the exported symbols, name for name, under
#    "The public surface" (lines of `names` only), each under the header
#    that declares it (a line "- **`header`**", <bsp.h> and the like for the
#    copies at the top) and that header under its tier ("### The stable API"
#    or "### The engine API").
doc="$(dirname "$0")/../../docs/architecture.md"
awk '/^## The public surface/ { on = 1; next } /^## / { on = 0 }
     on && /^### The stable API/ { tier = "stable" } on && /^### The engine API/ { tier = "engine" }
     on && /^- \*\*`/ { h = $0; sub(/^- \*\*`/, "", h); sub(/`.*/, "", h) }
     on && /^  (`[A-Za-z_][A-Za-z0-9_]*` ?)+$/ {
       gsub(/`/, ""); for (i = 1; i <= NF; i++) print $i "\t" h "\t" tier
     }' "$doc" |
  sed -e 's#\t<bsp.h>\t#\tbsp/bsp.h\t#' -e 's#\t<bsp_shm.h>\t#\tcombine/bsp_shm.h\t#' \
      -e 's#\t<bsp_coll.h>\t#\tcoll/bsp_coll.h\t#' -e 's#\t<bsp_sdp.h>\t#\tcoll/bsp_sdp.h\t#' |
  sort > "$scratch/listed_where"
cut -f1 "$scratch/listed_where" | sort > "$scratch/listed"
comm -23 "$scratch/exported" "$scratch/listed" | sed 's#^#exported but not listed in docs/architecture.md: #' > "$scratch/unlisted"
comm -13 "$scratch/exported" "$scratch/listed" | sed 's#^#listed in docs/architecture.md but not exported: #' >> "$scratch/unlisted"
if [ -s "$scratch/unlisted" ]; then cat "$scratch/unlisted"; fail=1; fi
awk -F'\t' 'NR == FNR { t[$1] = $2; next } { print $1 "\t" $2 "\t" t[$2] }' "$scratch/tiers" "$scratch/where" |
  sort > "$scratch/actual"
join -t "$(printf '\t')" "$scratch/listed_where" "$scratch/actual" |
  awk -F'\t' '$2 != $4 { print "docs/architecture.md lists " $1 " under " $2 ", but " $4 " declares it" }
               $2 == $4 && $3 != $5 { print "docs/architecture.md lists " $1 " in the " ($3 ? $3 : "no") " tier, but " $4 " is of the " $5 " tier" }' \
  > "$scratch/misplaced"
if [ -s "$scratch/misplaced" ]; then cat "$scratch/misplaced"; fail=1; fi

# 7. libbspram-mpi.so: the same names.
if [ -n "$lib_mpi" ]; then
  nm -D --defined-only "$lib_mpi" | awk 'NF == 3 { print $3 }' | sort -u > "$scratch/exported_mpi"
  comm -3 "$scratch/exported" "$scratch/exported_mpi" > "$scratch/mpi_diff"
  if [ -s "$scratch/mpi_diff" ]; then
    sed "s#^#exported by only one of $lib and $lib_mpi: #; s#\t##" "$scratch/mpi_diff"
    fail=1
  fi
fi

[ "$fail" -eq 0 ] || exit 1
echo "symbols: $n_api exported (at most $BSPRAM_API_MAX), all declared in installed headers$both;"
echo "symbols: $archive's other $n_internal globals are all bspram__<layer>_*;"
echo "symbols: $n_stable of them declared in the stable headers, the other $((n_api - n_stable)) in headers refused without BSPRAM_ENGINE_API;"
echo "symbols: docs/architecture.md lists the $n_api, name for name, each under its header and tier${lib_mpi:+; $lib_mpi exports the same}"
