#!/bin/sh
# One grammar for every command `bspram help` lists (tools/options.h): -h
# and --help print the usage on stdout, exit 0, the same as `bspram help
# CMD`; an unknown option, a stray word, a missing value, a bad value, an
# option given twice and a value given to a flag are each one line on
# stderr naming the command and the word, exit 2, nothing on stdout;
# `--opt=value` is `--opt value`; and --format text, csv and json are taken
# by every command, the CSV a header and rows of as many fields, the JSON
# valid (python3 -m json.tool).
# usage: grammar.sh <bspram>
bspram=$1 subcommand=help
. "$(dirname "$0")/common.sh"
export BSPRAM_PARAMS="$scratch/params" # no probe's figures, and the probe saves nothing here

# A short run of every command, its options in the `--opt value` form, and
# what to cut from its CSV (or `-`): the fields that are times.
BSPRAM_TRACE="$scratch/trace.csv" "$bspram" demo --p 4 --h 2 --supersteps 2 >/dev/null ||
    fail "demo did not write a trace"
quick() {
    case $1 in
        demo) echo "--p 4 --h 2 --supersteps 2 --seed 3|8" ;;
        table) echo "--p 16 --v 64 --degrees 1,4 --basis 4x4 --runs 1 --seed 2|-" ;;
        coll) echo "--op allgather --p 4 --block 8 --reps 1|9" ;;
        sdp) echo "--dims 2 --perm shuffle --elems 2 --reps 1|10" ;;
        models) echo "--p 4 --n 64 --k-star 2|-" ;;
        pram) echo "--example prefix_sums --n 64 --p 8 --seed 2|13" ;;
        probe) echo "--p 2 --max-h 2 --step 1 --supersteps 1 --no-save|5-" ;;
        prof) echo "$scratch/trace.csv --g 1 --l 100|-" ;;
        *) echo "" ;;
    esac
}
# The CSV on stdout without its times, in $scratch/cut.
cut_times() {
    if [ "$1" = - ]; then cp "$scratch/out" "$scratch/cut"
    else cut -d, -f"$1" --complement "$scratch/out" >"$scratch/cut"; fi
}
# expect_usage_line <what> <text>: exit 2, one line on stderr holding the
# text and naming the command, nothing on stdout.
expect_usage_line() {
    if [ "$rc" -eq 2 ] && [ "$(lines "$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ] \
        && grep -qF -- "bspram $c: " "$scratch/err" && grep -qF -- "$2" "$scratch/err"; then ok
    else fail "$c: $1: exit $rc (want 2), $(lines "$scratch/err") stderr lines, $(lines "$scratch/out") stdout lines:"
        head -c 400 "$scratch/err" >&2
    fi
}

run "$bspram" help
commands=$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$scratch/out" | grep -v '^help$')
[ "$(echo "$commands" | wc -w)" -ge 8 ] && ok || fail "bspram help lists $(echo "$commands" | wc -w) commands"

for c in $commands; do
    spec=$(quick "$c")
    [ -n "$spec" ] || { fail "$c: no short run in grammar.sh: add one"; continue; }
    args=${spec%|*} times=${spec#*|}

    # -h, --help and help CMD: the same usage on stdout, exit 0.
    run "$bspram" help "$c"
    cp "$scratch/out" "$scratch/help"
    for h in -h --help; do
        run "$bspram" "$c" $h
        [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && head -n 1 "$scratch/out" | grep -q "^usage: bspram $c" \
            && cmp -s "$scratch/out" "$scratch/help" && ok || fail "$c $h: exit $rc, not the usage of help $c"
    done
    # Errors: one line, exit 2.
    run "$bspram" "$c" --no-such-option
    expect_usage_line "unknown option" "unknown option '--no-such-option'"
    run "$bspram" "$c" --no-such-option=3
    expect_usage_line "unknown option with a value" "unknown option '--no-such-option=3'"
    run "$bspram" "$c" stray1 stray2
    expect_usage_line "stray words" "stray"
    run "$bspram" "$c" $args -- stray1 stray2
    expect_usage_line "stray words after --" "stray"
    # One stray word, alone or after a whole command line, named (`models
    # stray-word` read it as a TRACE and exited 1; coll did not name it).
    run "$bspram" "$c" stray-word
    expect_usage_line "a stray word" "'stray-word'"
    run "$bspram" "$c" $args stray-word
    expect_usage_line "a stray word after the options" "'stray-word'"
    run "$bspram" "$c" --format
    expect_usage_line "a missing value" "--format needs a value"
    run "$bspram" "$c" --format=xml
    expect_usage_line "a bad value" "--format 'xml'"
    run "$bspram" "$c" --format csv --format json
    expect_usage_line "an option given twice" "--format is given twice"
    run "$bspram" "$c" --help=yes
    expect_usage_line "--help with a value" "'--help=yes'"

    # Every format; --opt=value is --opt value.
    for f in text csv json; do
        run "$bspram" "$c" $args --format "$f"
        if [ "$rc" -ne 0 ] || [ ! -s "$scratch/out" ]; then
            fail "$c --format $f: exit $rc"; head -c 400 "$scratch/err" >&2; continue
        fi
        case $f in
            json) python3 -m json.tool "$scratch/out" >/dev/null && ok || { fail "$c: the JSON does not parse"; head -c 600 "$scratch/out" >&2; } ;;
            csv) python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), rows' "$scratch/out" && ok \
                     || { fail "$c: the CSV is not a header and rows of as many fields"; head -c 600 "$scratch/out" >&2; }
                 cut_times "$times"; cp "$scratch/cut" "$scratch/spaced" ;;
            *) ok ;;
        esac
    done
    joined=$(echo "$args --format csv" | sed 's/\(--[a-z-]*\) \([^-][^ ]*\)/\1=\2/g')
    run "$bspram" "$c" $joined
    cut_times "$times"
    [ "$rc" -eq 0 ] && cmp -s "$scratch/cut" "$scratch/spaced" && ok \
        || { fail "$c $joined: exit $rc, not the output of $args --format csv"; diff "$scratch/spaced" "$scratch/cut" | head -5 >&2; }
