#!/bin/sh
# Every relative link of README.md and docs/ (a Markdown [text](path), with
# or without #anchor) names a file or directory of the source tree, as a
# reader on the repository's pages or Doxygen (which warns and drops it)
# would follow it. An index renamed without its links fails here.
# usage: links.sh <source dir>
set -eu
cd "$1"
bad=0; n=0
for page in README.md $(find docs -name '*.md' | sort); do
  dir=$(dirname "$page")
  for target in $(grep -o '\]([^)#[:space:]]*' "$page" | sed 's/^](//' | grep -v '^[a-z]*:' | grep -v '^$' || true); do
    n=$((n + 1))
    [ -e "$dir/$target" ] || { echo "links: $page links $target, which is not there"; bad=1; }
  done
done
[ "$bad" -eq 0 ] || exit 1
echo "links: all $n relative links of README.md and docs/ name files that exist"
