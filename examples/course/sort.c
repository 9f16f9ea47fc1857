/* Exercise 8 (docs/course/08_sort.md): sort n numbers on an EREW PRAM in
 * O(log² n) steps and O(n log² n) work. The reference solution.
 *
 * Batcher's bitonic sorting network (Batcher 1968; JáJá 1992, §4.4) on
 * m = n rounded up to a power of two (the padding is the largest value):
 * for block sizes k = 2, 4, …, m and distances j = k/2, …, 2, 1, every pair
 * (i, i + j) with i's bit j clear is compared and exchanged — ascending
 * where i's bit k is clear, descending where it is set. m/2 VPs, one per
 * comparator; each cell is read and written by one VP a step: EREW. Steps
 * log2 m (log2 m + 1) / 2, work Θ(m log² m).
 *
 *   sort N      (1 ≤ N ≤ 2^20; 1000 without N) exit 0 if the output is the
 *               input sorted */
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
    const int ascending = (i & s->k) == 0;
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
        fprintf(stderr, "usage: sort N, 1 <= N <= 2^20\n");
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
            fprintf(stderr, "sort: A[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], x[i]);
            free(x);
            free(y);
            return 1;
        }
    printf("sort: n = %" PRIu64 ", sorted\n", n);
    free(x);
    free(y);
    return 0;
}
