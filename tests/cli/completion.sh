#!/bin/sh
# The bash completion (tools/bspram.bash-completion), sourced in bash as
# bash-completion would: `bspram pr` completes to pram, probe and prof;
# `bspram pram --ex` to --example; the values of --format, --algorithm
# and --example come from the command; `help` completes commands; and every
# command's options are offered, exactly those its --help lists.
# usage: completion.sh <bspram> <the completion script>
bspram=$1 completion=$2 subcommand=help
. "$(dirname "$0")/common.sh"
command -v bash >/dev/null || { echo "completion_cli: no bash; skipped"; exit 77; }

# complete <words...>: what _bspram offers for the command line "bspram
# words...", the cursor at the end of the last word (an empty last word: after
# a space), sorted, one per line.
complete() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
             COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
             _bspram; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$bspram" "$@" | sort
}
# expect <what> <want, space-separated> <words...>
expect() {
    what=$1 want=$2; shift 2
    got=$(complete "$@" | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$want" ] && ok || fail "$what: offered '$got', want '$want'"
}

expect "bspram pr" "pram probe prof" pr
expect "bspram pram --ex" "--example" pram --ex
expect "bspram help p" "pram probe prof" help p
expect "bspram pram --format" "csv json text" pram --format ""
expect "bspram pram --format=j (bash splits at =)" "json" pram --format = j
expect "bspram pram --format= (bash splits at =)" "csv json text" pram --format =
expect "bspram table --format" "csv json md text" table --format ""
expect "bspram coll --algorithm b" "binomial bruck" coll --algorithm b
expect "bspram sdp --algorithm A1" "A1 A1a" sdp --algorithm A1
expect "bspram pram --example pre" "prefix_sums" pram --example pre
expect "bspram coll --op ex" "exscan" coll --op ex
# Files where a file goes: prof's trace, --output.
: >"$scratch/run.csv"
expect "bspram prof <file>" "$scratch/run.csv" prof "$scratch/ru"
expect "bspram table --output <file>" "$scratch/run.csv" table --output "$scratch/ru"
# An option's value is not taken for an option: after --p, no options.
expect "bspram demo --p <N>" "" demo --p ""

# Every command's options: exactly those its --help lists (the lines
# "  -x, --name" and "      --name"), and --help.
run "$bspram" help
for c in $(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$scratch/out" | grep -v '^help$'); do
    want=$("$bspram" "$c" --help | sed -n 's/^  \(-[a-zA-Z], \|    \)\(--[a-z-]*\).*/\2/p' | sort | tr '\n' ' ' | sed 's/ $//')
    expect "bspram $c --" "$want" "$c" --
    [ -n "$want" ] && ok || fail "$c --help lists no options"
done

echo "completion_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
