#!/bin/sh
# The `bspram coll` command line: every operation and algorithm runs and is
# verified, the CSV has the documented header and its c1, c2 columns equal
# the papers' values where they are exact (Bruck et al. 1997 §3, §4; the
# ring and direct schedules of Saad & Schultz 1986 §3), text output shows
# the measured values beside the formula, and every bad option or value
# gives one line on stderr naming it and exit status 2 (an algorithm the
# operation lacks: the library's line when the run begins); --tradeoff
# picks Bruck 4.2's C1- or C2-optimal schedule, formula beside measurement.
# usage: coll.sh <path of the bspram binary>
set -u
bspram=$1
subcommand=coll
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

header="op,algorithm,p,radix,ports,block,c1,c2,seconds,verified,supersteps,h_bytes,predicted_c1,predicted_c2"

# csv_row <expected c1> <expected c2> <args...>: verified, header, c1 and c2.
csv_row() {
    c1=$1; c2=$2; shift 2
    run "$bspram" coll --format csv --reps 3 "$@"
    row=$(sed -n 2p "$scratch/out")
    got_c1=$(echo "$row" | cut -d, -f7); got_c2=$(echo "$row" | cut -d, -f8)
    verified=$(echo "$row" | cut -d, -f10)
    if [ "$rc" -eq 0 ] && [ "$(sed -n 1p "$scratch/out")" = "$header" ] && [ "$verified" = 1 ] \
        && { [ "$c1" = - ] || [ "$got_c1" = "$c1" ]; } && { [ "$c2" = - ] || [ "$got_c2" = "$c2" ]; }; then ok
    else fail "coll $*: exit $rc, row '$row', expected c1 $c1, c2 $c2"; cat "$scratch/err" >&2
    fi
}

# Bruck's concatenation: C1 = ceil(log_{k+1} n), C2 = ceil(b(n-1)/k).
csv_row 3 35 --op allgather --p 8 --algorithm bruck --block 5
csv_row 2 16 --op allgather --p 9 --algorithm bruck --ports 2 --block 4
csv_row 4 9 --op allgather --p 10 --algorithm bruck --block 1
# Ports beyond n - 1 go unused: C2 = ceil(b(n-1)/min(k, n-1)) = b, in one round.
csv_row 1 8 --op allgather --p 4 --algorithm bruck --ports 5 --block 8
csv_row 1 3 --op allgather --p 2 --algorithm bruck --ports 3 --block 3
# Bruck 4.2's tradeoff (b = 3, k = 3, n = 15: 11 = (k+1)^d - k < n < 16): C1-optimal
# 2 rounds and 15 bytes, C2-optimal 3 rounds and ceil(3 * 14 / 3) = 14 bytes; the
# formula column follows the tradeoff, also when auto picks the algorithm.
csv_row 2 15 --op allgather --p 15 --algorithm bruck --ports 3 --block 3 --tradeoff c1
csv_row 3 14 --op allgather --p 15 --algorithm bruck --ports 3 --block 3 --tradeoff c2
for alg in bruck auto; do
    run "$bspram" coll --format csv --reps 1 --op allgather --p 15 --algorithm $alg --ports 3 \
        --block 3 --tradeoff c2
    row=$(sed -n 2p "$scratch/out")
    if [ "$rc" -eq 0 ] && [ "$(echo "$row" | cut -d, -f2,7,8,13,14)" = "bruck,3,14,3,14" ]; then ok
    else fail "--tradeoff c2 --algorithm $alg: predicted beside measured, row '$row'"; fi
done
run "$bspram" coll --op allgather --p 15 --algorithm bruck --ports 3 --block 3 --tradeoff c2 --reps 1
if [ "$rc" -eq 0 ] && grep -q 'C2-optimal tradeoff' "$scratch/out" \
    && grep -q '^  C1 rounds  *3  *3  *2$' "$scratch/out" && grep -q '^  C2 bytes  *14  *14  *14$' "$scratch/out"; then ok
