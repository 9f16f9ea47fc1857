/* Exercise 1 (docs/course/01_prefix_sums.md), a WRONG solution: too many
 * steps.
 *
 * One VP does the sequential loop, a step per element: A[k] ← A[k] +
 * A[k − 1] for k = 1, …, n − 1. EREW and O(n) work, but n − 1 steps where
 * the exercise asks O(log n).
 * fails: steps
 *
 *   prefix_sums_steps N    exit 0 if the prefix sums are right (they are) */
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

static bspram_pram_array A;

static void next(bspram_vp *vp, void *arg)
{
    const uint64_t k = *(const uint64_t *)arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_write(vp, A, k, bspram_vp_get(vp, A, k) + bspram_vp_get(vp, A, k - 1));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: prefix_sums_steps N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *x = calloc(n, sizeof *x), *y = calloc(n, sizeof *y);
    if (!x || !y)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = input(1, i, 0, 1000);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    bspram_pram_load(P, A, x, n);
    for (uint64_t k = 1; k < n; k++)
        bspram_pram_for_all(P, next, &k);
    bspram_pram_store(P, A, y, n);
    bspram_pram_destroy(P);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++)
        if (y[i] != (sum += x[i])) {
            fprintf(stderr, "prefix_sums_steps: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], sum);
            free(x);
            free(y);
            return 1;
        }
    free(x);
    free(y);
    return 0;
}
