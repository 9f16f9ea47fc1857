#!/bin/sh
# check.sh refuses every includer of the machine-engine contract
# (bsp/machine_internal.h, combine/team_internal.h) outside the engine's
# layers, and only those: a scratch tree with one includer of each kind,
# allowed and not, and the lines check.sh must print (and must not).
# usage: engine_contract.sh <path of tests/layering/check.sh>
set -eu
check=$1
tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
put() { mkdir -p "$tree/$(dirname "$1")"; printf '#include "%s"\n' "$2" > "$tree/$1"; }
# Allowed.
put bsp/a.c bsp/machine_internal.h
put combine/a.c bsp/machine_internal.h
put combine/b.c combine/team_internal.h
put pram/a.c combine/team_internal.h
put tests/a.c combine/team_internal.h
put tests/mpi/a.c bsp/machine_internal.h
put build-x/a.c bsp/machine_internal.h; : > "$tree/build-x/CMakeCache.txt"
# Refused.
put coll/a.c bsp/machine_internal.h
put models/a.c combine/team_internal.h
put bsp/b.c combine/team_internal.h
put tools/a.c bsp/machine_internal.h
put examples/a.c combine/team_internal.h
put docs/a.md bsp/machine_internal.h
put bench/bench_coll.c bsp/machine_internal.h
if sh "$check" "$tree" > "$tree/out" 2>&1; then
  echo "engine_contract: check.sh passed a tree with includers outside the engine"; exit 1
fi
got=$(grep 'the machine-engine contract is included only by' "$tree/out" | cut -d: -f1 | sort | tr '\n' ' ')
want="bench/bench_coll.c bsp/b.c coll/a.c docs/a.md examples/a.c models/a.c tools/a.c "
if [ "$got" != "$want" ]; then
  echo "engine_contract: refused [$got], expected [$want]"; cat "$tree/out"; exit 1
fi
echo "engine_contract: the 7 includers outside the engine refused, the 6 inside or white-box (and a build folder's) passed"
