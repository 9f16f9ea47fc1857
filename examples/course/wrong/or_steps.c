/* Exercise 5 (docs/course/05_or.md), a WRONG solution: too many steps.
 *
 * The OR by a balanced tree on an EREW PRAM: in the step of stride s, VP i
 * (a multiple of 2s) writes B[i] OR B[i + s] to B[i]. Exclusive, O(n) work,
 * but ⌈log2 n⌉ steps where the exercise asks O(1).
 * fails: steps
 *
 *   or_steps N    (2 ≤ N ≤ 2^22) exit 0 if both ORs are right (they are) */
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

static bspram_pram_array B;

static void or_pair(bspram_vp *vp, void *arg)
{
    const uint64_t s = *(const uint64_t *)arg, i = bspram_vp_id(vp);
    if (i % (2 * s) == 0 && i + s < bspram_vp_n(vp))
        bspram_vp_write(vp, B, i, bspram_vp_get(vp, B, i) | bspram_vp_get(vp, B, i + s));
}

static uint64_t or_of(const uint64_t *bits, uint64_t n)
{
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    B = bspram_pram_alloc(P, "B", n);
    bspram_pram_load(P, B, bits, n);
    for (uint64_t s = 1; s < n; s *= 2)
        bspram_pram_for_all(P, or_pair, &s);
    uint64_t r;
    bspram_pram_store(P, B, &r, 1);
    bspram_pram_destroy(P);
    return r;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 2 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: or_steps N, 2 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *bits = calloc(n, sizeof *bits);
    if (!bits)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        bits[i] = input(5, i, 0, 8) == 0;
    bits[0] = bits[n - 1] = 1;
    const uint64_t some = or_of(bits, n);
    for (uint64_t i = 0; i < n; i++)
        bits[i] = 0;
    const uint64_t none = or_of(bits, n);
    free(bits);
    if (some != 1 || none != 0) {
        if (some != 1)
            fprintf(stderr, "or_steps: the OR of bits with ones is %" PRIu64 ", not 1\n", some);
        else
            fprintf(stderr, "or_steps: the OR of zeros is %" PRIu64 ", not 0\n", none);
        return 1;
    }
    return 0;
}
