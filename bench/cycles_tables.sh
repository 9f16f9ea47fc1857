#!/bin/sh
# Valiant's Tables 1-3 (§4) on the cycle model of §5 at many runs, in chunks
# that survive an interruption: chunk k is `bspram table --paper 1..3
# --schedule SCHEDULE --runs PER --seed k`, written to OUTDIR and skipped when
# it is already complete, so the script can be started again and resumes
# (after removing the .claim directory an interrupted chunk left).
# Once every chunk is there it pools them into OUTDIR/SCHEDULE.csv: per row,
# factor = Σ runs·(mean total) / Σ runs·(mean baseline) — each run weighs
# alike — and factor_sd from the chunks' sd and factors (the sd of a run's
# total over its baseline, pooled; a chunk's mean ratio taken as its factor).
#
#   bench/cycles_tables.sh BSPRAM OUTDIR SCHEDULE [ROUTER]
#       BSPRAM: the bspram binary; SCHEDULE: cycles-sync or async;
#       ROUTER: simple (default) or sstar
#   CHUNKS (default 10) chunks of PER (default 50) runs: 500 runs, Valiant's.
#
# One run of the three tables costs about 3.4 s of CPU bulk-synchronously and
# 5.4 s asynchronously (one thread), so 500 runs are 29 and 45 minutes of a core.
set -eu
bspram=${1:?usage: cycles_tables.sh BSPRAM OUTDIR SCHEDULE [ROUTER]}
out=${2:?usage: cycles_tables.sh BSPRAM OUTDIR SCHEDULE [ROUTER]}
schedule=${3:?usage: cycles_tables.sh BSPRAM OUTDIR SCHEDULE [ROUTER]}
router=${4:-simple}
chunks=${CHUNKS:-10}
per=${PER:-50}
mkdir -p "$out"
name=$schedule-$router
# A chunk is claimed (mkdir is atomic) before it runs, so that a second
# instance started beside the first (REVERSE=1: from the last chunk down)
# shares the work on another core instead of repeating it.
k=1
while [ "$k" -le "$chunks" ]; do
    c=$k
    [ -n "${REVERSE:-}" ] && c=$((chunks + 1 - k))
    f=$out/$name.seed$c.csv
    # a complete chunk has the header and Tables 1-3's 13 + 9 + 26 rows
    if { [ ! -f "$f" ] || [ "$(wc -l < "$f")" -ne 49 ]; } && mkdir "$f.claim" 2>/dev/null; then
        nice -n 19 "$bspram" table --paper 1..3 --schedule "$schedule" --router "$router" \
            --runs "$per" --seed "$c" --threads 1 --format csv > "$f.part.$$"
        mv "$f.part.$$" "$f"
        rmdir "$f.claim"
    fi
    k=$((k + 1))
done
k=1
while [ "$k" -le "$chunks" ]; do
    f=$out/$name.seed$k.csv
    if [ ! -f "$f" ] || [ "$(wc -l < "$f")" -ne 49 ]; then
        echo "cycles_tables.sh: chunk $k is not complete (another instance has it, or a stale $f.claim)" >&2
        exit 0
    fi
    k=$((k + 1))
done
# shellcheck disable=SC2086
awk -F, -v OFS=, '
FNR == 1 { if (NR == 1) print "table,basis,degree,runs,baseline,factor,factor_sd,paper_factor"; next }
{
    key = $1 SUBSEP $8 SUBSEP $9
    if (!(key in n)) { order[++rows] = key; paper[key] = $14 }
    r = $7; b = $10; f = $11; sd = $12
    n[key] += r; sb[key] += r * b; st[key] += r * f * b
    sf[key] += r * f; sq[key] += r * (sd ^ 2 + f ^ 2)
}
END {
    for (i = 1; i <= rows; i++) {
        key = order[i]; split(key, part, SUBSEP)
        N = n[key]; B = sb[key] / N; T = st[key] / N
        F = sf[key] / N; var = sq[key] / N - F * F; if (var < 0) var = 0
        printf "%s,%s,%s,%d,%.3f,%.3f,%.4f,%s\n", part[1], part[2], part[3], N, B, T / B, sqrt(var), paper[key]
    }
}' "$out"/"$name".seed*.csv > "$out/$name.csv"
echo "pooled $chunks chunks of $per runs: $out/$name.csv" >&2
