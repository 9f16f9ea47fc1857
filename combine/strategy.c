/* Basis selection (kept apart from the engine, as MPICH keeps algorithm
 * selection apart from the algorithms).
 *
 * Valiant §4, Table 2: for p = 2^12 and v = 2^17 the best basis sequences
 * per degree spread each group over about degree/8 components in phase 1
 * and then combine with radix 4–8; for degree ≤ 8 one phase is best
 * (Table 1: factor ≤ 1.9). With no knowledge of the degree, his compromise
 * is (32,16,8) (Table 3). */
#include <math.h>
#include <stdint.h>

#include "base/error.h"
#include "combine/combine.h"
#include "combine/valiant.h"

static bspram_basis make(uint64_t p, unsigned m, const uint64_t *b)
{
    bspram_basis out;
    char err[160];
    if (bspram_basis_make(&out, p, m, b, err, sizeof err))
        bspram__base_fatal("bspram_basis_auto: internal error: %s", err);
    return out;
}

static bspram_basis parse(uint64_t p, const char *text)
{
    bspram_basis out;
    char err[160];
    if (bspram_basis_parse(&out, p, text, err, sizeof err))
        bspram__base_fatal("bspram_basis_auto: internal error: %s", err);
    return out;
}

static bspram_basis one_phase(uint64_t p)
{
    return make(p, 1, &p);
}

/* The largest divisor of n that is ≤ limit (≥ 1). */
static uint64_t divisor_at_most(uint64_t n, uint64_t limit)
{
    for (uint64_t d = limit < n ? limit : n; d > 1; d--)
        if (n % d == 0)
            return d;
    return 1;
}

/* The divisor of p nearest to target in log scale. */
static uint64_t divisor_near(uint64_t p, uint64_t target)
{
    uint64_t best = 1;
    double bestd = 1e300;
    for (uint64_t d = 1; d <= p && d <= 4 * target + 4; d++) {
        if (p % d)
            continue;
        double r = (double)d > (double)target ? (double)d / (double)target : (double)target / (double)d;
        if (r < bestd) {
            bestd = r;
            best = d;
        }
    }
    return best;
}

/* Split s (the spread after phase 1) into phases of radix ≤ 8, largest first.
 * A spread of p would make phase 1 of radix 1 — a phase that only scatters
 * and combines nothing (e.g. 1x11 for p = 11, whose only divisors are 1 and
 * p): then one phase. */
static bspram_basis with_spread(uint64_t p, uint64_t s)
{
    if (s <= 1 || s >= p)
        return one_phase(p);
    uint64_t b[BSPRAM_MAX_PHASES];
    unsigned m = 0;
    b[m++] = p / s;
    uint64_t rest = s;
    while (rest > 1 && m < BSPRAM_MAX_PHASES) {
        uint64_t d = divisor_at_most(rest, 8);
        if (d == 1)
            d = rest; /* a prime above 8: one phase of that radix */
        b[m++] = d;
        rest /= d;
    }
    if (rest > 1)
        b[m - 1] *= rest;
    return make(p, m, b);
}

bspram_basis bspram_basis_auto(uint64_t p, uint64_t degree)
{
    if (p == 0)
        bspram__base_fatal("bspram_basis_auto(p=0): p must be >= 1");
    if (p == 4096) {
        if (degree == 0)
            return parse(p, BSPRAM_VALIANT_COMPROMISE);
        if (degree <= 8)
            return one_phase(p);
        /* The row of the largest tabulated degree ≤ degree (the last row,
         * degree 16, also serves degrees 9..15). */
        const bspram_valiant_row *t2 = bspram_valiant_table2;
        size_t i = 0;
        while (i + 1 < BSPRAM_VALIANT_TABLE2_ROWS && degree < t2[i].degree)
            i++;
        return parse(p, t2[i].basis);
    }
    if (degree != 0 && degree <= 8)
        return one_phase(p);
    if (degree == 0) {
        /* No hint: Valiant's compromise at p = 4096 is (32,16,8); elsewhere
         * the same shape; one phase for p ≤ 8. */
        if (p <= 8)
            return one_phase(p);
        /* spread p^(7/12) after phase 1, as (32,16,8) spreads 128 of 4096 */
        uint64_t target = (uint64_t)(pow((double)p, 7.0 / 12.0) + 0.5);
        return with_spread(p, divisor_near(p, target));
    }
    uint64_t target = degree / 8 ? degree / 8 : 1;
    return with_spread(p, divisor_near(p, target));
}

bspram_basis bspram_basis_adaptive(uint64_t p)
{
    if (p == 4096)
        return parse(p, BSPRAM_VALIANT_COMPROMISE);
    return bspram_basis_auto(p, 0);
}
