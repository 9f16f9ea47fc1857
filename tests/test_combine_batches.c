/* Random spreading draws new offsets k for every invocation (Valiant §4; the
 * issue: "k random per request and per invocation"), while staying a pure
 * function of the seed and the batch number, the same for any thread count.
 *
 * Observable through fetch-and-add: all p components add 1 to one cell; a
 * requester's answer minus the cell before the batch is its rank in the
 * combining order, and that order is the combining tree's — which
 * intermediate component each request was spread to. The same requests sent
 * through the same combiner again must (almost surely) take another tree;
 * with SOURCE spreading (k = s mod suffix, no randomness) the tree is the
 * same every time. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"

enum { P = 64, BATCHES = 4 };

/* ranks[b][c]: the rank of component c's request in batch b. Between the
 * batches the options are set again with the same seed and basis (what a
 * caller who changes nothing else would do): that must not bring the old
 * offsets back. */
static void run(int threads, bspram_spread spread, uint64_t ranks[BATCHES][P])
{
    bspram_config mc = bspram_config_default(P);
    mc.threads = threads;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(P, BSPRAM_HASH_XXH3, 17);
    uint32_t seg = bspram_segment_alloc(s, 4, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(P);
    bspram_basis_require(&o.basis, P, "8x8");
    o.spread = spread;
    o.seed = 3;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    bspram_request req[P];
    uint64_t first[P + 1], res[P];
    for (uint64_t c = 0; c <= P; c++)
        first[c] = c;
    for (uint64_t c = 0; c < P; c++) {
        req[c].address = bspram_address(s, seg, 1);
        req[c].value = 1;
        req[c].kind = bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
    }
    for (int b = 0; b < BATCHES; b++) {
        bspram_combiner_set_options(C, &o);
        bspram_combine(C, req, first, res, NULL);
        uint64_t before = UINT64_MAX; /* the cell before the batch: the least answer */
        for (uint64_t c = 0; c < P; c++)
            before = res[c] < before ? res[c] : before;
        CHECK_EQ_U64(before, (uint64_t)b * P);
        for (uint64_t c = 0; c < P; c++)
            ranks[b][c] = res[c] - before;
        if (bspram_holds(s, bspram_address(s, seg, 1))) /* over MPI: its owner's rank checks it */
            CHECK_EQ_U64(bspram_load(s, bspram_address(s, seg, 1)), before + P);
    }
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

static int same(const uint64_t *x, const uint64_t *y) { return !memcmp(x, y, P * sizeof *x); }

int main(void)
{
    static uint64_t r1[BATCHES][P], r2[BATCHES][P], src[BATCHES][P];
    run(1, BSPRAM_SPREAD_RANDOM, r1);
    run(2, BSPRAM_SPREAD_RANDOM, r2);
    run(2, BSPRAM_SPREAD_SOURCE, src);
    /* Every batch is a permutation of the ranks 0..P-1. */
    for (int b = 0; b < BATCHES; b++) {
        uint64_t seen[P] = {0};
        for (int c = 0; c < P; c++)
            if (r1[b][c] < P)
                seen[r1[b][c]]++;
        int perm = 1;
        for (int c = 0; c < P; c++)
            perm &= seen[c] == 1;
        CHECK(perm);
    }
    /* New offsets every invocation: consecutive batches take different trees
     * (64 requests spread over 8 intermediates: the same tree twice is
     * vanishingly unlikely). */
    for (int b = 0; b + 1 < BATCHES; b++) {
        if (same(r1[b], r1[b + 1]))
            fprintf(stderr, "batches %d and %d of one combiner took the same combining tree: "
                            "the random offsets were not redrawn\n", b, b + 1);
        CHECK(!same(r1[b], r1[b + 1]));
    }
    /* Still deterministic: batch b is the same for T = 1 and T = 2. */
    for (int b = 0; b < BATCHES; b++)
        CHECK(same(r1[b], r2[b]));
    /* SOURCE spreading has no randomness: the same tree every batch. */
    for (int b = 0; b + 1 < BATCHES; b++)
        CHECK(same(src[b], src[b + 1]));
    return check_report("test_combine_batches");
}
