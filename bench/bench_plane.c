/* The data plane's instruction count per operation (bench/plane_instr.sh runs
 * it under cachegrind): `reps` PRAM scatter-reduce(sum) calls of `ops`
 * operations by n VPs on CRCW-combining, p components, T threads, random
 * targets among `ops` cells (about degree 1), or among ops/d cells (about
 * degree d), the default basis or one given; with `fetch`, fetch-and-add
 * calls (the reverse flow) instead of `reduce`.
 * Run with reps = 1 and reps = 2; the difference of the two counts over ops
 * is what one operation costs, set-up excluded.
 *
 *   bench_plane reps [log2 ops (20)] [log2 n (20)] [p (4096)] [T (2)] [basis (default) | one]
 *               [reduce | fetch] [d (1)]
 *
 * Prints the memory after the calls (a checksum) so that nothing is elided. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash/random.h"
#include "pram/pram.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_plane reps [log2 ops] [log2 n] [p] [T] [default|one] [reduce|fetch] [d]\n");
        return 2;
    }
    const int reps = atoi(argv[1]);
    const unsigned lops = argc > 2 ? (unsigned)atoi(argv[2]) : 20, ln = argc > 3 ? (unsigned)atoi(argv[3]) : 20;
    const uint64_t p = argc > 4 ? strtoull(argv[4], NULL, 10) : 4096;
    const unsigned T = argc > 5 ? (unsigned)atoi(argv[5]) : 2;
    const int one = argc > 6 && strcmp(argv[6], "one") == 0;
    const int fetch = argc > 7 && strcmp(argv[7], "fetch") == 0;
    const uint64_t d = argc > 8 ? strtoull(argv[8], NULL, 10) : 1;
    const uint64_t ops = UINT64_C(1) << lops, n = UINT64_C(1) << ln, k = ops / n;
    const uint64_t cells = d >= 1 && d <= ops ? ops / d : ops;
    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_COMBINING);
    c.p = p;
    c.threads = T;
    c.registers = 0;
    c.seed = 5;
    if (one) {
        c.combine.strategy = BSPRAM_STRATEGY_FIXED;
        bspram_basis_make(&c.combine.basis, p, 1, (uint64_t[]){p}, NULL, 0);
    }
    bspram_pram *P = bspram_pram_create(&c);
    bspram_pram_array A = bspram_pram_alloc(P, "A", cells);
    uint64_t *names = malloc(ops * sizeof *names), *v = malloc(ops * sizeof *v), *got = calloc(cells, 8);
    uint64_t *old = fetch ? malloc(ops * sizeof *old) : NULL;
    for (uint64_t j = 0; j < ops; j++) {
        names[j] = bspram_pram_cell(P, A, bspram_random_below(cells, 3, j, 0, 0));
        v[j] = j % 1000 + 1;
    }
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    for (int r = 0; r < reps; r++)
        if (fetch)
            bspram_pram_fetch_op(P, k, names, v, sum, old);
        else
            bspram_pram_scatter_reduce(P, k, names, v, sum);
    bspram_pram_store(P, A, got, cells);
    uint64_t check = 0;
    for (uint64_t i = 0; i < cells; i++)
        check = check * 31 + got[i];
    for (uint64_t j = 0; fetch && j < ops; j++)
        check = check * 31 + old[j];
    printf("checksum %" PRIx64 "\n", check);
    bspram_pram_destroy(P);
    free(names);
    free(v);
    free(got);
    free(old);
    return 0;
}
