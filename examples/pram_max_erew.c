/* Maximum of n values on an EREW PRAM by a balanced binary tree.
 *
 * Algorithm: the balanced-tree reduction (JáJá 1992, "An Introduction to
 * Parallel Algorithms", ch. 2, balanced trees, with max for +). Model: EREW.
 * Time: ceil(log2 n) steps; work O(n); n VPs, at most n/2 busy in a step.
 *
 *   for d = 0 .. ceil(log2 n)−1, h = 2^d:   for all i with 2h·i + h < n in parallel
 *       X[2h·i] ← max(X[2h·i], X[2h·i + h])
 *
 * X[0] is then the maximum, checked against a sequential loop. Compare
 * pram_max_crcw.c: O(1) steps, but n² VPs and concurrent reads and writes.
 *
 *   pram_max_erew [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

/* The tree reduction of cells [0, n) of X into X[0] on P (≥ n/2 VPs). */
static void tree_max(bspram_pram *P, bspram_pram_array X, uint64_t n)
{
    uint64_t vps = bspram_pram_n(P);
    uint64_t *rc = pram_example_words(2 * vps, "cells"), *rv = pram_example_words(2 * vps, "values");
    uint64_t *wc = pram_example_words(vps, "cells"), *wv = pram_example_words(vps, "values");
    for (uint64_t i = 0; i < 2 * vps; i++)
        rc[i] = BSPRAM_PRAM_NONE;
    for (uint64_t i = 0; i < vps; i++)
        wc[i] = BSPRAM_PRAM_NONE;
    for (uint64_t h = 1; h < n; h *= 2) {
        uint64_t active = (n - h + 2 * h - 1) / (2 * h); /* the i with 2h·i + h < n */
        for (uint64_t i = 0; i < active; i++) {
            rc[2 * i] = bspram_pram_cell(P, X, 2 * h * i);
            rc[2 * i + 1] = bspram_pram_cell(P, X, 2 * h * i + h);
        }
        bspram_pram_gather(P, 2, rc, rv);
        for (uint64_t i = 0; i < active; i++) {
            wc[i] = rc[2 * i];
            wv[i] = rv[2 * i] > rv[2 * i + 1] ? rv[2 * i] : rv[2 * i + 1];
        }
        bspram_pram_scatter(P, 1, wc, wv);
        for (uint64_t i = 0; i < active; i++)
            rc[2 * i] = rc[2 * i + 1] = wc[i] = BSPRAM_PRAM_NONE;
    }
    free(rc);
    free(rv);
    free(wc);
    free(wv);
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n;
    uint64_t *x = pram_example_words(n, "input");
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, UINT64_MAX);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 0, false, 1, res);
    bspram_pram_array X = bspram_pram_alloc(P, "X", n);
    bspram_pram_load(P, X, x, n);
    double t1 = pram_example_clock();
    tree_max(P, X, n);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t got;
    bspram_pram_store(P, X, &got, 1);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t best = 0;
    for (uint64_t i = 0; i < n; i++)
        best = x[i] > best ? x[i] : best;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n + 1; /* n values read, the maximum written */
    res->verified = got == best;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "max %" PRIu64, got);
    else
        snprintf(res->detail, sizeof res->detail, "max %" PRIu64 ", expected %" PRIu64, got, best);
    free(x);
}

const pram_example pram_example_max_erew = {
    .name = "max_erew",
    .title = "maximum by a balanced tree, EREW, ceil(log2 n) steps",
    .n_means = "values",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_max_erew); }
#endif
