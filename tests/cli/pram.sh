#!/bin/sh
# The `bspram pram` command line: every example runs and is verified, the CSV
# has the documented header, text and JSON say the same, the output is the
# same for --threads 1, 2 and 4 (but the seconds), and every bad option or
# value gives one line on stderr naming it and exit status 2 (a trace that
# cannot be written: exit status 1).
# usage: pram.sh <path of the bspram binary>
set -u
bspram=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset OMP_WAIT_POLICY OMP_DISPLAY_ENV BSPRAM_TRACE
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
lines() { wc -l <"$1" | tr -d ' '; }

# run <args...>: exit code in $rc (124: timed out), stdout/stderr in $scratch/out, err
run() {
    timeout 120 "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
}

# expect_status <status> <what> <text the line must hold> <args...>: that
# exit status (not a crash or a timeout), one line on stderr holding the
# text, nothing on stdout. expect_error: a usage error, status 2.
expect_status() {
    want=$1 what=$2; text=$3; shift 3
    run "$bspram" pram "$@"
    if [ "$rc" -eq "$want" ] && [ "$(lines "$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ] \
        && grep -qF -- "$text" "$scratch/err"; then ok
    else fail "$what: exit $rc (want $want), $(lines "$scratch/err") stderr lines, $(lines "$scratch/out") stdout lines:"
        head -c 400 "$scratch/err" >&2
    fi
}
expect_error() { expect_status 2 "$@"; }

examples="prefix_sums max_erew max_crcw or list_ranking components histogram sort erew_violation tree_sum
blelloch_scan broadcast matmul merge bitonic_sort tree_depths random_mate expression"
header="example,model,n,p,steps,work,charge,slowdown,verified"
small() { case $1 in max_crcw) echo 40 ;; matmul) echo 12 ;; *) echo 2000 ;; esac; }

# --help: stdout, exit 0, every example listed.
run "$bspram" pram --help
[ "$rc" -eq 0 ] && [ ! -s "$scratch/err" ] && ok || fail "--help: exit $rc"
for e in $examples; do
    grep -q "^  $e " "$scratch/out" && ok || fail "--help does not list $e"
done
run "$bspram" --help
grep -q "^  pram " "$scratch/out" && ok || fail "bspram --help does not list pram"

# Every example, CSV: the header, one row, verified = 1, 17 columns; and the
# same row for --threads 1, 2, 4 once the seconds are cut.
for e in $examples; do
    n=$(small "$e")
    for t in 1 2 4; do
        run "$bspram" pram --example "$e" --n "$n" --p 64 --threads "$t" --seed 5 --format csv
        if [ "$rc" -ne 0 ] || [ -s "$scratch/err" ]; then
            fail "$e --threads $t: exit $rc"; head -c 400 "$scratch/err" >&2; continue
        fi
        cut -d, -f1-12,14-17 "$scratch/out" >"$scratch/t$t"
    done
    [ "$(head -n 1 "$scratch/out" | cut -d, -f1-9)" = "$header" ] && ok \
        || fail "$e: CSV header $(head -n 1 "$scratch/out")"
    [ "$(lines "$scratch/out")" -eq 2 ] && ok || fail "$e: $(lines "$scratch/out") CSV lines, want 2"
    awk -F, 'NF != 17 { bad = 1 } END { exit bad }' "$scratch/out" && ok || fail "$e: a CSV line without 17 columns"
    row=$(sed -n 2p "$scratch/out")
    [ "$(echo "$row" | cut -d, -f1)" = "$e" ] && [ "$(echo "$row" | cut -d, -f3)" = "$n" ] \
        && [ "$(echo "$row" | cut -d, -f9)" = 1 ] && ok || fail "$e: row $row"
    cmp -s "$scratch/t1" "$scratch/t2" && cmp -s "$scratch/t1" "$scratch/t4" && ok \
        || { fail "$e: output differs between --threads 1, 2, 4"; cat "$scratch/t1" "$scratch/t2" "$scratch/t4" >&2; }
