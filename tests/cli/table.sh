#!/bin/sh
# The `bspram table` command line: bad input gives one line on stderr and a
# non-zero exit; the CSV has the documented header, canonical basis names and
# is the same for any thread count; no fixed-size buffer overflows or silently
# truncates; one OpenMP start per run; --output takes a path with a quote,
# draws PNG for .png, refuses other names, and fails on a full disk.
# usage: table.sh <path of the bspram binary>
set -u
bspram=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset OMP_WAIT_POLICY OMP_DISPLAY_ENV
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

# run <name> <args...>: exit code in $rc, stdout in $scratch/out, stderr in $scratch/err
run() {
    timeout 120 "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
}
lines() { wc -l <"$1" | tr -d ' '; }

# expect_error <what> <args...>: a usage error, exit status 2 (not a
# crash), exactly one line on stderr, nothing on stdout. expect_failure:
# the same with exit status 1, a run that cannot be done (a picture that
# cannot be written).
expect_status() {
    want=$1 what=$2; shift 2
    run "$bspram" table "$@"
    if [ "$rc" -eq "$want" ] && [ "$(lines "$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ]; then ok
    else fail "$what: exit $rc (want $want), $(lines "$scratch/err") stderr lines, $(lines "$scratch/out") stdout lines:"; cat "$scratch/err" >&2
    fi
}
expect_error() { expect_status 2 "$@"; }
expect_failure() { expect_status 1 "$@"; }

expect_error "basis product != p" --p 4096 --v 131072 --degrees 1 --basis 8x8
expect_error "zero basis entry" --p 16 --v 64 --degrees 1 --basis 0x16
expect_error "unknown option" --p 16 --bogus 3
expect_error "option without value" --p 16 --v 64 --degrees 1 --basis 16 --runs
expect_error "degree > p" --p 16 --v 64 --degrees 32 --basis 16
expect_error "v not a multiple of p" --p 16 --v 65 --degrees 1 --basis 16
expect_error "bad format" --p 16 --v 64 --degrees 1 --basis 16 --format xml
# Numbers are read strictly: strtoull once skipped the space of " -1" and
# negated it into 2^64 - 1 runs (a run that never ended) or seed.
expect_error "--runs ' -1'" --p 16 --v 64 --degrees 1 --basis 16 --runs " -1"
grep -q "runs ' -1'.*\[1, " "$scratch/err" && ok || fail "--runs ' -1': the message does not name the range: $(cat "$scratch/err")"
expect_error "--seed ' -1'" --p 16 --v 64 --degrees 1 --basis 16 --runs 1 --seed " -1"
expect_error "--seed -1" --p 16 --v 64 --degrees 1 --basis 16 --runs 1 --seed -1
expect_error "--runs 1e3" --p 16 --v 64 --degrees 1 --basis 16 --runs 1e3
expect_error "--runs +2" --p 16 --v 64 --degrees 1 --basis 16 --runs +2
expect_error "--p ' 16'" --p " 16" --v 64 --degrees 1 --basis 16 --runs 1
expect_error "--v 2^64" --p 16 --v 18446744073709551616 --degrees 1 --basis 16 --runs 1
expect_error "--threads 2x" --p 16 --v 64 --degrees 1 --basis 16 --runs 1 --threads 2x
expect_error "--paper 4" --paper 4 --runs 1
# (OMP_NUM_THREADS beyond --threads' range: many_threads.sh.)
expect_error "plot path with a newline" --p 16 --v 64 --degrees 1 --basis 16 --output "a
b.svg"

# More rows than the table holds (256 degrees x 20 bases once overflowed a
# static array): rejected in one line.
degs=1; i=1; while [ $i -lt 256 ]; do degs="$degs,1"; i=$((i + 1)); done
set -- ; i=0; while [ $i -lt 20 ]; do set -- "$@" --basis 16; i=$((i + 1)); done
expect_error "256 degrees x 20 bases" --p 16 --v 256 --degrees "$degs" "$@"
grep -q "rows" "$scratch/err" && ok || fail "row limit: the message does not say why: $(cat "$scratch/err")"
expect_error "257 degrees" --p 16 --v 256 --degrees "$degs,1" --basis 16

