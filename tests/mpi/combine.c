/* Combining over MPI (libbspram-mpi, tests/mpi/run.sh on 1 to 4 ranks):
 * batches of every species on the hybrid machine, against a sequential
 * reference that every rank computes. Each rank checks what it holds: the
 * answers of its components' requests and the cells its components own; a
 * failed check prints a line that run.sh catches, whichever rank it is on.
 * Fetch-and-add answers depend on the combining order, so they are checked
 * as a multiprefix on the ranks that hold a cell's requesters: each answer is
 * the old value plus a sum of other requesters' contributions, and the cell
 * ends at the old value plus all of them.
 * usage: combine [lanes per rank] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "bsp/machine_internal.h"

static int failures;
#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            failures++;                                                                    \
            fprintf(stderr, "combine (rank %u): CHECK failed: ", bspram_rank());           \
            fprintf(stderr, __VA_ARGS__);                                                  \
            fputc('\n', stderr);                                                           \
        }                                                                                  \
    } while (0)

/* mode: 0 reads + arbitrary writes, 1 priority writes, 2 common writes,
 * 3 reduce (sum, max, xor by cell), 4 fetch-and-add + reads. */
static void run_case(uint64_t p, const char *basis, bspram_layout layout, int mode, uint64_t seed,
                     int lanes)
{
    bspram_config mc = bspram_config_default(p);
    mc.threads = lanes;
    bspram_machine *m = bspram_machine_create(&mc);
    uint64_t mine, end; /* the components this rank holds */
    bspram__bsp_machine_block(m, &mine, &end);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, seed * 7 + 1);
    uint64_t ncells = 3 + p / 4;
    uint32_t seg = bspram_segment_alloc(s, ncells, 8, layout);
    uint64_t *mem = malloc(ncells * sizeof *mem);
    for (uint64_t a = 0; a < ncells; a++) {
        mem[a] = bspram_random2(seed, 11, a) % 1000;
        bspram_store(s, bspram_address(s, seg, a), mem[a]); /* each rank: the owners' copies */
    }
    bspram_combine_options o = bspram_combine_defaults(p);
    bspram_basis_require(&o.basis, p, basis);
    o.physical = layout == BSPRAM_LAYOUT_CYCLIC ? BSPRAM_PHYSICAL_DIRECT_LAST : BSPRAM_PHYSICAL_EXTRA_PHASE;
    o.seed = seed;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    static const unsigned ops[3] = {BSPRAM_OP_SUM, BSPRAM_OP_MAX, BSPRAM_OP_XOR};
    uint64_t per = 1 + seed % 4, n = p * per;
    bspram_request *req = calloc(n, sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first), *res = malloc(n * sizeof *res);
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * per;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t c = i / per, j = i % per, a = bspram_random3(seed, 1, c, j) % ncells;
        bspram_request *q = &req[i];
        q->address = bspram_address(s, seg, a);
        int read = (mode == 0 || mode == 4) && bspram_random3(seed, 2, c, j) % 3 == 0;
        uint8_t kinds[5] = {BSPRAM_WRITE_ARBITRARY, BSPRAM_WRITE_PRIORITY, BSPRAM_WRITE_COMMON,
                            bspram_kind_reduce(bspram_op_builtin(ops[a % 3], BSPRAM_TYPE_U64)),
                            bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64))};
        q->kind = read ? BSPRAM_READ : kinds[mode];
        q->value = mode == 2 ? a * 3 + 5 : 1 + bspram_random3(seed, 3, c, j) % 100000;
        res[i] = UINT64_MAX;
    }
    bspram_combine(C, req, first, res, NULL);

    for (uint64_t a = 0; a < ncells; a++) {
        uint64_t addr = bspram_address(s, seg, a), expect = mem[a], key = UINT64_MAX, sum = 0;
        int any = 0;
        for (uint64_t i = 0; i < n; i++) {
            if (req[i].address != addr || req[i].kind == BSPRAM_READ)
                continue;
            uint64_t c = i / per, j = i % per, v = req[i].value;
            if (mode <= 1) { /* the least key wins: random (arbitrary) or the origin (priority) */
                uint64_t k = mode == 0 ? bspram_random2(seed, c, j) : (c << 32) | j;
                if (!any || k < key || (k == key && v < expect))
                    key = k, expect = v;
                any = 1;
            } else if (mode == 2) {
                expect = v;
            } else if (mode == 3) {
                expect = bspram_op_apply(bspram_op_builtin(ops[a % 3], BSPRAM_TYPE_U64), expect, v);
            } else {
                sum += v;
            }
        }
        if (mode == 4)
            expect = mem[a] + sum;
        uint64_t owner = bspram_owner(s, addr);
        if (owner >= mine && owner < end)
            EXPECT(bspram_load(s, addr) == expect, "p=%" PRIu64 " basis %s mode %d: cell %" PRIu64
                   " holds %" PRIu64 ", the reference %" PRIu64, p, basis, mode, a, bspram_load(s, addr), expect);
        for (uint64_t i = 0; i < n; i++) {
            if (req[i].address != addr || i / per < mine || i / per >= end)
                continue;
            if (req[i].kind == BSPRAM_READ)
                EXPECT(res[i] == mem[a], "p=%" PRIu64 " basis %s mode %d: read %" PRIu64 " of cell %" PRIu64
                       " answered %" PRIu64 ", not %" PRIu64, p, basis, mode, i, a, res[i], mem[a]);
            else if (mode == 4)
                EXPECT(res[i] >= mem[a] && res[i] + req[i].value <= mem[a] + sum,
                       "p=%" PRIu64 " basis %s: fetch-and-add %" PRIu64 " of cell %" PRIu64
                       " answered %" PRIu64 ", outside [old, old + others]", p, basis, i, a, res[i]);
        }
    }
    free(req);
    free(first);
    free(res);
    free(mem);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(int argc, char **argv)
{
    int per_rank = argc > 1 ? atoi(argv[1]) : 1, lanes = per_rank * (int)bspram_ranks();
    static const struct {
        uint64_t p;
        const char *bases[3];
    } cfg[] = {{2, {"2", "1x2", "2x1"}}, {7, {"7", "7x1", "1x7"}}, {64, {"64", "8x8", "4x2x8"}},
               {4096, {"8x8x8x8", "32x16x8", "64x64"}}};
    uint64_t seed = 1, cases = 0;
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        for (int b = 0; b < 3 && cfg[i].bases[b]; b++)
            for (int layout = 0; layout < 3; layout++)
                for (int mode = 0; mode < 5; mode++, seed++, cases++)
                    run_case(cfg[i].p, cfg[i].bases[b], (bspram_layout)layout, mode, seed, lanes);
    if (bspram_rank() == 0)
        printf("combine: %" PRIu64 " batches on %d lanes over %u ranks, %d failed checks on rank 0\n",
               cases, lanes, bspram_ranks(), failures);
    return failures != 0;
}
