#!/bin/sh
# Every function the installed headers declare, read from the preprocessed
# headers (cc -E) — the one parser of the API's declarations that the tests
# share (null/complete.sh, headers/headings.sh).
# usage: declarations.sh <installed include dir, …/include/bspram> [header…]
#   with headers (relative to the include dir), only they are included
#   (with what they include), not every header under the dir: how
#   headings.sh --source reads headers of the source tree, which is the
#   include dir then. Every function of a header under the dir that they
#   bring in is listed, theirs and their includes'.
# CC names the C compiler (default cc).
#
# Prints one line per function, tab-separated, sorted by header and line:
#   header  line  name  kind  returns  parameters
#   header      the installed header, relative to the include dir (bsp/bsp.h)
#   line        the line of the header where the declaration begins
#   kind        extern (a declaration: an entry point of the library) or
#               inline (a static inline function the header defines)
#   returns     void, or value (anything else, void * included)
#   parameters  space-separated, in declaration order: each parameter's
#               name, with '*' appended if it is a pointer (its type has a
#               '*', is an array, a function pointer, or a typedef of a
#               function pointer such as bspram_step_fn); '?' for a
#               parameter without a name; nothing for (void) and '...'.
#
# How: each declaration of the preprocessed text at brace depth 0 is a
# statement (up to ';', or up to '{' for a definition), split into its
# parameters at their top-level commas; the line markers of cc -E say where
# each statement begins. Headers in layer directories are read first, so
# the top-level copies of bsp.h, bsp_shm.h, … (the same files, with the
# same include guards) add nothing.
set -eu
inc=${1%/}; shift
cc=${CC:-cc}
export LC_ALL=C
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ $# -gt 0 ]; then
  printf '%s\n' "$@"
else
  (cd "$inc" && find . -name '*.h' | sed 's#^\./##') |
    awk -F/ '{ print NF "\t" $0 }' | sort -t "$(printf '\t')" -k1,1nr -k2,2 | cut -f2
fi | sed 's/.*/#include "&"/' > "$scratch/all.c"
"$cc" -std=c11 -E -DBSPRAM_ENGINE_API -I"$inc" "$scratch/all.c" > "$scratch/all.i"

