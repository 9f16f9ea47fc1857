/* The sum of n numbers by a balanced binary tree on an EREW PRAM, written
 * in the textbook style (bspram_pram_for_all).
 *
 * Algorithm: the balanced-tree sum (JáJá 1992, "An Introduction to Parallel
 * Algorithms", §2.2, Algorithm 2.1). Model: EREW — in each step VP i reads
 * A[2i] and A[2i+1] and writes A[i]; a cell read by VP i/2 is written by VP
 * i in the same step, which the PRAM allows (reads come before writes).
 * Time: log2 m steps for m = n rounded up to a power of two; work O(n);
 * n/2 VPs.
 *
 *   for h = 1 .. log2 m:  for all i < m / 2^h in parallel:  A[i] ← A[2i] + A[2i+1]
 *
 * A[0] is then the sum, checked against a sequential loop.
 *
 *   pram_tree_sum [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

typedef struct level {
    bspram_pram_array A;
    uint64_t active; /* VPs i < active add */
} level;

static void add_pairs(bspram_vp *vp, void *arg)
{
    const level *l = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i < l->active)
        bspram_vp_write(vp, l->A, i, bspram_vp_get(vp, l->A, 2 * i) + bspram_vp_get(vp, l->A, 2 * i + 1));
}

static uint64_t vps_of(uint64_t n) { return n < 2 ? 1 : pram_example_pow2(n) / 2; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, m = pram_example_pow2(n);
    uint64_t *x = pram_example_words(m, "input");
    for (uint64_t i = 0; i < n; i++) /* the padding stays 0 */
        x[i] = pram_example_random(prm->seed, i, 0, UINT64_C(1) << 32);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps_of(n), 0, false, 1, res); /* exclusive */
    level l = {bspram_pram_alloc(P, "A", m), 0};
    bspram_pram_load(P, l.A, x, m);
    double t1 = pram_example_clock();
    for (l.active = m / 2; l.active >= 1; l.active /= 2)
        bspram_pram_for_all(P, add_pairs, &l);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t got;
    bspram_pram_store(P, l.A, &got, 1);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++)
        sum += x[i];
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n + 1; /* n values read, the sum written */
    res->verified = got == sum && res->stats.steps == pram_example_log2(m); /* the sum, in the bound's steps */
    snprintf(res->detail, sizeof res->detail, "sum %" PRIu64 "%s; %" PRIu64 " steps, log2 m = %u", got,
             res->verified ? "" : " (wrong)", res->stats.steps, pram_example_log2(m));
    free(x);
}

const pram_example pram_example_tree_sum = {
    .name = "tree_sum",
    .title = "sum by a balanced binary tree, EREW, textbook style: log n steps",
    .n_means = "numbers",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_tree_sum); }
#endif
