#!/bin/sh
# What runs on one address space only refuses to run spread over MPI ranks,
# with one line and a failed job (never a wrong answer): the PRAM layer
# (examples/pram_intro.c) on 2 ranks; on 1 rank it runs.
# usage: refusals.sh <pram_intro, MPI build>
set -u
pram=$1
here=$(dirname "$0")
fails=0
check() { # <ranks> <want: ok|fail> <text> <program> [args]
  n=$1; want=$2; text=$3; shift 3
  out=$(sh "$here/run.sh" "$n" "$@" 2>&1); status=$?
  if [ "$want" = ok ] && [ "$status" -ne 0 ]; then
    echo "refusals.sh: $* on $n rank(s) failed:"; echo "$out"; fails=$((fails + 1)); return
  fi
  if [ "$want" = fail ] && [ "$status" -eq 0 ]; then
    echo "refusals.sh: $* on $n ranks ran; it should refuse"; echo "$out"; fails=$((fails + 1)); return
  fi
  echo "$out" | grep -qF -- "$text" || { echo "refusals.sh: $* on $n: no \"$text\":"; echo "$out"; fails=$((fails + 1)); }
  [ "$want" = ok ] || [ "$(echo "$out" | grep -c "bspram_pram_create")" -eq 1 ] ||
    { echo "refusals.sh: $* on $n: the line is printed more than once"; fails=$((fails + 1)); }
}
check 2 fail "the PRAM layer needs all its components in one address space; this program runs on 2 MPI ranks" "$pram"
check 3 fail "the PRAM layer needs all its components in one address space; this program runs on 3 MPI ranks" "$pram"
check 1 ok "(right)" "$pram"
[ "$fails" -eq 0 ] || exit 1
echo "refusals.sh: the PRAM layer refuses on 2 and 3 ranks and runs on 1"
