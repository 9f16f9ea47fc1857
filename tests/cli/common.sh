# What the command-line tests share (sourced by tests/cli/*.sh): counters,
# `run` (exit status in $rc, stdout and stderr in $scratch/out and err;
# killed after $run_timeout seconds, 120 unless set),
# `expect_error`: a non-zero exit that is no crash or timeout and one line
# on stderr holding the text; and `expect_usage`: the same, a usage error
# (exit status 2, nothing on stdout). Needs $bspram and $subcommand set.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
unset BSPRAM_TRACE BSPRAM_PATTERN
passed=0 failed=0
ok() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
lines() { wc -l <"$1" | tr -d ' '; }
run() {
    timeout "${run_timeout:-120}" "$@" >"$scratch/out" 2>"$scratch/err"
    rc=$?
}
expect_error() {
    what=$1; text=$2; shift 2
    run "$bspram" "$subcommand" "$@"
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -lt 128 ] && [ "$(lines "$scratch/err")" -eq 1 ] \
        && grep -qF -- "$text" "$scratch/err"; then ok
    else fail "$what: exit $rc, $(lines "$scratch/err") stderr lines:"
        head -c 400 "$scratch/err" >&2
    fi
}
expect_usage() {
    expect_error "$@"
    [ "$rc" -eq 2 ] && [ ! -s "$scratch/out" ] && ok || fail "$1: exit $rc (want 2), $(lines "$scratch/out") stdout lines"
}
# gl_cache <dir> <P> <g> <l> <busy>: a cache of the g and l the collectives
# measured (coll/gl_cache.c) in <dir>/bspram/params, with this machine's
# line for P, written by this version of $bspram now, under load <busy>.
gl_cache() {
    mkdir -p "$1/bspram"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t0.1\t%s\n' \
        "$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo | head -n 1 | tr '\t' ' ' | grep . || echo unknown)" \
        "$(getconf _NPROCESSORS_ONLN)" "$2" "$3" "$4" "$("$bspram" --version | cut -d' ' -f2)" "$5" "$(date +%s)" \
        >"$1/bspram/params"
}
