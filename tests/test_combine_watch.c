/* What the PRAM layer asks of the engine, checked against sequential
 * references: combining writes (cell ← ⊕ of the values), batches given per
 * component (parts) — the same answers and records as the array form — and
 * conflicts watched where requests merge: a conflict for exactly the cells
 * a reference finds, with the two least labels (READS, WRITES) or two labels
 * that write different values (VALUES); a common write under VALUES is
 * recorded, not fatal. Same seed, any T: the same conflicts. */
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

enum { CELLS = 300, Q = 6 };

typedef struct world {
    uint64_t p;
    bspram_machine *m;
    bspram_space *s;
    uint32_t seg;
    bspram_combiner *C;
} world;

static world make(uint64_t p, int threads, unsigned m_phases)
{
    world w;
    w.p = p;
    bspram_config cfg = bspram_config_default(p);
    cfg.threads = threads;
    w.m = bspram_machine_create(&cfg);
    w.s = bspram_space_create(p, BSPRAM_HASH_XXH3, 5);
    w.seg = bspram_segment_alloc(w.s, CELLS, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    if (m_phases == 2) {
        uint64_t b[2] = {4, p / 4};
        bspram_basis_make(&o.basis, p, 2, b, NULL, 0);
    }
    o.seed = 99;
    w.C = bspram_combiner_create(w.m, w.s, &o);
    return w;
}

static void unmake(world *w)
{
    bspram_combiner_destroy(w->C);
    bspram_space_destroy(w->s);
    bspram_machine_destroy(w->m);
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* p·Q requests of one kind, cells drawn from [0, span), label = request number. */
static void fill(const world *w, bspram_request *req, uint64_t *first, uint8_t kind, uint64_t span,
                 uint64_t seed, uint64_t values)
{
    uint64_t x = seed | 1;
    for (uint64_t c = 0; c <= w->p; c++)
        first[c] = c * Q;
    for (uint64_t i = 0; i < w->p * Q; i++) {
        req[i].address = bspram_address(w->s, w->seg, rnd(&x) % span);
        req[i].kind = kind;
        req[i].value = 1 + rnd(&x) % values;
        req[i].label = (uint32_t)(1000 + i);
    }
}

static uint64_t cell_of(uint64_t address) { return address & (BSPRAM_SEGMENT_MAX_CELLS - 1); }

/* Combining writes with sum and max: the cell gets the ⊕ of its values,
 * whatever it held; cells nobody writes keep their value. */
static void combining_writes(uint64_t p, int threads, unsigned m_phases)
{
    world w = make(p, threads, m_phases);
    unsigned ops[2] = {bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64),
                       bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_I64)};
    bspram_request *req = calloc(p * Q, sizeof *req);
    uint64_t *first = calloc(p + 1, sizeof *first);
    for (int k = 0; k < 2; k++) {
        for (uint64_t t = 0; t < CELLS; t++)
            bspram_store(w.s, bspram_address(w.s, w.seg, t), 7000 + t);
        fill(&w, req, first, bspram_kind_combine_write(ops[k]), CELLS, 11 + (uint64_t)k, 50);
        uint64_t expect[CELLS];
        int written[CELLS] = {0};
        for (uint64_t t = 0; t < CELLS; t++)
            expect[t] = 7000 + t;
        for (uint64_t i = 0; i < p * Q; i++) {
            uint64_t t = cell_of(req[i].address);
            expect[t] = written[t] ? bspram_op_apply(ops[k], expect[t], req[i].value) : req[i].value;
            written[t] = 1;
        }
        bspram_combine(w.C, req, first, NULL, NULL);
        for (uint64_t t = 0; t < CELLS; t++)
            CHECK_EQ_U64(bspram_load(w.s, bspram_address(w.s, w.seg, t)), expect[t]);
    }
    free(req);
    free(first);
    unmake(&w);
}