else fail "--tradeoff c2 text:"; cat "$scratch/out" >&2
fi
# The ring: n - 1 rounds of one block.
csv_row 6 42 --op allgather --p 7 --algorithm ring --block 7
# Bruck's index, radix 2 on 8: 3 rounds of 4 blocks; radix n: the direct one.
csv_row 3 96 --op alltoall --p 8 --algorithm bruck --radix 2 --block 8
csv_row 1 8 --op alltoall --p 8 --algorithm direct --block 8
# The cube's standard exchange: log2 n rounds of n/2 blocks.
csv_row 3 96 --op alltoall --p 8 --algorithm exchange --block 8
csv_row 7 56 --op alltoall --p 8 --algorithm bruck --radix 8 --block 8
# Broadcast and reductions by the binomial tree: ceil(log2 n) rounds of b.
csv_row 3 300 --op broadcast --p 6 --algorithm binomial --block 100 --root 5
csv_row 3 24 --op reduce --p 8 --algorithm binomial --block 8 --root 3
csv_row 3 48 --op allreduce --p 8 --algorithm doubling --block 16 --operation max:u64
# Rabenseifner's reduce on 8, 8 words: halves of 4, 2, 1 words, then the
# gather's ranges of 1, 2, 4 words; on 9 the pair-off round of 64 bytes first.
csv_row 6 112 --op reduce --p 8 --algorithm rabenseifner --block 64 --root 3
csv_row 7 176 --op reduce --p 9 --algorithm rabenseifner --block 64 --root 1
csv_row 4 32 --op scan --p 9 --algorithm dissemination --block 8
csv_row - - --op exscan --p 9 --block 24 --operation xor:u64
csv_row - - --op scatter --p 11 --block 3 --root 4
csv_row - - --op gather --p 11 --block 3 --root 10
csv_row - - --op allreduce --p 5 --block 8 --operation sum:f64
for op in broadcast scatter gather allgather alltoall reduce allreduce scan exscan; do
    csv_row - - --op $op --p 1 --block 8
    csv_row - - --op $op --p 13 --block 0
done

# Text: the measured values beside the formula.
run "$bspram" coll --op allgather --p 8 --algorithm bruck --block 5 --reps 2
if [ "$rc" -eq 0 ] && grep -q '^  C1 rounds  *3  *3  *3$' "$scratch/out" \
    && grep -q '^  C2 bytes  *35  *35  *35$' "$scratch/out" && grep -q 'verified' "$scratch/out"; then ok
else fail "text output:"; cat "$scratch/out" >&2
fi

# --help on stdout, exit 0.
run "$bspram" coll --help
if [ "$rc" -eq 0 ] && grep -q 'usage: bspram coll' "$scratch/out"; then ok; else fail "--help"; fi

expect_usage "unknown op" "--op 'bcast': unknown operation" --op bcast --p 4
expect_usage "no op" "--op OP is required" --p 4
expect_usage "no p" "--p N is required" --op scan
expect_usage "p zero" "--p" --op scan --p 0
expect_usage "radix below 2" "--radix" --op alltoall --p 4 --algorithm bruck --radix 1
expect_usage "radix above n" "--radix 5: above --p 4" --op alltoall --p 4 --algorithm bruck --radix 5
expect_usage "ports zero" "--ports" --op allgather --p 4 --ports 0
expect_usage "negative block" "--block" --op allgather --p 4 --block -8
expect_usage "unknown algorithm" "--algorithm 'fast': unknown algorithm" --op allgather --p 4 --algorithm fast
expect_error "algorithm of another op" "broadcast has no algorithm ring" --op broadcast --p 4 --algorithm ring
expect_usage "root" "--root 4: not a process" --op gather --p 4 --root 4
# --root of an operation that has none was accepted, and meant nothing.
for op in allgather alltoall allreduce scan exscan; do
    expect_usage "--root with $op" "--root: $op has no root (only broadcast, scatter, gather and reduce take one)" \
        --op $op --p 4 --root 0
done
expect_usage "--root with alltoall, before the op" "--root: alltoall has no root" --root 1 --p 4 --op alltoall
# A value with a newline is quoted escaped, on one line.
expect_usage "--op with a newline" "--op 'all\ngather': unknown operation" --op "all
gather" --p 4
expect_usage "--p with a newline" "--p '4\n'" --op scan --p "4
"
expect_usage "odd reduction" "multiple of 8" --op allreduce --p 4 --block 12
expect_usage "unknown option" "unknown option '--bogus'" --op scan --p 2 --bogus 1
expect_usage "unknown format" "--format 'xml'" --op scan --p 2 --format xml
expect_usage "unknown tradeoff" "--tradeoff 'c3': unknown; valid: c1" --op allgather --p 4 --tradeoff c3

echo "coll_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