done

# A flag takes no value; a short option takes the next word.
c=probe
run "$bspram" probe --no-save=yes
expect_usage_line "a value given to a flag" "--no-save takes no value ('--no-save=yes')"
run "$bspram" pram --example or --n 10 -p 4 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f4)" = 4 ] && ok || fail "pram -p 4: exit $rc"

# A long option by an unambiguous beginning of its name, as GNU getopt_long
# reads it (`sdp --alg`, its earlier name, was refused); a beginning of
# several is refused naming them; the whole name wins over a longer one it
# begins (coll --op, not --operation or --ops).
c=sdp
run "$bspram" sdp --dims 2 --perm shuffle --elems 2 --reps 1 --alg A1 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f2)" = A1 ] && ok || fail "sdp --alg A1: exit $rc"
run "$bspram" sdp --dims 2 --perm shuffle --elems 2 --reps 1 --alg=A1 --algo A2 --format csv
expect_usage_line "a beginning and the name, one option twice" "--algorithm is given twice"
c=coll
run "$bspram" coll --op broadcast --p 4 --ro 1
expect_usage_line "an ambiguous beginning" "ambiguous option '--ro': it begins --root, --rounds"
run "$bspram" coll --op broadcast --p 4 --r=1
expect_usage_line "an ambiguous beginning with a value" "ambiguous option '--r': it begins --radix, --root, --reps, --rounds"
run "$bspram" coll --op broadcast --p 4 --reps 1 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f1)" = broadcast ] && ok || fail "coll --op: exit $rc"
c=pram
run "$bspram" pram --example or --n 10 --h x.html
expect_usage_line "a beginning of --help and another" "ambiguous option '--h': it begins --html, --help"
run "$bspram" pram --hel
[ "$rc" -eq 0 ] && head -n 1 "$scratch/out" | grep -q "^usage: bspram pram" && ok || fail "pram --hel: exit $rc"
run "$bspram" pram --no-such-option
expect_usage_line "no option begins so" "unknown option '--no-such-option'"

# '-' and '_' are one character in option names and in the names of values,
# every command alike (pram's examples took both, coll's algorithms one).
c=models
run "$bspram" models --p 4 --n 64 --k_star 2 --per_byte 1e-9 --format csv
[ "$rc" -eq 0 ] && ok || fail "models --k_star --per_byte: exit $rc"
run "$bspram" pram --example tree-sum --n 64 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f1)" = tree_sum ] && ok || fail "pram --example tree-sum: exit $rc"
run "$bspram" coll --op broadcast --p 4 --reps 1 --algorithm scatter_allgather --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f2)" = scatter-allgather ] && ok \
    || fail "coll --algorithm scatter_allgather: exit $rc"
run "$bspram" sdp --dims 2 --perm k_shuffle=1 --elems 2 --reps 1 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f1)" = k-shuffle=1 ] && ok || fail "sdp --perm k_shuffle=1: exit $rc"
run "$bspram" table --p 16 --v 64 --degrees 1 --basis 16 --runs 1 --schedule cycles_sync --format csv
[ "$rc" -eq 0 ] && ok || fail "table --schedule cycles_sync: exit $rc"

# A list's items go between commas, none empty (`--sizes 8,` ran as 8).
c=coll
for l in "8," "8,,64" ",8"; do
    run "$bspram" coll --tune --p 2 --sizes "$l"
    expect_usage_line "--sizes '$l'" "--sizes '$l': an empty item"
done
run "$bspram" coll --tune --p 2 --ops "broadcast,,scan"
expect_usage_line "--ops with an empty item" "--ops 'broadcast,,scan': an empty item after 'broadcast'"
run "$bspram" coll --tune --p 2 --ops ""
expect_usage_line "--ops ''" "--ops '': an empty list"
c=table
run "$bspram" table --p 16 --v 64 --basis 16 --degrees 1,4,
expect_usage_line "--degrees 1,4," "--degrees '1,4,': an empty item after '4'"
run "$bspram" table --paper 1,,2
expect_usage_line "--paper 1,,2" "--paper '1,,2': an empty item after '1'"

echo "grammar_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
