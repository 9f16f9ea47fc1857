#!/bin/sh
# Peak memory (RSS, /usr/bin/time -f %M) of two builds side by side: the PRAM
# prefix-sums example (examples/pram_prefix_sums.c) against the bytes of its
# arrays and answers, and a BSPlib program that only synchronises
# (bench/memory_sync.c, built here against each build) against P.
#
#   bench/memory.sh BEFORE_BUILD AFTER_BUILD [n-exponents] [P values]
#   bench/memory.sh /tmp/m-before-src/build build-m "20 22 24" "1024 4096 16384"
#
# A build directory is a configured and built tree (cmake … && make): its
# pram_prefix_sums and libbspram.so are used, and its source tree is found
# from its CMakeCache.txt (for bsp.h). One table on stdout; the arrays of the
# prefix sums are X (m = n rounded up to a power of two cells, 8 bytes each)
# and SUM (one cell), its answers the gathers' 2 words per VP (n VPs): the
# issue's yardstick, "peak ≤ 4× the bytes of its arrays and answers".
set -eu
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
exps=${3:-"20 22"}
procs=${4:-"1024 4096 16384"}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src_of() { sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt"; }
for b in before after; do
    eval dir=\$$b
    src=$(src_of "$dir")
    cc -O2 -std=c11 -D_GNU_SOURCE -fopenmp -I"$src" -I"$src/bsp" "$here/memory_sync.c" -o "$tmp/sync_$b" \
        -L"$dir" -lbspram -Wl,-rpath,"$dir"
done

# peak KB of a command (its output discarded; a failure is reported as "failed")
peak() {
    if /usr/bin/time -f %M -o "$tmp/kb" "$@" >"$tmp/out" 2>"$tmp/err"; then cat "$tmp/kb"; else echo failed; fi
}
mb() { awk -v k="$1" 'BEGIN { if (k == "failed") print "failed"; else printf "%.0f", k / 1024 }'; }

printf '| program | size | arrays + answers | before: peak RSS | after: peak RSS |\n'
printf '|---|---|---|---|---|\n'
for e in $exps; do
    n=$((1 << e))
    bytes=$((8 * n + 8 + 16 * n)) # X (m = n: a power of two) + SUM, answers 2n words
    kb_b=$(peak "$before/pram_prefix_sums" "$n")
    kb_a=$(peak "$after/pram_prefix_sums" "$n")
    ratio() { awk -v k="$1" -v b="$bytes" 'BEGIN { if (k == "failed") print "failed"; else printf "%.0f MB (%.1f×)", k / 1024, k * 1024 / b }'; }
    printf '| pram_prefix_sums | n = 2^%s | %s MB | %s | %s |\n' "$e" "$((bytes / 1048576))" "$(ratio "$kb_b")" "$(ratio "$kb_a")"
done
for P in $procs; do
    kb_b=$(peak "$tmp/sync_before" "$P")
    kb_a=$(peak "$tmp/sync_after" "$P")
    per() { awk -v k="$1" -v p="$P" 'BEGIN { if (k == "failed") print "failed"; else printf "%.0f MB (%.0f KB per process)", k / 1024, k / p }'; }
    printf '| memory_sync (BSPlib) | P = %s | — | %s | %s |\n' "$P" "$(per "$kb_b")" "$(per "$kb_a")"
done