done

# The weakest model each run needed: prefix sums (Hillis-Steele on EREW)
# none beyond EREW; the O(1) maximum's step 2 writes one value from many
# VPs (CRCW-common); the histogram's one step adds into shared counters
# (CRCW-combining); in text, JSON and CSV.
run "$bspram" pram --example prefix_sums --n 1000 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f14-15)" = EREW,0 ] && ok || fail "prefix_sums weakest: $(cat "$scratch/out")"
run "$bspram" pram --example max_crcw --n 40 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f14-15)" = CRCW-common,2 ] && ok || fail "max_crcw weakest: $(cat "$scratch/out")"
run "$bspram" pram --example histogram --n 1000 --format json
grep -q '"weakest_model": "CRCW-combining", "weakest_step": 1,' "$scratch/out" && ok || fail "histogram weakest JSON"
run "$bspram" pram --example max_crcw --n 40
grep -q "^weakest *CRCW-common (first needed in step 2)\$" "$scratch/out" && ok || fail "max_crcw weakest text"
# The work-efficiency: the histogram's work is n reads and n updates, as the
# sequential count's (1); the maximum in O(1) with n^2 VPs does work of order
# n^2 against the sequential n + 1 (n = 40: between 20 and 99).
run "$bspram" pram --example histogram --n 1000 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f17)" = 1.0000 ] && ok || fail "histogram work_efficiency: $(cat "$scratch/out")"
run "$bspram" pram --example max_crcw --n 40 --format json
grep -q '"work_efficiency": [2-9][0-9]\.' "$scratch/out" && ok || fail "max_crcw work_efficiency JSON"

# The default model is the weakest each needs; others it supports run too.
run "$bspram" pram --example prefix_sums --n 1000 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f2)" = EREW ] && ok || fail "prefix_sums default model"
run "$bspram" pram --example list_ranking --n 1000 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f2)" = CREW ] && ok || fail "list_ranking default model"
for m in EREW crew crcw_common CRCW-arbitrary CRCW-priority CRCW-combining; do
    run "$bspram" pram --example prefix_sums --n 1000 --model "$m" --format csv
    [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f9)" = 1 ] && ok || fail "prefix_sums --model $m: exit $rc"
done
run "$bspram" pram --example histogram --n 1000 --model crcw-combining:max:u64 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f2)" = "CRCW-combining:max:u64" ] && ok \
    || fail "histogram --model crcw-combining:max:u64: exit $rc, $(sed -n 2p "$scratch/out")"
run "$bspram" pram --example components --n 1000 --model crcw-priority --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f9)" = 1 ] && ok || fail "components on CRCW-priority: exit $rc"
# '-' for '_' in the name.
run "$bspram" pram --example list-ranking --n 100 --format csv
[ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f1)" = list_ranking ] && ok || fail "--example list-ranking"

# Text and JSON say the same as the CSV.
run "$bspram" pram --example sort --n 3000 --seed 9 --format csv
csvrow=$(sed -n 2p "$scratch/out")
steps=$(echo "$csvrow" | cut -d, -f5); work=$(echo "$csvrow" | cut -d, -f6); charge=$(echo "$csvrow" | cut -d, -f7)
slowdown=$(echo "$csvrow" | cut -d, -f8)
run "$bspram" pram --example sort --n 3000 --seed 9 --format json
if [ "$rc" -eq 0 ] && [ "$(lines "$scratch/out")" -eq 1 ] && grep -q "\"steps\": $steps," "$scratch/out" \
    && grep -q "\"work\": $work," "$scratch/out" && grep -q "\"charge\": $charge," "$scratch/out" \
    && grep -q "\"slowdown\": $slowdown," "$scratch/out" && grep -q '"verified": true' "$scratch/out" \
    && grep -q '"example": "sort", "model": "CRCW-combining", "n": 3000,' "$scratch/out"; then ok
