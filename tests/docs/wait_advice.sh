#!/bin/sh
# How idle threads wait decides how fast a PRAM run of small steps is, and
# a student reads the README's PRAM section and docs/pram*.md, not
# docs/environment.md: each of them has a paragraph on how threads wait (nothing to set: the library chooses)
# and linking docs/environment.md, where the wait policy is explained (only
# that page said it before).
# usage: wait_advice.sh <source dir>
set -eu
cd "$1"
fails=0
# advice <file> [<heading regex>]: a paragraph (in the section under the
# heading, if given) with OMP_WAIT_POLICY and a link to environment.md.
advice() {
  awk -v h="${2:-}" '
    /^#/ { on = (h == "" || $0 ~ h); para = ""; next }
    !on { next }
    /^$/ { if (para ~ /[Ww]ait/ && para ~ /\]\((docs\/)?environment\.md\)/) found = 1; para = ""; next }
    { para = para " " $0 }
    END { if (para ~ /[Ww]ait/ && para ~ /\]\((docs\/)?environment\.md\)/) found = 1; exit !found }' "$1"
}
advice README.md '^### .*PRAM' || { echo "wait_advice: README.md's PRAM section does not point to docs/environment.md for how threads wait"; fails=$((fails + 1)); }
for page in docs/pram*.md; do
  advice "$page" || { echo "wait_advice: $page does not point to environment.md for how threads wait"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] || exit 1
echo "wait_advice: README.md's PRAM section and docs/pram*.md point to docs/environment.md for the wait policy"
