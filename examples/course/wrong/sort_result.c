/* Exercise 8 (docs/course/08_sort.md), a WRONG solution: a wrong result.
 *
 * The reference's bitonic network (examples/course/sort.c) with every
 * comparator ascending: without the descending half-blocks, the sequences
 * the merges get are not bitonic, and the network does not sort; the
 * program says so.
 * fails: exit
 *
 *   sort_result N    (1 ≤ N ≤ 2^20) exit 1 for N > 2 (almost surely) */
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

typedef struct stage {
    uint64_t k, j;
} stage;

static void compare_exchange(bspram_vp *vp, void *arg)
{
    const stage *s = arg;
    const uint64_t t = bspram_vp_id(vp), j = s->j;
    const uint64_t i = 2 * j * (t / j) + t % j, l = i + j; /* the t-th pair with bit j of i clear */
    const uint64_t a = bspram_vp_get(vp, A, i), b = bspram_vp_get(vp, A, l);
    const int ascending = 1; /* the direction forgotten */
    (void)s->k;
    if (ascending ? a > b : a < b) {
        bspram_vp_write(vp, A, i, b);
        bspram_vp_write(vp, A, l, a);
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
        fprintf(stderr, "usage: sort_result N, 1 <= N <= 2^20\n");
        return 2;
    }
    uint64_t m = 2;
    while (m < n)
        m *= 2;
    uint64_t *x = malloc(m * sizeof *x), *y = malloc(m * sizeof *y);
    if (!x || !y)
        return 1;
    for (uint64_t i = 0; i < m; i++)
        x[i] = i < n ? input(8, i, 0, n) : UINT64_MAX; /* repeated keys, and the padding */

    bspram_pram_config c = bspram_pram_config_default(m / 2, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", m);
    bspram_pram_load(P, A, x, m);
    stage s;
    for (s.k = 2; s.k <= m; s.k *= 2)
        for (s.j = s.k / 2; s.j >= 1; s.j /= 2)
            bspram_pram_for_all(P, compare_exchange, &s);
    bspram_pram_store(P, A, y, m);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value);
    for (uint64_t i = 0; i < n; i++)
        if (y[i] != x[i]) {
            fprintf(stderr, "sort_result: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], x[i]);
            free(x);
            free(y);
            return 1;
        }
    printf("sort_result: n = %" PRIu64 ", sorted\n", n);
    free(x);
    free(y);
    return 0;
}