else fail "JSON differs from CSV ($csvrow):"; cat "$scratch/out" >&2; fi
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$scratch/out" && ok || fail "JSON does not parse"
fi
run "$bspram" pram --example sort --n 3000 --seed 9
if [ "$rc" -eq 0 ] && grep -q "^steps *$steps " "$scratch/out" && grep -q "^work *$work\$" "$scratch/out" \
    && grep -q "^charge *$charge\$" "$scratch/out" && grep -q "^slowdown *$slowdown\$" "$scratch/out" \
    && grep -q "^verified *yes" "$scratch/out" && grep -q "^model *CRCW-combining\$" "$scratch/out"; then ok
else fail "text differs from CSV ($csvrow):"; cat "$scratch/out" >&2; fi

# The violation example: its report in text and JSON, one violation counted.
run "$bspram" pram --example erew_violation --n 500
grep -q "EREW violation in step 1 at pram_erew_violation.c:44: VPs 0 and 1 .*B\[0\]" "$scratch/out" && grep -q "^violations *1\$" "$scratch/out" \
    && [ "$rc" -eq 0 ] && ok || { fail "erew_violation text: exit $rc"; cat "$scratch/out" >&2; }
run "$bspram" pram --example erew_violation --n 500 --format json
grep -q '"report": ".*EREW violation in step 1 at pram_erew_violation.c:44: VPs 0 and 1' "$scratch/out" && grep -q '"violations": 1,' "$scratch/out" \
    && ok || { fail "erew_violation JSON"; cat "$scratch/out" >&2; }
run "$bspram" pram --example erew_violation --n 500 --format csv
[ "$(sed -n 2p "$scratch/out" | cut -d, -f12)" = 1 ] && [ "$(lines "$scratch/out")" -eq 2 ] && ok \
    || fail "erew_violation CSV: $(cat "$scratch/out")"

# --basis and --output (the per-step trace).
for b in auto auto:64 adaptive 8x8 64; do
    run "$bspram" pram --example max_erew --n 4096 --p 64 --basis "$b" --format csv
    [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f9)" = 1 ] && ok || { fail "--basis $b: exit $rc"; cat "$scratch/err" >&2; }
done
run "$bspram" pram --example max_erew --n 4096 --p 64 --output "$scratch/trace.csv" --format csv
steps=$(sed -n 2p "$scratch/out" | cut -d, -f5)
[ "$rc" -eq 0 ] && [ "$(head -n 1 "$scratch/trace.csv")" = "step,reads,writes,violations,supersteps,charge" ] \
    && [ "$(($(lines "$scratch/trace.csv") - 1))" -eq "$steps" ] && ok || fail "--output: exit $rc, $steps steps"
run "$bspram" pram --example max_erew --n 4096 --p 64 -o "$scratch/trace.json" --format csv
[ "$rc" -eq 0 ] && [ "$(head -c 1 "$scratch/trace.json")" = "[" ] && ok || fail "-o trace.json: exit $rc"

# Errors: one line naming the option, exit 2.
expect_error "no options" "--example" 
expect_error "no --example" "--example" --n 10
expect_error "no --n" "--n" --example or
expect_error "unknown example" "'nosuch'" --example nosuch --n 10
expect_error "unknown option" "--bogus" --example or --n 10 --bogus 1
expect_error "option without value" "--seed" --example or --n 10 --seed
for bad in -1 " 5" abc 1e3 0 2x "" 18446744073709551616 +5; do
    expect_error "--n '$bad'" "--n" --example or --n "$bad"
done
expect_error "--n above the example's range" "[1, 4194304]" --example or --n 4194305
expect_error "--n above max_crcw's range" "[1, 2048]" --example max_crcw --n 2049
expect_error "--n below erew_violation's range" "[2, " --example erew_violation --n 1
for bad in 0 -1 2147483649 abc; do
    expect_error "--p '$bad'" "--p" --example or --n 10 --p "$bad"
