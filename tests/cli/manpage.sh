#!/bin/sh
# The man page docs/bspram.1: it renders without a warning (man --warnings,
# at several widths, and groff -ww), has the sections a man page has, a
# section `.SS bspram CMD` for every command `bspram help` lists, and names
# in it every option that command's --help lists (so that a new option
# cannot be left out of it).
# usage: manpage.sh <bspram> <docs/bspram.1>
bspram=$1 page=$2 subcommand=help
. "$(dirname "$0")/common.sh"

[ -s "$page" ] || { fail "no man page $page"; echo "manpage_cli: $passed passed, $failed failed"; exit 1; }
if command -v groff >/dev/null; then
    groff -man -ww -z "$page" >"$scratch/warn" 2>&1
    [ ! -s "$scratch/warn" ] && ok || { fail "groff -man -ww warns:"; head -5 "$scratch/warn" >&2; }
fi
if command -v man >/dev/null; then
    for width in 60 80 132; do
        MANWIDTH=$width man --warnings -l "$page" >"$scratch/page" 2>"$scratch/warn"
        [ -s "$scratch/page" ] && [ ! -s "$scratch/warn" ] && ok \
            || { fail "man --warnings at $width columns:"; head -5 "$scratch/warn" >&2; }
    done
fi
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
    grep -q "^\.SH \"\{0,1\}$s\"\{0,1\}\$" "$page" && ok || fail "no section $s"
done
# Every exit status the commands use.
for status in 0 1 2 3; do
    awk '/^\.SH "?EXIT STATUS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$page" | grep -q "^\.B $status\$" \
        && ok || fail "EXIT STATUS does not list $status"
done

run "$bspram" help
# Every command, and every subcommand its usage names ("bspram pram check ...").
commands=$(sed -n 's/^  \([a-z][a-z]*\) .*/\1/p' "$scratch/out" | grep -v '^help$')
for c in $commands; do
    echo "$c"
    "$bspram" "$c" --help | sed -n "s/^ *\(usage: \)\{0,1\}bspram $c \([a-z][a-z]*\) .*/$c \2/p" | sort -u
done >"$scratch/commands"
[ "$(grep -c ' ' "$scratch/commands")" -ge 1 ] && ok || fail "no subcommand found (pram check)"
while read -r c; do
    # The command's section, with \- read as -.
    awk -v want=".SS bspram $c" '$0 == want { on = 1; next } /^\.S[SH]/ { on = 0 } on' "$page" \
        | sed 's/\\-/-/g' >"$scratch/section"
    [ -s "$scratch/section" ] && ok || { fail "no section '.SS bspram $c'"; continue; }
    for o in $("$bspram" $c --help | sed -n 's/^  \(-[a-zA-Z], \|    \)\(--[a-z-]*\).*/\2/p' | grep -v '^--help$'); do
        grep -q -- "$o\([^a-z-]\|\$\)" "$scratch/section" && ok || fail "bspram $c: the man page does not name $o"
    done
done <"$scratch/commands"

echo "manpage_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
