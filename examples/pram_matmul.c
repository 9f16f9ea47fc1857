/* Matrix multiplication with n^3 VPs in one step on a CRCW-combining PRAM,
 * written in the textbook style (bspram_pram_for_all).
 *
 * Algorithm: C = A·B with one VP per product (JáJá 1992, "An Introduction
 * to Parallel Algorithms", §1.3: n^3 processors compute the products in
 * O(1) and sum them in O(log n) steps on a CREW PRAM; with combining
 * writes, as on the NYU Ultracomputer, the sums are the writes themselves).
 * Model: CRCW-combining — A[i][k] is read by the n VPs of every j, and the n
 * products of C[i][j] are added where they meet (bspram_vp_reduce). Time: 1
 * step; work O(n^3); n^3 VPs.
 *
 *   for all (i, j, k) in parallel:  C[i][j] ⊕= A[i][k] · B[k][j]      (⊕ = + mod 2^64)
 *
 * Checked against the sequential triple loop.
 *
 *   pram_matmul [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

typedef struct product {
    bspram_pram_array A, B, C;
    uint64_t n;
    unsigned sum;
} product;

static void multiply(bspram_vp *vp, void *arg)
{
    const product *m = arg;
    const uint64_t v = bspram_vp_id(vp), n = m->n;
    const uint64_t i = v / (n * n), j = v / n % n, k = v % n;
    uint64_t a = bspram_vp_get(vp, m->A, i * n + k), b = bspram_vp_get(vp, m->B, k * n + j);
    bspram_vp_reduce(vp, m->C, i * n + j, a * b, m->sum);
}

static uint64_t vps_of(uint64_t n) { return n * n * n; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, nn = n * n;
    uint64_t *a = pram_example_words(nn, "A"), *b = pram_example_words(nn, "B"), *c = pram_example_words(nn, "C");
    for (uint64_t i = 0; i < nn; i++) {
        a[i] = pram_example_random(prm->seed, i, 0, 1000);
        b[i] = pram_example_random(prm->seed, i, 1, 1000);
    }
    double t0 = pram_example_clock();
    /* ADAPTIVE: every cell of A, B and C meets n requests */
    bspram_pram *P = pram_example_create(prm, vps_of(n), 0, false, PRAM_EXAMPLE_ADAPTIVE, res);
    product m = {bspram_pram_alloc(P, "A", nn), bspram_pram_alloc(P, "B", nn), bspram_pram_alloc(P, "C", nn), n,
                 bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64)};
    bspram_pram_load(P, m.A, a, nn);
    bspram_pram_load(P, m.B, b, nn);
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, multiply, &m);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, m.C, c, nn);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < n; i++)
        for (uint64_t j = 0; j < n; j++) {
            uint64_t s = 0;
            for (uint64_t k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            wrong += c[i * n + j] != s;
        }
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * nn * n + nn; /* the triple loop: 2n^3 reads, n^2 writes */
    res->verified = wrong == 0 && res->stats.steps == 1;
    snprintf(res->detail, sizeof res->detail, "C = A·B, %" PRIu64 "x%" PRIu64 ": %" PRIu64 " entries wrong; %" PRIu64
             " step(s), 1", n, n, wrong, res->stats.steps);
    free(a);
    free(b);
    free(c);
}

const pram_example pram_example_matmul = {
    .name = "matmul",
    .title = "matrix multiplication with n^3 VPs in one step, CRCW-combining, textbook style",
    .n_means = "rows (n^3 VPs)",
    .models = PRAM_MODEL_BIT(BSPRAM_CRCW_COMBINING),
    .model = BSPRAM_CRCW_COMBINING,
    .min_n = 1,
    .max_n = 160,
    .small_n = 12,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_matmul); }
#endif
