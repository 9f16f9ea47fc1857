/* Merging two sorted sequences by ranking, on a CREW PRAM, written in the
 * textbook style (bspram_pram_for_all).
 *
 * Algorithm: merge by ranking (JáJá 1992, "An Introduction to Parallel
 * Algorithms", §2.4: each element's rank in the other sequence by a binary
 * search; its place in the output is its index plus that rank). Model:
 * CREW — the searches read the same cells (the middle first). Time:
 * 1 + ceil(log2(n/2 + 1)) + 1 steps; work O(n log n); n VPs, one per
 * element. A search's next cell depends on the value it read, so each probe
 * is a step of its own, its bounds kept in the VP's registers.
 *
 *   step 1        for all i in parallel:  x_i ← its element (A[i], or B[i − a])
 *   log steps     for all i in parallel:  one probe of the binary search for x_i in
 *                                         the other sequence (lo, hi in registers)
 *   last step     for all i in parallel:  C[own index + rank] ← x_i
 *
 * A holds a = ceil(n/2) even numbers, B the other n − a odd ones, each
 * sorted (so every value is distinct); C is checked against a sequential
 * merge.
 *
 *   pram_merge [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

enum { X, LO, HI }; /* registers: the element, the search's bounds [lo, hi) */

typedef struct merge {
    bspram_pram_array A, B, C;
    uint64_t a, b; /* lengths */
    int phase;     /* 0 read, 1 probe, 2 place */
} merge;

/* The other sequence of VP i and its length; whether i is in A. */
static bool in_a(const merge *m, uint64_t i) { return i < m->a; }

static void step(bspram_vp *vp, void *arg)
{
    const merge *m = arg;
    const uint64_t i = bspram_vp_id(vp);
    uint64_t *r = bspram_vp_registers(vp);
    const bool mine_a = in_a(m, i);
    const bspram_pram_array other = mine_a ? m->B : m->A;
    if (m->phase == 0) {
        r[X] = mine_a ? bspram_vp_get(vp, m->A, i) : bspram_vp_get(vp, m->B, i - m->a);
        r[LO] = 0;
        r[HI] = mine_a ? m->b : m->a;
    } else if (m->phase == 1) {
        if (r[LO] < r[HI]) { /* the rank: how many of the other are below x */
            uint64_t mid = r[LO] + (r[HI] - r[LO]) / 2;
            if (bspram_vp_get(vp, other, mid) < r[X])
                r[LO] = mid + 1;
            else
                r[HI] = mid;
        }
    } else {
        bspram_vp_write(vp, m->C, (mine_a ? i : i - m->a) + r[LO], r[X]);
    }
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, a = (n + 1) / 2, b = n - a;
    uint64_t *x = pram_example_words(a, "A"), *y = pram_example_words(b ? b : 1, "B");
    uint64_t *c = pram_example_words(n, "C"), *ref = pram_example_words(n, "reference");
    /* sorted: increasing gaps drawn from the seed; A even, B odd */
    for (uint64_t i = 0, v = 0; i < a; i++)
        x[i] = v += 2 * (1 + pram_example_random(prm->seed, i, 0, 4));
    for (uint64_t i = 0, v = 1; i < b; i++)
        y[i] = v += 2 * (1 + pram_example_random(prm->seed, i, 1, 4));

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 3, false, 0, res);
    merge m = {bspram_pram_alloc(P, "A", a), bspram_pram_alloc(P, "B", b ? b : 1), bspram_pram_alloc(P, "C", n),
               a, b, 0};
    bspram_pram_load(P, m.A, x, a);
    bspram_pram_load(P, m.B, y, b);
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, step, &m);
    m.phase = 1;
    const unsigned probes = pram_example_log2(pram_example_pow2(a + 1));
    for (unsigned k = 0; k < probes; k++)
        bspram_pram_for_all(P, step, &m);
    m.phase = 2;
    bspram_pram_for_all(P, step, &m);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, m.C, c, n);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    for (uint64_t i = 0, j = 0, k = 0; k < n; k++)
        ref[k] = j >= b || (i < a && x[i] < y[j]) ? x[i++] : y[j++];
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n elements read, n written */
    uint64_t bad = n;
    for (uint64_t k = 0; k < n && bad == n; k++)
        if (c[k] != ref[k])
            bad = k;
    res->verified = bad == n && res->stats.steps == 2u + probes;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "%" PRIu64 " + %" PRIu64 " merged; %" PRIu64
                 " steps, 2 + ceil(log2(n/2 + 1)) = %u", a, b, res->stats.steps, 2 + probes);
    else
        snprintf(res->detail, sizeof res->detail, "C[%" PRIu64 "] = %" PRIu64 ", expected %" PRIu64, bad, c[bad],
                 ref[bad]);
    free(x);
    free(y);
    free(c);
    free(ref);
}

const pram_example pram_example_merge = {
    .name = "merge",
    .title = "merging two sorted sequences by ranking (binary searches), CREW, textbook style",
    .n_means = "elements of the two sequences together",
    .models = PRAM_MODELS_CREW_UP,
    .model = BSPRAM_CREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_merge); }
#endif
