/* The owners' tables of a hashed segment (hash/address_space.c): ceil(3/2)
 * slots per cell of an owner, keyed by 32 bits for a segment of at most
 * 2^32 − 1 cells and by 64 bits beyond (here forced on a small segment by
 * bspram__hash_space_wide_keys, since no test machine holds 2^32 cells).
 * With either key, every cell keeps its own value through bspram_store and
 * bspram_load, bspram_cells finds what bspram_cell finds, a rehash keeps the
 * values, and a combining batch's owners (combine/owner.c, which probes the
 * tables inline) leave the cells a sequential loop computes: reductions,
 * then fetch-and-adds whose answers are each cell's running sums. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "hash/hash_internal.h"

enum { P = 13, N = 5000, NB = 777, REQ = 300 };

static uint64_t value_of(uint64_t i) { return i * 0x9E3779B97F4A7C15ULL + 7; }

static void cells_keep_values(bool wide, bspram_hash_kind kind)
{
    bspram_space *s = bspram_space_create(P, kind, 99);
    if (wide)
        bspram__hash_space_wide_keys(s);
    const uint32_t a = bspram_segment_alloc(s, N, 8, BSPRAM_LAYOUT_HASHED);
    const uint32_t b = bspram_segment_alloc(s, NB, 3, BSPRAM_LAYOUT_HASHED);
    for (uint64_t i = 0; i < N; i++)
        bspram_store(s, bspram_address(s, a, i), value_of(i));
    for (uint64_t i = 0; i < NB; i++)
        bspram_store(s, bspram_address(s, b, i), value_of(i) & 0xffffff);
    bool ok = true;
    for (uint64_t i = 0; i < N; i++)
        ok &= bspram_load(s, bspram_address(s, a, i)) == value_of(i);
    for (uint64_t i = 0; i < NB; i++)
        ok &= bspram_load(s, bspram_address(s, b, i)) == (value_of(i) & 0xffffff);
    CHECK(ok);
    /* No two cells share bytes, and bspram_cells agrees with bspram_cell. */
    uint64_t *addr = malloc(N * sizeof *addr);
    void **cells = malloc(N * sizeof *cells);
    for (uint64_t i = 0; i < N; i++)
        addr[i] = bspram_address(s, a, i);
    bspram_cells(s, addr, N, cells);
    bool same = true;
    for (uint64_t i = 0; i < N; i++)
        same &= cells[i] == bspram_cell(s, addr[i]);
    CHECK(same);
    bspram_space_rehash(s, 4242);
    ok = true;
    for (uint64_t i = 0; i < N; i++)
        ok &= bspram_load(s, bspram_address(s, a, i)) == value_of(i);
    for (uint64_t i = 0; i < NB; i++)
        ok &= bspram_load(s, bspram_address(s, b, i)) == (value_of(i) & 0xffffff);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "  cells: wide %d, kind %d: a value lost\n", wide, (int)kind);
    free(addr);
    free(cells);
    bspram_space_destroy(s);
}

/* Every component adds to REQ cells (c·37 + 11·j mod N), first by
 * reductions, then by fetch-and-adds; the cells and each cell's answers
 * against a sequential loop. */
static void owners_fold(bool wide, int threads)
{
    bspram_config mc = bspram_config_default(P);
    mc.threads = threads;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(P, BSPRAM_HASH_XXH3, 5);
    if (wide)
        bspram__hash_space_wide_keys(s);
    const uint32_t seg = bspram_segment_alloc(s, N, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(P);
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bspram_request *req = malloc(P * REQ * sizeof *req);
    uint64_t first[P + 1], *res = malloc(P * REQ * sizeof *res), *want = calloc(N, sizeof *want);
    for (uint64_t c = 0; c <= P; c++)
        first[c] = c * REQ;
    for (int round = 0; round < 2; round++) {
        const uint8_t kind = round == 0 ? bspram_kind_reduce(sum) : bspram_kind_fetch(sum);
        for (uint64_t c = 0; c < P; c++)
            for (uint64_t j = 0; j < REQ; j++) {
                const uint64_t cell = (c * 37 + 11 * j) % N, add = c * 1000 + j + 1;
                req[c * REQ + j] = (bspram_request){bspram_address(s, seg, cell), add, kind, (uint32_t)c};
            }
        uint64_t *before = malloc(N * sizeof *before);
        memcpy(before, want, N * sizeof *want);
        for (uint64_t r = 0; r < P * REQ; r++)
            want[(req[r].address & (BSPRAM_SEGMENT_MAX_CELLS - 1))] += req[r].value;
        bspram_combine(C, req, first, round ? res : NULL, NULL);
        bool ok = true;
        for (uint64_t i = 0; i < N; i++)
            ok &= bspram_load(s, bspram_address(s, seg, i)) == want[i];
        CHECK(ok);
        if (round == 1) {
            /* A fetch-and-add's answer is its cell before it plus the adds
             * combined ahead of it: each answer lies in [before, want) and
             * the answers of one cell are distinct. */
            bool fair = true;
            for (uint64_t r = 0; r < P * REQ; r++) {
                const uint64_t i = req[r].address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
                fair &= res[r] >= before[i] && res[r] + req[r].value <= want[i];
                for (uint64_t q = r + 1; q < P * REQ; q++)
                    if (req[q].address == req[r].address)
                        fair &= res[q] != res[r];
            }
            CHECK(fair);
        }
        if (!ok)
            fprintf(stderr, "  owners: wide %d, T = %d, round %d: a cell differs\n", wide, threads, round);
        free(before);
    }
    free(req);
    free(res);
    free(want);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(void)
{
    for (int wide = 0; wide < 2; wide++) {
        for (int kind = 0; kind < 2; kind++)
            cells_keep_values(wide, (bspram_hash_kind)kind);
        for (int threads = 1; threads <= 3; threads++)
            owners_fold(wide, threads);
    }
    return check_report("test_hash_tables");
}
