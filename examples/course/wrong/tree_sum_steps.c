/* Exercise 3 (docs/course/03_tree_sum.md), a WRONG solution: too many
 * steps.
 *
 * Blocks of √n: each of √n VPs adds up its block of √n numbers one a step,
 * then VP 0 adds up the √n partial sums one a step. O(n) work on EREW, but
 * 2√n steps where the exercise asks O(log n): the blocks must be log n
 * long, and their sums added by a tree.
 * fails: steps
 *
 *   tree_sum_steps N   (1 ≤ N ≤ 2^22) exit 0 if the sum is right (it is) */
#include <pram/pram.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The input: a number in [0, bound) from (seed, i, stream), the same every
 * run (a splitmix64 finaliser of the three). */
static uint64_t input(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound)
{
    uint64_t x = seed * UINT64_C(0x9e3779b97f4a7c15) + stream * UINT64_C(0xd1b54a32d192ed03) + i;
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (x ^ (x >> 31)) % bound;
}

static bspram_pram_array A, S;

typedef struct plan {
    uint64_t n, len, k;
} plan;

static void block(bspram_vp *vp, void *arg)
{
    const plan *pl = arg;
    const uint64_t j = bspram_vp_id(vp), at = j * pl->len + pl->k;
    uint64_t *acc = bspram_vp_registers(vp);
    if (at < pl->n)
        acc[0] += bspram_vp_get(vp, A, at);
    if (pl->k + 1 == pl->len)
        bspram_vp_write(vp, S, j, acc[0]);
}

/* VP 0 adds S[k] into S[0]. */
static void gather(bspram_vp *vp, void *arg)
{
    const uint64_t k = *(const uint64_t *)arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_write(vp, S, 0, bspram_vp_get(vp, S, 0) + bspram_vp_get(vp, S, k));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: tree_sum_steps N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        want += x[i] = input(3, i, 0, 1000);
    uint64_t p = 1;
    while (p * p < n)
        p++;
    plan pl = {n, (n + p - 1) / p, 0};
    bspram_pram_config c = bspram_pram_config_default(p, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    S = bspram_pram_alloc(P, "S", p);
    bspram_pram_load(P, A, x, n);
    for (pl.k = 0; pl.k < pl.len; pl.k++)
        bspram_pram_for_all(P, block, &pl);
    for (uint64_t k = 1; k < p; k++)
        bspram_pram_for_all(P, gather, &k);
    bspram_pram_store(P, S, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "tree_sum_steps: the sum is %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    return 0;
}
