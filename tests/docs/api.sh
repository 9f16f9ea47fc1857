#!/bin/sh
# The API documentation (Doxygen, the target doc) is made from the public
# headers, with their comments: bsp_sync's and bspram_machine_create's
# text, and bsp_label's, end up on their pages, without a warning.
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
# And Doxygen has nothing to say about them (a backslash it reads as a command,
# a link it cannot resolve).
if [ -s "$build/doc/warnings.txt" ]; then
  echo "api.sh: Doxygen warned:"; cat "$build/doc/warnings.txt"; exit 1
fi
echo "api.sh: the API documentation holds the headers' comments, without a Doxygen warning"