/* The parts form: the same answers and the same records as the array form. */
typedef struct parts_run {
    world *w;
    bspram_batch_part *parts;
} parts_run;

static void parts_lane(bspram_team *t, void *arg)
{
    parts_run *r = arg;
    bspram__combine_team_parts(t, r->w->C, r->parts, NULL);
}

static void parts_form(uint64_t p, int threads)
{
    unsigned fetch = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    bspram_request *req = calloc(p * Q, sizeof *req);
    uint64_t *first = calloc(p + 1, sizeof *first);
    uint64_t *res[2] = {calloc(p * Q, 8), calloc(p * Q, 8)};
    bspram_record *rec[2] = {NULL, NULL};
    size_t nrec[2] = {0, 0};
    uint64_t cells[2][CELLS];
    for (int form = 0; form < 2; form++) {
        world w = make(p, threads, 2);
        fill(&w, req, first, BSPRAM_READ, CELLS, 5, 10);
        for (uint64_t i = 0; i < p * Q; i += 3) /* a third fetch-and-add */
            req[i].kind = bspram_kind_fetch(fetch);
        for (uint64_t t = 0; t < CELLS; t++)
            bspram_store(w.s, bspram_address(w.s, w.seg, t), 3 * t);
        if (form == 0) {
            bspram_combine(w.C, req, first, res[0], NULL);
        } else {
            bspram_batch_part *parts = calloc(p, sizeof *parts);
            for (uint64_t c = 0; c < p; c++)
                parts[c] = (bspram_batch_part){.requests = req + first[c], .n = first[c + 1] - first[c], .results = res[1] + first[c]};
            parts_run r = {&w, parts};
            bspram__bsp_machine_team(w.m, parts_lane, &r);
            free(parts);
        }
        const bspram_record *rr = bspram_machine_records(w.m, &nrec[form]);
        rec[form] = malloc(nrec[form] * sizeof *rec[form] + 1);
        memcpy(rec[form], rr, nrec[form] * sizeof *rr);
        for (uint64_t t = 0; t < CELLS; t++)
            cells[form][t] = bspram_load(w.s, bspram_address(w.s, w.seg, t));
        unmake(&w);
    }
    CHECK(memcmp(res[0], res[1], p * Q * 8) == 0);
    CHECK(memcmp(cells[0], cells[1], sizeof cells[0]) == 0);
    CHECK_EQ_U64(nrec[0], nrec[1]);
    for (size_t i = 0; i < nrec[0] && i < nrec[1]; i++) {
        CHECK_EQ_U64(rec[0][i].charge, rec[1][i].charge);
        CHECK_EQ_U64(rec[0][i].messages, rec[1][i].messages);
        CHECK(strcmp(rec[0][i].label, rec[1][i].label) == 0);
    }
    /* the reads saw 3t */
    for (uint64_t i = 0; i < p * Q; i++)
        if (req[i].kind == BSPRAM_READ)
            CHECK_EQ_U64(res[1][i], 3 * cell_of(req[i].address));
    free(req);
    free(first);
    free(res[0]);
    free(res[1]);
    free(rec[0]);
    free(rec[1]);
}

/* Conflicts: run a batch of one kind under `watch`; compare with the
 * reference (per cell: the labels of its requests, and their values). */
