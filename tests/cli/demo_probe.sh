#!/bin/sh
# The numeric options of `bspram demo` and `bspram probe`: every bad value
# (not a whole number, a sign, a space, trailing characters, out of range)
# gives one line on stderr naming the option and its range and a non-zero
# exit — never a hang, a crash or a silently different value; a parameter
# file that is a FIFO or a device hangs neither the demo nor the probe.
# usage: demo_probe.sh <path of the bspram binary>
set -u
bspram=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset OMP_WAIT_POLICY OMP_DISPLAY_ENV BSPRAM_NPROCS BSPRAM_TRACE
# The probe must never write the user's parameter file.
BSPRAM_PARAMS=$scratch/params
export BSPRAM_PARAMS
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
lines() { wc -l <"$1" | tr -d ' '; }

# run <args...>: exit code in $rc (124: timed out), stdout/stderr in $scratch/out, err
run() {
    timeout 120 "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
}

# expect_error <what> <range text> <args...>: a non-zero exit that is neither
# a signal nor the timeout, exactly one line on stderr, naming the range.
expect_error() {
    what=$1; range=$2; shift 2
    run "$bspram" "$@"
    if [ "$rc" -ne 0 ] && [ "$rc" -lt 124 ] && [ "$(lines "$scratch/err")" -eq 1 ] \
        && grep -qF -- "$range" "$scratch/err"; then ok
    else fail "$what: exit $rc, $(lines "$scratch/err") stderr lines:"; head -c 400 "$scratch/err" >&2
    fi
}

demo_small="--p 8 --h 2 --supersteps 2"
for bad in -1 " -1" abc 1e3 2x "" 0 1000001 18446744073709551616 +5 0x10; do
    expect_error "demo --supersteps '$bad'" "[1, 1000000]" demo --p 8 --h 2 --supersteps "$bad"
done
for bad in 0 -1 " 4" abc 1e3 4294967296 18446744073709551615; do
    expect_error "demo --p '$bad'" "[1, 4294967295]" demo --p "$bad" --h 2 --supersteps 2
done
for bad in -1 abc 1048577; do
    expect_error "demo --h '$bad'" "[0, 1048576]" demo --p 8 --h "$bad" --supersteps 2
done
for bad in " -1" -1 abc 18446744073709551616 1.5; do
    expect_error "demo --seed '$bad'" "[0, 18446744073709551615]" demo $demo_small --seed "$bad"
done
# Good values still run (leading zeros are fine).
run "$bspram" demo --p 8 --h 2 --supersteps 02 --seed 18446744073709551615
[ "$rc" -eq 0 ] && grep -q "all correct" "$scratch/out" && ok || { fail "demo good run: exit $rc"; cat "$scratch/err" >&2; }

probe_small="--p 2 --max-h 4 --step 1 --supersteps 2 --no-save"
for bad in 0 2x 4294967297 65537 -1 " 2" abc; do
    expect_error "probe --p '$bad'" "--p '$bad': not a whole number in [1, 65536]" probe --p "$bad" --max-h 4 --step 1 --supersteps 2 --no-save
done
for bad in 4294967295 1048577 0 -1 abc 1e3; do
    expect_error "probe --max-h '$bad'" "--max-h '$bad': not a whole number in [1, 1048576]" probe --p 2 --max-h "$bad" --step 1 --supersteps 2 --no-save
done
for bad in 0 4294967297 abc; do
    expect_error "probe --step '$bad'" "--step '$bad': not a whole number in [1, 1048576]" probe --p 2 --max-h 4 --step "$bad" --supersteps 2 --no-save
done
for bad in 0 -1 1000001 abc; do
    expect_error "probe --supersteps '$bad'" "--supersteps '$bad': not a whole number in [1, 1000000]" probe --p 2 --max-h 4 --step 1 --supersteps "$bad" --no-save
done
expect_error "probe --max-h below --step" "bspram probe: --max-h 2 is below --step 4" probe --p 2 --max-h 2 --step 4 --no-save
# The short options of earlier versions still work.
run "$bspram" probe -p 2 -H 4 -s 1 -n 2 --no-save
[ "$rc" -eq 0 ] && grep -q "P = 2, h = 0..4 step 1, 2 supersteps" "$scratch/out" && ok \
    || { fail "probe with short options: exit $rc"; cat "$scratch/out" "$scratch/err" >&2; }
run "$bspram" probe $probe_small
[ "$rc" -eq 0 ] && grep -q "P = 2, h = 0..4 step 1, 2 supersteps" "$scratch/out" && [ ! -e "$BSPRAM_PARAMS" ] && ok \
    || { fail "probe good run: exit $rc"; cat "$scratch/out" "$scratch/err" >&2; }

# Whatever lies at $BSPRAM_PARAMS, the demo runs: a device or a FIFO (which
# once hung every program) or a bad value gives one warning line and the
# defaults g = l = 1.
mkfifo "$scratch/fifo"
printf 'g_ns_per_byte = nan\nl_ns = 1\n' >"$scratch/nan"
for params in /dev/zero "$scratch/fifo" "$scratch/nan"; do
    BSPRAM_PARAMS=$params run "$bspram" demo $demo_small
    if [ "$rc" -eq 0 ] && [ "$(lines "$scratch/err")" -eq 1 ] && grep -q "parameter file $params" "$scratch/err" \
        && grep -q "g = 1, l = 1)" "$scratch/out"; then ok
    else fail "demo with BSPRAM_PARAMS=$params: exit $rc, $(lines "$scratch/err") stderr lines"; head -c 400 "$scratch/err" >&2
    fi
