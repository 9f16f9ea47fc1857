#!/bin/sh
# The `bspram sdp` command line: every permutation and algorithm runs and is
# verified; the CSV has the documented header and its c1, c2 equal Ho &
# Johnsson's counts (A1: n cycles and 2(n-1)K for a shuffle of real order
# n; A2: n + 1 cycles of K/2; A3: 2n; A1a: n + 1 and nK, 3 and 3K/2 on a
# cycle of order 2); --ports takes 1, n or n's value; text shows the
# measured values beside the paper's and the lower bounds; every bad option
# gives one line on stderr naming it and exit status 2.
# usage: sdp.sh <path of the bspram binary>
set -u
bspram=$1
subcommand=sdp
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

header="perm,alg,ports,dims,elems,bytes,K,c1,c2,seconds,verified,predicted_c1,predicted_c2,lower_c1,lower_c2"

# csv_row <expected c1> <expected c2> <args...>
csv_row() {
    c1=$1; c2=$2; shift 2
    run "$bspram" sdp --format csv --reps 2 "$@"
    row=$(sed -n 2p "$scratch/out")
    got_c1=$(echo "$row" | cut -d, -f8); got_c2=$(echo "$row" | cut -d, -f9)
    verified=$(echo "$row" | cut -d, -f11)
    if [ "$rc" -eq 0 ] && [ "$(sed -n 1p "$scratch/out")" = "$header" ] && [ "$verified" = 1 ] \
        && { [ "$c1" = - ] || [ "$got_c1" = "$c1" ]; } && { [ "$c2" = - ] || [ "$got_c2" = "$c2" ]; }; then ok
    else fail "sdp $*: exit $rc, row '$row', expected c1 $c1, c2 $c2"; cat "$scratch/err" >&2
    fi
}

# A shuffle of real order n = 5 with K = 4 elements of 8 bytes = 32 bytes.
csv_row 5 256 --dims 5 --perm shuffle --algorithm A1 --elems 4
csv_row 6 96 --dims 5 --perm shuffle --algorithm A2 --elems 4
csv_row 6 160 --dims 5 --perm unshuffle --algorithm A1a --elems 4
csv_row 10 160 --dims 5 --perm shuffle --algorithm A3 --elems 4
# n ports: the 5 sequences of A2 carry K/5 each: ceil(ceil(32/5)/2) = 4 bytes per step.
csv_row 6 24 --dims 5 --perm k-shuffle=2 --algorithm A2 --ports 5 --elems 4
# --ports n, as the help writes it: the cube's dimension, before or after --dims.
csv_row 6 24 --dims 5 --perm k-shuffle=2 --algorithm A2 --ports n --elems 4
csv_row 6 24 --ports n --dims 5 --perm k-shuffle=2 --algorithm A2 --elems 4
run "$bspram" sdp --format csv --reps 1 --ports n --dims 4 --perm shuffle --algorithm A5 --elems 4
if [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f2,3)" = "A5,4" ]; then ok
else fail "--ports n with A5: exit $rc, $(sed -n 2p "$scratch/out")"; cat "$scratch/err" >&2; fi
# A5 on the 5-cube: 6 steps.
csv_row 6 - --dims 5 --perm shuffle --algorithm A5 --ports 5 --elems 4
# Bit reversal on 4 dimensions: two cycles of order 2, one after the other.
csv_row 4 128 --dims 4 --perm bitrev --algorithm A1 --elems 4 --alloc consecutive
csv_row 6 96 --dims 4 --perm transpose --algorithm A2 --elems 4
# A1a on cycles of order 2: two transfers pipelined in halves, 3 supersteps of K/2
# (3K/2 = 96 for K = 64; Table 2's sigma_p K would be 128); odd K: 2*ceil + floor.
csv_row 3 96 --dims 2 --perm transpose --algorithm A1a --elems 8
csv_row 6 192 --dims 4 --perm bitrev --algorithm A1a --elems 8
csv_row 3 5 --dims 2 --perm transpose --algorithm A1a --elems 1 --bytes 3
# and of order 3: sigma K.
csv_row 4 192 --dims 3 --perm shuffle --algorithm A1a --elems 8
for alg in A1 A1a A2 A3 auto; do
    for perm in shuffle unshuffle bitrev transpose k-shuffle=3; do
        csv_row - - --dims 6 --perm $perm --algorithm $alg --elems 2 --bytes 3
    done
done

run "$bspram" sdp --dims 4 --perm shuffle --algorithm A1 --elems 8 --reps 1
if [ "$rc" -eq 0 ] && grep -q '^  C1 rounds  *4  *4  *4$' "$scratch/out" \
    && grep -q '^  C2 bytes  *384  *384  *128$' "$scratch/out" && grep -q 'verified' "$scratch/out"; then ok
else fail "text output:"; cat "$scratch/out" >&2
fi

run "$bspram" sdp --help
if [ "$rc" -eq 0 ] && grep -q 'usage: bspram sdp' "$scratch/out"; then ok; else fail "--help"; fi

expect_usage "odd transpose" "--perm transpose: needs an even --dims" --dims 3 --perm transpose --elems 4
expect_usage "unknown perm" "--perm 'rotate': unknown permutation" --dims 3 --perm rotate --elems 4
expect_usage "unknown algorithm" "--algorithm 'A9': unknown algorithm" --dims 3 --perm shuffle --elems 4 --algorithm A9
expect_usage "dims too large" "--dims '17': not a whole number in [0, 16]" --dims 17 --perm shuffle --elems 4
expect_usage "no dims" "--dims n is required" --perm shuffle --elems 4
expect_usage "no perm" "--perm PERM is required" --dims 3 --elems 4
expect_usage "no elems" "--elems K is required" --dims 3 --perm shuffle
expect_usage "elems not a power of two" "--elems 6: not a power of two" --dims 3 --perm shuffle --elems 6
expect_usage "ports" "--ports 2: must be 1 or n = 3" --dims 3 --perm shuffle --elems 4 --ports 2
expect_usage "ports of A1" "algorithm A1 has one port only" --dims 3 --perm shuffle --elems 4 --ports 3 --algorithm A1
expect_usage "ports n of A1" "--ports 3: algorithm A1 has one port only" --dims 3 --perm shuffle --elems 4 --ports n --algorithm A1
expect_usage "ports neither 1 nor n" "--ports 'm'" --dims 3 --perm shuffle --elems 4 --ports m
expect_usage "A5 one port" "--algorithm A5: needs --ports 3" --dims 3 --perm shuffle --elems 4 --algorithm A5
expect_usage "k-shuffle value" "--perm k-shuffle=" --dims 3 --perm k-shuffle=x --elems 4
expect_usage "unknown option" "unknown option '--bogus'" --dims 3 --bogus 1
expect_usage "missing value" "--elems needs a value (--elems K)" --dims 3 --perm shuffle --elems
expect_usage "unknown format" "--format 'xml'" --dims 3 --perm shuffle --elems 4 --format xml
expect_usage "memory" "more than 256 MiB" --dims 3 --perm shuffle --elems 16777216 --bytes 4096

echo "sdp_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
