/* Exercise 3 (docs/course/03_tree_sum.md): the sum of n numbers on an EREW
 * PRAM with p = ⌈n / log2 n⌉ processors, in O(log n) steps and O(n) work:
 * Brent's rule. The reference solution.
 *
 * The balanced tree sums n numbers in log n steps with n/2 processors, most
 * of them idle most of the time. Brent's rule (Brent 1974; JáJá 1992,
 * §2.3.2) runs the same O(n) operations on fewer processors: each of the p
 * VPs first adds up a block of L = ⌈n/p⌉ ≈ log n numbers on its own, one
 * number a step (L steps), then the p partial sums are added by the tree
 * (⌈log2 p⌉ steps). Every cell is read by one VP in a step: EREW. Steps
 * L + ⌈log2 p⌉ ≈ 2 log2 n, work n + O(p).
 *
 *   tree_sum N      (1 ≤ N ≤ 2^22; 1000 without N) exit 0 if the sum is
 *                   right, else 1 */
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
    uint64_t n, len; /* the numbers, and each VP's block */
    uint64_t k;      /* block phase: the k-th number of the block */
    uint64_t stride; /* tree phase */
} plan;

/* Block phase, step k: VP j adds the k-th number of its block to its
 * register, and after the last writes its partial sum S[j]. */
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

/* Tree phase: VP j, a multiple of 2·stride, adds S[j + stride] to S[j]. */
static void tree(bspram_vp *vp, void *arg)
{
    const plan *pl = arg;
    const uint64_t j = bspram_vp_id(vp), s = pl->stride;
    if (j % (2 * s) == 0 && j + s < bspram_vp_n(vp))
        bspram_vp_write(vp, S, j, bspram_vp_get(vp, S, j) + bspram_vp_get(vp, S, j + s));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: tree_sum N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        want += x[i] = input(3, i, 0, 1000);
    unsigned lg = 0;
    while ((UINT64_C(1) << lg) < n)
        lg++;
    const uint64_t p = lg > 1 ? (n + lg - 1) / lg : n; /* ⌈n / log2 n⌉ processors */
    plan pl = {n, (n + p - 1) / p, 0, 1};

    bspram_pram_config c = bspram_pram_config_default(p, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    S = bspram_pram_alloc(P, "S", p);
    bspram_pram_load(P, A, x, n);
    for (pl.k = 0; pl.k < pl.len; pl.k++)
        bspram_pram_for_all(P, block, &pl);
    for (pl.stride = 1; pl.stride < p; pl.stride *= 2)
        bspram_pram_for_all(P, tree, &pl);
    bspram_pram_store(P, S, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "tree_sum: the sum is %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    printf("tree_sum: n = %" PRIu64 " on %" PRIu64 " VPs, sum %" PRIu64 "\n", n, p, got);
    return 0;
}