static size_t conflicts(uint64_t p, int threads, unsigned m_phases, uint8_t kind, unsigned watch,
                        uint64_t span, uint64_t values, bspram_conflict *out, size_t max)
{
    world w = make(p, threads, m_phases);
    bspram_request *req = calloc(p * Q, sizeof *req);
    uint64_t *first = calloc(p + 1, sizeof *first);
    uint64_t *res = calloc(p * Q, 8);
    fill(&w, req, first, kind, span, 77, values);
    bspram_combiner_watch(w.C, watch);
    bspram_combine(w.C, req, first, res, NULL);
    size_t n = bspram_combiner_conflicts(w.C, out, max);
    CHECK_EQ_U64(bspram_combiner_conflicts(w.C, NULL, 0), n); /* kept until the next batch */

    /* reference */
    uint32_t least[CELLS][2];
    uint64_t count[CELLS] = {0}, firstval[CELLS];
    int differ[CELLS] = {0};
    for (uint64_t i = 0; i < p * Q; i++) {
        uint64_t t = cell_of(req[i].address);
        uint32_t l = req[i].label;
        if (count[t] == 0) {
            least[t][0] = l;
            firstval[t] = req[i].value;
        } else if (count[t] == 1) {
            least[t][1] = l > least[t][0] ? l : least[t][0];
            least[t][0] = l < least[t][0] ? l : least[t][0];
        } else if (l < least[t][1]) {
            least[t][1] = l < least[t][0] ? least[t][0] : l;
            least[t][0] = l < least[t][0] ? l : least[t][0];
        }
        if (req[i].value != firstval[t])
            differ[t] = 1;
        count[t]++;
    }
    size_t expect = 0;
    for (uint64_t t = 0; t < CELLS; t++)
        expect += watch == BSPRAM_WATCH_VALUES ? (size_t)differ[t] : (size_t)(count[t] >= 2);
    CHECK_EQ_U64(n, expect);
    for (size_t j = 0; j < n && j < max; j++) {
        uint64_t t = cell_of(out[j].address);
        CHECK_EQ_U64(out[j].what, watch);
        if (j)
            CHECK(out[j - 1].address < out[j].address);
        if (watch == BSPRAM_WATCH_VALUES) {
            /* two requests of this cell that write different values */
            uint64_t v0 = 0, v1 = 0;
            int seen = 0;
            for (uint64_t i = 0; i < p * Q; i++) {
                if (req[i].label == out[j].label[0] && cell_of(req[i].address) == t)
                    v0 = req[i].value, seen |= 1;
                if (req[i].label == out[j].label[1] && cell_of(req[i].address) == t)
                    v1 = req[i].value, seen |= 2;
            }
            CHECK_EQ_U64(seen, 3);
            CHECK(v0 != v1);
        } else {
            CHECK_EQ_U64(out[j].label[0], least[t][0]);
            CHECK_EQ_U64(out[j].label[1], least[t][1]);
        }
    }
    free(req);
    free(first);
    free(res);
    unmake(&w);
    return n;
}

static void common_unwatched(void *arg)
{
    (void)arg;
    bspram_conflict out[1];
    conflicts(8, 2, 1, BSPRAM_WRITE_COMMON, 0, 10, 3, out, 0);
}

/* DISTINCT: requests of one label never conflict with each other (a PRAM
 * VP's own repeated accesses). Labels shared by three consecutive requests;
 * a conflict for exactly the cells that two distinct labels reach, naming
 * the two least distinct labels. */
