#!/bin/sh
# The NULL walk (tests/test_null_errors.c) covers the whole API: every
# pointer parameter of every function the installed headers declare has a
# case there — refused (NULL gives one error line) or allowed (NULL is
# legitimate, with the reason) — and every case names a parameter that the
# headers declare. A new function with a pointer parameter fails here until
# it has its case.
# usage: complete.sh <build dir> <test_null_errors>
# CC names the C compiler (default cc).
#
# The parameters are read from the preprocessed headers (cc -E) by
# tests/headers/declarations.sh: each declaration of a function, split at its
# top-level commas; a parameter is a pointer if its type has a '*' or is an
# array, if it is a function pointer, or if its type is a typedef of one
# (bspram_step_fn, ...). Static inline helpers in the
# headers (bspram_reduce, bspram_basis_prefix, ...) are not entry points of
# the library (nothing is exported for them) and are not walked.
set -eu
build=$1; walk=$2
export LC_ALL=C
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
inc="$scratch/prefix/include/bspram"

# The declarations and their parameters, from the parser the header tests
# share (tests/headers/declarations.sh); static inline functions are not
# entry points and are not walked.
sh "$(dirname "$0")/../headers/declarations.sh" "$inc" | awk -F'\t' '
  $4 == "extern" {
    n = split($6, p, " ")
    for (i = 1; i <= n; i++) if (p[i] ~ /\*$/) { sub(/\*$/, "", p[i]); print $3, p[i] }
  }' | sort -u > "$scratch/declared"

if [ ! -s "$scratch/declared" ]; then
  echo "null_errors_complete: found no pointer parameter in the installed headers"
  exit 1
fi
"$walk" --list | awk '{ print $2, $3 }' | sort > "$scratch/walked"
if [ ! -s "$scratch/walked" ]; then
  echo "null_errors_complete: $walk --list printed no case"
  exit 1
fi
fail=0
if uniq -d "$scratch/walked" | grep . > "$scratch/twice"; then
  sed 's/^/a parameter with two cases in the walk: /' "$scratch/twice"; fail=1
fi
comm -23 "$scratch/declared" "$scratch/walked" > "$scratch/missing"
# Cases of internal functions (bspram__<layer>_*, not installed) stay in the
# walk as white-box checks; only the API's must be complete and current.
comm -13 "$scratch/declared" "$scratch/walked" | grep -v '^bspram__' > "$scratch/stale" || true
if [ -s "$scratch/missing" ]; then
  sed 's/^\([^ ]*\) \(.*\)/pointer parameter without a case in tests\/test_null_errors.c: \1(\2)/' "$scratch/missing"
  fail=1
fi
if [ -s "$scratch/stale" ]; then
  sed 's/^\([^ ]*\) \(.*\)/a case of tests\/test_null_errors.c names no pointer parameter of the headers: \1(\2)/' "$scratch/stale"
  fail=1
fi
[ "$fail" -eq 0 ] || exit 1
refused=$("$walk" --list | grep -c '^refused ' || true)
allowed=$("$walk" --list | grep -c '^allowed ' || true)
functions=$(awk '{ print $1 }' "$scratch/declared" | sort -u | wc -l)
echo "null_errors_complete: $(wc -l < "$scratch/declared") pointer parameters of $functions functions, each with its case ($refused refused, $allowed allowed)"
