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
 * sequential loop. Each step is one bulk read phase
 * (bspram_pram_gather_owned, two cells per VP) and one write phase
 * (bspram_pram_scatter_owned). The input is computed cell by cell
 * (bspram_pram_fill) and the result checked cell by cell
 * (bspram_pram_visit), so over MPI each rank holds and checks its share
 * and nothing of size n is gathered. The scan
 * itself is pram_scan_exclusive of pram/scan.h, which pram_sort runs too.
 *
 *   pram_prefix_sums [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"
#include "pram/scan.h"

/* The input x_i, a function of the seed and i, and 0 past n (X is padded
 * to a power of two): each process computes the values of its own cells
 * (bspram_pram_fill), and no process holds the whole input. */
typedef struct source {
    uint64_t seed, n;
} source;

static uint64_t input(uint64_t i, void *arg)
{
    const source *x = arg;
    return i < x->n ? pram_example_random(x->seed, i, 0, UINT64_C(1) << 32) : 0;
}

/* The check, visiting the held cells in increasing index: the sequential
 * prefix sum x_0 + … + x_{i−1} is carried along in chunks of the input. */
enum { CHUNK = 65536 };
typedef struct check {
    source in;
    uint64_t next, acc, bad, got_bad, want_bad;
    uint64_t x[CHUNK]; /* x[j − base] for the chunk at base */
    uint64_t base, have;
    double seconds; /* the sequential prefix loop's own time */
} check;

static void check_cell(uint64_t i, uint64_t value, void *arg)
{
    check *k = arg;
    while (k->next < i) {
        if (k->next >= k->base + k->have) { /* the next chunk of the input */
            k->base = k->next;
            k->have = CHUNK;
            for (uint64_t j = 0; j < CHUNK; j++)
                k->x[j] = input(k->base + j, &k->in);
        }
        double t0 = pram_example_clock();
        uint64_t stop = i < k->base + k->have ? i : k->base + k->have, acc = k->acc;
        for (uint64_t j = k->next; j < stop; j++)
            acc += k->x[j - k->base];
        k->acc = acc;
        k->next = stop;
        k->seconds += pram_example_clock() - t0;
    }
    if (value != k->acc && i < k->bad) {
        k->bad = i;
        k->got_bad = value;
        k->want_bad = k->acc;
    }
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, m = pram_example_pow2(n);
    source in = {prm->seed, n};

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 0, false, 1, res); /* n ≥ m/2 VPs */
    bspram_pram_array X = bspram_pram_alloc(P, "X", m), S = bspram_pram_alloc(P, "SUM", 1);
    bspram_pram_fill(P, X, input, &in);
    double t1 = pram_example_clock();
    pram_scan_exclusive(P, X, m, S);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t sum;
    bspram_pram_store(P, S, &sum, 1);

    /* The sequential reference, carried along the cells this process holds
     * (all of them on one machine, its share on an MPI rank). */
    check *k = calloc(1, sizeof *k);
    if (!k) {
        fprintf(stderr, "pram example: out of memory for the check\n");
        exit(1);
    }
    k->in = in;
    k->bad = n;
    bspram_pram_visit(P, X, check_cell, k);
    pram_example_finish(P, res);
    check_cell(n, 0, k); /* carries the sum to x_{n−1} (index n is no cell: never marked) */
    res->seq_seconds = k->seconds;
    res->seq_work = 2 * n; /* n values read, n sums written */
    uint64_t acc = k->acc;
    res->verified = k->bad == n && sum == acc;
    if (sum != acc)
        snprintf(res->detail, sizeof res->detail, "sum %" PRIu64 ", expected %" PRIu64, sum, acc);
    else if (k->bad < n)
        snprintf(res->detail, sizeof res->detail, "prefix %" PRIu64 " is %" PRIu64 ", expected %" PRIu64, k->bad,
                 k->got_bad, k->want_bad);
    else
        snprintf(res->detail, sizeof res->detail, "sum %" PRIu64, sum);
    free(k);
}

const pram_example pram_example_prefix_sums = {
    .name = "prefix_sums",
    .title = "sum and prefix sums by a balanced tree (up-sweep, down-sweep), EREW, 2 log n + 1 steps",
    .n_means = "values to add",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 24,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_prefix_sums); }
#endif
