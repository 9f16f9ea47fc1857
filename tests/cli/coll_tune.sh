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
#     then mpirun loads the file into Open MPI's tuned module, a program
#     runs the collectives with it, and a tracer (mpi/ompi_coll_trace.c,
#     LD_PRELOAD) records which of Open MPI's algorithms ran: at each tuned
#     size the one the docs' table maps the choice to, keyed as Open MPI
#     keys each collective (scan: one algorithm for every size). The same
#     from made-up choices (coll_export_prog) that use every mapping and
#     put a different algorithm at the size Open MPI's scan key lands on;
#   - MPICH's selection JSON: valid JSON, collective= / comm_type=intra /
#     comm_size / avg_msg_size keys, and algorithm=MPIR_<Collective>_intra_*
#     names of the same collective.
# Bad combinations are one line and exit status 2.
# Ties: the choice's time at most 5 % above the runner-up's, the tied ones
# named in the last column.
# usage: coll_tune.sh <bspram> <coll_export_prog> [<mpi_coll program> <ompi_coll_trace.so>]
set -u
bspram=$1
export_prog=$2
mpi_coll=${3:-}
trace_lib=${4:-}
subcommand=coll
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

ops=broadcast,scatter,gather,allgather,alltoall,reduce,allreduce,scan
quick="--rounds 1 --reps 2 --sizes 8,4096"

# The table: 8 operations x 2 sizes, the choice at most 5 % above the
# runner-up (a tie, then named in the last column) or at most its time.
run "$bspram" coll --tune --p 2 $quick --format csv
if [ "$rc" -eq 0 ] && [ "$(lines "$scratch/out")" -eq 17 ] &&
    [ "$(sed -n 1p "$scratch/out")" = "op,p,block,algorithm,seconds,runner_up,runner_up_seconds,selected,selected_seconds,tied" ] &&
    awk -F, 'NR > 1 && $6 != "-" { tied = $10 != "-"
        if ($5 > $7 * 1.05 + 1e-12 || (!tied && $5 > $7) || (tied && index("+" $10 "+", "+" $6 "+") == 0)) bad = 1 }
        END { exit bad }' "$scratch/out"; then ok
else fail "coll --tune --format csv: exit $rc"; cat "$scratch/out" "$scratch/err" >&2
fi

# Open MPI's rules.
run "$bspram" coll --tune --p 3 $quick --ops "$ops" --format csv --export ompi-rules "$scratch/rules"
cp "$scratch/out" "$scratch/tune.csv"
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
# The function of Open MPI 4.1 (coll_base_functions.h) that a bspram
# algorithm's rule makes its tuned module call (docs/collectives.md's table).
ompi_function() { # op algorithm
    case $1:$2 in
    broadcast:binomial) f=bcast_intra_binomial ;;
    broadcast:direct) f=bcast_intra_basic_linear ;;
    broadcast:scatter-allgather) f=bcast_intra_scatter_allgather ;;
    scatter:binomial | gather:binomial) f=$1_intra_binomial ;;
    scatter:direct | gather:direct) f=$1_intra_basic_linear ;;
    allgather:bruck | allgather:direct) f=allgather_intra_bruck ;;
    allgather:ring) f=allgather_intra_ring ;;
    alltoall:bruck) f=alltoall_intra_bruck ;;
    alltoall:direct) f=alltoall_intra_basic_linear ;;
    alltoall:exchange) f=alltoall_intra_pairwise ;;
    reduce:binomial) f=reduce_intra_binomial ;;
    reduce:direct) f=reduce_intra_basic_linear ;;
    reduce:rabenseifner) f=reduce_intra_redscat_gather ;;
    allreduce:doubling | allreduce:dissemination) f=allreduce_intra_recursivedoubling ;;
    allreduce:rabenseifner) f=allreduce_intra_redscat_allgather ;;
    scan:dissemination | scan:binomial) f=scan_intra_recursivedoubling ;;
    scan:direct) f=scan_intra_linear ;;
    *) f=unknown ;;
    esac
    echo "ompi_coll_base_$f"
}

