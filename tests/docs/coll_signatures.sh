#!/bin/sh
# docs/collectives.md's table of the calls (the rows after the line
# `<!-- signatures: coll/bsp_coll.h -->`) is what coll/bsp_coll.h declares:
# each row's signature is a declaration of the header (lines joined, spaces
# squeezed), and every function the header declares has its row (the page
# once gave no signature for broadcast).
# usage: coll_signatures.sh <source dir>
set -eu
cd "$1"
md=docs/collectives.md
header=coll/bsp_coll.h
flat=$(tr '\n' ' ' <"$header" | tr -s ' ')
fails=0 rows=0
fail() { echo "coll_signatures: $*"; fails=$((fails + 1)); }
table=$(awk '/^<!-- signatures: coll\/bsp_coll.h -->$/ { on = 1; next }
             on && /^\| `bsp_coll_/ { print; next }
             on && /^$/ { exit }' "$md")
[ -n "$table" ] || { echo "coll_signatures: no table after the marker in $md"; exit 1; }
names=""
while IFS= read -r row; do
  rows=$((rows + 1))
  name=$(printf '%s\n' "$row" | cut -d'|' -f2 | tr -d ' `')
  names="$names $name"
  sig=$(printf '%s\n' "$row" | cut -d'|' -f3 | sed -n 's/^ *`\([^`]*\)`.*/\1/p')
  [ -n "$sig" ] || { fail "$name: no signature"; continue; }
  case "$sig" in
    *" $name("* | *"*$name("*) ;;
    *) fail "$name: the signature '$sig' declares another function" ;;
  esac
  case "$flat" in
    *"$sig;"*) ;;
    *) fail "$name: '$sig' is not what $header declares" ;;
  esac
done <<EOF2
$table
EOF2
for f in $(grep -oE '^[a-z][a-z_ ]*\**bsp_coll_[a-z_]+\(' "$header" | sed -E 's/.*(bsp_coll_[a-z_]+)\($/\1/' | sort -u); do
  case " $names " in
    *" $f "*) ;;
    *) fail "$header declares $f, which the table of $md lacks" ;;
  esac
done
[ "$fails" -eq 0 ] || exit 1
echo "coll_signatures: $md's table of $rows calls is what $header declares"
