/* Maximum of n values in O(1) steps on a CRCW-common PRAM with n² VPs.
 *
 * Algorithm: the constant-time maximum on the common CRCW PRAM, every pair
 * compared at once (JáJá 1992, "An Introduction to Parallel Algorithms",
 * ch. 2, accelerated cascading, where it is the fast inner algorithm).
 * Model: CRCW-common — concurrent reads of every x_i, and concurrent
 * writes of the same value (0, then the maximum). Time: 3 steps; work
 * O(n²); n² VPs, VP (i, j) being number i·n + j.
 *
 *   step 1  for all i < n in parallel:          M[i] ← 1
 *   step 2  for all (i, j) in parallel:         if X[i] < X[j] then M[i] ← 0
 *   step 3  for all i < n in parallel:          if M[i] = 1 then MAX ← X[i]
 *
 * After step 2, M[i] = 1 exactly when x_i is a maximum; all VPs that write
 * in step 3 write the same value, as the common rule asks. Checked against a
 * sequential loop. n = 2^10 gives 2^20 VPs; n is at most 2048 (2^22 VPs).
 * Compare pram_max_erew.c: log2 n steps with n VPs and no concurrency.
 *
 *   pram_max_crcw [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

static uint64_t vps_of(uint64_t n) { return n * n; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, vps = vps_of(n);
    uint64_t *x = pram_example_words(n, "input");
    /* Values from a small range, so that the maximum is often tied. */
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, 4 * n);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps, 0, false, 2 * n, res); /* X[i]: 2n readers */
    bspram_pram_array X = bspram_pram_alloc(P, "X", n), M = bspram_pram_alloc(P, "M", n);
    bspram_pram_array MAX = bspram_pram_alloc(P, "MAX", 1);
    bspram_pram_load(P, X, x, n);
    uint64_t *cells = pram_example_words(2 * vps, "cells"), *vals = pram_example_words(2 * vps, "values");
    double t1 = pram_example_clock();

    /* Step 1 (no reads): VP i < n writes M[i] ← 1; the other VPs are idle. */
    for (uint64_t v = 0; v < vps; v++) {
        cells[v] = v < n ? bspram_pram_cell(P, M, v) : BSPRAM_PRAM_NONE;
        vals[v] = 1;
    }
    bspram_pram_scatter(P, 1, cells, vals);

    /* Step 2: VP (i, j) reads X[i] and X[j]; if X[i] < X[j] it writes 0 to M[i]. */
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < n; j++) {
            cells[2 * (i * n + j)] = bspram_pram_cell(P, X, i);
            cells[2 * (i * n + j) + 1] = bspram_pram_cell(P, X, j);
        }
    bspram_pram_gather(P, 2, cells, vals);
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < n; j++) {
            uint64_t v = i * n + j, xi = vals[2 * v], xj = vals[2 * v + 1];
            cells[v] = xi < xj ? bspram_pram_cell(P, M, i) : BSPRAM_PRAM_NONE;
            vals[v] = 0; /* (the reads sit at 2v ≥ v: read before overwritten) */
        }
    bspram_pram_scatter(P, 1, cells, vals);

    /* Step 3: VP i < n reads M[i] and X[i]; if M[i] = 1 it writes X[i] to MAX. */
    for (uint64_t v = 0; v < vps; v++) {
        cells[2 * v] = v < n ? bspram_pram_cell(P, M, v) : BSPRAM_PRAM_NONE;
        cells[2 * v + 1] = v < n ? bspram_pram_cell(P, X, v) : BSPRAM_PRAM_NONE;
    }
    bspram_pram_gather(P, 2, cells, vals);
    for (uint64_t v = 0; v < n; v++) {
        uint64_t m = vals[2 * v], xv = vals[2 * v + 1];
        cells[v] = m == 1 ? bspram_pram_cell(P, MAX, 0) : BSPRAM_PRAM_NONE;
        vals[v] = xv;
    }
    for (uint64_t v = n; v < vps; v++)
        cells[v] = BSPRAM_PRAM_NONE;
    bspram_pram_scatter(P, 1, cells, vals);

    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t got;
    bspram_pram_store(P, MAX, &got, 1);
    pram_example_finish(P, res);
    free(cells);
    free(vals);

    t0 = pram_example_clock();
    uint64_t best = 0;
    for (uint64_t i = 0; i < n; i++)
        best = x[i] > best ? x[i] : best;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n + 1; /* n values read, the maximum written */
    uint64_t ties = 0;
    for (uint64_t i = 0; i < n; i++)
        ties += x[i] == best;
    res->verified = got == best;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "max %" PRIu64 " (held by %" PRIu64 " of %" PRIu64 " values)",
                 got, ties, n);
    else
        snprintf(res->detail, sizeof res->detail, "max %" PRIu64 ", expected %" PRIu64, got, best);
    free(x);
}

const pram_example pram_example_max_crcw = {
    .name = "max_crcw",
    .title = "maximum in O(1) steps with n^2 VPs, CRCW-common, 3 steps",
    .n_means = "values (n^2 VPs)",
    .models = PRAM_MODELS_CRCW_EQUAL,
    .model = BSPRAM_CRCW_COMMON,
    .min_n = 1,
    .max_n = 2048,
    .small_n = 64,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_max_crcw); }
#endif
