/* Exercise 12 (docs/course/12_broadcast.md), a WRONG solution: it needs a
 * CREW PRAM.
 *
 * One step: every VP reads x and writes it to its cell. Right, one step and
 * O(n) work — but n VPs read one cell at once, which the exercise's EREW
 * forbids: that is what the doubling is for.
 * fails: model
 *
 *   broadcast_model N     (1 ≤ N ≤ 2^22) exit 0 if every B[i] = x (it is) */
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
    (void)s;
    bspram_vp_write(vp, B, i, bspram_vp_get(vp, X, 0)); /* every VP reads X[0] */
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: broadcast_model N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *b = malloc(n * sizeof *b);
    if (!b)
        return 1;
    const uint64_t x = 1 + input(12, 0, 0, 1000000);
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", 1);
    B = bspram_pram_alloc(P, "B", n);
    bspram_pram_load(P, X, &x, 1);
    span sp = {n, 0};
    bspram_pram_for_all(P, copy, &sp);
    bspram_pram_store(P, B, b, n);
    bspram_pram_destroy(P);
    for (uint64_t i = 0; i < n; i++)
        if (b[i] != x) {
            fprintf(stderr, "broadcast_model: B[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", i, b[i], x);
            free(b);
            return 1;
        }
    printf("broadcast_model: n = %" PRIu64 ", x = %" PRIu64 " everywhere\n", n, x);
    free(b);
    return 0;
}
