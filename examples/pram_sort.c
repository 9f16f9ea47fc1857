/* Counting sort on a CRCW-combining PRAM (fetch-and-add, then a scan).
 *
 * Algorithm: integer sorting by counting (JáJá 1992, "An Introduction to
 * Parallel Algorithms", ch. 4, sorting; the ranks within a bucket come from
 * fetch-and-add, the multiprefix of the NYU Ultracomputer — Gottlieb et al.
 * 1983 — and the bucket offsets from the EREW prefix sums of
 * pram_prefix_sums, pram/scan.h). Model: CRCW-combining: concurrent fetch-and-adds on
 * a bucket's counter, concurrent reads of its offset. Time: 2·log2(K) + 3
 * steps for K key values; work O(n + K); n VPs.
 *
 *   step 1     for all i < n in parallel:  key ← X[i];  pos ← fetch-and-add(C[key], 1)
 *   steps 2 ..  C ← the exclusive prefix sums of C (pram_scan_exclusive)
 *   last step  for all i < n in parallel:  Y[C[key] + pos] ← (key, i)
 *
 * K = min(n rounded up to a power of two, 2^16); keys uniform in [0, K).
 * The records (key, i) come out sorted by key; within a key, in the
 * fetch-and-add's combining order (a pure function of the seed), not by i —
 * the sort is not stable. Checked against a sequential counting sort: the
 * same keys in the same places, and every record exactly once.
 *
 *   pram_sort [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"
#include "pram/scan.h"

#define MAX_KEYS (UINT64_C(1) << 16)

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, K = pram_example_pow2(n);
    if (K > MAX_KEYS)
        K = MAX_KEYS;
    uint64_t *x = pram_example_words(n, "input"), *got = pram_example_words(n, "result");
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, K);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 0, false, 1, res); /* n ≥ K/2 VPs for the scan */
    bspram_pram_array X = bspram_pram_alloc(P, "X", n), C = bspram_pram_alloc(P, "C", K);
    bspram_pram_array T = bspram_pram_alloc(P, "TOTAL", 1), Y = bspram_pram_alloc(P, "Y", n);
    bspram_pram_load(P, X, x, n);
    uint64_t *cells = pram_example_words(n, "cells"), *vals = pram_example_words(n, "values");
    uint64_t *key = pram_example_words(n, "keys"), *pos = pram_example_words(n, "ranks");
    double t1 = pram_example_clock();
    unsigned add = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);

    /* Step 1: VP i reads its key, then takes a place in the key's bucket. */
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, X, i);
    bspram_pram_gather(P, 1, cells, key);
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = bspram_pram_cell(P, C, key[i]);
        vals[i] = 1;
    }
    bspram_pram_fetch_op(P, 1, cells, vals, add, pos);

    /* The buckets' first places: C[k] ← C[0] + … + C[k−1]. */
    pram_scan_exclusive(P, C, K, T);

    /* Last step: VP i reads its bucket's offset and writes its record there. */
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, C, key[i]);
    bspram_pram_gather(P, 1, cells, vals);
    for (uint64_t i = 0; i < n; i++) {
        cells[i] = bspram_pram_cell(P, Y, vals[i] + pos[i]);
        vals[i] = key[i] << 32 | i;
    }
    bspram_pram_scatter(P, 1, cells, vals);

    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, Y, got, n);
    pram_example_finish(P, res);
    free(cells);
    free(vals);
    free(key);
    free(pos);

    /* The sequential reference: a counting sort of the same records. */
    uint64_t *count = pram_example_words(K + 1, "counts"), *ref = pram_example_words(n, "reference");
    t0 = pram_example_clock();
    for (uint64_t i = 0; i < n; i++)
        count[x[i] + 1]++;
    for (uint64_t k = 0; k < K; k++)
        count[k + 1] += count[k];
    for (uint64_t i = 0; i < n; i++)
        ref[count[x[i]]++] = x[i] << 32 | i;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 3 * n + K; /* n keys read and counted, K offsets summed, n records written */

    /* Same keys in the same places, and each record i once with its key. */
    free(count);
    uint64_t *seen = pram_example_words(n, "seen");
    uint64_t bad = n;
    for (uint64_t j = 0; j < n && bad == n; j++) {
        uint64_t i = got[j] & 0xffffffffu;
        if (got[j] >> 32 != ref[j] >> 32 || i >= n || x[i] != got[j] >> 32 || seen[i]++)
            bad = j;
    }
    res->verified = bad == n;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "%" PRIu64 " records, keys in [0, %" PRIu64 ")", n, K);
    else
        snprintf(res->detail, sizeof res->detail, "place %" PRIu64 " holds (%" PRIu64 ", %" PRIu64
                 "), expected key %" PRIu64, bad, got[bad] >> 32, got[bad] & 0xffffffffu, ref[bad] >> 32);
    free(seen);
    free(x);
    free(got);
    free(ref);
}

const pram_example pram_example_sort = {
    .name = "sort",
    .title = "counting sort by fetch-and-add and an EREW scan, CRCW-combining, 2 log2 K + 3 steps",
    .n_means = "keys",
    .models = PRAM_MODEL_BIT(BSPRAM_CRCW_COMBINING),
    .model = BSPRAM_CRCW_COMBINING,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_sort); }
#endif
