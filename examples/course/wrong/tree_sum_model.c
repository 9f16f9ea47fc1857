/* Exercise 3 (docs/course/03_tree_sum.md), a WRONG solution: it needs a
 * combining PRAM.
 *
 * One step: every VP writes its number to one cell of a CRCW-combining
 * PRAM whose write rule is the sum, and the concurrent writes combine into
 * the total. One step and O(n) work — on a model far stronger than the
 * exercise's EREW.
 * fails: model
 *
 *   tree_sum_model N   (1 ≤ N ≤ 2^22) exit 0 if the sum is right (it is) */
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

static bspram_pram_array A, SUM;

static void add(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(vp, SUM, 0, bspram_vp_get(vp, A, bspram_vp_id(vp)));
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: tree_sum_model N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        want += x[i] = input(3, i, 0, 1000);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_COMBINING);
    c.op = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bspram_pram *P = bspram_pram_create(&c);
    A = bspram_pram_alloc(P, "A", n);
    SUM = bspram_pram_alloc(P, "SUM", 1);
    bspram_pram_load(P, A, x, n);
    bspram_pram_for_all(P, add, NULL);
    bspram_pram_store(P, SUM, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "tree_sum_model: the sum is %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    return 0;
}
