/* Exercise 11 (docs/course/11_compaction.md), a WRONG solution: too many
 * steps.
 *
 * One VP walks the array: in step i it reads the element and its mark and,
 * if marked, writes it to the next free cell of OUT (its register counts
 * them). EREW and O(n) work, but n steps where the exercise asks O(log n).
 * fails: steps
 *
 *   compaction_steps N    (1 ≤ N ≤ 2^22) exit 0 if OUT is right (it is) */
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

static bspram_pram_array V, M, OUT;

static void walk(bspram_vp *vp, void *arg)
{
    const uint64_t i = *(const uint64_t *)arg;
    if (bspram_vp_id(vp) != 0)
        return;
    uint64_t *next = bspram_vp_registers(vp);
    const uint64_t v = bspram_vp_get(vp, V, i), marked = bspram_vp_get(vp, M, i);
    if (marked)
        bspram_vp_write(vp, OUT, next[0]++, v);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: compaction_steps N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *v = calloc(n, sizeof *v), *mark = calloc(n, sizeof *mark), *out = calloc(n, sizeof *out);
    if (!v || !mark || !out)
        return 1;
    for (uint64_t i = 0; i < n; i++) {
        v[i] = 1 + input(11, i, 0, 1000000);
        mark[i] = input(11, i, 1, 3) == 0;
    }
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    V = bspram_pram_alloc(P, "V", n);
    M = bspram_pram_alloc(P, "M", n);
    OUT = bspram_pram_alloc(P, "OUT", n);
    bspram_pram_load(P, V, v, n);
    bspram_pram_load(P, M, mark, n);
    for (uint64_t i = 0; i < n; i++)
        bspram_pram_for_all(P, walk, &i);
    bspram_pram_store(P, OUT, out, n);
    bspram_pram_destroy(P);
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        if (mark[i] && out[k++] != v[i]) {
            fprintf(stderr, "compaction_steps: OUT[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", k - 1, out[k - 1],
                    v[i]);
            free(v);
            free(mark);
            free(out);
            return 1;
        }
    free(v);
    free(mark);
    free(out);
    return 0;
}
