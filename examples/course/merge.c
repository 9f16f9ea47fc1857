/* Exercise 7 (docs/course/07_merge.md): merge two sorted sequences of n/2
 * numbers each on a CREW PRAM in O(log n) steps. The reference solution.
 *
 * Merging by ranking (JáJá 1992, §4.2): an element's place in the output is
 * its index in its own sequence plus its rank in the other — the number of
 * the other's elements below it — which a binary search finds in
 * ⌈log2(n/2 + 1)⌉ steps. One VP per element; X holds both sequences (A in
 * X[0..m), B in X[m..2m)), all values distinct. Many VPs probe the same
 * middle elements at once: CREW. Steps 2 + ⌈log2(m + 1)⌉, work Θ(n log n).
 *
 *   step 1        VP i reads its element into its registers; lo = 0, hi = m
 *   search steps  VP i with lo < hi reads the other sequence at mid = (lo + hi)/2:
 *                 below its element: lo = mid + 1, else hi = mid
 *   last step     VP i writes its element to C[(its index) + lo]
 *
 *   merge N      (2 ≤ N ≤ 2^22, even; 1000 without N) exit 0 if C is sorted
 *                and holds both sequences */
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
        bspram_vp_write(vp, C, own + reg[LO], reg[VALUE]);
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
        fprintf(stderr, "usage: merge N, 2 <= N <= 2^22, N even\n");
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
            fprintf(stderr, "merge: C[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k, c[k], x[k]);
            free(x);
            free(c);
            return 1;
        }
    printf("merge: n = %" PRIu64 ", merged\n", n);
    free(x);
    free(c);
    return 0;
}
