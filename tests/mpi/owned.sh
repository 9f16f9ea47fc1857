#!/bin/sh
# What a rank holds over MPI (owned.c): the explicit gathers give every rank
# every cell and component state, on 1 to 3 ranks; reaching for another
# rank's cell or state ends the job with the line naming the owner.
# usage: owned.sh <owned program>
set -u
prog=$1
here=$(dirname "$0")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
fails=0
for n in 1 2 3; do
  sh "$here/run.sh" "$n" "$prog" gather > "$out" 2>&1 ||
    { cat "$out"; echo "owned.sh: gather on $n ranks failed"; fails=$((fails + 1)); }
  [ "$(grep -c "gathered right" "$out")" -eq "$n" ] ||
    { cat "$out"; echo "owned.sh: gather on $n ranks: not one right line per rank"; fails=$((fails + 1)); }
done
expect() { # <case> <text>: on 2 ranks, a failure with the text
  sh "$here/run.sh" 2 "$prog" "$1" > "$out" 2>&1 && { cat "$out"; echo "owned.sh: $1 succeeded"; fails=$((fails + 1)); return; }
  grep -qF -- "$2" "$out" || { cat "$out"; echo "owned.sh: $1: no line with \"$2\""; fails=$((fails + 1)); return; }
  echo "owned.sh: $1 on 2 ranks refused, as expected"
}
expect load "is another MPI rank's (this rank holds components ["
expect local "is another MPI rank's (this rank holds ["
expect rehash "over MPI the space holds only this rank's owners' cells"
[ "$fails" -eq 0 ] || exit 1
echo "owned.sh: every case as expected"
