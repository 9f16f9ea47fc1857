#!/bin/sh
# README.md's "Documentation" section links every page of docs/, one line
# each, and nothing that is not there.
# usage: readme_docs.sh <source dir>
set -eu
cd "$1"
section=$(awk '/^## Documentation$/ { on = 1; next } on && /^## / { exit } on' README.md)
[ -n "$section" ] || { echo "readme_docs: README.md has no '## Documentation' section"; exit 1; }
fails=0
for page in docs/*.md; do
  n=$(printf '%s\n' "$section" | grep -c "^- \[$page\]($page) — ." || true)
  [ "$n" -eq 1 ] || { echo "readme_docs: $page is linked $n times (want one line)"; fails=$((fails + 1)); }
done
for target in $(printf '%s\n' "$section" | sed -n 's/^- \[[^]]*\](\([^)]*\)).*/\1/p'); do
  [ -f "$target" ] || { echo "readme_docs: the link $target goes nowhere"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] || exit 1
echo "readme_docs: README.md links all $(ls docs/*.md | wc -l) pages of docs/, one line each"
