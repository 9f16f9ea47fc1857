/* Exercise 3 (docs/course/03_tree_sum.md), a WRONG solution: O(log n)
 * steps on EREW, but not work-efficient.
 *
 * Every VP comes to know the sum: by doubling, T[i] ← T[i] + T[(i + d) mod
 * n] for d = 1, 2, 4, …, each round preceded by a copy U ← T so that every
 * cell is read by one VP (EREW). n VPs work in each of the 2 log n steps:
 * Θ(n log n) work, where the tree (and Brent's rule) need O(n).
 * fails: work
 *
 *   tree_sum_work N    (N a power of two, 1 ≤ N ≤ 2^22) exit 0 if the sum is right (it is) */
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

static bspram_pram_array T, U;

static void copy(bspram_vp *vp, void *arg)
{
    (void)arg;
    const uint64_t i = bspram_vp_id(vp);
    bspram_vp_write(vp, U, i, bspram_vp_get(vp, T, i));
}

static void add(bspram_vp *vp, void *arg)
{
    const uint64_t d = *(const uint64_t *)arg, i = bspram_vp_id(vp), n = bspram_vp_n(vp);
    bspram_vp_write(vp, T, i, bspram_vp_get(vp, T, i) + bspram_vp_get(vp, U, (i + d) % n));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1024;
    if (n < 1 || n > (UINT64_C(1) << 22) || (n & (n - 1))) {
        fprintf(stderr, "usage: tree_sum_work N, N a power of two, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        want += x[i] = input(3, i, 0, 1000);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    T = bspram_pram_alloc(P, "T", n);
    U = bspram_pram_alloc(P, "U", n);
    bspram_pram_load(P, T, x, n);
    for (uint64_t d = 1; d < n; d *= 2) {
        bspram_pram_for_all(P, copy, NULL);
        bspram_pram_for_all(P, add, &d);
    }
    bspram_pram_store(P, T, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "tree_sum_work: the sum is %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    return 0;
}
