#!/bin/sh
# The host's collectives over MPI need a lane on every rank, which a machine
# has unless it has fewer components than ranks: examples/pram_prefix_sums.c
# on p = 1 component and 2 or 3 ranks is refused in one line (never a hang or
# a wrong answer); with p = 3 components on 3 ranks it runs, even with 1 thread
# asked for (the machine raises its lanes to the ranks).
# usage: refusals.sh <pram_prefix_sums, MPI build>
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
  [ "$want" = ok ] || [ "$(echo "$out" | grep -cF -- "$text")" -eq 1 ] ||
    { echo "refusals.sh: $* on $n: the line is printed more than once"; fails=$((fails + 1)); }
}

check 2 fail "bspram_router_merge: the machine's 1 lanes leave MPI ranks without a lane" "$pram" 100 7 1 1
check 3 fail "bspram_router_merge: the machine's 1 lanes leave MPI ranks without a lane" "$pram" 100 7 1 1
check 3 ok "verified" "$pram" 100 7 3 1
[ "$fails" -eq 0 ] || exit 1
echo "refusals.sh: a PRAM with fewer components than ranks is refused; with as many it runs"
