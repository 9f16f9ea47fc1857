#!/bin/sh
# No test asserts wall-clock time: a shared machine under load may take any
# time, and a test that bounds it fails for what the code did not do (a
# 10 s bound on an oversubscribed ring failed at 12 s). Times are printed,
# checked against each other (a part no longer than its whole) or against
# 0; bench/ measures them. This scans the tests' C sources for a check of a
# time-named value (seconds, elapsed, took, t, dt, ms, …) against a nonzero
# number, and their scripts for such a comparison in `[ … -lt N ]` form.
# usage: wall_clock.sh <tests folder>
set -u
dir=$1
names='([a-z_]*seconds|elapsed|took|wall|t|dt|secs|ms|us|ns|time)'
hits=$(grep -rnE "(CHECK|assert)[A-Z_]*\(.*\b$names\b(\[[^]]*\])?(\.[a-z_]+)? *(<|<=|>|>=) *[0-9.]*[1-9]" \
           "$dir" --include='*.c' --include='*.h'
       grep -rnE "\\\$\{?$names\}?\"? +-(lt|le|gt|ge) +[0-9]*[1-9]" "$dir" --include='*.sh')
if [ -n "$hits" ]; then
    echo "wall_clock: these checks bound a wall-clock time; print it instead (or compare it with another measured time):"
    echo "$hits"
    exit 1
fi
echo "wall_clock: no test bounds a wall-clock time"
