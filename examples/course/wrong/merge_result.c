/* Exercise 7 (docs/course/07_merge.md), a WRONG solution: a wrong result.
 *
 * The reference's merge by ranking (examples/course/merge.c) with an index
 * slip: a VP places its element at (its index in X) + rank, not (its index
 * in its own sequence) + rank. For B's elements that is m too far: the
 * first write past C's end is refused by the library, which names the VP,
 * the index and the step, and the program exits 1.
 * fails: exit
 *
 *   merge_result N    (2 ≤ N ≤ 2^22, even) exit 1 */
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

static bspram_pram_array X, C;

enum { VALUE, LO, HI };

typedef struct phase {
    uint64_t m;
    int what; /* 0 read, 1 search, 2 write */
} phase;

static void merge_step(bspram_vp *vp, void *arg)
{
    const phase *ph = arg;
    const uint64_t i = bspram_vp_id(vp), m = ph->m;
    const int in_a = i < m;
    const uint64_t other = in_a ? m : 0, own = in_a ? i : i - m; /* the other's first cell; i's index in its own */
    uint64_t *reg = bspram_vp_registers(vp);
    if (ph->what == 0) {
        reg[VALUE] = bspram_vp_get(vp, X, i);
        reg[LO] = 0;
        reg[HI] = m;
    } else if (ph->what == 1) {
        if (reg[LO] < reg[HI]) {
            const uint64_t mid = (reg[LO] + reg[HI]) / 2;
            if (bspram_vp_get(vp, X, other + mid) < reg[VALUE])
                reg[LO] = mid + 1;
            else
                reg[HI] = mid;
        }
    } else {
        bspram_vp_write(vp, C, i + reg[LO], reg[VALUE]); /* i, not own */
        (void)own;
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
    if (n < 2 || n > (UINT64_C(1) << 22) || n % 2) {
        fprintf(stderr, "usage: merge_result N, 2 <= N <= 2^22, N even\n");
        return 2;
    }
    const uint64_t m = n / 2;
    /* distinct values: 0..n−1 shuffled, the first half sorted into A, the second into B */
    uint64_t *x = malloc(n * sizeof *x), *c = malloc(n * sizeof *c);
    if (!x || !c)
        return 1;
    for (uint64_t k = 0; k < n; k++)
        x[k] = 3 * k + 1;
    for (uint64_t k = n; k > 1; k--) {
        uint64_t j = input(7, k, 0, k), t = x[k - 1];
        x[k - 1] = x[j];
        x[j] = t;
    }
    qsort(x, m, sizeof *x, by_value);
    qsort(x + m, m, sizeof *x, by_value);

    bspram_pram_config cf = bspram_pram_config_default(n, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&cf);
    X = bspram_pram_alloc(P, "X", n);
    C = bspram_pram_alloc(P, "C", n);
    bspram_pram_load(P, X, x, n);
    phase ph = {m, 0};
    bspram_pram_for_all(P, merge_step, &ph);
    ph.what = 1;
    for (uint64_t span = 1; span <= m; span *= 2) /* ⌈log2(m + 1)⌉ halvings */
        bspram_pram_for_all(P, merge_step, &ph);
    ph.what = 2;
    bspram_pram_for_all(P, merge_step, &ph);
    bspram_pram_store(P, C, c, n);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value); /* what C must be */
    for (uint64_t k = 0; k < n; k++)
        if (c[k] != x[k]) {
            fprintf(stderr, "merge_result: C[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k, c[k], x[k]);
            free(x);
            free(c);
            return 1;
        }
    printf("merge_result: n = %" PRIu64 ", merged\n", n);
    free(x);
    free(c);
    return 0;
}
