/* Exercise 4 (docs/course/04_crcw_max.md): the maximum of n numbers in
 * O(1) steps on a CRCW-common PRAM with n² processors. The reference
 * solution.
 *
 * All pairs at once (Shiloach and Vishkin 1981; JáJá 1992, §2.6): VP (i, j)
 * = i·n + j compares x_i with x_j and, if x_i loses, writes 0 to M[i] —
 * many VPs write M[i] at once, all the value 0: CRCW-common. A tie is
 * broken by the index (x_i loses to an equal x_j with j < i), so exactly
 * one i keeps M[i] = 1, and VP (i, 0) of that i writes x_i to MAX.
 *   step 1   for all i in parallel:            M[i] ← 1
 *   step 2   for all i ≠ j in parallel:        if x_i < x_j or (x_i = x_j and j < i) then M[i] ← 0
 *   step 3   for all i in parallel:            if M[i] = 1 then MAX ← x_i
 * Three steps whatever n; work Θ(n²).
 *
 * The input has its maximum twice (and other values repeated), so that the
 * ties matter.
 *
 *   crcw_max N      (2 ≤ N ≤ 2048; 64 without N) exit 0 if MAX is the maximum */
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
    if (r->step == 1 && j == 0) {
        bspram_vp_write(vp, M, i, 1);
    } else if (r->step == 2 && i != j) {
        const uint64_t xi = bspram_vp_get(vp, X, i), xj = bspram_vp_get(vp, X, j);
        if (xi < xj || (xi == xj && j < i))
            bspram_vp_write(vp, M, i, 0);
    } else if (r->step == 3 && j == 0) {
        const uint64_t alive = bspram_vp_get(vp, M, i), xi = bspram_vp_get(vp, X, i);
        if (alive)
            bspram_vp_write(vp, MAX, 0, xi);
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 64;
    if (n < 2 || n > 2048) {
        fprintf(stderr, "usage: crcw_max N, 2 <= N <= 2048\n");
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

    bspram_pram_config c = bspram_pram_config_default(n * n, BSPRAM_CRCW_COMMON);
    bspram_pram *P = bspram_pram_create(&c);
    X = bspram_pram_alloc(P, "X", n);
    M = bspram_pram_alloc(P, "M", n);
    MAX = bspram_pram_alloc(P, "MAX", 1);
    bspram_pram_load(P, X, x, n);
    for (round r = {n, 1}; r.step <= 3; r.step++)
        bspram_pram_for_all(P, compare, &r);
    bspram_pram_store(P, MAX, &got, 1);
    bspram_pram_destroy(P);
    free(x);
    if (got != want) {
        fprintf(stderr, "crcw_max: MAX = %" PRIu64 ", not %" PRIu64 "\n", got, want);
        return 1;
    }
    printf("crcw_max: n = %" PRIu64 ", the maximum %" PRIu64 "\n", n, got);
    return 0;
}
