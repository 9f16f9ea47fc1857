#!/bin/sh
# docs/bsplib.md's table of signatures (the rows after the line
# `<!-- signatures: bsp/bsp.h -->`) is what bsp/bsp.h declares: each
# signature of the `bsp.h` column is a declaration of the header (lines
# joined, spaces squeezed); each of the `-DBSPRAM_BSPLIB_INT` column is the
# declaration of bspram_bsplib_int_NAME that the int mode's macro bsp_NAME
# names; a function marked "the same" has no such macro. And every function
# the header declares is in the table.
# usage: bsplib_signatures.sh <source dir>
set -eu
cd "$1"
md=docs/bsplib.md
header=bsp/bsp.h
flat=$(tr '\n' ' ' <"$header" | tr -s ' ')
fails=0 rows=0
fail() { echo "bsplib_signatures: $*"; fails=$((fails + 1)); }
declared() { # <signature>: a declaration of the header, ending in ; or an attribute
  case "$flat" in
    *"$1;"* | *"$1 __attribute__"*) return 0 ;;
  esac
  return 1
}
table=$(awk '/^<!-- signatures: bsp\/bsp.h -->$/ { on = 1; next }
             on && /^\| `bsp_/ { print; next }
             on && /^$/ { exit }' "$md")
[ -n "$table" ] || { echo "bsplib_signatures: no table after the marker in $md"; exit 1; }
names=""
while IFS= read -r row; do
  rows=$((rows + 1))
  name=$(printf '%s\n' "$row" | cut -d'|' -f2 | tr -d ' `')
  names="$names $name"
  default=$(printf '%s\n' "$row" | cut -d'|' -f3 | sed -n 's/^ *`\([^`]*\)`.*/\1/p')
  int=$(printf '%s\n' "$row" | cut -d'|' -f4)
  [ -n "$default" ] || { fail "$name: no signature in the bsp.h column"; continue; }
  declared "$default" || fail "$name: '$default' is not what $header declares"
  case "$int" in
    *" the same"*)
      if grep -q "^#define $name bspram_bsplib_int_" "$header"; then
        fail "$name: marked the same, but the int mode renames it"
      fi ;;
    *)
      sig=$(printf '%s\n' "$int" | sed -n 's/^ *`\([^`]*\)`.*/\1/p')
      [ -n "$sig" ] || { fail "$name: no signature in the int column"; continue; }
      grep -q "^#define $name bspram_bsplib_int_${name#bsp_}$" "$header" ||
        fail "$name: the int mode has no macro for it"
      renamed=$(printf '%s\n' "$sig" | sed "s/ $name(/ bspram_bsplib_int_${name#bsp_}(/")
      declared "$renamed" || fail "$name: '$sig' is not the int mode's declaration ('$renamed')"
      ;;
  esac
done <<EOF
$table
EOF
# Every bsp_ function the header declares has its row.
for f in $(printf '%s\n' "$flat" | grep -o '[a-z_0-9*]* \**bsp_[a-z_]*(' | sed 's/.* \**\(bsp_[a-z_]*\)($/\1/' | sort -u); do
  case " $names " in
    *" $f "*) ;;
    *) fail "$header declares $f, which the table of $md lacks" ;;
  esac
done
[ "$fails" -eq 0 ] || exit 1
echo "bsplib_signatures: $rows rows, each as $header declares it"
