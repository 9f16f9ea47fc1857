/* Exercise 8 (docs/course/08_sort.md), a WRONG solution: it needs a
 * combining PRAM, and it is not work-efficient.
 *
 * Rank sort with n² VPs: VP (i, j) adds 1 to the rank of x_i if x_j comes
 * before it (smaller, or equal with j < i) — the ranks counted by combining
 * writes (CRCW-combining, the sum) in one step; a second step puts each x_i
 * at its rank. Two steps — on a model far stronger than the exercise's
 * EREW, and with Θ(n²) work against O(n log² n).
 * fails: model, work
 *
 *   sort_model N    (1 ≤ N ≤ 2048) exit 0 if the output is sorted (it is) */
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

static bspram_pram_array X, RANK, OUT;

static void count(bspram_vp *vp, void *arg)
{
    const uint64_t n = *(const uint64_t *)arg, i = bspram_vp_id(vp) / n, j = bspram_vp_id(vp) % n;
    if (i == j)
        return;
    const uint64_t a = bspram_vp_get(vp, X, i), b = bspram_vp_get(vp, X, j);
    if (b < a || (b == a && j < i))
        bspram_vp_write(vp, RANK, i, 1);
}

static void place(bspram_vp *vp, void *arg)
{
    const uint64_t n = *(const uint64_t *)arg, i = bspram_vp_id(vp);
    if (i < n)
        bspram_vp_write(vp, OUT, bspram_vp_get(vp, RANK, i), bspram_vp_get(vp, X, i));
}

static int by_value(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > 2048) {
        fprintf(stderr, "usage: sort_model N, 1 <= N <= 2048\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    if (!x || !y)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = input(8, i, 0, n);
    bspram_pram_config c = bspram_pram_config_default(n * n, BSPRAM_CRCW_COMBINING);
    c.op = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    c.registers = 0; /* none used: n² VPs' worth of memory saved */
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", n);
    RANK = bspram_pram_alloc(P, "RANK", n);
    OUT = bspram_pram_alloc(P, "OUT", n);
    bspram_pram_load(P, X, x, n);
    bspram_pram_for_all(P, count, (void *)&n);
    bspram_pram_for_all(P, place, (void *)&n);
    bspram_pram_store(P, OUT, y, n);
    bspram_pram_destroy(P);
    qsort(x, n, sizeof *x, by_value);
    for (uint64_t i = 0; i < n; i++)
        if (y[i] != x[i]) {
            fprintf(stderr, "sort_model: OUT[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, y[i], x[i]);
            free(x);
            free(y);
            return 1;
        }
    free(x);
    free(y);
    return 0;
}
