/* Exercise 4 (docs/course/04_crcw_max.md), a WRONG solution: it needs a
 * CRCW-arbitrary PRAM.
 *
 * The reference's all-pairs maximum (examples/course/crcw_max.c), but a
 * loser records who beat it: VP (i, j) writes j + 1 to M[i] (0: not beaten).
 * The VPs that beat x_i write different values to M[i] at once — some
 * value stays, and the program works, but only on a PRAM that resolves
 * differing concurrent writes (CRCW-arbitrary), not on CRCW-common.
 * fails: model
 *
 *   crcw_max_model N   (2 ≤ N ≤ 2048) exit 0 if MAX is the maximum (it is) */
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

static bspram_pram_array X, M, MAX;

typedef struct round {
    uint64_t n;
    int step; /* 1, 2, 3 */
} round;

static void compare(bspram_vp *vp, void *arg)
{
    const round *r = arg;
    const uint64_t i = bspram_vp_id(vp) / r->n, j = bspram_vp_id(vp) % r->n;
    if (r->step == 1) {
        return; /* M starts 0: nobody beaten */
    } else if (r->step == 2 && i != j) {
        const uint64_t xi = bspram_vp_get(vp, X, i), xj = bspram_vp_get(vp, X, j);
        if (xi < xj || (xi == xj && j < i))
            bspram_vp_write(vp, M, i, j + 1); /* who beat x_i */
    } else if (r->step == 3 && j == 0) {
        const uint64_t alive = bspram_vp_get(vp, M, i), xi = bspram_vp_get(vp, X, i);
        if (alive == 0)
            bspram_vp_write(vp, MAX, 0, xi);
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 64;
    if (n < 2 || n > 2048) {
        fprintf(stderr, "usage: crcw_max_model N, 2 <= N <= 2048\n");
        return 2;
    }
    uint64_t *x = malloc(n * sizeof *x), want = 0, got = 0;
    if (!x)
        return 1;
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        x[i] = 1 + input(4, i, 0, n);
        if (x[i] > x[at])
            at = i;
    }
    x[at == 0 ? n - 1 : 0] = x[at]; /* the maximum twice */
    want = x[at];

    bspram_pram_config c = bspram_pram_config_default(n * n, BSPRAM_CRCW_ARBITRARY);
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", n);
    M = bspram_pram_alloc(P, "M", n);
    MAX = bspram_pram_alloc(P, "MAX", 1);
    bspram_pram_load(P, X, x, n);
    for (round r = {n, 2}; r.step <= 3; r.step++)
        bspram_pram_for_all(P, compare, &r);
    bspram_pram_store(P, MAX, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "crcw_max_model: MAX = %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    printf("crcw_max_model: n = %" PRIu64 ", the maximum %" PRIu64 "\n", n, got);
    return 0;
}
