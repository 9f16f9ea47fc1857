/* Exercise 7 (docs/course/07_merge.md), a WRONG solution: it needs a
 * combining PRAM, and it is not work-efficient.
 *
 * All pairs at once: VP (i, j), i in A and j in B, compares a_i with b_j and
 * adds 1 to the rank of the smaller — every rank counted by concurrent
 * combining writes (CRCW-combining, the sum) in one step; a second step
 * places each element. Two steps — but on a model far stronger than the
 * exercise's CREW, and with (n/2)² VPs: Θ(n²) work against O(n log n).
 * fails: model, work
 *
 *   merge_model N    (2 ≤ N ≤ 4096, even) exit 0 if C is right (it is) */
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

static bspram_pram_array X, RANK, C;

static void count(bspram_vp *vp, void *arg)
{
    const uint64_t m = *(const uint64_t *)arg, i = bspram_vp_id(vp) / m, j = bspram_vp_id(vp) % m;
    if (i >= m) /* (a VP past the pairs, where n > m²) */
        return;
    const uint64_t a = bspram_vp_get(vp, X, i), b = bspram_vp_get(vp, X, m + j);
    bspram_vp_write(vp, RANK, a < b ? m + j : i, 1); /* the larger is one place further */
}

static void place(bspram_vp *vp, void *arg)
{
    const uint64_t m = *(const uint64_t *)arg, v = bspram_vp_id(vp);
    if (v < 2 * m) {
        const uint64_t own = v < m ? v : v - m;
        bspram_vp_write(vp, C, own + bspram_vp_get(vp, RANK, v), bspram_vp_get(vp, X, v));
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
    if (n < 2 || n > 4096 || n % 2) {
        fprintf(stderr, "usage: merge_model N, 2 <= N <= 4096, N even\n");
        return 2;
    }
    const uint64_t m = n / 2;
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
    bspram_pram_config cf = bspram_pram_config_default(m * m > n ? m * m : n, BSPRAM_CRCW_COMBINING);
    cf.op = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    cf.registers = 0; /* none used: (n/2)² VPs' worth of memory saved */
    bspram_pram *P = bspram_pram_create(&cf);
    X = bspram_pram_alloc(P, "X", n);
    RANK = bspram_pram_alloc(P, "RANK", n);
    C = bspram_pram_alloc(P, "C", n);
    bspram_pram_load(P, X, x, n);
    bspram_pram_for_all(P, count, (void *)&m);
    bspram_pram_for_all(P, place, (void *)&m);
    bspram_pram_store(P, C, c, n);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value);
    for (uint64_t k = 0; k < n; k++)
        if (c[k] != x[k]) {
            fprintf(stderr, "merge_model: C[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k, c[k], x[k]);
            free(x);
            free(c);
            return 1;
        }
    free(x);
    free(c);
    return 0;
}