done
for bad in 0 1025 -2 " 2" 2.0; do
    expect_error "--threads '$bad'" "--threads" --example or --n 10 --threads "$bad"
done
for bad in -1 " 1" 18446744073709551616 x; do
    expect_error "--seed '$bad'" "--seed" --example or --n 10 --seed "$bad"
done
expect_error "unknown model" "--model 'qram'" --example or --n 10 --model qram
expect_error "model the example does not run on" "--model 'EREW'" --example list_ranking --n 10 --model EREW
expect_error "histogram on CRCW-common" "CRCW-common" --example histogram --n 10 --model crcw-common
expect_error "unknown operation" "--model" --example histogram --n 10 --model crcw-combining:avg
expect_error "bad format" "--format 'xml'" --example or --n 10 --format xml
expect_error "basis product" "--basis '8x8'" --example or --n 1000 --p 100 --basis 8x8
expect_error "basis hint" "--basis 'auto:x'" --example or --n 1000 --basis auto:x
expect_error "empty trace name" "--output" --example or --n 10 --output ""
# --p above the VPs is refused, naming the range (it was cut to the VPs
# without a word); up to the VPs it runs as asked.
expect_error "--p above the VPs" "--p '65': example prefix_sums with n = 64 has 64 VPs; p must be in [1, 64]" \
    --example prefix_sums --p 65 --n 64
expect_error "--p above max_crcw's n^2 VPs" "p must be in [1, 16]" --example max_crcw --n 4 --p 17
expect_error "--p 2^31 on 10 VPs" "--p '2147483648': example or with n = 10 has 10 VPs" --example or --n 10 --p 2147483648
for args in "--example prefix_sums --n 64 --p 64" "--example max_crcw --n 4 --p 16"; do
    run "$bspram" pram $args --format csv
    [ "$rc" -eq 0 ] && [ "$(sed -n 2p "$scratch/out" | cut -d, -f4)" = "$(echo "$args" | sed 's/.*--p //')" ] && ok \
        || { fail "$args: exit $rc"; cat "$scratch/err" >&2; }
done
# A value with a newline is quoted escaped, on one line.
expect_error "--example with a newline" "--example 'pre\nfix': no such example" --example "pre
fix" --n 10
expect_error "--model with a newline" "--model 'EREW\n'" --example or --n 10 --model "EREW
"
expect_error "--n with a newline" "--n '1\n0'" --example or --n "1
0"
expect_error "an unknown option with a newline" "unknown option '--a\nb'" --example or --n 10 "--a
b" 1
expect_status 1 "unwritable trace" "--output" --example or --n 10 --output "$scratch/no/such/dir/t.csv"
# Two outputs naming one file, existing or not, by any spelling of its
# directory: refused before the run (one overwrote the other, exit 0).
mkdir "$scratch/d"
for pair in "X.html X.html" "X.html ./X.html" "d/../X.html X.html" "$scratch/X.html X.html"; do
    set -- $pair
    (cd "$scratch" && timeout 120 "$bspram" pram --example sort --n 64 --output "$1" --html "$2") \
        >"$scratch/out" 2>"$scratch/err"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(lines "$scratch/err")" -eq 1 ] && [ ! -s "$scratch/out" ] \
        && grep -qF -- "name the same file" "$scratch/err" && [ ! -e "$scratch/X.html" ] && ok \
        || { fail "--output $1 --html $2: exit $rc"; cat "$scratch/err" >&2; }
done
: >"$scratch/Y.html"
ln "$scratch/Y.html" "$scratch/Z.html"
expect_error "--output and --html, two links of one file" "name the same file" --example sort --n 64 \
    --output "$scratch/Y.html" --html "$scratch/Z.html"
[ ! -s "$scratch/Y.html" ] && ok || fail "--output and --html of one file: it was written"

echo "pram_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