static void distinct_labels(uint64_t p, int threads, uint8_t kind, unsigned watch, uint64_t span)
{
    world w = make(p, threads, 2);
    bspram_request *req = calloc(p * Q, sizeof *req);
    uint64_t *first = calloc(p + 1, sizeof *first);
    uint64_t *res = calloc(p * Q, 8);
    fill(&w, req, first, kind, span, 31, 4);
    for (uint64_t i = 0; i < p * Q; i++) {
        req[i].label = (uint32_t)(500 + i / 3);
        if (i % 3 == 1) /* the same label often meets itself at one cell */
            req[i].address = req[i - 1].address;
    }
    bspram_combiner_watch(w.C, watch | BSPRAM_WATCH_DISTINCT);
    bspram_combine(w.C, req, first, res, NULL);
    static bspram_conflict out[CELLS];
    size_t n = bspram_combiner_conflicts(w.C, out, CELLS);
    uint32_t l0[CELLS], l1[CELLS];
    for (uint64_t t = 0; t < CELLS; t++)
        l0[t] = l1[t] = UINT32_MAX;
    for (uint64_t i = 0; i < p * Q; i++) { /* labels increase with i */
        uint64_t t = cell_of(req[i].address);
        if (l0[t] == UINT32_MAX)
            l0[t] = req[i].label;
        else if (req[i].label != l0[t] && l1[t] == UINT32_MAX)
            l1[t] = req[i].label;
    }
    size_t expect = 0, j = 0, same = 0;
    for (uint64_t t = 0; t < CELLS; t++) {
        if (l1[t] == UINT32_MAX)
            continue;
        expect++;
        if (j < n) {
            CHECK_EQ_U64(cell_of(out[j].address), t);
            CHECK_EQ_U64(out[j].label[0], l0[t]);
            CHECK_EQ_U64(out[j].label[1], l1[t]);
            CHECK_EQ_U64(out[j].what, watch);
            j++;
        }
    }
    for (uint64_t i = 0; i + 1 < p * Q; i += 3)
        same += req[i].address == req[i + 1].address;
    CHECK(same > 0 && expect > 0);
    CHECK_EQ_U64(n, expect);
    free(req);
    free(first);
    free(res);
    unmake(&w);
}

int main(void)
{
    /* First, while this process has started no OpenMP threads (a child
     * forked from a process with a libgomp thread pool can hang in it):
     * without VALUES a common-write conflict is still fatal. */
    check_death("common write unwatched", common_unwatched, NULL, "common-write conflict", 1, 20);
    combining_writes(8, 2, 2);
    combining_writes(3, 1, 1);
    parts_form(16, 2);
    parts_form(5, 3);

    static bspram_conflict a[CELLS], b[CELLS];
    const struct {
        uint8_t kind;
        unsigned watch;
        uint64_t span, values;
    } cases[] = {
        {BSPRAM_READ, BSPRAM_WATCH_READS, CELLS, 1},
        {BSPRAM_WRITE_ARBITRARY, BSPRAM_WATCH_WRITES, CELLS, 5},
        {BSPRAM_WRITE_PRIORITY, BSPRAM_WATCH_WRITES, CELLS, 5},
        {BSPRAM_WRITE_ARBITRARY, BSPRAM_WATCH_VALUES, CELLS, 2},
        {BSPRAM_WRITE_COMMON, BSPRAM_WATCH_VALUES, CELLS, 2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        /* p·Q = 96 requests on 300 cells (some meet) and on 20 (most meet) */
        for (int narrow = 0; narrow < 2; narrow++) {
            uint64_t span = narrow ? 20 : cases[k].span;
            size_t n1 = conflicts(16, 1, 2, cases[k].kind, cases[k].watch, span, cases[k].values, a, CELLS);
            size_t n4 = conflicts(16, 4, 2, cases[k].kind, cases[k].watch, span, cases[k].values, b, CELLS);
            CHECK(n1 > 0);
            CHECK_EQ_U64(n1, n4);
            for (size_t j = 0; j < n1; j++) {
                CHECK_EQ_U64(a[j].address, b[j].address);
                CHECK_EQ_U64(a[j].what, b[j].what);
                CHECK_EQ_U64(a[j].label[0], b[j].label[0]);
                CHECK_EQ_U64(a[j].label[1], b[j].label[1]);
            }
            conflicts(16, 2, 1, cases[k].kind, cases[k].watch, span, cases[k].values, a, CELLS);
        }
    }
    for (int t = 1; t <= 4; t *= 2) {
        distinct_labels(16, t, BSPRAM_READ, BSPRAM_WATCH_READS, 60);
        distinct_labels(16, t, BSPRAM_WRITE_ARBITRARY, BSPRAM_WATCH_WRITES, 60);
        distinct_labels(16, t, BSPRAM_WRITE_PRIORITY, BSPRAM_WATCH_WRITES, CELLS);
    }
    return check_report("test_combine_watch");
}
