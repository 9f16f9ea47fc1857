/* A histogram by concurrent reductions on the hashed shared memory.
 *
 * p components each draw samples and add 1 to the cell of each sample's bin:
 * a batch of REDUCE sum requests. Popular bins are hot spots (a high degree
 * of concurrency); multi-phase combining (Valiant 1992) merges the requests
 * for one bin on the way, so no owner receives more than a few. The program
 * checks the histogram against a sequential count and prints each phase's
 * charge max(q, r), read from the router's records, for a one-phase and a
 * three-phase basis.
 *
 *   histogram [p] [samples per component] [bins]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define BSPRAM_ENGINE_API /* the bulk machine and combining are of the engine API */
#include "bspram.h"

int main(int argc, char **argv)
{
    uint64_t p = argc > 1 ? strtoull(argv[1], NULL, 10) : 4096;
    uint64_t per = argc > 2 ? strtoull(argv[2], NULL, 10) : 32;
    uint64_t bins = argc > 3 ? strtoull(argv[3], NULL, 10) : 64;

    bspram_config cfg = bspram_config_default(p);
    bspram_machine *m = bspram_machine_create(&cfg);
    bspram_space *space = bspram_space_create(p, BSPRAM_HASH_XXH3, 7);
    uint32_t hist = bspram_segment_alloc(space, bins, 8, BSPRAM_LAYOUT_HASHED);

    /* The samples: skewed (bin = floor(bins · u²)), so low bins are hot. */
    bspram_request *req = malloc(p * per * sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first), *expect = calloc(bins, sizeof *expect);
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * per;
    for (uint64_t i = 0; i < p * per; i++) {
        double u = bspram_random_unit(1, i, 0, 0);
        uint64_t bin = (uint64_t)((double)bins * u * u);
        req[i] = (bspram_request){
            .address = bspram_address(space, hist, bin),
            .value = 1,
            .kind = bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64))};
        expect[bin]++;
    }

    static const char *bases[] = {NULL, NULL};
    char one[32], three[BSPRAM_BASIS_TEXT_MAX];
    snprintf(one, sizeof one, "%" PRIu64, p);
    bases[0] = one;
    bspram_basis auto3 = bspram_basis_auto(p, 0);
    bspram_basis_format(&auto3, three, sizeof three);
    bases[1] = three;
    int ok = 1;
    for (int b = 0; b < 2; b++) {
        for (uint64_t k = 0; k < bins; k++) /* over MPI: each rank its own bins (bspram_holds) */
            if (bspram_holds(space, bspram_address(space, hist, k)))
                bspram_store(space, bspram_address(space, hist, k), 0);
        bspram_combine_options o = bspram_combine_defaults(p);
        bspram_basis_require(&o.basis, p, bases[b]);
        bspram_combiner *c = bspram_combiner_create(m, space, &o);
        bspram_combine_stats st;
        bspram_combine(c, req, first, NULL, &st);
        for (uint64_t k = 0; k < bins; k++) /* each rank checks the bins it holds */
            if (bspram_holds(space, bspram_address(space, hist, k)))
                ok &= bspram_load(space, bspram_address(space, hist, k)) == expect[k];
        printf("basis %-10s charge per phase:", bases[b]);
        for (unsigned i = 1; i <= st.phases; i++)
            printf(" %" PRIu64, st.forward_charge[i]);
        printf("   total %" PRIu64 "\n", st.charge);
        bspram_combiner_destroy(c);
    }
    printf("bin 0 has %" PRIu64 " of %" PRIu64 " samples; histogram %s the sequential count\n",
           expect[0], p * per, ok ? "equals" : "DIFFERS FROM");
    free(req);
    free(first);
    free(expect);
    bspram_space_destroy(space);
    bspram_machine_destroy(m);
    return ok ? 0 : 1;
}
