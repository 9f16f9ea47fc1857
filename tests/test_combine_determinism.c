/* Same seed ⇒ the same answers, the same memory and the same charges for
 * T = 1, 2, 4, for fixed, auto, adaptive and observe bases and
 * both spreadings, with reads, fetches and writes, with reductions beside
 * reads (a lane's components whose groups are all reductions send through
 * the lane's runs, the others one run per component, in component order)
 * and with reductions or fetch-and-adds alone (checked against a sequential
 * reference too), also in batches large enough that the lanes flush their
 * staged records mid-phase; and the table experiment gives bit-identical factors for
 * T = 1 and T = 2, in charges and on the cycle model (sync and async). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "combine/combine.h"
#include "combine/experiment.h"
#include "hash/random.h"

/* 0: reads, fetch-and-adds, arbitrary writes; 1: sums, a fifth of the
 * addresses fetch-and-adds (whose answers depend on the order in which the
 * owner meets the sums); 2: sums; 3: fetch-and-adds. */
static int mix;
/* Requests per component: 8, or 4096 for batches large enough that a lane
 * flushes its staged records before a phase ends (more than 2^16 of them),
 * at other points for each T. */
static uint64_t per = 8;

typedef struct taken {
    uint64_t cell, answer, value;
} taken;

static int by_cell_answer(const void *x, const void *y)
{
    const taken *a = x, *b = y;
    if (a->cell != b->cell)
        return a->cell < b->cell ? -1 : 1;
    return a->answer < b->answer ? -1 : a->answer > b->answer;
}

/* Against a sequential reference: with sums and fetch-and-adds each cell
 * holds the sum of its values; the answers at a cell of fetch-and-adds (a
 * cell takes one species) are the prefix sums of its values in some order,
 * from 0 to what the cell holds (every value is positive, so that order is
 * the answers' order). */
static void check_serial(const uint64_t *cell, const bspram_request *req, uint64_t n, const uint64_t *res,
                         const uint64_t *mem, uint64_t ncells)
{
    const unsigned fetch = bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
    taken *t = malloc(n * sizeof *t);
    for (uint64_t i = 0; i < n; i++)
        t[i] = (taken){cell[i], req[i].kind == fetch ? res[i] : 0, req[i].value};
    qsort(t, n, sizeof *t, by_cell_answer);
    uint64_t *held = calloc(ncells, sizeof *held);
    for (uint64_t i = 0; i < n; i++) {
        if (mix == 3 || (mix == 1 && t[i].cell % 5 == 0)) /* the kinds run() gives */
            CHECK_EQ_U64(t[i].answer, held[t[i].cell]);
        held[t[i].cell] += t[i].value;
    }
    for (uint64_t a = 0; a < ncells; a++)
        CHECK_EQ_U64(mem[a], held[a]);
    free(held);
    free(t);
}

typedef struct outcome {
    uint64_t *res, *mem, ncells;
    bspram_combine_stats st;
} outcome;

static outcome run(uint64_t p, int threads, bspram_strategy strat, const char *basis, bspram_spread spread)
{
    bspram_config mc = bspram_config_default(p);
    mc.threads = threads;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, BSPRAM_HASH_TABULATION, 99);
    const uint64_t n = p * per, ncells = per > 8 ? n / 4 : p * 2;
    uint32_t seg = bspram_segment_alloc(s, ncells, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    o.strategy = strat;
    if (basis)
        bspram_basis_require(&o.basis, p, basis);
    o.spread = spread;
    o.seed = 5;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);
    bspram_request *req = calloc(n, sizeof *req);
    uint64_t *cell = malloc(n * sizeof *cell);
    uint64_t *first = malloc((p + 1) * sizeof *first);
    outcome out;
    out.ncells = ncells;
    out.res = calloc(n, sizeof *out.res);
    out.mem = malloc(ncells * sizeof *out.mem);
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * per;
    for (uint64_t i = 0; i < n; i++) {
        /* skewed addresses: degrees from 1 to about p */
        uint64_t r = bspram_random2(3, i, 0);
        uint64_t a = (r % 4 == 0) ? r % 4 : (r >> 8) % ncells;
        req[i].address = bspram_address(s, seg, a);
        cell[i] = a;
        req[i].value = 1 + bspram_random2(3, i, 1) % 1000;
        const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
        if (mix == 0)
            req[i].kind = a % 3 == 0 ? BSPRAM_READ
                          : a % 3 == 1 ? bspram_kind_fetch(sum)
                                       : BSPRAM_WRITE_ARBITRARY;
        else if (mix == 3)
            req[i].kind = bspram_kind_fetch(sum);
        else
            req[i].kind = mix == 1 && a % 5 == 0 ? bspram_kind_fetch(sum) : bspram_kind_reduce(sum);
    }
    bspram_combine(C, req, first, out.res, &out.st);
    bspram_gather_cells(C, bspram_address(s, seg, 0), ncells, out.mem); /* over MPI: from every rank */
    if (mix >= 1)
        check_serial(cell, req, n, out.res, out.mem, ncells);
    free(cell);
    free(req);
    free(first);
    bspram_combiner_destroy(C);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
    return out;
}

