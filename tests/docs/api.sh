#!/bin/sh
# The API documentation (Doxygen, the target doc) is made from the public
# headers, with their comments: bsp_sync's and bspram_machine_create's
# text, and bsp_label's, end up on their pages, without a warning. Each
# function's headings (tests/headers/headings.sh) are sections of its entry:
# bsp_put's has its parameters, its precondition, its errors, its BSP cost
# and its thread safety, bsp_hpmove's its return value too. With
# BSPRAM_BUILD_DOCS the pages are installed beside the other documentation,
# in share/doc/bspram/html.
# usage: api.sh <build dir>
set -eu
build=$1
cmake --build "$build" --target doc >/dev/null
html=$build/doc/html
for page_text in "bsp_8h.html:End the superstep: deliver every put" \
                 "bsp_8h.html:labels the supersteps\|label of the records of the supersteps" \
                 "machine_8h.html:a machine of fewer components than ranks"; do
  page=${page_text%%:*}; text=${page_text#*:}
  [ -s "$html/$page" ] || { echo "api.sh: no $html/$page"; exit 1; }
  grep -q "$text" "$html/$page" || { echo "api.sh: $page lacks \"$text\""; exit 1; }
done

# entry <page> <function>: the HTML of the function's entry (from its title
# to the next entry's).
entry() {
  awk -v title=">$2()</h2>" '
    index($0, "<h2 class=\"memtitle\">") { if (on) exit; if (index($0, title)) on = 1 }
    on' "$html/$1"
}
# The sections, as Doxygen renders @param, @return, @pre and @par.
for fn_sections in "bsp_put:Parameters,Precondition,Errors,BSP cost,Thread safety" \
                   "bsp_hpmove:Parameters,Returns,Precondition,Errors,BSP cost,Thread safety"; do
  fn=${fn_sections%%:*}; sections=${fn_sections#*:}
  entry bsp_8h.html "$fn" > "$build/doc/entry.html"
  [ -s "$build/doc/entry.html" ] || { echo "api.sh: bsp_8h.html has no entry for $fn"; exit 1; }
  found=$(grep -o '<dt>[^<]*</dt>' "$build/doc/entry.html" | sed 's#</*dt>##g' | paste -sd, -)
  [ "$found" = "$sections" ] || {
    echo "api.sh: $fn's entry has the sections '$found', not '$sections'"; exit 1; }
done
rm -f "$build/doc/entry.html"

# And Doxygen has nothing to say about them (an @param naming no parameter,
# a backslash it reads as a command, a link it cannot resolve).
if [ -s "$build/doc/warnings.txt" ]; then
  echo "api.sh: Doxygen warned:"; cat "$build/doc/warnings.txt"; exit 1
fi

# Installed beside the documentation, when the build makes it.
installed=""
if grep -q '^BSPRAM_BUILD_DOCS:BOOL=ON$' "$build/CMakeCache.txt"; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
  for page in index.html bsp_8h.html; do
    cmp -s "$html/$page" "$scratch/prefix/share/doc/bspram/html/$page" || {
      echo "api.sh: the install has no share/doc/bspram/html/$page as the build made it"; exit 1; }
  done
  installed=", installed in share/doc/bspram/html"
fi
echo "api.sh: the API documentation holds the headers' comments, their headings as sections, without a Doxygen warning$installed"
