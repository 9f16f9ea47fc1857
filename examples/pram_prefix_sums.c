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
 * two cells per VP) and one write phase (bspram_pram_scatter).
 *
 *   ./build/pram_prefix_sums [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "examples/pram/example.h"

/* One sweep step: VP i < active reads cells (left_i, right_i) of a, then
 * writes (left, right) ← down ? (R, L + R) : (L, L + R) — in the up-sweep
 * only the right cell is written. rc/rv/wc/wv hold 2 words per VP; entries
 * of VPs at or above `active` are NONE (no access) on entry and on return. */
static void sweep_step(bspram_pram *P, bspram_pram_array a, uint64_t h, uint64_t active, int down,
                       uint64_t *rc, uint64_t *rv, uint64_t *wc, uint64_t *wv)
{
    for (uint64_t i = 0; i < active; i++) {
        rc[2 * i] = bspram_pram_cell(P, a, 2 * h * i + h - 1);
        rc[2 * i + 1] = bspram_pram_cell(P, a, 2 * h * i + 2 * h - 1);
    }
    bspram_pram_gather(P, 2, rc, rv);
    for (uint64_t i = 0; i < active; i++) {
        uint64_t l = rv[2 * i], r = rv[2 * i + 1];
        wc[2 * i] = down ? rc[2 * i] : BSPRAM_PRAM_NONE;
        wv[2 * i] = r;
        wc[2 * i + 1] = rc[2 * i + 1];
        wv[2 * i + 1] = l + r;
    }
    bspram_pram_scatter(P, 2, wc, wv);
    for (uint64_t i = 0; i < 2 * active; i++)
        rc[i] = wc[i] = BSPRAM_PRAM_NONE;
}

void pram_scan_exclusive(bspram_pram *P, bspram_pram_array a, uint64_t m, bspram_pram_array total)
{
    uint64_t n = bspram_pram_n(P);
    unsigned levels = pram_example_log2(m);
    uint64_t *rc = pram_example_words(2 * n, "scan"), *rv = pram_example_words(2 * n, "scan");
    uint64_t *wc = pram_example_words(2 * n, "scan"), *wv = pram_example_words(2 * n, "scan");
    for (uint64_t i = 0; i < 2 * n; i++)
        rc[i] = wc[i] = BSPRAM_PRAM_NONE;
    for (unsigned d = 0; d < levels; d++) /* up-sweep */
        sweep_step(P, a, UINT64_C(1) << d, m >> (d + 1), 0, rc, rv, wc, wv);
    /* root: VP 0 reads X[m−1], writes it to SUM and 0 to X[m−1] */
    rc[0] = bspram_pram_cell(P, a, m - 1);
    bspram_pram_gather(P, 1, rc, rv);
    wc[0] = bspram_pram_cell(P, total, 0);
    wv[0] = rv[0];
    wc[1] = rc[0];
    wv[1] = 0;
    bspram_pram_scatter(P, 2, wc, wv);
    rc[0] = wc[0] = wc[1] = BSPRAM_PRAM_NONE;
    for (unsigned d = levels; d-- > 0;) /* down-sweep */
        sweep_step(P, a, UINT64_C(1) << d, m >> (d + 1), 1, rc, rv, wc, wv);
    free(rc);
    free(rv);
    free(wc);
    free(wv);
}

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
