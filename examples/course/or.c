/* Exercise 5 (docs/course/05_or.md): the OR of n bits in O(1) steps on a
 * CRCW-common PRAM. The reference solution.
 *
 * One step (JáJá 1992, §1.3): every VP whose bit is 1 writes 1 to R, which
 * was 0. Where several bits are 1, several VPs write R at once — the same
 * value, 1: CRCW-common. One step, work O(n).
 *
 * Two inputs, each on its own PRAM: bits with about n/8 ones (at least
 * two), and all zeros — an OR must say 0 too.
 *
 *   or N      (2 ≤ N ≤ 2^22; 1000 without N) exit 0 if both ORs are right */
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

static bspram_pram_array B, R;

static void or_step(bspram_vp *vp, void *arg)
{
    (void)arg;
    if (bspram_vp_get(vp, B, bspram_vp_id(vp)) == 1)
        bspram_vp_write(vp, R, 0, 1);
}

/* The OR of bits[0..n) on a PRAM of its own. */
static uint64_t or_of(const uint64_t *bits, uint64_t n)
{
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_COMMON);
    bspram_pram *P = bspram_pram_create(&c);
    B = bspram_pram_alloc(P, "B", n);
    R = bspram_pram_alloc(P, "R", 1);
    bspram_pram_load(P, B, bits, n);
    bspram_pram_for_all(P, or_step, NULL);
    uint64_t r;
    bspram_pram_store(P, R, &r, 1);
    bspram_pram_destroy(P);
    return r;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 2 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: or N, 2 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *bits = calloc(n, sizeof *bits);
    if (!bits)
        return 1;
    for (uint64_t i = 0; i < n; i++)
        bits[i] = input(5, i, 0, 8) == 0;
    bits[0] = bits[n - 1] = 1; /* two ones at least */
    const uint64_t some = or_of(bits, n);
    for (uint64_t i = 0; i < n; i++)
        bits[i] = 0;
    const uint64_t none = or_of(bits, n);
    free(bits);
    if (some != 1 || none != 0) {
        if (some != 1)
            fprintf(stderr, "or: the OR of bits with ones is %" PRIu64 ", not 1\n", some);
        else
            fprintf(stderr, "or: the OR of zeros is %" PRIu64 ", not 0\n", none);
        return 1;
    }
    printf("or: n = %" PRIu64 ": 1 and 0\n", n);
    return 0;
}
