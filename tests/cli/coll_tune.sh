#!/bin/sh
# `bspram coll --tune`: one row per operation and size, the fastest first
# (its time at most 3 % above the runner-up's: closer is a tie, which the
# prediction breaks), and the two export formats read back
# by their own grammars:
#   - Open MPI's classic dynamic rules (numbers, '#' comments to the end of
#     a line): the collective count matches, each collective's id is one of
#     Open MPI's, its message sizes start at 0 and increase, and every
#     algorithm number is one that this machine's Open MPI lists for that
#     collective (`ompi_info --param coll tuned --level 9`, when installed);
#     then mpirun loads the file into Open MPI's tuned module and a program
#     runs the collectives with it;
#   - MPICH's selection JSON: valid JSON, collective= / comm_type=intra /
#     comm_size / avg_msg_size keys, and algorithm=MPIR_<Collective>_intra_*
#     names of the same collective.
# Bad combinations are one line and exit status 2.
# usage: coll_tune.sh <bspram> [<mpi_coll program>]
set -u
bspram=$1
mpi_coll=${2:-}
subcommand=coll
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

ops=broadcast,scatter,gather,allgather,alltoall,reduce,allreduce,scan
quick="--rounds 1 --reps 2 --sizes 8,4096"

# The table: 8 operations x 2 sizes, fastest <= runner-up.
run "$bspram" coll --tune --p 2 $quick --format csv
if [ "$rc" -eq 0 ] && [ "$(lines "$scratch/out")" -eq 17 ] &&
    [ "$(sed -n 1p "$scratch/out")" = "op,p,block,algorithm,seconds,runner_up,runner_up_seconds,selected,selected_seconds" ] &&
    awk -F, 'NR > 1 && $6 != "-" && $5 > $7 * 1.03 { bad = 1 } END { exit bad }' "$scratch/out"; then ok
else fail "coll --tune --format csv: exit $rc"; cat "$scratch/out" "$scratch/err" >&2
fi

