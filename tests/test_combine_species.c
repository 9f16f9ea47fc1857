/* Multi-phase combining against a sequential reference: every species
 * (read, the three write policies, reduce with the built-in and a user
 * operation, fetch-and-add), mixed batches, both spreadings, several bases,
 * hashed and physical layouts (both §5 deliveries), p ∈ {1, 2, 7, 64, 4096}.
 * Requests go to a few cells so that groups have high degree. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "hash/random.h"

/* Cells of reduce mode 3 cycle through the 7 operations and the 3 types;
 * double cells hold integer values (exact sums and products). */
static int is_f64_cell(int mode, uint64_t a) { return mode == 3 && a / 7 % 3 == 2; }
static uint64_t dbits(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

typedef struct req_ref {
    uint64_t c, j, idx;
} req_ref;

static uint64_t user_gcd(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* One batch of `mode`: 0 reads+writes(arbitrary), 1 reads+priority, 2 common,
 * 3 reduce (op varies by cell), 4 fetch-add + reads, 5 user op (gcd). */
static void run_case(uint64_t p, const char *basis_text, bspram_spread spread, bspram_layout layout,
                     bspram_physical physical, int mode, uint64_t seed, int threads)
{
    bspram_config mc = bspram_config_default(p);
    mc.threads = threads;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, seed * 7 + 1);
    uint64_t ncells = 3 + p / 4;
    uint32_t seg = bspram_segment_alloc(s, ncells, 8, layout);
    /* Initial memory: known values. */
    uint64_t *mem = malloc(ncells * sizeof *mem);
    for (uint64_t a = 0; a < ncells; a++) {
        mem[a] = mode == 5 ? 0 : bspram_random2(seed, 11, a) % 1000;
        if (is_f64_cell(mode, a))
            mem[a] = dbits((double)(mem[a] % 7));
        bspram_store(s, bspram_address(s, seg, a), mem[a]);
    }
    bspram_combine_options o = bspram_combine_defaults(p);
    bspram_basis_require(&o.basis, p, basis_text);
    o.spread = spread;
    o.physical = physical;
    o.seed = seed;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    unsigned gcd_op = bspram_combiner_add_op(C, "gcd", user_gcd, NULL, 0);

    uint64_t per = 1 + seed % 5;
    uint64_t n = p * per;
    bspram_request *req = calloc(n, sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first);
    uint64_t *res = malloc(n * sizeof *res);
    uint8_t *update_kind = malloc(ncells);
    for (uint64_t a = 0; a < ncells; a++) {
        static const unsigned ops[7] = {BSPRAM_OP_SUM, BSPRAM_OP_PROD, BSPRAM_OP_MIN, BSPRAM_OP_MAX,
                                        BSPRAM_OP_AND, BSPRAM_OP_OR, BSPRAM_OP_XOR};
        switch (mode) {
        case 0: update_kind[a] = BSPRAM_WRITE_ARBITRARY; break;
        case 1: update_kind[a] = BSPRAM_WRITE_PRIORITY; break;
        case 2: update_kind[a] = BSPRAM_WRITE_COMMON; break;
        case 3: update_kind[a] = bspram_kind_reduce(bspram_op_builtin((bspram_op_kind)ops[a % 7],
                                                                      (bspram_type)(a / 7 % 3))); break;
        case 4: update_kind[a] = bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64)); break;
        default: update_kind[a] = bspram_kind_reduce(gcd_op); break;
        }
    }
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * per;
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t j = 0; j < per; j++) {
            bspram_request *r = &req[c * per + j];
            uint64_t a = bspram_random3(seed, 1, c, j) % ncells;
            r->address = bspram_address(s, seg, a);
            int is_read = mode != 2 && mode != 3 && mode != 5 && bspram_random3(seed, 2, c, j) % 3 == 0;
            r->kind = is_read ? BSPRAM_READ : update_kind[a];
            uint64_t rv = bspram_random3(seed, 3, c, j);
            unsigned op = update_kind[a] & 31u;
            int prod = mode == 3 && (op == BSPRAM_OP_PROD || op == 7 + BSPRAM_OP_PROD || op == 14 + BSPRAM_OP_PROD);
            r->value = mode == 2 ? a * 3 + 5 : prod ? 1 + rv % 3
                       : mode == 5 ? 6 * (1 + rv % 50) : 1 + rv % 100000;
            if (r->kind != BSPRAM_READ && is_f64_cell(mode, a))
                r->value = dbits((double)(op >= 18 ? rv % 2 : r->value)); /* logical ops: 0.0 or 1.0 */
            res[c * per + j] = UINT64_MAX;
        }

    bspram_combine_stats st;
    bspram_combine(C, req, first, res, &st);

    /* Sequential reference, cell by cell, requests in (origin, index) order. */
    for (uint64_t a = 0; a < ncells; a++) {
        uint64_t addr = bspram_address(s, seg, a);
        uint64_t expect = mem[a];
        int any = 0;
        uint64_t best_key = UINT64_MAX, best_val = 0;
        unsigned k = update_kind[a];
        /* fetch: the answers, sorted, must be old, old+c_π1, ... (a multiprefix) */
        uint64_t nf = 0;
        uint64_t *fres = malloc(n * sizeof *fres), *fcon = malloc(n * sizeof *fcon);
        for (uint64_t i = 0; i < n; i++) {
            if (req[i].address != addr)
                continue;
            uint64_t c = i / per, j = i % per;
            if (req[i].kind == BSPRAM_READ) {
                CHECK_EQ_U64(res[i], mem[a]);
                continue;
            }
            if (k == BSPRAM_WRITE_ARBITRARY || k == BSPRAM_WRITE_PRIORITY) {
                uint64_t key = k == BSPRAM_WRITE_ARBITRARY ? bspram_random2(seed, c, j) : (c << 32) | j;
                if (!any || key < best_key || (key == best_key && req[i].value < best_val)) {
                    best_key = key;
                    best_val = req[i].value;
                }
                any = 1;
            } else if (k == BSPRAM_WRITE_COMMON) {
                best_val = req[i].value;
                any = 1;
            } else if (k >= 64) {
                fres[nf] = res[i];
                fcon[nf++] = req[i].value;
                expect += req[i].value;
            } else if ((k & 31u) == gcd_op) {
                expect = user_gcd(expect, req[i].value, NULL);
            } else {
                expect = bspram_op_apply(k & 31u, expect, req[i].value);
            }
        }
        if (any)
            expect = best_val;
        if (bspram_holds(s, addr)) /* over MPI: its owner's rank checks it */
            CHECK_EQ_U64(bspram_load(s, addr), expect);
        if (nf) {
            /* Multiprefix, checked pair by pair: each requester's answer with
             * its own contribution. Sorted by answer (contributions are ≥ 1,
             * so the answers strictly increase along the combining order and
             * sorting by answer recovers that order), the answers must be
             * old, old ⊕ c_0, old ⊕ c_0 ⊕ c_1, …: answer_0 = the cell before
             * the batch, answer_{x+1} = answer_x ⊕ contribution_x, and the
             * cell after the batch = last answer ⊕ last contribution. An
             * answer handed to the wrong requester breaks a link. */
            for (uint64_t x = 1; x < nf; x++)
                for (uint64_t y = x; y > 0 && fres[y - 1] > fres[y]; y--) {
                    uint64_t t = fres[y]; fres[y] = fres[y - 1]; fres[y - 1] = t;
                    t = fcon[y]; fcon[y] = fcon[y - 1]; fcon[y - 1] = t;
                }
            CHECK_EQ_U64(fres[0], mem[a]);
            int chained = 1;
            for (uint64_t x = 0; x + 1 < nf; x++)
                chained &= fres[x + 1] == fres[x] + fcon[x];
            if (!chained)
                fprintf(stderr, "fetch-and-add at cell %" PRIu64 " (p=%" PRIu64 ", basis %s, seed %" PRIu64
                        "): an answer is not the previous answer plus its requester's contribution\n",
                        a, p, basis_text, seed);
            CHECK(chained);
            if (bspram_holds(s, addr))
                CHECK_EQ_U64(bspram_load(s, addr), fres[nf - 1] + fcon[nf - 1]);
        }
        free(fres);
        free(fcon);
    }
    /* Costs come from the records: phases as the basis says (+1 for the extra physical phase). */
    CHECK_EQ_U64(st.phases, st.basis.m + (layout != BSPRAM_LAYOUT_HASHED && physical == BSPRAM_PHYSICAL_EXTRA_PHASE));
    uint64_t msgs1 = st.forward_messages[1];
    CHECK(msgs1 <= n);
    CHECK(st.charge >= st.forward_charge[1]);
    free(req);
    free(first);
    free(res);
    free(mem);
    free(update_kind);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(void)
{
    static const struct {
        uint64_t p;
        const char *bases[3];
    } cfg[] = {{1, {"1", NULL, NULL}},
               {2, {"2", "1x2", "2x1"}},
               {7, {"7", "7x1", "1x7"}},
               {64, {"64", "8x8", "4x2x8"}}};
    uint64_t seed = 1;
    for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
        for (int b = 0; b < 3 && cfg[i].bases[b]; b++)
            for (int spread = 0; spread < 2; spread++)
                for (int layout = 0; layout < 3; layout++)
                    for (int mode = 0; mode < 6; mode++) {
                        bspram_physical ph = layout == 2 ? BSPRAM_PHYSICAL_DIRECT_LAST : BSPRAM_PHYSICAL_EXTRA_PHASE;
                        run_case(cfg[i].p, cfg[i].bases[b], (bspram_spread)spread, (bspram_layout)layout,
                                 ph, mode, seed, 1 + (int)(seed % 2));
                        seed++;
                    }
    for (int mode = 0; mode < 6; mode++)
        run_case(4096, mode % 2 ? "32x16x8" : "8x8x8x8", (bspram_spread)(mode % 2), BSPRAM_LAYOUT_HASHED,
                 BSPRAM_PHYSICAL_EXTRA_PHASE, mode, 1000 + (uint64_t)mode, 2);
    run_case(4096, "64x64", BSPRAM_SPREAD_RANDOM, BSPRAM_LAYOUT_BLOCK, BSPRAM_PHYSICAL_DIRECT_LAST, 4, 2000, 2);
    return check_report("test_combine_species");
}
