/* The OR of n bits in one step on a CRCW-common PRAM.
 *
 * Algorithm: the constant-time Boolean OR (JáJá 1992, "An Introduction to
 * Parallel Algorithms", ch. 1, the PRAM models: the OR that takes Ω(log n)
 * steps on a CREW PRAM takes O(1) on a common CRCW PRAM). Model:
 * CRCW-common — every VP that writes writes the same value, 1. Time: 1 step;
 * work O(n); n VPs.
 *
 *   step 1  for all i < n in parallel:   if B[i] = 1 then R ← 1      (R = 0 before)
 *
 * The bits are 1 with probability 1/n, so the OR is 0 for about a third of
 * the seeds. Checked against a sequential loop.
 *
 *   pram_or [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n;
    uint64_t *b = pram_example_words(n, "input");
    for (uint64_t i = 0; i < n; i++)
        b[i] = pram_example_random(prm->seed, i, 0, n) == 0;

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 0, false, 1, res);
    bspram_pram_array B = bspram_pram_alloc(P, "B", n), R = bspram_pram_alloc(P, "R", 1);
    bspram_pram_load(P, B, b, n);
    uint64_t *cells = pram_example_words(n, "cells"), *vals = pram_example_words(n, "values");
    double t1 = pram_example_clock();

    /* One step: VP i reads B[i], then writes 1 to R if the bit is 1. */
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, B, i);
    bspram_pram_gather(P, 1, cells, vals);
    uint64_t r = bspram_pram_cell(P, R, 0);
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = vals[i] ? r : BSPRAM_PRAM_NONE;
        vals[i] = 1;
    }
    bspram_pram_scatter(P, 1, cells, vals);

    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t got;
    bspram_pram_store(P, R, &got, 1);
    pram_example_finish(P, res);
    free(cells);
    free(vals);

    t0 = pram_example_clock();
    uint64_t any = 0, ones = 0;
    for (uint64_t i = 0; i < n; i++)
        any |= b[i];
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n + 1; /* n bits read, the OR written */
    for (uint64_t i = 0; i < n; i++)
        ones += b[i];
    res->verified = got == any;
    snprintf(res->detail, sizeof res->detail, "OR %" PRIu64 "%s (%" PRIu64 " bits set)", got,
             res->verified ? "" : ", expected the other", ones);
    free(b);
}

const pram_example pram_example_or = {
    .name = "or",
    .title = "OR of n bits in one step, CRCW-common",
    .n_means = "bits",
    .models = PRAM_MODELS_CRCW_EQUAL,
    .model = BSPRAM_CRCW_COMMON,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_or); }
#endif
