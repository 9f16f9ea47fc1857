#!/bin/sh
# The lower envelope of known-degree bases at p = 4096, v = 2^17 (Valiant §4):
# every ordered factorization of 4096 into 1 to 4 power-of-two radices (232
# bases), each at degrees 64 … 4096 for RUNS runs (default 10), then the best
# four of each degree and Valiant's Table 2 basis again at CONFIRM runs
# (default 100): the 10-run minimum of 232 noisy factors is biased low, and
# the confirmation removes that bias. Degrees 1 … 32 are searched over the
# one- and two-phase bases and those of a first radix ≥ 64 with three
# phases. Charges as in Valiant's tables (--schedule sync).
#
#   bench/basis_search.sh BSPRAM OUTDIR      (BSPRAM: the bspram binary)
#
# Writes OUTDIR/search_dD.csv, OUTDIR/search_low.csv and OUTDIR/confirm_dD.csv;
# docs/combining.md ("No degree knowledge") has the table it gave.
set -eu
bspram=${1:?usage: basis_search.sh BSPRAM OUTDIR}
out=${2:?usage: basis_search.sh BSPRAM OUTDIR}
runs=${RUNS:-10}
confirm=${CONFIRM:-100}
mkdir -p "$out"
bases=$(python3 -c '
def comps(n, k):
    if k == 1:
        yield (n,)
        return
    for a in range(1, n - k + 2):
        for r in comps(n - a, k - 1):
            yield (a,) + r
for k in range(1, 5):
    for c in comps(12, k):
        print("x".join(str(2 ** a) for a in c))')
args=$(printf '%s\n' $bases | sed 's/^/--basis /' | tr '\n' ' ')
for d in 4096 2048 1024 512 256 128 64; do
    # shellcheck disable=SC2086
    nice -n 19 "$bspram" table --p 4096 --v 131072 --degrees $d $args --runs "$runs" --format csv \
        > "$out/search_d$d.csv"
done
low=$(printf '%s\n' $bases | grep -E '^[0-9]+(x[0-9]+)?$|^(64|128|256|512|1024|2048)x[0-9]+x[0-9]+$' |
      sed 's/^/--basis /' | tr '\n' ' ')
# shellcheck disable=SC2086
nice -n 19 "$bspram" table --p 4096 --v 131072 --degrees 32,16,8,4,2,1 $low --runs "$runs" --format csv \
    > "$out/search_low.csv"
for d in 4096 2048 1024 512 256 128 64; do
    pick=$(python3 -c "
import csv, sys
rs = sorted(csv.DictReader(open('$out/search_d$d.csv')), key=lambda r: float(r['factor']))
ref = {'4096': '8x8x8x8', '2048': '16x8x8x4', '1024': '32x8x4x4', '512': '32x8x4x4',
       '256': '128x8x4', '128': '256x4x4', '64': '512x8'}['$d']
bs = [r['basis'] for r in rs[:4]]
print(' '.join('--basis ' + b for b in bs + ([ref] if ref not in bs else [])))")
    # shellcheck disable=SC2086
    nice -n 19 "$bspram" table --p 4096 --v 131072 --degrees $d $pick --runs "$confirm" --format csv \
        > "$out/confirm_d$d.csv"
done
