/* Exercise 11 (docs/course/11_compaction.md), a WRONG solution: it needs
 * a CREW PRAM.
 *
 * The reference's prefix sums (examples/course/compaction.c), but to place
 * element i the program tells a marked element by its count going up,
 * F[i] ≠ F[i − 1], instead of reading its mark: VP t reads F[2t − 1] for
 * element 2t while VP t − 1 reads it for element 2t − 1. Two VPs read one
 * cell in that step: right, but on CREW, not the exercise's EREW.
 * fails: model
 *
 *   compaction_model N    (1 ≤ N ≤ 2^22) exit 0 if OUT is right (it is) */
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

static bspram_pram_array V, M, F, OUT;

typedef struct sweep {
    uint64_t d, m;
    int what; /* 0 up, 1 down, 2 place */
} sweep;

static void step(bspram_vp *vp, void *arg)
{
    const sweep *s = arg;
    const uint64_t t = bspram_vp_id(vp), d = s->d;
    if (s->what == 0) {
        const uint64_t k = 2 * d * (t + 1) - 1;
        if (k < s->m)
            bspram_vp_write(vp, F, k, bspram_vp_get(vp, F, k) + bspram_vp_get(vp, F, k - d));
    } else if (s->what == 1) {
        if (t >= 1 && 2 * d * t + d - 1 < s->m) {
            const uint64_t k = 2 * d * t + d - 1;
            bspram_vp_write(vp, F, k, bspram_vp_get(vp, F, k) + bspram_vp_get(vp, F, 2 * d * t - 1));
        }
    } else {
        /* VP t places elements 2t and 2t + 1 (m/2 VPs for m cells) */
        for (uint64_t i = 2 * t; i < 2 * t + 2; i++) {
            const uint64_t v = bspram_vp_get(vp, V, i), f = bspram_vp_get(vp, F, i),
                           before = i ? bspram_vp_get(vp, F, i - 1) : 0;
            if (f != before) /* marked: its count went up */
                bspram_vp_write(vp, OUT, f - 1, v);
        }
    }
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: compaction_model N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t m = 2;
    while (m < n)
        m *= 2;
    uint64_t *v = calloc(m, sizeof *v), *mark = calloc(m, sizeof *mark), *out = calloc(m, sizeof *out);
    if (!v || !mark || !out)
        return 1;
    for (uint64_t i = 0; i < n; i++) {
        v[i] = 1 + input(11, i, 0, 1000000);
        mark[i] = input(11, i, 1, 3) == 0; /* about a third marked */
    }

    bspram_pram_config c = bspram_pram_config_default(m / 2, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&c);
    V = bspram_pram_alloc(P, "V", m);
    M = bspram_pram_alloc(P, "M", m);
    F = bspram_pram_alloc(P, "F", m);
    OUT = bspram_pram_alloc(P, "OUT", m);
    bspram_pram_load(P, V, v, m);
    bspram_pram_load(P, M, mark, m);
    bspram_pram_load(P, F, mark, m); /* the marks, summed in place */
    sweep s = {1, m, 0};
    for (s.d = 1; s.d < m; s.d *= 2)
        bspram_pram_for_all(P, step, &s);
    s.what = 1;
    for (s.d = m / 4; s.d >= 1; s.d /= 2)
        bspram_pram_for_all(P, step, &s);
    s.what = 2;
    bspram_pram_for_all(P, step, &s);
    bspram_pram_store(P, OUT, out, m);
    bspram_pram_destroy(P);

    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        if (mark[i] && out[k++] != v[i]) {
            fprintf(stderr, "compaction_model: OUT[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k - 1, out[k - 1], v[i]);
            free(v);
            free(mark);
            free(out);
            return 1;
        }
    printf("compaction_model: n = %" PRIu64 ", %" PRIu64 " marked\n", n, k);
    free(v);
    free(mark);
    free(out);
    return 0;
}