done

# Whatever lies at $BSPRAM_PARAMS, the probe never hangs saving there: a
# FIFO (opening it to write waited for a reader for ever) or a device is
# refused in one line before the measurement, nothing written.
for params in "$scratch/fifo" /dev/null; do
    BSPRAM_PARAMS=$params expect_error "probe saving to $params" \
        "bspram probe: cannot save the parameters to $params: not a regular file" probe --p 2 --max-h 4 --step 1 --supersteps 2
done
grep -q "(a character device)" "$scratch/err" && ok || fail "probe into /dev/null: the kind not named"

# (OMP_NUM_THREADS beyond what a process can hold: many_threads.sh, which
# skips where the OS refuses the threads.)

# The predicted cost says its unit and where g and l came from: units of w
# without a probe; ns with one, and a note when the probe's one process per
# thread does not match the demo's components per thread (here 32 per thread).
run "$bspram" demo --p 64 --h 2 --supersteps 2
grep -q "in units of w, h in bytes (g = 1, l = 1)" "$scratch/out" && ok || fail "demo without a probe: no unit"
printf 'p = 2\ng_ns_per_byte = 0.5\nl_ns = 300\n' >"$scratch/probed"
BSPRAM_PARAMS=$scratch/probed OMP_NUM_THREADS=2 run "$bspram" demo --p 64 --h 2 --supersteps 2
if [ "$rc" -eq 0 ] && grep -q "ms, with g = 0.5 ns per byte of h and l = 300 ns from .bspram probe. (P = 2 processes), w not priced" "$scratch/out" \
    && grep -q "^note: .* each of the T = 2 threads serves 32 components, so a superstep costs about 32 times g\*h" "$scratch/out"; then ok
else fail "demo with a probe: exit $rc"; cat "$scratch/out" >&2; fi
# With the probe's rate r, w is priced as flops at r, as bspram prof prices it.
printf 'p = 2\ng_ns_per_byte = 0.5\nl_ns = 300\nflops_per_ns = 4\n' >"$scratch/probed"
BSPRAM_PARAMS=$scratch/probed OMP_NUM_THREADS=2 run "$bspram" demo --p 64 --h 2 --supersteps 2
if [ "$rc" -eq 0 ] && grep -q "predicted time sum(w/r + g\*h + l) = .*, w as flops at its rate r" "$scratch/out" \
    && grep -q "^r = 4 flop per ns" "$scratch/out"; then ok
else fail "demo with a probe and r: exit $rc"; cat "$scratch/out" >&2; fi

# An unknown option or a missing value is one line and exit 2; --help is not.
expect_error "demo --bogus" "bspram demo: unknown option '--bogus' (bspram demo --help lists them)" demo --bogus
expect_error "demo --p" "bspram demo: --p needs a value (--p P)" demo --p
expect_error "probe --bogus" "bspram probe: unknown option '--bogus' (bspram probe --help lists them)" probe --bogus
expect_error "probe -x" "bspram probe: unknown option '-x' (bspram probe --help lists them)" probe -x
expect_error "probe --p" "bspram probe: --p needs a value (--p P)" probe --p
run "$bspram" demo --help
[ "$rc" -eq 0 ] && grep -q "usage: bspram demo" "$scratch/out" && ok || fail "demo --help: exit $rc"

# A stray word is a usage error, exit 2: `demo 16 --h 8` once ran p = 4096
# without a word about the 16.
expect_usage() {
    what=$1; text=$2; shift 2
    expect_error "$what" "$text" "$@"
    [ "$rc" -eq 2 ] && [ ! -s "$scratch/out" ] && ok || fail "$what: exit $rc (want 2), $(lines "$scratch/out") stdout lines"
}
expect_usage "demo 16 --h 8" "bspram demo: unexpected argument '16'" demo 16 --h 8 --supersteps 1
expect_usage "demo with a trailing word" "bspram demo: unexpected argument 'extra'" demo --p 8 --h 2 --supersteps 1 extra
expect_usage "demo -- 5" "bspram demo: unexpected argument '5'" demo --p 8 -- 5
expect_usage "probe 2 --no-save" "bspram probe: unexpected argument '2'" probe 2 $probe_small
expect_usage "probe with a trailing word" "bspram probe: unexpected argument 'now'" probe $probe_small now

# A value with a newline is quoted escaped, on one line (it was two).
expect_usage "demo --p with a newline" "bspram demo: --p '8\nx': not a whole number" demo --p "8
x" --h 2 --supersteps 1
expect_usage "probe --p with a tab" "bspram probe: --p '2\t': not a whole number" probe --p "$(printf '2\t')" --no-save
expect_usage "demo with a stray word holding a newline" "unexpected argument 'a\nb'" demo --p 8 "a
b"
expect_usage "an unknown option with a newline" "unknown option '--x\ny'" demo "--x
y"

echo "demo_probe_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
