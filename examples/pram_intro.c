/* pram_intro — the PRAM layer in one page (docs/pram.md): the sum of n
 * numbers twice, on an EREW PRAM written VP by VP (a tree of ceil(log2 n)
 * steps) and on a CRCW-combining PRAM in bulk (one step: every VP writes
 * its number to one cell, and the concurrent writes combine into their
 * sum), each checked, with what it cost on the BSP machine.
 *
 *   pram_intro [n]        (1 ≤ n ≤ 2^24, default 1000)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/pram.h"

typedef struct tree {
    bspram_pram_array A;
    uint64_t stride;
} tree;

/* The step of stride s: VP i, a multiple of 2s with a partner i + s,
 * reads A[i] and A[i + s] ... */
static void tree_read(bspram_vp *vp, void *arg)
{
    const tree *t = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i % (2 * t->stride) == 0 && i + t->stride < bspram_vp_n(vp)) {
        bspram_vp_read(vp, t->A, i);             /* read 0 */
        bspram_vp_read(vp, t->A, i + t->stride); /* read 1 */
    }
}

/* ... and writes their sum to A[i]. No cell is touched twice: EREW. */
static void tree_write(bspram_vp *vp, void *arg)
{
    const tree *t = arg;
    uint64_t i = bspram_vp_id(vp);
    if (i % (2 * t->stride) == 0 && i + t->stride < bspram_vp_n(vp))
        bspram_vp_write(vp, t->A, i, bspram_vp_value(vp, 0) + bspram_vp_value(vp, 1));
}

static int show(const char *what, bspram_pram *P, uint64_t sum, uint64_t want)
{
    bspram_pram_stats s = bspram_pram_stats_of(P);
    printf("%-22s sum %" PRIu64 " (%s): steps %" PRIu64 ", work %" PRIu64 ", supersteps %" PRIu64
           ", charge %" PRIu64 ", slowdown %.2f\n",
           what, sum, sum == want ? "right" : "WRONG", s.steps, s.work, s.supersteps, s.charge,
           s.slowdown);
    return sum == want ? 0 : 1;
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 24)) {
        fprintf(stderr, "usage: pram_intro [n], 1 <= n <= 2^24\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), *cells = malloc(n * sizeof *cells);
    if (!x || !cells)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        x[i] = i + 1;
    const uint64_t want = n * (n + 1) / 2;
    int bad = 0;

    /* 1. EREW, VP by VP. Slack 64: each component hosts 64 VPs. */
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    c.p = (n + 63) / 64;
    bspram_pram *P = bspram_pram_create(&c);
    tree t = {bspram_pram_alloc(P, "A", n), 1};
    bspram_pram_load(P, t.A, x, n); /* input: not a step, no cost */
    for (; t.stride < n; t.stride *= 2)
        bspram_pram_step(P, tree_read, tree_write, &t);
    uint64_t sum;
    bspram_pram_store(P, t.A, &sum, 1); /* output: A[0] */
    bad |= show("EREW tree, per VP", P, sum, want);
    bspram_pram_destroy(P);

    /* 2. CRCW-combining (sum), in bulk: VP i writes x[i] to S[0]. */
    c = bspram_pram_config_default(n, BSPRAM_CRCW_COMBINING);
    c.p = (n + 63) / 64;
    c.op = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    P = bspram_pram_create(&c);
    bspram_pram_array S = bspram_pram_alloc(P, "S", 1);
    for (uint64_t i = 0; i < n; i++)
        cells[i] = bspram_pram_cell(P, S, 0);
    bspram_pram_scatter(P, 1, cells, x); /* a step without reads */
    bspram_pram_store(P, S, &sum, 1);
    bad |= show("CRCW-combining, bulk", P, sum, want);
    bspram_pram_destroy(P);

    free(x);
    free(cells);
    return bad;
}
