#!/bin/sh
# Every public function is specified where it is declared, under the same
# headings: the comment directly above each function that the installed
# headers declare (or define static inline) is its own, and reads
#
#   /* What it does (the first sentence is the brief). …
#    *
#    * @param name    one per named parameter, by name, in declaration order
#    * @return        what it returns — for a non-void function only
#    * @pre           what the caller must ensure (or "None.")
#    * @par Errors
#    *     each one-line message and the exit status (or "None.")
#    * @par BSP cost
#    *     supersteps, h-relation / charge, local work and memory
#    * @par Thread safety
#    *     "Any thread", "The host only", "A BSPlib process inside a
#    *     section" or "A component inside its step" first, then details
#    */
#
# in that order, each heading with some text; no blank line between the
# comment and the declaration, and no function sharing its comment with
# another (grouped declarations are split). Doxygen renders the headings
# (the target doc; tests/docs/api.sh).
#
# The contract between the machine and the engine (bsp/machine_internal.h,
# combine/team_internal.h) is specified the same way, though not installed:
# with --source the named headers are read from the source tree (the test
# contract_headings). Their functions run where no public one does — on a
# lane of a running team, or as a host collective — so there, and only
# there, Thread safety may also begin with "A lane inside its team" or
# "The host or the process's leading lane" (bsp/machine_internal.h says
# what each means); the public headers keep the four phrases above.
# usage: headings.sh <build dir> [header…]
#   with headers (relative to include/bspram, e.g. bsp/bsp.h), only their
#   functions are checked.
#        headings.sh --source <source dir> header…
#   the headers (relative to the source dir, e.g. bsp/machine_internal.h)
#   as the source tree has them; only their functions are checked.
# CC names the C compiler (default cc).
# Prints one line per fault ("bsp/bsp.h: bsp_put: no '@par BSP cost'") and
# exits 1 if there is any.
set -eu
export LC_ALL=C
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [ "${1:-}" = --source ]; then
  test=contract_headings
  inc=${2%/}; shift 2
  what="headers named"
  extra="A lane inside its team|The host or the process's leading lane"
  if [ $# -eq 0 ]; then
    echo "$test: name the headers to check (relative to $inc)"
    exit 1
  fi
  for h in "$@"; do
    [ -f "$inc/$h" ] || { echo "$test: no header $inc/$h"; exit 1; }
  done
  sh "$(dirname "$0")/declarations.sh" "$inc" "$@" > "$scratch/declared"
else
  test=api_headings
  build=$1; shift
  what="installed headers"
  extra=""
  cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
  inc="$scratch/prefix/include/bspram"
  sh "$(dirname "$0")/declarations.sh" "$inc" > "$scratch/declared"
fi

if [ ! -s "$scratch/declared" ]; then
  echo "$test: found no function in the $what"
  exit 1
fi
for h in "$@"; do
  if ! cut -f1 "$scratch/declared" | grep -qxF "$h"; then
    echo "$test: $h declares no function (or is not one of the $what)"
    exit 1
  fi
done

printf '%s\n' "$@" > "$scratch/only"
awk -F'\t' -v inc="$inc/" -v only="$scratch/only" -v q="'" -v test="$test" -v extra="$extra" '
function fault(msg) { print file ": " name ": " msg; faults++; bad[file SUBSEP name] = 1 }
function load(f,   l, n) {                        # the lines of header f
  if (f in loaded) return
  loaded[f] = 1; n = 0
  while ((getline l < (inc f)) > 0) text[f, ++n] = l
  close(inc f)
}
function trim(x) { gsub(/^[ \t]+|[ \t]+$/, "", x); return x }
function comment_end(f, k) { return text[f, k] ~ /\*\/[ \t]*$/ }
function comment_start(f, k,   j) {                # the line that opens the comment ending at k
  for (j = k; j >= 1; j--) if (text[f, j] ~ /\/\*/) return j
  return 0
}
function label(key) {                             # as the faults quote it
  if (key ~ /^P /) return q "@param " substr(key, 3) q
  if (key == "R") return q "@return" q
  if (key == "PRE") return q "@pre" q
  if (key == "ERR") return q "@par Errors" q
  if (key == "COST") return q "@par BSP cost" q
  if (key == "TS") return q "@par Thread safety" q
  return q key q
}
BEGIN {
  while ((getline h < only) > 0) if (h != "") wanted[h] = 1
  checking_some = 0
  for (h in wanted) checking_some = 1
  order = "@param…, @return, @pre, @par Errors, @par BSP cost, @par Thread safety"
  # The phrases a Thread safety may begin with (extra: --source only).
  opening = "Any thread|The host only|A BSPlib process inside a section|A component inside its step"
  if (extra != "") opening = opening "|" extra
  nphr = split(opening, phr, "|")
  phrases = ""
  for (j = 1; j <= nphr; j++)
    phrases = phrases (j == 1 ? "" : j == nphr ? " or " : ", ") "\"" phr[j] "\""
  opening = "^(" opening ")"
}
{
  file = $1; line = $2 + 0; name = $3; returns = $5
  inscope = !checking_some || (file in wanted)
  if (inscope) considered++
  load(file)
  # The block: the comment that ends on the line just above the declaration.
  if (!comment_end(file, line - 1)) {
    k = line - 1                                   # grouped under another declaration?
    while (k >= 1 && trim(text[file, k]) != "" && !comment_end(file, k)) k--
    if (k >= 1 && comment_end(file, k) && ((file, comment_start(file, k)) in owner)) {
      if (inscope)
        fault("shares its comment block with " owner[file, comment_start(file, k)] " (each function needs its own, directly above its declaration)")
    } else if (inscope)
      fault("no comment block directly above its declaration")
    next
  }
  s = comment_start(file, line - 1)
  if (s == 0 || text[file, s] !~ /^[ \t]*\/\*/) {
    if (inscope) fault("the comment above its declaration does not open a line")
    next
  }
  if ((file, s) in owner) {
    if (inscope) fault("shares its comment block with " owner[file, s])
    next
  }
  owner[file, s] = name
  if (!inscope) next
  # The headings, in the order they appear, and the text under each.
  nk = 0; cur = "BRIEF"; split("", body); split("", seen); split("", found)
  for (k = s; k <= line - 1; k++) {
    l = text[file, k]
    if (k == s) sub(/^[ \t]*\/\*+/, "", l); else sub(/^[ \t]*\*?/, "", l)
    if (k == line - 1) sub(/\*+\/[ \t]*$/, "", l)
    t = trim(l)
    key = ""
    if (t ~ /^[@\\]param(\[[a-z, ]*\])?[ \t]/) {
      rest = t; sub(/^[@\\]param(\[[a-z, ]*\])?[ \t]+/, "", rest)
      pn = rest; sub(/[^A-Za-z0-9_.].*$/, "", pn)
      key = "P " pn; rest = substr(rest, length(pn) + 1)
    } else if (t ~ /^[@\\]returns?([ \t]|$)/) { key = "R"; rest = t; sub(/^[@\\]returns?/, "", rest) }
    else if (t ~ /^[@\\]pre([ \t]|$)/) { key = "PRE"; rest = t; sub(/^[@\\]pre/, "", rest) }
    else if (t ~ /^[@\\]par[ \t]+Errors[ \t]*$/) { key = "ERR"; rest = "" }
    else if (t ~ /^[@\\]par[ \t]+BSP cost[ \t]*$/) { key = "COST"; rest = "" }
    else if (t ~ /^[@\\]par[ \t]+Thread safety[ \t]*$/) { key = "TS"; rest = "" }
    else if (t ~ /^[@\\](param|returns?|pre|par)([ \t]|$)/) { key = "OTHER"; rest = "" }
    if (key != "") {
      cur = key
      if (key != "OTHER") { found[++nk] = key; seen[key]++ }
      body[cur] = body[cur] " " trim(rest)
    } else body[cur] = body[cur] " " t
  }
  if (trim(body["BRIEF"]) !~ /[A-Za-z]/) fault("no description before the headings")
  # What the declaration asks for, in order.
  ne = 0; split("", expect)
  np = split($6, par, " ")
  for (j = 1; j <= np; j++) {
    pn = par[j]; sub(/\*$/, "", pn)
    if (pn != "?") expect[++ne] = "P " pn
  }
  if (returns != "void") expect[++ne] = "R"
  expect[++ne] = "PRE"; expect[++ne] = "ERR"; expect[++ne] = "COST"; expect[++ne] = "TS"
  split("", isexp)
  for (j = 1; j <= ne; j++) isexp[expect[j]] = 1
  problems = 0
  for (j = 1; j <= ne; j++)
    if (!(expect[j] in seen)) { fault("no " label(expect[j])); problems++ }
  for (key in seen) {
    if (!(key in isexp)) {
      if (key == "R") fault(label("R") " on a function that returns void")
      else fault(label(key) " names no parameter of " name)
      problems++
    } else if (seen[key] > 1) { fault(label(key) " " seen[key] " times"); problems++ }
  }
  if (problems == 0)
    for (j = 1; j <= ne; j++)
      if (found[j] != expect[j]) {
        fault(label(found[j]) " where " label(expect[j]) " belongs (the order: " order ")")
        break
      }
  for (key in seen)
    if ((key in isexp) && trim(body[key]) == "") fault(label(key) " has no text")
  if (("TS" in seen) && trim(body["TS"]) != "" &&
      trim(body["TS"]) !~ opening)
    fault(label("TS") " does not begin with " phrases)
}
END {
  nbad = 0
  for (k in bad) nbad++
  where = checking_some ? "of the headers named" : "of the installed headers"
  if (faults > 0) {
    printf "%s: %d faults, in %d of the %d functions %s\n", test, faults, nbad, considered, where
    exit 1
  }
  printf "%s: the %d functions %s each have their own comment, with every heading\n", test, considered, where
}' "$scratch/declared"