# A --degrees list longer than 4096 bytes is read to its end (it was once
# truncated there): a bad last degree is found ...
long=""; i=0; while [ $i -lt 200 ]; do long="${long}000000000000000000001,"; i=$((i + 1)); done
expect_error "bad degree after 4096 bytes" --p 16 --v 256 --degrees "${long}3" --basis 16
grep -q "'3'\|degree 3 " "$scratch/err" && ok || fail "long list: the error does not name degree 3: $(cat "$scratch/err")"
# ... and a good one is run.
run "$bspram" table --p 16 --v 256 --degrees "${long}2" --basis 16 --runs 1 --format csv
if [ "$rc" -eq 0 ] && [ "$(grep -c ',16,2,' "$scratch/out")" -eq 1 ] && [ "$(lines "$scratch/out")" -eq 202 ]; then ok
else fail "long --degrees list: exit $rc, $(lines "$scratch/out") lines"; cat "$scratch/err" >&2; fi

# CSV: the documented header; every row names its table (table, p, v,
# seed, spread, hash, runs); fixed bases in canonical form (8,8 is accepted
# and printed 8x8); 13 columns on every line; a spread above 0 with 3 runs;
# identical for T = 1 and T = 2.
table() {
    "$bspram" table --p 64 --v 1024 --degrees 1,4,16,64 --basis 8,8 --basis 64 --basis auto \
        --basis auto:0 --basis adaptive --basis 4x4x4 --runs 3 --seed 9 --format csv "$@"
}
table --threads 1 >"$scratch/t1" 2>"$scratch/e1"; rc1=$?
table --threads 2 >"$scratch/t2" 2>"$scratch/e2"; rc2=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ ! -s "$scratch/e1" ] && [ ! -s "$scratch/e2" ] && ok \
    || { fail "csv run: exit $rc1/$rc2"; cat "$scratch/e1" "$scratch/e2" >&2; }
[ "$(head -n 1 "$scratch/t1")" = "table,p,v,seed,spread,hash,runs,basis,degree,baseline,factor,factor_sd,phase_factors" ] && ok \
    || fail "csv header: $(head -n 1 "$scratch/t1")"
[ "$(lines "$scratch/t1")" -eq 25 ] && ok || fail "csv: $(lines "$scratch/t1") lines, want 1 + 6 x 4"
awk -F, 'NF != 13 { bad = 1 } END { exit bad }' "$scratch/t1" && ok || { fail "csv: a line without 13 columns"; cat "$scratch/t1" >&2; }
[ "$(grep -c '^custom,64,1024,9,random,xxh3,3,' "$scratch/t1")" -eq 24 ] && ok || fail "csv: rows without table, p, v, seed, spread, hash, runs"
# The spread: 0 exactly where every run equals its baseline (one phase of
# basis p at degree 1: the baseline's own pattern), above 0 elsewhere.
awk -F, 'NR > 1 { one = ($8 == "64" || $8 == "auto:64") && $9 == 1; if (one ? $12 != 0 : !($12 > 0)) bad = 1 }
         END { exit bad }' "$scratch/t1" && ok || { fail "csv: factor_sd"; cat "$scratch/t1" >&2; }
[ "$(grep -c ',8x8,' "$scratch/t1")" -eq 4 ] && ok || fail "csv: basis 8,8 not printed as 8x8"
[ "$(grep -c ',auto:[0-9x]*,' "$scratch/t1")" -eq 8 ] && [ "$(grep -c ',adaptive:[0-9x]*,' "$scratch/t1")" -eq 4 ] && ok \
    || fail "csv: auto/adaptive names"
# observe measures the degree (exact on these patterns), so it runs auto's
# basis for the row's degree, and pays for the measurement: 6 supersteps at
# p = 64, each charged 1, the factor less its phases' (times the baseline).
run "$bspram" table --p 64 --v 1024 --degrees 1,4,16,64 --basis observe --basis auto --runs 3 --format csv
[ "$rc" -eq 0 ] && awk -F, 'NR > 1 { split($8, b, ":"); n = split($13, ph, ";"); s = 0; for (i = 1; i <= n; i++) s += ph[i]
                                     if (b[1] == "observe") { o[$9] = b[2]; x = ($11 - s) * $10; if (x < 5.9 || x > 6.1) bad = 1 }
                                     else { a[$9] = b[2]; if (($11 - s) * $10 > 0.1) bad = 1 } }
         END { for (k in a) if (o[k] != a[k]) bad = 1; exit bad || length(a) != 4 }' "$scratch/out" && ok \
    || { fail "csv: observe's basis and charge against auto's"; cat "$scratch/out" >&2; }
