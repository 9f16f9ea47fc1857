/* A histogram in one step on a CRCW-combining PRAM.
 *
 * Algorithm: every VP adds 1 to the bin of its sample by a combining write
 * — concurrent writes to one cell are combined by the sum (JáJá 1992, "An
 * Introduction to Parallel Algorithms", ch. 1, the PRAM models; the
 * combining writes of the NYU Ultracomputer, Gottlieb et al. 1983). Model:
 * CRCW-combining(sum). Time: 1 step; work O(n); n VPs.
 *
 *   step 1  for all i < n in parallel:   x ← X[i];  H[bin(x)] ⊕= 1     (⊕ = +)
 *
 * The samples are skewed (bin = floor(B·u²) for u uniform in [0, 1), B =
 * 1024 bins): low bins receive thousands of concurrent additions — the hot
 * spots that multi-phase combining (Valiant 1992) merges on the way, so no
 * component receives more than a few of them. Uses
 * bspram_pram_scatter_reduce; checked against a sequential count.
 *
 *   pram_histogram [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

#define BINS 1024

static uint64_t bin_of(uint64_t sample) /* sample: 32 random bits, u = sample / 2^32 */
{
    double u = (double)sample / 4294967296.0;
    return (uint64_t)(BINS * u * u);
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n;
    uint64_t *x = pram_example_words(n, "input"), got[BINS];
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, UINT64_C(1) << 32);

    double t0 = pram_example_clock();
    /* ADAPTIVE: the bins' degrees vary (charge 266 at n = 2^16 against 382
     * with the mean degree as AUTO's hint) */
    bspram_pram *P = pram_example_create(prm, n, 0, false, PRAM_EXAMPLE_ADAPTIVE, res);
    bspram_pram_array X = bspram_pram_alloc(P, "X", n), H = bspram_pram_alloc(P, "H", BINS);
    bspram_pram_load(P, X, x, n);
    uint64_t *cells = pram_example_words(n, "cells"), *vals = pram_example_words(n, "values");
    double t1 = pram_example_clock();

    /* One step: VP i reads its sample X[i], then adds 1 to its bin. */
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, X, i);
    bspram_pram_gather(P, 1, cells, vals);
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = bspram_pram_cell(P, H, bin_of(vals[i]));
        vals[i] = 1;
    }
    bspram_pram_scatter_reduce(P, 1, cells, vals, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));

    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, H, got, BINS);
    pram_example_finish(P, res);
    free(cells);
    free(vals);

    uint64_t ref[BINS] = {0};
    t0 = pram_example_clock();
    for (uint64_t i = 0; i < n; i++)
        ref[bin_of(x[i])]++;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n keys read, n counters bumped */
    uint64_t bad = BINS;
    for (uint64_t b = 0; b < BINS && bad == BINS; b++)
        if (got[b] != ref[b])
            bad = b;
    res->verified = bad == BINS;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "bin 0 holds %" PRIu64 " of %" PRIu64 " samples", got[0], n);
    else
        snprintf(res->detail, sizeof res->detail, "bin %" PRIu64 " holds %" PRIu64 ", expected %" PRIu64, bad,
                 got[bad], ref[bad]);
    free(x);
}

const pram_example pram_example_histogram = {
    .name = "histogram",
    .title = "histogram of n samples into 1024 bins in one step, CRCW-combining(sum)",
    .n_means = "samples",
    .models = PRAM_MODEL_BIT(BSPRAM_CRCW_COMBINING),
    .model = BSPRAM_CRCW_COMBINING,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_histogram); }
#endif