static void compare(uint64_t p, bspram_strategy strat, const char *basis, bspram_spread spread)
{
    outcome ref = run(p, 1, strat, basis, spread);
    for (int T = 2; T <= 4; T *= 2) {
        outcome o = run(p, T, strat, basis, spread);
        CHECK(!memcmp(ref.res, o.res, p * per * sizeof *o.res));
        CHECK(!memcmp(ref.mem, o.mem, o.ncells * sizeof *o.mem));
        CHECK_EQ_U64(ref.st.phases, o.st.phases);
        CHECK_EQ_U64(ref.st.charge, o.st.charge);
        CHECK_EQ_U64(ref.st.observed_degree, o.st.observed_degree);
        for (unsigned i = 1; i <= ref.st.phases; i++) {
            CHECK_EQ_U64(ref.st.forward_charge[i], o.st.forward_charge[i]);
            CHECK_EQ_U64(ref.st.forward_messages[i], o.st.forward_messages[i]);
            CHECK_EQ_U64(ref.st.reverse_charge[i], o.st.reverse_charge[i]);
        }
        free(o.res);
        free(o.mem);
    }
    free(ref.res);
    free(ref.mem);
}

int main(void)
{
    compare(64, BSPRAM_STRATEGY_FIXED, "4x4x4", BSPRAM_SPREAD_RANDOM);
    compare(64, BSPRAM_STRATEGY_FIXED, "8x8", BSPRAM_SPREAD_SOURCE);
    compare(4096, BSPRAM_STRATEGY_AUTO, NULL, BSPRAM_SPREAD_RANDOM);
    compare(4096, BSPRAM_STRATEGY_ADAPTIVE, NULL, BSPRAM_SPREAD_RANDOM);
    compare(4096, BSPRAM_STRATEGY_OBSERVE, NULL, BSPRAM_SPREAD_RANDOM);
    compare(1000, BSPRAM_STRATEGY_OBSERVE, NULL, BSPRAM_SPREAD_RANDOM);
    compare(7, BSPRAM_STRATEGY_FIXED, "7", BSPRAM_SPREAD_SOURCE);
    for (mix = 1; mix <= 3; mix++) {
        compare(64, BSPRAM_STRATEGY_FIXED, "4x4x4", BSPRAM_SPREAD_RANDOM);
        compare(4096, BSPRAM_STRATEGY_FIXED, "16x16x16", BSPRAM_SPREAD_RANDOM);
        compare(4096, BSPRAM_STRATEGY_AUTO, NULL, BSPRAM_SPREAD_RANDOM);
        compare(1000, BSPRAM_STRATEGY_FIXED, "1000", BSPRAM_SPREAD_SOURCE);
    }
    /* Large batches: the lanes' stages flushed mid-phase, in the forward
     * phases and in the reverse flow. */
    per = 4096;
    for (mix = 0; mix <= 3; mix++)
        compare(64, BSPRAM_STRATEGY_FIXED, "4x4x4", BSPRAM_SPREAD_RANDOM);
    per = 8;
    mix = 0;

    /* The table experiment: identical numbers for T = 1 and T = 2. */
    bspram_table_entry e1[4], e2[4];
    memset(e1, 0, sizeof e1);
    bspram_basis_require(&e1[0].basis, 256, "16x16");
    e1[0].degree = 64;
    bspram_basis_require(&e1[1].basis, 256, "256");
    e1[1].degree = 8;
    e1[2].strategy = BSPRAM_STRATEGY_ADAPTIVE;
    e1[2].degree = 32;
    e1[3].strategy = BSPRAM_STRATEGY_OBSERVE;
    e1[3].degree = 16;
    memcpy(e2, e1, sizeof e1);
    bspram_table_config cfg = {.p = 256, .v = 256 * 16, .runs = 5, .seed = 3, .threads = 1,
                               .spread = BSPRAM_SPREAD_RANDOM, .hash = BSPRAM_HASH_XXH3};
    double b1, b2;
    bspram_table_run(&cfg, e1, 4, &b1);
    cfg.threads = 2;
    bspram_table_run(&cfg, e2, 4, &b2);
    CHECK(b1 == b2);
    for (int i = 0; i < 4; i++) {
        CHECK(e1[i].total == e2[i].total);
        CHECK(e1[i].phases == e2[i].phases);
        for (unsigned k = 1; k <= e1[i].phases; k++)
            CHECK(e1[i].phase_charge[k] == e2[i].phase_charge[k]);
    }
    /* On the cycle model too: the same cycles for T = 1 and T = 2. */
    for (int sched = BSPRAM_SCHEDULE_CYCLES_SYNC; sched <= BSPRAM_SCHEDULE_ASYNC; sched++) {
        memcpy(e2, e1, sizeof e1);
        cfg.schedule = (bspram_schedule)sched;
        cfg.threads = 1;
        bspram_table_run(&cfg, e1, 4, &b1);
        cfg.threads = 2;
        bspram_table_run(&cfg, e2, 4, &b2);
        CHECK(b1 == b2 && b1 > 0);
        for (int i = 0; i < 4; i++)
            CHECK(e1[i].total == e2[i].total && e1[i].factor_sd == e2[i].factor_sd);
    }
    return check_report("test_combine_determinism");
}