# Open MPI's rules.
run "$bspram" coll --tune --p 3 $quick --ops "$ops" --export ompi-rules "$scratch/rules"
valid=""
if command -v ompi_info >/dev/null 2>&1; then
    # "coll_tuned_bcast_algorithm" ... Valid values: 0:"ignore", 1:"basic_linear", ...
    valid=$(ompi_info --param coll tuned --level 9 2>/dev/null | awk '
        /parameter "coll_tuned_[a-z_]*_algorithm"/ { match($0, /coll_tuned_[a-z_]*_algorithm/); name = substr($0, RSTART + 11, RLENGTH - 21) }
        /Valid values: 0:"ignore"/ && name != "" { n = split($0, v, ","); for (i = 1; i <= n; i++) { sub(/^ *(Valid values: )?/, "", v[i]); sub(/:.*/, "", v[i]); printf "%s:%s ", name, v[i] } name = "" }')
fi
if [ "$rc" -eq 0 ] && sed 's/#.*//' "$scratch/rules" | tr -s ' \n' '\n\n' | grep . | awk -v valid="$valid" '
    BEGIN { split("allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast exscan gather gatherv reduce reduce_scatter reduce_scatter_block scan scatter", names, " ")
            n = split(valid, v, " "); for (i = 1; i <= n; i++) ok[v[i]] = 1 }
    { w[++nw] = $1 }
    END {
        i = 1; ncol = w[i++]; if (ncol != 8) { print "collectives " ncol; exit 1 }
        for (c = 0; c < ncol; c++) {
            id = w[i++]; if (!((id + 1) in names)) { print "id " id; exit 1 }
            if (w[i++] != 1 || w[i++] != 3) { print "comm sizes"; exit 1 }
            nm = w[i++]; if (nm < 1) { print "no message sizes"; exit 1 }
            last = -1
            for (m = 0; m < nm; m++) {
                size = w[i++]; alg = w[i++]; i += 2
                if ((m == 0 && size != 0) || size <= last) { print "sizes"; exit 1 }
                if (valid != "" && !((names[id + 1] ":" alg) in ok)) { print names[id + 1] " algorithm " alg; exit 1 }
                last = size
            }
        }
        if (i != nw + 1) { print "trailing words"; exit 1 }
    }'; then ok
else fail "ompi-rules: exit $rc"; cat "$scratch/rules" "$scratch/err" >&2
fi
if [ -n "$mpi_coll" ] && [ -x "$mpi_coll" ] && command -v mpirun >/dev/null 2>&1; then
    flags="--oversubscribe"
    [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
    # shellcheck disable=SC2086
    run mpirun $flags -np 3 --mca coll_tuned_use_dynamic_rules 1 \
        --mca coll_tuned_dynamic_rules_filename "$scratch/rules" "$mpi_coll" ops=allgather,alltoall,broadcast sizes=8,4096 ms=1
    if [ "$rc" -eq 0 ] && [ "$(grep -c '^coll,' "$scratch/out")" -ge 6 ]; then ok
    else fail "Open MPI with the rules: exit $rc"; head -c 600 "$scratch/err" >&2
    fi
fi

# MPICH's JSON.
run "$bspram" coll --tune --p 2 $quick --ops "$ops" --export mpich-json "$scratch/sel.json"
if [ "$rc" -eq 0 ] && python3 - "$scratch/sel.json" <<'EOF'; then ok
import json, sys
sel = json.load(open(sys.argv[1]))
names = {"bcast": "Bcast", "scatter": "Scatter", "gather": "Gather", "allgather": "Allgather",
         "alltoall": "Alltoall", "reduce": "Reduce", "allreduce": "Allreduce", "scan": "Scan"}
assert sorted(k.split("=")[1] for k in sel) == sorted(names), sel.keys()
for key, tree in sel.items():
    coll = key.split("=")[1]
    assert list(tree) == ["comm_type=intra"], tree
    sizes = tree["comm_type=intra"]
    assert list(sizes) == ["comm_size<=2", "comm_size=any"], sizes
    for rules in sizes.values():
        keys = list(rules)
        assert keys[-1] == "avg_msg_size=any", keys
        bounds = [int(k.split("<=")[1]) for k in keys[:-1]]
        assert bounds == sorted(bounds) and len(set(bounds)) == len(bounds), bounds
        for leaf in rules.values():
            (alg,) = leaf
            assert alg.startswith("algorithm=MPIR_" + names[coll] + "_intra_"), alg
            assert leaf[alg] == {}
EOF
else fail "mpich-json: exit $rc"; cat "$scratch/sel.json" "$scratch/err" >&2
fi

expect_usage "export without a file" "needs the FILE" --tune --p 2 --export ompi-rules
expect_usage "a file without export" "only with --export" --tune --p 2 "$scratch/x"
expect_usage "tune with --op" "do not apply" --tune --p 2 --op broadcast
expect_usage "tune without --p" "--p N is required" --tune
expect_usage "size not a multiple of 8" "not a multiple of 8" --tune --p 2 --sizes 8,12
expect_usage "sizes not increasing" "not a multiple of 8 above" --tune --p 2 --sizes 64,8
expect_usage "unknown op" "unknown operation" --tune --p 2 --ops broadcast,frob
expect_usage "op twice" "named twice" --tune --p 2 --ops scan,scan
expect_usage "tune options without --tune" "go with --tune" --op broadcast --p 2 --sizes 8
expect_usage "unknown export" "mpich-json" --tune --p 2 --export xml "$scratch/x"
expect_error "export to a directory" "is a directory" --tune --p 2 --ops scan --sizes 8 --rounds 1 --reps 2 --export ompi-rules "$scratch"
# A FIFO nobody reads would block the writer forever after the tuning: both
# formats refuse it before the work (the timeout, far above the seconds the
# refusal takes, turns a hang into a failure here).
mkfifo "$scratch/fifo"
for format in ompi-rules mpich-json; do
    run_timeout=600 expect_error "export $format to a FIFO" "not a regular file (a FIFO)" --tune --p 2 --ops scan \
        --sizes 8 --rounds 1 --reps 2 --export "$format" "$scratch/fifo"
done
expect_error "export into a missing directory" "cannot write in $scratch/none" --tune --p 2 --ops scan --sizes 8 \
    --rounds 1 --reps 2 --export mpich-json "$scratch/none/sel.json"

echo "coll_tune: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