# observe on the cycle model pays for its 6 supersteps (p = 64) as 6 cycles:
# in cycles-sync its factor less its phases' is 6 cycles, and on one phase
# (degrees 1 and 4: auto's pattern and basis) it is auto's plus 6 in either
# schedule, the asynchronous one included.
for sc in cycles-sync async; do
    run "$bspram" table --p 64 --v 1024 --degrees 1,4,16,64 --basis observe --basis auto --runs 3 --schedule $sc \
        --format csv --threads 1
    [ "$rc" -eq 0 ] && awk -F, -v sc=$sc 'NR > 1 { split($8, b, ":"); c = $11 * $10
                       if (b[1] == "observe") { o[$9] = c; n = split($13, ph, ";"); s = 0
                                                for (i = 1; i <= n; i++) s += ph[i] * $10
                                                if (sc == "cycles-sync" && (c - s < 5.9 || c - s > 6.1)) bad = 1 }
                       else a[$9] = c }
                   END { for (d = 1; d <= 4; d += 3) if (o[d] - a[d] < 5.9 || o[d] - a[d] > 6.1) bad = 1; exit bad }' \
        "$scratch/out" && ok || { fail "--schedule $sc: observe's 6 cycles"; cat "$scratch/out" >&2; }
done
# --schedule: cycles of the simple router; the table's name says which, the
# numbers are the same for any --threads, and a one-phase degree-1 row is
# the baseline itself in either algorithm. An unknown schedule is a usage error.
for sc in cycles-sync async; do
    run "$bspram" table --p 64 --v 1024 --degrees 1,16 --basis 64 --basis 8x8 --runs 2 --schedule $sc --format csv --threads 1
    cp "$scratch/out" "$scratch/s1"
    run "$bspram" table --p 64 --v 1024 --degrees 1,16 --basis 64 --basis 8x8 --runs 2 --schedule $sc --format csv --threads 2
    [ "$rc" -eq 0 ] && cmp -s "$scratch/s1" "$scratch/out" && ok || fail "--schedule $sc: differs between --threads 1 and 2"
    [ "$(grep -c "^custom:$sc,64,1024," "$scratch/out")" -eq 4 ] && grep -q "^custom:$sc,.*,64,1,[0-9.]*,1.000," "$scratch/out" \
        && ok || { fail "--schedule $sc: rows"; cat "$scratch/out" >&2; }
done
run "$bspram" table --p 64 --v 1024 --degrees 1 --basis 64 --schedule cycles
[ "$rc" -eq 2 ] && [ "$(lines "$scratch/err")" -eq 1 ] && ok || fail "--schedule cycles: exit $rc"
# --router sstar: the S*PRAM, on a cycle schedule only.
run "$bspram" table --p 64 --v 1024 --degrees 1,16 --basis 8x8 --runs 2 --schedule async --router sstar --format csv
[ "$rc" -eq 0 ] && [ "$(grep -c '^custom:async:sstar,64,1024,' "$scratch/out")" -eq 2 ] && ok \
    || { fail "--router sstar: rows"; cat "$scratch/out" "$scratch/err" >&2; }
run "$bspram" table --p 64 --v 1024 --degrees 1 --basis 64 --router sstar
[ "$rc" -eq 2 ] && grep -q '^bspram table: --router sstar counts cycles' "$scratch/err" && [ "$(lines "$scratch/err")" -eq 1 ] \
    && ok || fail "--router sstar without a cycle schedule: exit $rc"
# One run has no spread.
run "$bspram" table --p 16 --v 64 --degrees 1,4 --basis 4x4 --runs 1 --format csv
[ "$rc" -eq 0 ] && awk -F, 'NR > 1 && $12 != "0.0000" { bad = 1 } END { exit bad }' "$scratch/out" && ok \
    || { fail "csv: a factor_sd above 0 with one run"; cat "$scratch/out" >&2; }
cmp -s "$scratch/t1" "$scratch/t2" && ok || { fail "csv differs between --threads 1 and 2"; diff "$scratch/t1" "$scratch/t2" >&2; }

