#!/bin/sh
# The `bspram models` command line: the table of Saad & Schultz's operations
# (every operation under every model, the paper's formula and a finite
# ratio beside the six architectures); a TRACE, CSV and JSON
# of the same run (the same prices; a neighbour-only run costs the same on
# the hypercube as in Bruck's one-port model); every bad option, a missing
# and a malformed trace (no regular file, no superstep, a bad value named by
# file:line:column): one line on stderr and a non-zero exit status.
# usage: models.sh <path of the bspram binary>
set -u
bspram=$1
subcommand=models
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

run "$bspram" models --p 16 --n 65536 --format csv
if [ "$rc" -eq 0 ] && [ "$(sed -n 1p "$scratch/out")" = "op,model,p,n_bytes,algorithm,supersteps,priced_seconds,paper_seconds,ratio,flagged" ] \
    && [ "$(lines "$scratch/out")" -eq 41 ]; then ok; else fail "models csv: exit $rc"; cat "$scratch/err" >&2; fi
# Every architecture of the paper has its formula and a positive, finite ratio.
bad=$(awk -F, 'NR > 1 && $2 != "bsp" && $2 != "kport" && !($9 + 0 > 0 && $9 + 0 < 1000)' "$scratch/out" | wc -l)
if [ "$bad" -eq 0 ]; then ok; else fail "$bad rows without a finite ratio"; fi
for op in one-to-one broadcast all-to-all scatter multiscatter; do
    if [ "$(grep -c "^$op," "$scratch/out")" -eq 8 ]; then ok; else fail "$op: not 8 models"; fi
done

run "$bspram" models --p 8 --n 4096
if [ "$rc" -eq 0 ] && grep -q '^scatter (binomial), p = 8, N = 4096 bytes' "$scratch/out" \
    && grep -q '^  hypercube ' "$scratch/out"; then ok; else fail "models text"; cat "$scratch/out" >&2; fi

# A trace of a neighbour-only run, in CSV and JSON.
for ext in csv json; do
    BSPRAM_TRACE="$scratch/t.$ext" BSPRAM_PATTERN=1 "$bspram" sdp --dims 3 --perm shuffle --elems 4 \
        --algorithm A2 --reps 1 >/dev/null 2>&1
    run "$bspram" models "$scratch/t.$ext" --format csv
    cp "$scratch/out" "$scratch/priced.$ext"
    cube=$(grep ',hypercube,' "$scratch/out" | cut -d, -f5); kport=$(grep ',kport,' "$scratch/out" | cut -d, -f5)
    if [ "$rc" -eq 0 ] && [ -n "$cube" ] && [ "$cube" = "$kport" ] \
        && [ "$(head -1 "$scratch/out")" = "machine,p,supersteps,model,priced_seconds,flagged" ]; then ok
    else fail "TRACE $ext: exit $rc, hypercube '$cube', kport '$kport'"; cat "$scratch/err" >&2; fi
done
if cmp -s "$scratch/priced.csv" "$scratch/priced.json"; then ok; else fail "CSV and JSON traces price differently"; fi
# Without the pattern, the pattern-based models flag the supersteps.
BSPRAM_TRACE="$scratch/plain.csv" "$bspram" sdp --dims 3 --perm shuffle --elems 4 --algorithm A2 --reps 1 >/dev/null 2>&1
run "$bspram" models "$scratch/plain.csv"
if [ "$rc" -eq 0 ] && grep -q 'ring .*without their pattern' "$scratch/out"; then ok; else fail "no pattern"; cat "$scratch/out" >&2; fi

run "$bspram" models --help
if [ "$rc" -eq 0 ] && grep -q 'usage: bspram models' "$scratch/out"; then ok; else fail "--help"; fi

printf 'machine,superstep,label,messages\n1,2,3\n' >"$scratch/old.csv"
printf 'machine,superstep,label,messages,bytes,q,r,charge,h_bytes,max_message,work,seconds,exchange_seconds,p,flows\n0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,0:9\n' >"$scratch/bad.csv"
expect_usage "no p" "--p P is required" --n 8
expect_usage "no n" "--n N is required" --p 8
expect_usage "p one" "--p" --p 1 --n 8
expect_usage "unknown option" "unknown option '--bogus'" --bogus 1
expect_usage "bad startup" "--startup '-1': not a finite number >= 0" --p 4 --n 8 --startup -1
# Every number is read whole (base/number.h): strtod took a leading space,
# a '+' and hex (" 1" was 1 second).
for bad in " 1" "1 " "+1" "0x10" "0x1p-3" nan inf 1e400 "" "1e" ".";  do
    expect_usage "--startup '$bad'" "--startup '$bad': not a finite number >= 0" --p 4 --n 8 --startup "$bad"
    expect_usage "--per-byte '$bad'" "--per-byte '$bad': not a finite number >= 0" --p 4 --n 8 --per-byte "$bad"
