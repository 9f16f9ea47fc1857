/* Exercise 1 (docs/course/01_prefix_sums.md), a WRONG solution: EREW and
 * O(log n) steps, but not work-efficient.
 *
 * Hillis and Steele's doubling, kept exclusive by a copy: for d = 1, 2, 4,
 * …: first every VP copies A[i] to B[i], then VP i ≥ d adds B[i − d] to
 * A[i]. Each cell is read by one VP: EREW, 2 log n steps — but every step
 * has n VPs at work: Θ(n log n) work where the exercise asks O(n).
 * fails: work
 *
 *   prefix_sums_work N     exit 0 if the prefix sums are right (they are) */
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

static bspram_pram_array A, B;

static void copy(bspram_vp *vp, void *arg)
{
    (void)arg;
    const uint64_t i = bspram_vp_id(vp);
    bspram_vp_write(vp, B, i, bspram_vp_get(vp, A, i));
}

static void add(bspram_vp *vp, void *arg)
{
    const uint64_t d = *(const uint64_t *)arg, i = bspram_vp_id(vp);
    if (i >= d)
        bspram_vp_write(vp, A, i, bspram_vp_get(vp, A, i) + bspram_vp_get(vp, B, i - d));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: prefix_sums_work N, 1 <= N <= 2^22\n");
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
    B = bspram_pram_alloc(P, "B", n);
    bspram_pram_load(P, A, x, n);
    for (uint64_t d = 1; d < n; d *= 2) {
        bspram_pram_for_all(P, copy, NULL);
        bspram_pram_for_all(P, add, &d);
    }
    bspram_pram_store(P, A, y, n);
    bspram_pram_destroy(P);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++)
        if (y[i] != (sum += x[i])) {
            fprintf(stderr, "prefix_sums_work: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], sum);
            free(x);
            free(y);
            return 1;
        }
    free(x);
    free(y);
    return 0;
}
