#!/bin/sh
# Code in the docs that claims to be an example program is that program:
# every block that follows a line `<!-- example: examples/NAME.c -->` in
# docs/*.md must be the file, verbatim (the build compiles it and a test runs it).
#
# usage: examples.sh <source dir>
set -eu
cd "$1"
status=0
found=0
for md in docs/*.md; do
  for path in $(sed -n 's/^<!-- example: \(.*\) -->$/\1/p' "$md"); do
    found=$((found + 1))
    if [ ! -f "$path" ]; then
      echo "$md: the example $path does not exist"
      status=1
      continue
    fi
    # The block after the marker: its first line must open a C block.
    block=$(awk -v p="$path" '
      $0 == "<!-- example: " p " -->" { state = 1; next }
      state == 1 { if ($0 != "```c") { print "NO-BLOCK"; exit } state = 2; next }
      state == 2 { if ($0 == "```") exit; print }' "$md")
    if [ "$block" = "NO-BLOCK" ]; then
      echo "$md: the marker of $path is not followed by a \`\`\`c block"
      status=1
    elif [ "$block" != "$(cat "$path")" ]; then
      echo "$md: the block after the marker of $path differs from the file:"
      printf '%s\n' "$block" | diff "$path" - | head -20
      status=1
    fi
  done
done
[ "$status" = 0 ] && echo "docs examples: $found block(s), each the file it names"
exit $status
