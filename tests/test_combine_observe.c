/* The OBSERVE strategy (combine/observe.c): before phase 1 the components
 * measure the degree in ⌈log2 p⌉ supersteps (+2 when p is not a power of
 * two), each charged 1 in the router's records, and run
 * bspram_basis_auto(p, measured degree).
 *
 * On Valiant's §4 patterns every address has the same degree d, so the
 * measurement must be d exactly (the pattern's construction is the
 * reference); the records must hold the observation supersteps, labelled
 * combine:observe:j with charge 1, then the forward phases; stats.charge is
 * their sum; the cells and the answers of reads are those of a sequential
 * fold. For p = 1, 3, 12, 64, 1000 and 4096, on 1 to 4 threads (more
 * threads than components included). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "combine/experiment.h"

static unsigned expected_steps(uint64_t p)
{
    unsigned log2 = 0;
    uint64_t P2 = 1;
    while (P2 * 2 <= p) {
        P2 *= 2;
        log2++;
    }
    return log2 + (p > P2 ? 2 : 0);
}

/* One §4 batch of degree d (v = 8p requests, v/d cells) plus one READ per
 * component of cell c mod (v/d), under OBSERVE on T threads. */
static void one(uint64_t p, uint64_t d, int T)
{
    bspram_config mc = bspram_config_default(p);
    mc.threads = T;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_XXH3, 11);
    uint64_t v = 8 * p, q = v / p, cells = v / d;
    uint32_t seg = bspram_segment_alloc(s, cells, 8, BSPRAM_LAYOUT_HASHED);
    bspram_request *pat = malloc(v * sizeof *pat);
    uint64_t *pfirst = malloc((p + 1) * sizeof *pfirst);
    bspram_pattern_fill(s, seg, p, v, d, pat, pfirst);
    /* Interleave: component c's q reductions, then its read. */
    bspram_request *req = calloc(v + p, sizeof *req);
    uint64_t *first = malloc((p + 1) * sizeof *first), *res = calloc(v + p, sizeof *res);
    uint64_t *before = malloc(cells * sizeof *before), *after = malloc(cells * sizeof *after);
    for (uint64_t a = 0; a < cells; a++) {
        before[a] = after[a] = 7 * a;
        bspram_store(s, bspram_address(s, seg, a), before[a]);
    }
    for (uint64_t c = 0; c < p; c++) {
        first[c] = c * (q + 1);
        memcpy(&req[first[c]], &pat[pfirst[c]], q * sizeof *req);
        for (uint64_t j = 0; j < q; j++)
            after[pat[pfirst[c] + j].address - bspram_address(s, seg, 0)] += pat[pfirst[c] + j].value;
        req[first[c] + q] = (bspram_request){.address = bspram_address(s, seg, c % cells), .kind = BSPRAM_READ};
    }
    first[p] = p * (q + 1);
    /* The read adds a key of degree ⌈p / cells⌉-ish to the batch: the mean
     * over the sample is then not d for every p. Measure the pattern alone
     * first (the exact case), then the mixed batch for its answers. */
    bspram_combine_options o = bspram_combine_defaults(p);
    o.strategy = BSPRAM_STRATEGY_OBSERVE;
    o.seed = 3;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    bspram_combine_stats st;
    bspram_combine(C, pat, pfirst, NULL, &st);
    unsigned steps = expected_steps(p);
    CHECK_EQ_U64(st.observed_degree, d);
    CHECK_EQ_U64(st.observe_phases, steps);
    CHECK_EQ_U64(st.observe_charge, steps); /* one message out and in per component, at most */
    bspram_basis want = bspram_basis_auto(p, d);
    CHECK_EQ_U64(st.basis.m, want.m);
    for (unsigned i = 1; i <= want.m && i <= st.basis.m; i++)
        CHECK_EQ_U64(st.basis.b[i], want.b[i]);
    size_t nrec;
    const bspram_record *rec = bspram_machine_records(m, &nrec);
    CHECK_EQ_U64(nrec, st.first_record + steps + st.phases);
    uint64_t sum = 0;
    for (unsigned j = 0; j < steps && st.first_record + j < nrec; j++) {
        char label[32];
        snprintf(label, sizeof label, "combine:observe:%u", j + 1);
        CHECK(!strcmp(rec[st.first_record + j].label, label));
        CHECK_EQ_U64(rec[st.first_record + j].charge, 1);
        sum += rec[st.first_record + j].charge;
    }
    for (unsigned i = 1; i <= st.phases && st.first_record + steps + i - 1 < nrec; i++) {
        const bspram_record *r = &rec[st.first_record + steps + i - 1];
        char label[32];
        snprintf(label, sizeof label, "combine:forward:%u", i);
        CHECK(!strcmp(r->label, label));
        CHECK_EQ_U64(r->charge, st.forward_charge[i]);
        sum += r->charge;
    }
    CHECK_EQ_U64(st.charge, sum);
    for (uint64_t a = 0; a < cells; a++) {
        CHECK_EQ_U64(bspram_load(s, bspram_address(s, seg, a)), after[a]);
        bspram_store(s, bspram_address(s, seg, a), before[a]);
    }

    /* The mixed batch: the reads see memory before the batch; the updates land. */
    bspram_combine(C, req, first, res, &st);
    CHECK(st.observe_phases == steps && st.reverse_phases == st.phases);
    int bad = 0;
    for (uint64_t c = 0; c < p; c++)
        bad |= res[first[c] + q] != before[c % cells];
    for (uint64_t a = 0; a < cells; a++)
        bad |= bspram_load(s, bspram_address(s, seg, a)) != after[a];
    CHECK(!bad);

    free(pat);
    free(pfirst);
    free(req);
    free(first);
    free(res);
    free(before);
    free(after);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}

int main(void)
{
    static const uint64_t ps[] = {1, 3, 12, 64, 1000, 4096};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        uint64_t p = ps[i];
        for (uint64_t d = 1; d <= p; d *= 2) {
            if ((8 * p) % d)
                continue;
            one(p, d, 1 + (int)(d % 3));
        }
        if (p % 3 == 0)
            one(p, 3, 2);
    }
    one(3, 1, 4); /* more lanes than components */
    one(12, 4, 4);
    return check_report("test_combine_observe");
}
