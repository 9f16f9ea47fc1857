/* Exercise 12 (docs/course/12_broadcast.md), a WRONG solution: a wrong
 * result.
 *
 * The reference's doubling (examples/course/broadcast.c) with its loop
 * bound one doubling short, 2s < n where s < n is meant: where n is a power
 * of two (every size of the default sweep) the last half of B is never
 * written; the program says so.
 * fails: exit
 *
 *   broadcast_result N    (1 ≤ N ≤ 2^22) exit 1 for N ≥ 2 a power of two */
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

static bspram_pram_array X, B;

typedef struct span {
    uint64_t n, s; /* s = 0: the first copy */
} span;

static void copy(bspram_vp *vp, void *arg)
{
    const span *sp = arg;
    const uint64_t i = bspram_vp_id(vp), s = sp->s;
    if (s == 0) {
        if (i == 0)
            bspram_vp_write(vp, B, 0, bspram_vp_get(vp, X, 0));
    } else if (i < s && i + s < sp->n) {
        bspram_vp_write(vp, B, i + s, bspram_vp_get(vp, B, i));
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: broadcast_result N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *b = malloc(n * sizeof *b);
    if (!b)
        return 1;
    const uint64_t x = 1 + input(12, 0, 0, 1000000);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", 1);
    B = bspram_pram_alloc(P, "B", n);
    bspram_pram_load(P, X, &x, 1);
    span sp = {n, 0};
    bspram_pram_for_all(P, copy, &sp);
    for (sp.s = 1; 2 * sp.s < n; sp.s *= 2) /* one doubling short */
        bspram_pram_for_all(P, copy, &sp);
    bspram_pram_store(P, B, b, n);
    bspram_pram_destroy(P);
    for (uint64_t i = 0; i < n; i++)
        if (b[i] != x) {
            fprintf(stderr, "broadcast_result: B[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, b[i], x);
            free(b);
            return 1;
        }
    printf("broadcast_result: n = %" PRIu64 ", x = %" PRIu64 " everywhere\n", n, x);
    free(b);
    return 0;
}
