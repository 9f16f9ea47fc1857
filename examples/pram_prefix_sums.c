/* Sum and prefix sums on an EREW PRAM by a balanced binary tree.
 *
 * Algorithm: the balanced-tree method (JáJá 1992, "An Introduction to
 * Parallel Algorithms", ch. 2, balanced trees: the sum, and the prefix sums
 * by a second pass down the tree), here in its in-place form of an
 * up-sweep and a down-sweep (G. E. Blelloch, "Prefix sums and their
 * applications", CMU-CS-90-190, 1990). Model: EREW — in
 * every step each cell is read by at most one VP and written by at most one.
 * Time: 2·log2(m) + 1 steps for m = n rounded up to a power of two; work
 * O(n); n VPs (at most m/2 of them busy in a step).
 *
 *   up-sweep, d = 0 .. log2(m)−1, h = 2^d:   for all i < m/2h in parallel
 *       X[2h·i + 2h − 1] ← X[2h·i + h − 1] + X[2h·i + 2h − 1]
 *   root:       SUM ← X[m−1];  X[m−1] ← 0
 *   down-sweep, d = log2(m)−1 .. 0:          for all i < m/2h in parallel
 *       (X[2h·i + h − 1], X[2h·i + 2h − 1]) ← (X[2h·i + 2h − 1], X[2h·i + h − 1] + X[2h·i + 2h − 1])
 *
 * Afterwards X[j] = x_0 + … + x_{j−1} (the exclusive prefix sums, 64-bit
 * wrap-around) and SUM = x_0 + … + x_{n−1}, both checked against a
 * sequential loop. Each step is one bulk read phase (bspram_pram_gather,
 * two cells per VP) and one write phase (bspram_pram_scatter). The scan
 * itself is pram_scan_exclusive of pram/scan.h, which pram_sort runs too.
 *
 *   pram_prefix_sums [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"
#include "pram/scan.h"

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, m = pram_example_pow2(n);
    uint64_t *x = pram_example_words(n, "input"), *got = pram_example_words(n, "result");
    for (uint64_t i = 0; i < n; i++)
        x[i] = pram_example_random(prm->seed, i, 0, UINT64_C(1) << 32);

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 0, false, 1, res); /* n ≥ m/2 VPs */
    bspram_pram_array X = bspram_pram_alloc(P, "X", m), S = bspram_pram_alloc(P, "SUM", 1);
    bspram_pram_load(P, X, x, n); /* X[n .. m) stay 0 */
    double t1 = pram_example_clock();
    pram_scan_exclusive(P, X, m, S);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t sum;
    bspram_pram_store(P, X, got, n);
    bspram_pram_store(P, S, &sum, 1);
    pram_example_finish(P, res);

    /* The sequential reference. */
    uint64_t *ref = pram_example_words(n, "reference");
    t0 = pram_example_clock();
    uint64_t acc = 0;
    for (uint64_t i = 0; i < n; i++) {
        ref[i] = acc;
        acc += x[i];
    }
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n values read, n sums written */

    uint64_t bad = n;
    for (uint64_t i = 0; i < n && bad == n; i++)
        if (got[i] != ref[i])
            bad = i;
    res->verified = bad == n && sum == acc;
    if (sum != acc)
        snprintf(res->detail, sizeof res->detail, "sum %" PRIu64 ", expected %" PRIu64, sum, acc);
    else if (bad < n)
        snprintf(res->detail, sizeof res->detail, "prefix %" PRIu64 " is %" PRIu64 ", expected %" PRIu64, bad,
                 got[bad], ref[bad]);
    else
        snprintf(res->detail, sizeof res->detail, "sum %" PRIu64, sum);
    free(x);
    free(got);
    free(ref);
}

const pram_example pram_example_prefix_sums = {
    .name = "prefix_sums",
    .title = "sum and prefix sums by a balanced tree (up-sweep, down-sweep), EREW, 2 log n + 1 steps",
    .n_means = "values to add",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_prefix_sums); }
#endif
