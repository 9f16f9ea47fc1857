/* Blelloch's work-efficient exclusive scan on an EREW PRAM, written in the
 * textbook style (bspram_pram_for_all).
 *
 * Algorithm: G. E. Blelloch, "Prefix sums and their applications" (1990),
 * the up-sweep (reduce) and down-sweep on a balanced tree laid out in
 * place. Model: EREW — each step's VPs touch disjoint pairs of cells. Time:
 * 2·log2 m + 1 steps for m = n rounded up to a power of two; work O(n);
 * m/2 VPs, most idle near the root (the slowdown, which divides by
 * ceil(VPs/p) per step, then says less than the overhead: docs/pram.md).
 *
 *   up-sweep    for d = 0 .. log2 m − 1: for all k = j·2^(d+1) < m in parallel:
 *                   A[k + 2^(d+1) − 1] ← A[k + 2^d − 1] + A[k + 2^(d+1) − 1]
 *   clear       A[m − 1] ← 0
 *   down-sweep  for d = log2 m − 1 .. 0: for all k = j·2^(d+1) < m in parallel:
 *                   t ← A[k + 2^d − 1];  A[k + 2^d − 1] ← A[k + 2^(d+1) − 1];
 *                   A[k + 2^(d+1) − 1] ← t + A[k + 2^(d+1) − 1]
 *
 * A[i] is then the sum of the inputs before i, checked against a
 * sequential loop.
 *
 *   pram_blelloch_scan [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

typedef struct sweep {
    bspram_pram_array A;
    uint64_t m, half; /* 2^d */
    int phase;        /* 0 up, 1 clear, 2 down */
} sweep;

static void step(bspram_vp *vp, void *arg)
{
    const sweep *s = arg;
    const uint64_t j = bspram_vp_id(vp);
    if (s->phase == 1) {
        if (j == 0)
            bspram_vp_write(vp, s->A, s->m - 1, 0);
        return;
    }
    const uint64_t k = j * 2 * s->half;
    if (k >= s->m)
        return; /* idle at this level */
    const uint64_t left = k + s->half - 1, right = k + 2 * s->half - 1;
    uint64_t l = bspram_vp_get(vp, s->A, left), r = bspram_vp_get(vp, s->A, right);
    if (s->phase == 0) {
        bspram_vp_write(vp, s->A, right, l + r);
    } else {
        bspram_vp_write(vp, s->A, left, r);
        bspram_vp_write(vp, s->A, right, l + r);
    }
}

static uint64_t vps_of(uint64_t n) { return n < 2 ? 1 : pram_example_pow2(n) / 2; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, m = pram_example_pow2(n);
    uint64_t *x = pram_example_words(m, "input"), *y = pram_example_words(m, "output");
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, UINT64_C(1) << 32);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps_of(n), 0, false, 1, res); /* exclusive */
    sweep s = {bspram_pram_alloc(P, "A", m), m, 1, 0};
    bspram_pram_load(P, s.A, x, m);
    double t1 = pram_example_clock();
    for (s.half = 1; s.half < m; s.half *= 2)
        bspram_pram_for_all(P, step, &s);
    s.phase = 1;
    bspram_pram_for_all(P, step, &s);
    s.phase = 2;
    for (s.half = m / 2; s.half >= 1; s.half /= 2)
        bspram_pram_for_all(P, step, &s);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, s.A, y, m);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t bad = n, acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (y[i] != acc && bad == n)
            bad = i;
        acc += x[i];
    }
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n values read, n sums written */
    res->verified = bad == n && res->stats.steps == 2 * pram_example_log2(m) + 1u;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "exclusive scan of %" PRIu64 " values; %" PRIu64
                 " steps, 2 log2 m + 1 = %u", n, res->stats.steps, 2 * pram_example_log2(m) + 1);
    else
        snprintf(res->detail, sizeof res->detail, "A[%" PRIu64 "] = %" PRIu64 " is wrong", bad, y[bad]);
    free(x);
    free(y);
}

const pram_example pram_example_blelloch_scan = {
    .name = "blelloch_scan",
    .title = "Blelloch's work-efficient exclusive scan, EREW, textbook style: 2 log n + 1 steps",
    .n_means = "values",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_blelloch_scan); }
#endif