# Run mpi_coll on 3 ranks with the rules $1 and the tracer; then for every
# line "op block algorithm" of $2 (scan: the rules' one algorithm instead),
# each call of that operation with that block ran that algorithm's
# function, and at least one did. $3 names the case.
check_ompi_ran() {
    rules=$1 choices=$2 what=$3
    rm -f "$scratch/trace"
    # shellcheck disable=SC2086
    run mpirun $flags -np 3 -x LD_PRELOAD="$trace_lib" -x BSPRAM_OMPI_TRACE="$scratch/trace" \
        --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename "$rules" \
        "$mpi_coll" ops="$ops" sizes="$(awk '{ print $2 }' "$choices" | sort -un | paste -sd, -)" ms=1 reps=1
    if [ "$rc" -ne 0 ] || [ "$(grep -c '^coll,' "$scratch/out")" -lt 8 ] || [ ! -s "$scratch/trace" ]; then
        fail "$what: mpi_coll under the rules and the tracer: exit $rc"; head -c 600 "$scratch/err" >&2
        return
    fi
    scan_alg=$(sed -n 's/.*# bspram \([a-z-]*\) for every size.*/\1/p' "$rules")
    while read -r op block alg; do
        [ "$op" = scan ] && [ -n "$scan_alg" ] && alg=$scan_alg
        want=$(ompi_function "$op" "$alg")
        case $op in broadcast) family=bcast ;; *) family=$op ;; esac
        case $op in reduce | allreduce | scan) count=$((block / 8)) ;; *) count=$block ;; esac
        ran=$(awk -v fam="$family" -v count="$count" '{ f = $2; sub(/^ompi_coll_base_/, "", f); sub(/_intra_.*/, "", f) }
            f == fam && $3 == count { print $2 }' "$scratch/trace" | sort -u | paste -sd' ' -)
        if [ "$ran" = "$want" ]; then ok
        else fail "$what: $op of $block bytes (bspram $alg): Open MPI ran '${ran:-nothing}', not $want"
        fi
    done <"$choices"
}

if [ -n "$mpi_coll" ] && [ -x "$mpi_coll" ] && [ -r "$trace_lib" ] && command -v mpirun >/dev/null 2>&1; then
    flags="--oversubscribe"
    [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
    # The rules of the tune above: the choices of its CSV.
    awk -F, 'NR > 1 { print $1, $3, $4 }' "$scratch/tune.csv" >"$scratch/choices"
    check_ompi_ran "$scratch/rules" "$scratch/choices" "the tuned rules"
    # Made-up choices at four sizes: every mapping of p = 3, a different
    # algorithm from one size to the next, and for scan, whose key (8 bytes
    # x 3) lands in the 64-byte rule's range were it keyed by the message, a
    # choice at 64 bytes that is not the one for every size.
    set --
    : >"$scratch/made_up_choices"
    while read -r op a1 a2 a3 a4; do
        set -- "$@" "$op=$a1,$a2,$a3,$a4"
        printf '%s 8 %s\n%s 64 %s\n%s 512 %s\n%s 4096 %s\n' "$op" "$a1" "$op" "$a2" "$op" "$a3" "$op" "$a4" \
            >>"$scratch/made_up_choices"
    done <<'EOF'
broadcast direct binomial scatter-allgather direct
scatter binomial direct binomial direct
gather direct binomial direct binomial
allgather direct ring bruck ring
alltoall bruck direct bruck direct
reduce rabenseifner direct binomial rabenseifner
allreduce dissemination rabenseifner doubling rabenseifner
scan dissemination direct dissemination dissemination
EOF
    if "$export_prog" ompi-rules 3 8,64,512,4096 "$@" >"$scratch/made_up_rules" 2>"$scratch/err" &&
        [ "$(grep -c 'for every size' "$scratch/made_up_rules")" -eq 1 ] &&
        grep -q '^0 2 0 0 # bspram dissemination for every size' "$scratch/made_up_rules"; then ok
    else fail "made-up rules: scan's one rule"; cat "$scratch/made_up_rules" "$scratch/err" >&2
    fi
    check_ompi_ran "$scratch/made_up_rules" "$scratch/made_up_choices" "made-up rules"
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