# The longest bases: 64 phases (63 of radix 1) print whole, with all 64
# phase factors, in every format (fixed 64-byte buffers once cut the name at
# 63 characters and the list at 43 factors).
long_basis=""; i=0; while [ $i -lt 63 ]; do long_basis="${long_basis}1x"; i=$((i + 1)); done
long_basis="${long_basis}4096"
run "$bspram" table --p 4096 --v 4096 --degrees 1 --basis "$long_basis" --runs 1 --format csv
row=$(sed -n 2p "$scratch/out")
if [ "$rc" -eq 0 ] && [ "$(printf '%s\n' "$row" | cut -d, -f8)" = "$long_basis" ] \
    && [ "$(printf '%s\n' "$row" | cut -d, -f13 | tr ';' '\n' | grep -c '^[0-9][0-9.]*$')" -eq 64 ]; then ok
else fail "64-phase basis in CSV: exit $rc: $row"; cat "$scratch/err" >&2; fi
run "$bspram" table --p 4096 --v 4096 --degrees 1 --basis "$long_basis" --runs 1 --format json
if [ "$rc" -eq 0 ] && grep -q "\"basis\": \"$long_basis\"" "$scratch/out" \
    && [ "$(sed -n 's/.*"phase_factors": \[\([^]]*\)\].*/\1/p' "$scratch/out" | tr ',' '\n' | grep -c '^[0-9][0-9.]*$')" -eq 64 ]; then ok
else fail "64-phase basis in JSON: exit $rc"; cat "$scratch/out" "$scratch/err" >&2; fi

# A degree hint is digits in [0, p]: UINT64_MAX once silently meant plain
# 'auto' (the row's own degree), and a hint above p was taken.
expect_error "hint UINT64_MAX" --p 16 --v 64 --degrees 1 --basis auto:18446744073709551615
expect_error "hint above p" --p 16 --v 64 --degrees 1 --basis auto:17
expect_error "hint out of range" --p 16 --v 64 --degrees 1 --basis auto:99999999999999999999999
expect_error "hint with a sign" --p 16 --v 64 --degrees 1 --basis auto:+4
expect_error "hint with a space" --p 16 --v 64 --degrees 1 --basis "auto: 4"
expect_error "empty hint" --p 16 --v 64 --degrees 1 --basis auto:
expect_error "hint with a tail" --p 16 --v 64 --degrees 1 --basis auto:4x4
run "$bspram" table --p 16 --v 64 --degrees 1 --basis auto:16 --runs 1 --format csv
[ "$rc" -eq 0 ] && grep -q ',auto:[0-9x]*,1,' "$scratch/out" && ok || { fail "hint p: exit $rc"; cat "$scratch/err" >&2; }

