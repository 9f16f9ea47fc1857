/* Exercise 8 (docs/course/08_sort.md), a WRONG solution: too many steps,
 * and too much work.
 *
 * Odd-even transposition sort (JáJá 1992, §4.1): n rounds, in round r the
 * pairs (2t + r mod 2, 2t + 1 + r mod 2) are compared and exchanged.
 * Simple and EREW — but n steps where the exercise asks O(log² n), and n/2
 * comparators in each: Θ(n²) work.
 * fails: steps, work
 *
 *   sort_steps N    (1 ≤ N ≤ 2^20) exit 0 if the output is sorted (it is) */
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

static void transpose(bspram_vp *vp, void *arg)
{
    const uint64_t r = *(const uint64_t *)arg, i = 2 * bspram_vp_id(vp) + r % 2;
    if (i + 1 >= *((const uint64_t *)arg + 1))
        return;
    const uint64_t a = bspram_vp_get(vp, A, i), b = bspram_vp_get(vp, A, i + 1);
    if (a > b) {
        bspram_vp_write(vp, A, i, b);
        bspram_vp_write(vp, A, i + 1, a);
    }
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 20)) {
        fprintf(stderr, "usage: sort_steps N, 1 <= N <= 2^20\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = input(8, i, 0, n);
    bspram_pram_config c = bspram_pram_config_default((n + 1) / 2, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    bspram_pram_load(P, A, x, n);
    uint64_t round[2] = {0, n}; /* the round, and n */
    for (round[0] = 0; round[0] < n; round[0]++)
        bspram_pram_for_all(P, transpose, round);
    bspram_pram_store(P, A, y, n);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value);
    for (uint64_t i = 0; i < n; i++)
        if (y[i] != x[i]) {
            fprintf(stderr, "sort_steps: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], x[i]);
            free(x);
            free(y);
            return 1;
        }
    free(x);
    free(y);
    return 0;
}
