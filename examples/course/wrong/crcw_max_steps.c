/* Exercise 4 (docs/course/04_crcw_max.md), a WRONG solution: too many
 * steps.
 *
 * The maximum by a balanced tree: in the step of stride s, VP i (a
 * multiple of 2s) keeps the larger of X[i] and X[i + s]. Exclusive reads
 * and writes and O(n) work — but ⌈log2 n⌉ steps, where the exercise asks a
 * number of steps independent of n: the tree cannot, the n² VPs of the
 * concurrent-write PRAM can.
 * fails: steps
 *
 *   crcw_max_steps N   (2 ≤ N ≤ 2048) exit 0 if X[0] is the maximum (it is) */
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

static bspram_pram_array X;

static void larger(bspram_vp *vp, void *arg)
{
    const uint64_t s = *(const uint64_t *)arg, i = bspram_vp_id(vp);
    if (i % (2 * s) == 0 && i + s < bspram_vp_n(vp)) {
        const uint64_t a = bspram_vp_get(vp, X, i), b = bspram_vp_get(vp, X, i + s);
        bspram_vp_write(vp, X, i, a > b ? a : b);
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 64;
    if (n < 2 || n > 2048) {
        fprintf(stderr, "usage: crcw_max_steps N, 2 <= N <= 2048\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        if ((x[i] = 1 + input(4, i, 0, n)) > want)
            want = x[i];
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", n);
    bspram_pram_load(P, X, x, n);
    for (uint64_t s = 1; s < n; s *= 2)
        bspram_pram_for_all(P, larger, &s);
    bspram_pram_store(P, X, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "crcw_max_steps: X[0] = %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    return 0;
}
