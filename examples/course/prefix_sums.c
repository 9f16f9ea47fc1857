/* Exercise 1 (docs/course/01_prefix_sums.md): the prefix sums of n numbers
 * on an EREW PRAM in O(log n) steps and O(n) work. The reference solution.
 *
 * The balanced tree (Blelloch 1990; JáJá 1992, §2.2), inclusive, on
 * m = n rounded up to a power of two (the padding is 0):
 *   up    for d = 1, 2, …, m/2:   for all t < m/(2d) in parallel:
 *             A[2d(t+1) − 1] += A[2d(t+1) − 1 − d]
 *   down  for d = m/4, …, 2, 1:   for all t ≥ 1 with 2dt + d − 1 < m in parallel:
 *             A[2dt + d − 1] += A[2dt − 1]
 * After the up-sweep A[2d(t+1) − 1] holds the sum of its block of 2d; the
 * down-sweep adds to the middle of each block the prefix before the block.
 * Every cell is read and written by one VP in a step: EREW. Steps
 * 2 log2 m − 1, work O(m) (m/2 + m/4 + … VPs active).
 *
 *   prefix_sums N      (1 ≤ N ≤ 2^22; 1000 without N) exit 0 if every
 *                      A[i] = x[0] + … + x[i], else 1 */
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

typedef struct sweep {
    uint64_t d, m;
    int up;
} sweep;

static void step(bspram_vp *vp, void *arg)
{
    const sweep *s = arg;
    const uint64_t t = bspram_vp_id(vp), d = s->d;
    if (s->up) {
        const uint64_t k = 2 * d * (t + 1) - 1;
        if (k < s->m)
            bspram_vp_write(vp, A, k, bspram_vp_get(vp, A, k) + bspram_vp_get(vp, A, k - d));
    } else if (t >= 1 && 2 * d * t + d - 1 < s->m) {
        const uint64_t k = 2 * d * t + d - 1;
        bspram_vp_write(vp, A, k, bspram_vp_get(vp, A, k) + bspram_vp_get(vp, A, 2 * d * t - 1));
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: prefix_sums N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t m = 1;
    while (m < n)
        m *= 2;
    uint64_t *x = calloc(m, sizeof *x), *y = calloc(m, sizeof *y);
    if (!x || !y)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = input(1, i, 0, 1000);

    bspram_pram_config c = bspram_pram_config_default(m / 2 ? m / 2 : 1, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", m);
    bspram_pram_load(P, A, x, m);
    sweep s = {1, m, 1};
    for (s.d = 1; s.d < m; s.d *= 2)
        bspram_pram_for_all(P, step, &s);
    s.up = 0;
    for (s.d = m / 4; s.d >= 1; s.d /= 2)
        bspram_pram_for_all(P, step, &s);
    bspram_pram_store(P, A, y, m);
    bspram_pram_destroy(P);

    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        sum += x[i];
        if (y[i] != sum) {
            fprintf(stderr, "prefix_sums: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], sum);
            free(x);
            free(y);
            return 1;
        }
    }
    printf("prefix_sums: n = %" PRIu64 ", A[n-1] = %" PRIu64 "\n", n, y[n - 1]);
    free(x);
    free(y);
    return 0;
}
