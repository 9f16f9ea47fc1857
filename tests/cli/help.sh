#!/bin/sh
# bspram --version, bspram help and help CMD: the version CMake built (the
# project's), the list of commands, each command's own usage (what
# `bspram CMD --help` prints, exit 0); a command that does not exist is one
# line and exit 2.
# usage: help.sh <bspram> <version>
bspram=$1 version=$2 subcommand=help
. "$(dirname "$0")/common.sh"

for v in --version version; do
    run "$bspram" $v
    [ "$rc" -eq 0 ] && [ "$(cat "$scratch/out")" = "bspram $version" ] && ok || fail "$v: exit $rc, $(cat "$scratch/out")"
done
run "$bspram" help
if [ "$rc" -eq 0 ]; then
    for c in demo table coll sdp models pram probe prof help; do
        grep -q "^  $c " "$scratch/out" && ok || fail "help does not list $c"
    done
else fail "help: exit $rc"; fi
for c in demo table coll sdp models pram probe prof; do
    run "$bspram" "$c" --help
    cp "$scratch/out" "$scratch/want"
    run "$bspram" help "$c"
    [ "$rc" -eq 0 ] && [ -s "$scratch/out" ] && cmp -s "$scratch/out" "$scratch/want" && ok ||
        fail "help $c: exit $rc, not what $c --help prints"
done
expect_error "no such command" "bspram help: no command 'nope'" nope
expect_error "two commands" "one command at a time ('table' after 'demo')" demo table
subcommand=nope
expect_error "unknown command" "bspram: unknown command 'nope' (bspram help lists them)"
# A name with a newline is quoted escaped, on one line.
subcommand="no
pe"
expect_error "unknown command with a newline" "bspram: unknown command 'no\npe' (bspram help"
subcommand=help
expect_error "help of a command with a newline" "bspram help: no command 'a\nb'" "a
b"

echo "help_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
