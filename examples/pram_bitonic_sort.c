/* Batcher's bitonic sort on an EREW PRAM, written in the textbook style
 * (bspram_pram_for_all).
 *
 * Algorithm: K. E. Batcher, "Sorting networks and their applications"
 * (AFIPS 1968), the bitonic sorting network run on a PRAM (JáJá 1992, "An
 * Introduction to Parallel Algorithms", §4.4). Model: EREW — in each step
 * VP j compares and exchanges one pair of cells, disjoint from every other
 * VP's. Time: log2 m · (log2 m + 1) / 2 steps for m = n rounded up to a
 * power of two; work O(n log² n); m/2 VPs.
 *
 *   for size = 2, 4, …, m:  for stride = size/2, …, 1:
 *     for all j < m/2 in parallel:  i ← the lower of pair j (2·stride·(j div stride) + j mod stride);
 *         (x, y) ← (A[i], A[i + stride]);  up ← (i AND size) = 0;
 *         if (x > y) = up then (A[i], A[i + stride]) ← (y, x)
 *
 * The padding is 2^64 − 1 (sorts last); A's first n cells are checked
 * against qsort.
 *
 *   pram_bitonic_sort [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pram/example.h"

typedef struct network {
    bspram_pram_array A;
    uint64_t size, stride;
} network;

static void compare_exchange(bspram_vp *vp, void *arg)
{
    const network *w = arg;
    const uint64_t j = bspram_vp_id(vp);
    const uint64_t i = 2 * w->stride * (j / w->stride) + j % w->stride, k = i + w->stride;
    uint64_t x = bspram_vp_get(vp, w->A, i), y = bspram_vp_get(vp, w->A, k);
    const bool up = (i & w->size) == 0;
    if ((x > y) == up) {
        bspram_vp_write(vp, w->A, i, y);
        bspram_vp_write(vp, w->A, k, x);
    }
}

static uint64_t vps_of(uint64_t n) { return n < 2 ? 1 : pram_example_pow2(n) / 2; }

static int cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, m = pram_example_pow2(n);
    uint64_t *x = pram_example_words(m, "input"), *y = pram_example_words(m, "output");
    for (uint64_t i = 0; i < m; i++)
        x[i] = i < n ? pram_example_random(prm->seed, i, 0, UINT64_C(1) << 40) : UINT64_MAX;
    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps_of(n), 0, false, 1, res); /* exclusive */
    network w = {bspram_pram_alloc(P, "A", m), 0, 0};
    bspram_pram_load(P, w.A, x, m);
    double t1 = pram_example_clock();
    for (w.size = 2; w.size <= m; w.size *= 2)
        for (w.stride = w.size / 2; w.stride >= 1; w.stride /= 2)
            bspram_pram_for_all(P, compare_exchange, &w);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, w.A, y, m);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    qsort(x, (size_t)n, sizeof *x, cmp);
    res->seq_seconds = pram_example_clock() - t0;
    const unsigned lg = pram_example_log2(m);
    res->seq_work = 2 * n * (lg ? lg : 1); /* a merge sort's reads and writes: 2n per level */
    res->verified = memcmp(x, y, (size_t)n * sizeof *x) == 0 && res->stats.steps == lg * (lg + 1u) / 2;
    snprintf(res->detail, sizeof res->detail, "%" PRIu64 " keys %s; %" PRIu64 " steps, log m (log m + 1) / 2 = %u",
             n, res->verified ? "sorted" : "NOT sorted", res->stats.steps, lg * (lg + 1) / 2);
    free(x);
    free(y);
}

const pram_example pram_example_bitonic_sort = {
    .name = "bitonic_sort",
    .title = "Batcher's bitonic sort, EREW, textbook style: log n (log n + 1) / 2 steps",
    .n_means = "keys",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 20,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_bitonic_sort); }
#endif