done
run "$bspram" models --p 4 --n 8 --startup 1e-6 --per-byte 0 --format csv
[ "$rc" -eq 0 ] && [ "$(lines "$scratch/out")" -eq 41 ] && ok || { fail "--startup 1e-6 --per-byte 0: exit $rc"; cat "$scratch/err" >&2; }
# A value with a newline is quoted escaped, on one line.
expect_usage "--startup with a newline" "--startup '1\n2': not a finite number" --p 4 --n 8 --startup "1
2"
expect_usage "--format with a newline" "--format 'c\nsv'" --p 4 --n 8 --format "c
sv"
expect_usage "format" "--format 'xml'" --p 4 --n 8 --format xml
expect_usage "trace and p" "a TRACE gives the machines' p: no --p or --n with it" "$scratch/t.csv" --p 4
expect_usage "two traces" "one TRACE at a time" "$scratch/t.csv" "$scratch/t.json"
# A word that names no file is a stray word, a usage error (it was exit 1).
expect_usage "missing trace" "TRACE '$scratch/none.csv': no such file" "$scratch/none.csv"
expect_usage "a stray word" "TRACE 'stray-word': no such file" stray-word
expect_error "old trace" "old.csv:1:1: the trace has no p and flows columns" "$scratch/old.csv"
expect_error "bad flows" "bad.csv:2:35: flow 1's dst '9': not a whole number in [0, 3]" "$scratch/bad.csv"

# Only a regular file is read, and only a whole trace: everything else is one
# line and exit 1 — a FIFO hung, /dev/zero grew without end, and /dev/null,
# a directory, an empty file, a header alone or garbage JSON priced nothing
# with exit 0. (A hang is a failure within 120 s, not a stuck test.)
run_timeout=120
mkfifo "$scratch/fifo"
expect_error "a FIFO" "bspram models: $scratch/fifo: not a regular file (a FIFO)" "$scratch/fifo"
expect_error "/dev/zero" "bspram models: /dev/zero: not a regular file (a character device)" /dev/zero
expect_error "/dev/null" "bspram models: /dev/null: not a regular file (a character device)" /dev/null
expect_error "a directory" "bspram models: $scratch: is a directory" "$scratch"
: >"$scratch/empty.csv"
expect_error "an empty file" "empty.csv: an empty file, not a bspram trace" "$scratch/empty.csv"
head -1 "$scratch/t.csv" >"$scratch/header.csv"
expect_error "a header only" "header.csv: holds no superstep" "$scratch/header.csv"
printf '[\n]\n' >"$scratch/none.json"
expect_error "JSON without a superstep" "none.json: holds no superstep" "$scratch/none.json"
printf '[garbage\n' >"$scratch/garbage.json"
expect_error "garbage JSON" "garbage.json:1:1: not a bspram trace (the first line is not '[')" "$scratch/garbage.json"
printf '[\n{"garbage": 1}\n]\n' >"$scratch/garbage2.json"
expect_error "garbage JSON object" "garbage2.json:2:2: expected the key \"machine\"" "$scratch/garbage2.json"
head -3 "$scratch/t.json" >"$scratch/cut.json"
expect_error "JSON cut short" "cut.json: no closing ']' (a trace cut short?)" "$scratch/cut.json"
# Every value checked, the first bad one named by file:line:column: a flow
# of -1 messages was priced at 2.1e15 s, p = -3 shown as 18446744073709551613.
header=$(head -1 "$scratch/t.csv")
row() { printf '%s\n%s\n' "$header" "$1" >"$scratch/row.csv"; }
row '0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,0:1:-1:8:8'
expect_error "a flow of -1 messages" "row.csv:2:37: flow 1's messages '-1': not a whole number in [1, 18446744073709551615]" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,-3,-'
expect_error "p = -3" "row.csv:2:31: p '-3': not a whole number in [1, 4294967295]" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,0:1:2:8:8'
expect_error "flows against the row" "row.csv:2:33: the flows add up to 2 messages and 8 bytes, the row says 1 and 8" "$scratch/row.csv"
row '0,0,x,1,8,2,1,2,8,8,0,0.1,0.1,4,-'
expect_error "q above the messages" "row.csv:2:11: q 2 is above the messages, 1" "$scratch/row.csv"
row '0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,200000000,-,-'
expect_error "p past the models" "machine 0 has p = 200000000; the models price p up to 134217727" "$scratch/row.csv"
printf '%s\n0,0,x,1,8,1,1,1,8,8,0,0.1,0.1,4,-,-\n0,1,x,18446744073709551615,8,1,1,1,8,8,0,0.1,0.1,4,-,-\n' \
    "$header" >"$scratch/wrap.csv"
expect_error "messages that wrap" "wrap.csv:3:7: messages: machine 0's sum over its rows passes 2^64 - 1" "$scratch/wrap.csv"
run_timeout=120

echo "models_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