# BSPRAM_TRACE gets every superstep of every run (the experiment clears the
# machine's records after each run; the trace once kept only the header):
# per run, the one-phase baseline plus each row's phases, as printed.
for ext in csv json; do
    trace="$scratch/trace.$ext"
    BSPRAM_TRACE="$trace" "$bspram" table --p 16 --v 64 --degrees 1,4 --basis 4x4 --basis auto \
        --basis 2x2x2x2 --runs 3 --format csv >"$scratch/out" 2>"$scratch/err"; rc=$?
    per_run=$(awk -F, 'NR > 1 { n += split($13, f, ";") } END { print n + 1 }' "$scratch/out")
    want=$((3 * per_run))
    if [ "$ext" = csv ]; then
        got=$(($(lines "$trace") - 1))
        # One machine, supersteps 0, 1, ... in order.
        awk -F, 'NR > 1 && ($1 != 0 || $2 != NR - 2) { bad = 1 } END { exit bad }' "$trace" \
            && ok || fail "trace.csv: rows not one machine's supersteps 0, 1, ... in order"
    else
        got=$(grep -c '^  {"machine": 0, "superstep": [0-9]*, ' "$trace")
        [ "$(head -n 1 "$trace")" = "[" ] && [ "$(tail -n 1 "$trace")" = "]" ] && ok \
            || fail "trace.json: not one array"
    fi
    [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && [ "$got" -eq "$want" ] && [ "$want" -gt 3 ] && ok \
        || { fail "BSPRAM_TRACE=trace.$ext: exit $rc, $got rows, want $want"; cat "$scratch/err" >&2; }
done

# One process, one OpenMP start: the experiment runs as one team, so it needs
# no re-execution with another wait policy (OMP_DISPLAY_ENV prints libgomp's
# environment once per start).
# (An option is given once: `$small --runs 3` is refused, so the runs and
# the format are added where they differ.)
tiny="--p 16 --v 64 --degrees 1,4 --basis 4x4"
small="$tiny --runs 2 --format csv"
OMP_DISPLAY_ENV=true "$bspram" table $small >"$scratch/d" 2>"$scratch/de"; rc=$?
starts=$(grep -c "OPENMP DISPLAY ENVIRONMENT BEGIN" "$scratch/de")
[ $rc -eq 0 ] && [ "$starts" -eq 1 ] && ok || fail "exit $rc, libgomp started $starts times (want 1)"

# --output: a path with a quote reaches gnuplot intact.
if command -v gnuplot >/dev/null 2>&1; then
    svg="$scratch/it's a plot.svg"
    run "$bspram" table $small --output "$svg"
    [ $rc -eq 0 ] && [ -s "$svg" ] && ok || { fail "--output with a quote: exit $rc"; cat "$scratch/err" >&2; }
    # The plot names the table, on a white background.
    grep -q "p = 16, v = 64, 2 runs, seed 1" "$svg" && grep -q 'fill="#ffffff"' "$svg" && ok \
        || fail "--output: no title with p, v, runs and seed, or no white background"
    # What would fail after the run fails before it, in one line: a full
    # Table 3 (minutes) with a bad path returns at once.
    expect_failure "--output into a missing directory" --paper 3 --output "$scratch/no/such/dir/x.svg"
    grep -q "cannot write in $scratch/no/such/dir" "$scratch/err" && ok || fail "--output: missing directory not named"
    expect_failure "-o into a directory" --paper 3 -o "$scratch"
    grep -q "is a directory" "$scratch/err" && ok || fail "-o: a directory not refused"
    # One degree, one factor: gnuplot has ranges to draw and nothing to say.
    run "$bspram" table --p 16 --v 64 --degrees 1 --basis 16 --runs 2 --output "$scratch/one.svg"
    [ $rc -eq 0 ] && [ -s "$scratch/one.svg" ] && [ ! -s "$scratch/err" ] && ok \
        || { fail "--output of one degree: exit $rc, or stderr"; cat "$scratch/err" >&2; }
    # A device (a terminal without a controlling one failed only after the run).
    expect_failure "--output into a device" --paper 3 --output /dev/null
    grep -q "not a regular file" "$scratch/err" && ok || fail "--output: a device not refused"
    run env PATH=/nonexistent "$bspram" table --paper 3 --output "$scratch/x.svg"
    [ "$rc" -eq 1 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "gnuplot is not on PATH" "$scratch/err" && ok \
        || { fail "--output without gnuplot: exit $rc"; cat "$scratch/err" >&2; }
    # The format by the name: PNG (gnuplot's pngcairo) for .png; a name that
    # is neither .svg nor .png is refused before the run (an SVG went under
    # any name).
    run "$bspram" table $small --output "$scratch/t.png"
    [ $rc -eq 0 ] && [ "$(head -c 8 "$scratch/t.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && ok \
        || { fail "--output t.png: exit $rc, not a PNG"; cat "$scratch/err" >&2; }
    expect_error "--output t.txt" $small --output "$scratch/t.txt"
    grep -q "the name must end in .svg (SVG) or .png (PNG)" "$scratch/err" && [ ! -e "$scratch/t.txt" ] && ok \
        || fail "--output t.txt: not refused"
    # A full disk: gnuplot exits 0 with an empty file; the table says so in
    # one line, exit 1, and removes it. (Needs root to mount a small tmpfs.)
    mkdir "$scratch/full"
    if mount -t tmpfs -o size=16k tmpfs "$scratch/full" 2>/dev/null; then
        trap 'umount "$scratch/full" 2>/dev/null; rm -rf "$scratch"' EXIT
        dd if=/dev/zero of="$scratch/full/fill" bs=1k count=64 2>/dev/null
        run "$bspram" table $small --output "$scratch/full/t.svg"
        [ $rc -eq 1 ] && [ "$(lines "$scratch/err")" -eq 1 ] && [ ! -e "$scratch/full/t.svg" ] \
            && grep -q "output $scratch/full/t.svg: gnuplot wrote nothing (0 bytes: is the disk full?)" "$scratch/err" \
            && ok || { fail "--output on a full disk: exit $rc"; cat "$scratch/err" >&2; }
        umount "$scratch/full"
    else
        echo "skipped: --output on a full disk (mounting a tmpfs needs root)"
    fi
else
    echo "skipped: gnuplot not installed"
fi

# Progress: on a terminal, a line rewritten in place and erased at the end;
# nothing on stderr otherwise.
run "$bspram" table $small
[ $rc -eq 0 ] && [ ! -s "$scratch/err" ] && ok || fail "table in a pipe wrote to stderr: exit $rc"
if command -v script >/dev/null 2>&1; then
    script -qec "'$bspram' table $tiny --format csv --runs 3" /dev/null >"$scratch/tty" 2>&1
    grep -q "bspram table: run [12] of 3 (.* batches each), about [0-9]* s left" "$scratch/tty" &&
        grep -q "basis,degree,baseline" "$scratch/tty" && ok || { fail "no progress line on a terminal"; cat -v "$scratch/tty" >&2; }
else
    echo "skipped: script (util-linux) not installed"
fi

# Every row names its table, in every format: a first column `table`,
# paper:N for Valiant's Table N, custom for a table of the options (the
# rows once carried p, v, seed, spread, hash and runs only, the same for
# Tables 1, 2 and 3).
run "$bspram" table $tiny --runs 2 --format json
[ "$rc" -eq 0 ] && [ "$(grep -c '^  {"table": "custom", "p": 16, ' "$scratch/out")" -eq 2 ] && ok \
    || { fail "json: rows without their table"; cat "$scratch/out" >&2; }
run "$bspram" table $tiny --runs 2 --format md
[ "$rc" -eq 0 ] && grep -q '^| table | basis | degree |' "$scratch/out" && [ "$(grep -c '^| custom | 4x4 | ' "$scratch/out")" -eq 2 ] \
    && grep -q '^table custom: p = 16, v = 64, runs = 2' "$scratch/out" && ok \
    || { fail "md: rows without their table"; cat "$scratch/out" >&2; }
run "$bspram" table $tiny --runs 2 --format text
[ "$rc" -eq 0 ] && grep -q '^# table custom: p = 16, v = 64, runs = 2' "$scratch/out" && grep -q '^table  *basis  *degree' "$scratch/out" \
    && [ "$(grep -c '^custom  *4x4  ' "$scratch/out")" -eq 2 ] && ok \
    || { fail "text: rows without their table"; cat "$scratch/out" >&2; }

# --paper takes a list (1,3), a range (1..3) or several --paper options:
# each table in turn, its rows named, each table's rows those it has alone
# (the list and the range were refused; --paper 2 --paper 3 ran Table 3
# only). Two runs each: seconds.
for t in 1 2 3; do
    "$bspram" table --paper $t --runs 2 --format csv >"$scratch/p$t" 2>"$scratch/pe$t" || fail "--paper $t: exit $?"
done
[ "$(grep -c '^paper:1,4096,131072,1,random,xxh3,2,' "$scratch/p1")" -eq 13 ] \
    && [ "$(grep -c '^paper:2,' "$scratch/p2")" -eq 9 ] && [ "$(grep -c '^paper:3,' "$scratch/p3")" -eq 26 ] && ok \
    || fail "--paper N: rows not named paper:N"
head -n 1 "$scratch/p1" >"$scratch/want123"; sed 1d "$scratch/p1" >>"$scratch/want123"
sed 1d "$scratch/p2" >>"$scratch/want123"; sed 1d "$scratch/p3" >>"$scratch/want123"
head -n 1 "$scratch/p2" >"$scratch/want23"; sed 1d "$scratch/p2" >>"$scratch/want23"; sed 1d "$scratch/p3" >>"$scratch/want23"
head -n 1 "$scratch/p3" >"$scratch/want31"; sed 1d "$scratch/p3" >>"$scratch/want31"; sed 1d "$scratch/p1" >>"$scratch/want31"
for spec in "1..3:123" "1,2,3:123" "1..2,3:123" "2..3:23" "3,1:31"; do
    arg=${spec%%:*}; want=${spec##*:}
    run "$bspram" table --paper "$arg" --runs 2 --format csv
    [ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && cmp -s "$scratch/out" "$scratch/want$want" && ok \
        || { fail "--paper $arg: exit $rc, not Tables $want in turn"; head -c 400 "$scratch/err" >&2; }
done
run "$bspram" table --paper 2 --paper 3 --runs 2 --format csv
[ "$rc" -eq 0 ] && cmp -s "$scratch/out" "$scratch/want23" && ok \
    || fail "--paper 2 --paper 3: exit $rc, $(grep -c '^paper:2,' "$scratch/out") rows of Table 2, $(grep -c '^paper:3,' "$scratch/out") of Table 3"
run "$bspram" table --paper 1 --paper 2..3 --runs 2 --format csv
[ "$rc" -eq 0 ] && cmp -s "$scratch/out" "$scratch/want123" && ok || fail "--paper 1 --paper 2..3: exit $rc"
# JSON stays one array; Markdown and text give each table its title.
run "$bspram" table --paper 1..2 --runs 1 --format json
if [ "$rc" -eq 0 ] && [ "$(grep -c '"table": "paper:1"' "$scratch/out")" -eq 13 ] && [ "$(grep -c '"table": "paper:2"' "$scratch/out")" -eq 9 ] \
    && [ "$(head -n 1 "$scratch/out")" = "[" ] && [ "$(tail -n 1 "$scratch/out")" = "]" ]; then ok
else fail "--paper 1..2 JSON: exit $rc"; fi
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 22' "$scratch/out" && ok || fail "--paper 1..2: JSON does not parse"
fi
run "$bspram" table --paper 3,1 --runs 1 --format md
[ "$rc" -eq 0 ] && [ "$(grep -c "^table paper:[13] (Valiant's Table [13]): p = 4096" "$scratch/out")" -eq 2 ] \
    && [ "$(grep -c '^| paper:3 | ' "$scratch/out")" -eq 26 ] && [ "$(grep -c '^| paper:1 | ' "$scratch/out")" -eq 13 ] && ok \
    || { fail "--paper 3,1 md"; cat "$scratch/out" >&2; }
# What is refused, in one line naming the value: a table out of 1..3, a
# range backwards, a table named twice, an empty item; --output of two tables.
for bad in 4 0 "1..4" "0..2" "3..1" "2,2" "1..3,2" "1," ",1" "" "1...3" "1..." "..3" " 1" "1, 2" "+2"; do
    expect_error "--paper '$bad'" --paper "$bad" --runs 1
    grep -qF -- "--paper '$bad'" "$scratch/err" && ok || fail "--paper '$bad': the line does not quote it: $(cat "$scratch/err")"
done
expect_error "--paper 2 --paper 2" --paper 2 --paper 2 --runs 1
grep -q "Table 2 is named twice" "$scratch/err" && ok || fail "--paper 2 --paper 2: $(cat "$scratch/err")"
expect_error "--output of two tables" --paper 1,2 --runs 1 --output "$scratch/two.svg"
grep -q "one table" "$scratch/err" && ok || fail "--output of two tables: $(cat "$scratch/err")"

# --runs is at most 10^6 (2000 times the paper's 500): 2^63 once ran for
# ever, without a word.
for bad in 9223372036854775808 1000001 18446744073709551615; do
    expect_error "--runs $bad" --p 16 --v 64 --degrees 1 --basis 16 --runs "$bad"
    grep -qF "runs '$bad': not a whole number in [1, 1000000]" "$scratch/err" && ok || fail "--runs $bad: $(cat "$scratch/err")"
done

# A value with a newline or another control character: the error quotes it
# escaped, on one line.
nl='
'
for opt in --spread --hash --format --basis --degrees --seed --paper; do
    case $opt in
        --spread|--hash|--format|--seed|--paper) set -- --p 16 --v 64 --degrees 1 --basis 16 --runs 1 ;;
        --basis) set -- --p 16 --v 64 --degrees 1 --runs 1 ;;
        --degrees) set -- --p 16 --v 64 --basis 16 --runs 1 ;;
    esac
    [ "$opt" = --paper ] && set -- --runs 1
    expect_error "$opt with a newline" "$@" "$opt" "x${nl}y"
    grep -qF 'x\ny' "$scratch/err" && ok || fail "$opt with a newline: not escaped: $(cat "$scratch/err")"
done
expect_error "--basis with a tab and an escape" --p 16 --v 64 --degrees 1 --runs 1 --basis "$(printf '4\t4\033')"
grep -qF '4\t4\x1b' "$scratch/err" && ok || fail "--basis with a tab: not escaped: $(cat -v "$scratch/err")"

echo "table_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