awk -v inc="$inc/" '
# The installed headers lines (not the system ones), joined, remembering
# where each line came from.
/^# [0-9]+ "/ {
  f = $3; gsub(/"/, "", f); keep = (index(f, inc) == 1)
  file = substr(f, length(inc) + 1); line = $2; next
}
/^ *#/ { next }                                   # #pragma (from _Pragma)
{
  if (keep) { at[++nc] = length(s) + 1; atfile[nc] = file; atline[nc] = line; s = s $0 " " }
  line++
}
function blank(n,   b) { b = ""; while (n-- > 0) b = b " "; return b }
function is_type_word(w) { return w ~ /^(void|char|short|int|long|float|double|signed|unsigned|_Bool|_Complex|const|volatile|restrict|struct|union|enum)$/ }
END {
  at[nc + 1] = length(s) + 2
  # Attributes and __extension__ become blanks of their own length, so that
  # every character keeps its place (and its line).
  while (match(s, /__attribute__ *\(\(/)) {
    i = RSTART + RLENGTH; d = 2
    while (d > 0 && i <= length(s)) { c = substr(s, i, 1); if (c == "(") d++; else if (c == ")") d--; i++ }
    s = substr(s, 1, RSTART - 1) blank(i - RSTART) substr(s, i)
  }
  while (match(s, /__extension__/)) s = substr(s, 1, RSTART - 1) blank(RLENGTH) substr(s, RSTART + RLENGTH)
  n = 0; cur = ""; d = 0; ci = 1; started = 0     # statements at brace depth 0
  for (i = 1; i <= length(s); i++) {
    while (i >= at[ci + 1]) ci++
    c = substr(s, i, 1)
    if (d == 0 && !started && c != " " && c != "\t" && c != ";" && c != "}") {
      started = 1; sfile = atfile[ci]; sline = atline[ci]
    }
    if (c == "{") {
      if (d == 0) { stmt[++n] = cur " {}"; stfile[n] = sfile; stline[n] = sline; cur = ""; started = 0 }
      d++; continue
    }
    if (c == "}") { d--; continue }
    if (d > 0) continue
    if (c == ";") { stmt[++n] = cur; stfile[n] = sfile; stline[n] = sline; cur = ""; started = 0; continue }
    cur = cur c
  }
  for (k = 1; k <= n; k++)                         # function-pointer typedefs
    if (stmt[k] ~ /^ *typedef/ && match(stmt[k], /\( *\* *[A-Za-z_][A-Za-z0-9_]* *\) *\(/)) {
      t = substr(stmt[k], RSTART, RLENGTH); gsub(/[^A-Za-z0-9_]/, "", t); fptr[t] = 1
    }
  for (k = 1; k <= n; k++) {
    t = stmt[k]
    if (t ~ /^ *typedef/) continue
    kind = "extern"
    if (t ~ /\{\} *$/) {                            # a definition: static inline functions only
      if (t !~ /(^| )static / || t !~ /(^| )(inline|__inline|__inline__) /) continue
      kind = "inline"; sub(/ *\{\} *$/, "", t)
    } else if (t ~ /(^| )static /) continue
    if (!match(t, /[A-Za-z_][A-Za-z0-9_]* *\(/)) continue
    name = substr(t, RSTART, RLENGTH); sub(/ *\($/, "", name)
    if (name ~ /^(_Static_assert|static_assert|_Alignas|typeof|__typeof__|sizeof)$/) continue
    ret = substr(t, 1, RSTART - 1)
    rest = substr(t, RSTART + RLENGTH)
    d = 1; p = ""
    for (i = 1; i <= length(rest); i++) {
      c = substr(rest, i, 1)
      if (c == "(") d++
      else if (c == ")") { d--; if (d == 0) break }
      p = p c
    }
    after = substr(rest, i + 1); gsub(/ /, "", after)
    if (d != 0 || after != "") continue            # not a function declaration
    while (sub(/(^| )(extern|static|inline|__inline|__inline__|_Noreturn|_Thread_local)( |$)/, " ", ret)) ;
    gsub(/^ +| +$/, "", ret); gsub(/  +/, " ", ret)
    returns = (ret == "void") ? "void" : "value"
    np = 0; cur = ""; d = 0
    for (i = 1; i <= length(p); i++) {
      c = substr(p, i, 1)
      if (c == "(") d++; else if (c == ")") d--
      if (c == "," && d == 0) { par[++np] = cur; cur = ""; continue }
      cur = cur c
    }
    par[++np] = cur
    out = ""
    for (j = 1; j <= np; j++) {
      q = par[j]; gsub(/^ +| +$/, "", q)
      if (q == "void" || q == "..." || q == "") continue
      arr = 0
      while (q ~ /\[[^]]*\] *$/) { sub(/ *\[[^]]*\] *$/, "", q); arr = 1 }
      fp = match(q, /\( *\* *[A-Za-z_][A-Za-z0-9_]* *\)/)
      if (fp) { pn = substr(q, RSTART, RLENGTH); gsub(/[^A-Za-z0-9_]/, "", pn); ty = q }
      else {
        ty = q; gsub(/\*/, " * ", ty)
        m = split(ty, w, " "); pn = "?"
        if (m >= 2 && w[m] ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && !is_type_word(w[m]) && w[m - 1] !~ /^(struct|union|enum)$/)
          pn = w[m]
        ty = q; if (pn != "?") sub(/[A-Za-z_][A-Za-z0-9_]*$/, "", ty)
      }
      ptr = fp || arr || ty ~ /\*/
      if (!ptr) { m = split(ty, w, " "); for (x = 1; x <= m; x++) if (w[x] in fptr) ptr = 1 }
      out = out (out == "" ? "" : " ") pn (ptr ? "*" : "")
    }
    print stfile[k] "\t" stline[k] "\t" name "\t" kind "\t" returns "\t" out
  }
}' "$scratch/all.i" | sort -t "$(printf '\t')" -k1,1 -k2,2n -u
