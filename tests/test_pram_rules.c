/* The PRAM's rules (pram/pram.h) against a sequential reference
 * (pram_ref.h), model by model, on random steps: reads see memory before the
 * step's writes; arbitrary writes are won exactly as the engine documents;
 * priority by the least VP; common writes of equal values; combining writes,
 * scatter-reduce and fetch-and-op with several operations and a user
 * operation; k > 1 cells per VP, NONE slots, VPs hosted unevenly (the last
 * components host fewer or none). Also: a per-VP step and the same step in
 * bulk give the same memory, answers, statistics and trace. Under EREW and
 * CREW a VP that writes one cell several times in a step leaves its last
 * value there (in program order: its calls, or its slots in a bulk phase),
 * for every seed and thread count, with no violation (the cell got one of
 * the VP's values, seed by seed, before). */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pram_ref.h"

#define NONE_IDX UINT64_MAX

static uint64_t rnd(uint64_t a, uint64_t b, uint64_t c) { return bspram_random3(0x7e57, a, b, c); }

/* Slots of one phase: a cell index per slot or NONE_IDX (about 1 in 8).
 * exclusive: no cell in two slots (a prefix of a random permutation of the
 * m ≥ n·k cells); otherwise cells drawn from the m, so hot cells meet. */
static void make_slots(uint64_t nk, uint64_t m, bool exclusive, uint64_t tag, uint64_t *idx)
{
    if (exclusive) {
        uint64_t *perm = malloc(m * sizeof *perm);
        for (uint64_t i = 0; i < m; i++)
            perm[i] = i;
        for (uint64_t i = 0; i + 1 < m; i++) {
            uint64_t j = i + rnd(tag, 1, i) % (m - i);
            uint64_t x = perm[i];
            perm[i] = perm[j];
            perm[j] = x;
        }
        for (uint64_t s = 0; s < nk; s++)
            idx[s] = perm[s];
        free(perm);
    } else {
        for (uint64_t s = 0; s < nk; s++)
            idx[s] = rnd(tag, 2, s) % m;
    }
    for (uint64_t s = 0; s < nk; s++)
        if (rnd(tag, 3, s) % 8 == 0)
            idx[s] = NONE_IDX;
}

static void to_cells(const bspram_pram *P, bspram_pram_array A, const uint64_t *idx, uint64_t *cells,
                     uint64_t nk)
{
    for (uint64_t s = 0; s < nk; s++)
        cells[s] = idx[s] == NONE_IDX ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, A, idx[s]);
}

static bool memory_equal(const bspram_pram *P, bspram_pram_array A, const ref *r)
{
    uint64_t *mem = malloc(r->m * sizeof *mem);
    bspram_pram_store(P, A, mem, r->m);
    bool ok = memcmp(mem, r->mem, r->m * sizeof *mem) == 0;
    for (uint64_t t = 0; t < r->m && !ok; t++)
        if (mem[t] != r->mem[t]) {
            fprintf(stderr, "  cell %" PRIu64 ": pram %" PRIu64 ", reference %" PRIu64 "\n", t, mem[t], r->mem[t]);
            break;
        }
    free(mem);
    return ok;
}

static uint64_t gcd_op(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

typedef struct shape {
    uint64_t n, p, k;
    int threads;
    int basis; /* 0 AUTO, 1 one phase (FIXED p), 2 ADAPTIVE */
} shape;

static bspram_pram *make(const shape *sh, bspram_pram_model model, uint64_t seed)
{
    bspram_pram_config c = bspram_pram_config_default(sh->n, model);
    c.p = sh->p;
    c.threads = sh->threads;
    c.seed = seed;
    if (sh->basis == 1)
        c.combine = bspram_combine_defaults(sh->p);
    else if (sh->basis == 2)
        c.combine.strategy = BSPRAM_STRATEGY_ADAPTIVE;
    return bspram_pram_create(&c);
}

/* Steps of gathers and model-rule scatters under `model`. */
static void rule_steps(const shape *sh, bspram_pram_model model, unsigned op, bool user_op)
{
    const uint64_t n = sh->n, k = sh->k, nk = n * k, seed = 11;
    const bool exclusive = model == BSPRAM_EREW || model == BSPRAM_CREW;
    const uint64_t m = exclusive ? nk + 3 : (nk / 4 ? nk / 4 : 1);
    bspram_pram *P = make(sh, model, seed);
    ref r = ref_make(n, sh->p, m, model, op, seed);
    if (model == BSPRAM_CRCW_COMBINING) {
        if (user_op) {
            unsigned id = bspram_combiner_add_op(bspram_pram_combiner(P), "gcd", gcd_op, NULL, 0);
            r.user = gcd_op;
            op = id;
            r.op = id;
        }
        bspram_pram_set_op(P, op);
        CHECK_EQ_U64(bspram_pram_op(P), op);
    }
    bspram_pram_array A = bspram_pram_alloc(P, "A", m);
    for (uint64_t t = 0; t < m; t++)
        r.mem[t] = rnd(5, 0, t) % 1000 + 1;
    bspram_pram_load(P, A, r.mem, m);

    uint64_t *idx = malloc(nk * sizeof *idx), *cells = malloc(nk * sizeof *cells);
    uint64_t *out = malloc(nk * sizeof *out), *want = malloc(nk * sizeof *want);
    uint64_t *val = malloc(nk * sizeof *val);
    uint64_t work = 0;
    const int steps = 5;
    for (int st = 0; st < steps; st++) {
        /* the read phase: sees memory before this step's writes */
        make_slots(nk, m, model == BSPRAM_EREW, (uint64_t)st * 2, idx);
        to_cells(P, A, idx, cells, nk);
        for (uint64_t s = 0; s < nk; s++)
            out[s] = want[s] = 0xdead;
        bspram_pram_gather(P, k, cells, out);
        ref_gather(&r, k, idx, want);
        CHECK(memcmp(out, want, nk * sizeof *out) == 0);
        for (uint64_t s = 0; s < nk; s++)
            work += idx[s] != NONE_IDX;
        /* the write phase: values from what was read */
        make_slots(nk, m, exclusive, (uint64_t)st * 2 + 1, idx);
        to_cells(P, A, idx, cells, nk);
        for (uint64_t s = 0; s < nk; s++) {
            if (model == BSPRAM_CRCW_COMMON)
                val[s] = idx[s] * 7 + (uint64_t)st; /* one value per cell */
            else if (user_op)
                val[s] = (rnd(9, (uint64_t)st, s) % 50 + 1) * 6; /* gcds worth seeing */
            else
                val[s] = out[s] + rnd(9, (uint64_t)st, s) % 100;
            work += idx[s] != NONE_IDX;
        }
        bspram_pram_scatter(P, k, cells, val);
        ref_write(&r, k, idx, val, 'w', op);
        if (!memory_equal(P, A, &r)) {
            fprintf(stderr, "  %s, n=%" PRIu64 " p=%" PRIu64 " k=%" PRIu64 " T=%d, step %d\n",
                    bspram_pram_model_name(model), n, sh->p, k, sh->threads, st + 1);
            CHECK(0);
        }
    }
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, steps); /* a gather and its scatter make one step */
    CHECK_EQ_U64(s.work, work);
    CHECK_EQ_U64(s.violations, 0);
    CHECK(s.supersteps > 0 && s.charge > 0);
    size_t nt;
    const bspram_pram_step_record *tr = bspram_pram_trace(P, &nt);
    CHECK_EQ_U64(nt, steps);
    uint64_t ss = 0, ch = 0;
    for (size_t i = 0; i < nt; i++) {
        CHECK_EQ_U64(tr[i].step, i + 1);
        ss += tr[i].supersteps;
        ch += tr[i].charge;
    }
    CHECK_EQ_U64(ss, s.supersteps);
    CHECK_EQ_U64(ch, s.charge);
    free(idx);
    free(cells);
    free(out);
    free(want);
    free(val);
    ref_free(&r);
    bspram_pram_destroy(P);
}

/* Scatter-reduce and fetch-and-op (CRCW-combining). fetch_op's answers:
 * for sum:u64 with positive values, the answers at a cell sorted ascending
 * must be the cell before, then each plus its own value — a valid
 * multiprefix in some order — and the cell ends at the total. */
static void reduce_steps(const shape *sh, unsigned op, bool user_op)
{
    const uint64_t n = sh->n, k = sh->k, nk = n * k, m = nk / 3 ? nk / 3 : 1;
    bspram_pram *P = make(sh, BSPRAM_CRCW_COMBINING, 3);
    ref r = ref_make(n, sh->p, m, BSPRAM_CRCW_COMBINING, 0, 3);
    if (user_op) {
        op = bspram_combiner_add_op(bspram_pram_combiner(P), "gcd", gcd_op, NULL, 0);
        r.user = gcd_op;
    }
    bspram_pram_array A = bspram_pram_alloc(P, "A", m);
    for (uint64_t t = 0; t < m; t++)
        r.mem[t] = (rnd(6, 0, t) % 1000 + 1) * (user_op ? 12 : 1);
    bspram_pram_load(P, A, r.mem, m);
    uint64_t *idx = malloc(nk * sizeof *idx), *cells = malloc(nk * sizeof *cells);
    uint64_t *val = malloc(nk * sizeof *val), *out = malloc(nk * sizeof *out);
    for (int st = 0; st < 4; st++) {
        make_slots(nk, m, false, 100 + (uint64_t)st, idx);
        to_cells(P, A, idx, cells, nk);
        for (uint64_t s = 0; s < nk; s++)
            val[s] = user_op ? (rnd(7, (uint64_t)st, s) % 20 + 1) * 4 : rnd(7, (uint64_t)st, s) % 1000 + 1;
        if (st % 2 == 0 || user_op) {
            bspram_pram_scatter_reduce(P, k, cells, val, op);
            ref_write(&r, k, idx, val, 'r', op);
        } else {
            uint64_t *before = malloc(m * sizeof *before);
            memcpy(before, r.mem, m * sizeof *before);
            for (uint64_t s = 0; s < nk; s++)
                out[s] = 0xdead;
            bspram_pram_fetch_op(P, k, cells, val, op, out);
            ref_write(&r, k, idx, val, 'r', op);
            bool ok = true;
            for (uint64_t s = 0; s < nk; s++)
                if (idx[s] == NONE_IDX && out[s] != 0xdead)
                    ok = false; /* NONE: out left unchanged */
            if (op == bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64)) {
                /* per cell: the answers in ascending order chain from before to after */
                for (uint64_t t = 0; t < m && ok; t++) {
                    uint64_t cur = before[t];
                    for (;;) {
                        uint64_t s, hit = UINT64_MAX;
                        for (s = 0; s < nk; s++)
                            if (idx[s] == t && out[s] == cur) {
                                hit = s;
                                break;
                            }
                        if (hit == UINT64_MAX)
                            break;
                        cur += val[hit];
                        idx[hit] = NONE_IDX - 1; /* used */
                    }
                    if (cur != r.mem[t])
                        ok = false;
                }
                for (uint64_t s = 0; s < nk; s++)
                    if (idx[s] != NONE_IDX && idx[s] != NONE_IDX - 1)
                        ok = false; /* an answer that fits no chain */
            }
            CHECK(ok);
            free(before);
        }
        CHECK(memory_equal(P, A, &r));
    }
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, 4); /* each write phase without a gather is a step */
    free(idx);
    free(cells);
    free(val);
    free(out);
    ref_free(&r);
    bspram_pram_destroy(P);
}

/* ---- a per-VP step and the same step in bulk ---- */

typedef struct prog {
    bspram_pram_array A, B;
    uint64_t m, step;
} prog;

/* Read: A[(3i + step) mod m], and, for odd i, B[i mod m] too.
 * Write: A[(5i + step) mod m] ← sum of the reads + register 0 (CRCW-priority);
 * VPs divisible by 7 write nothing. Register 0 accumulates the reads. */
static void prog_read(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    uint64_t i = bspram_vp_id(vp);
    CHECK_EQ_U64(bspram_vp_read(vp, g->A, (3 * i + g->step) % g->m), 0);
    if (i % 2)
        CHECK_EQ_U64(bspram_vp_read(vp, g->B, i % g->m), 1);
}

static void prog_write(bspram_vp *vp, void *arg)
{
    const prog *g = arg;
    uint64_t i = bspram_vp_id(vp);
    uint64_t *reg = bspram_vp_registers(vp);
    uint64_t x = bspram_vp_value(vp, 0) + (i % 2 ? bspram_vp_value(vp, 1) : 0);
    reg[0] += x;
    if (i % 7)
        bspram_vp_write(vp, g->A, (5 * i + g->step) % g->m, x + reg[0]);
}

static void prog_equivalence(const shape *sh)
{
    const uint64_t n = sh->n, m = n / 2 + 1;
    bspram_pram *P1 = make(sh, BSPRAM_CRCW_PRIORITY, 5), *P2 = make(sh, BSPRAM_CRCW_PRIORITY, 5);
    prog g1 = {bspram_pram_alloc(P1, "A", m), bspram_pram_alloc(P1, "B", m), m, 0};
    prog g2 = {bspram_pram_alloc(P2, "A", m), bspram_pram_alloc(P2, "B", m), m, 0};
    uint64_t *init = malloc(m * sizeof *init);
    for (uint64_t t = 0; t < m; t++)
        init[t] = t * t + 1;
    bspram_pram_load(P1, g1.A, init, m);
    bspram_pram_load(P2, g2.A, init, m);
    bspram_pram_load(P1, g1.B, init, m);
    bspram_pram_load(P2, g2.B, init, m);
    uint64_t *cells = malloc(2 * n * sizeof *cells), *out = malloc(2 * n * sizeof *out);
    uint64_t *val = malloc(n * sizeof *val), *reg = calloc(n, sizeof *reg);
    uint64_t *m1 = malloc(m * sizeof *m1), *m2 = malloc(m * sizeof *m2);
    for (uint64_t st = 0; st < 4; st++) {
        g1.step = g2.step = st;
        bspram_pram_step(P1, prog_read, prog_write, &g1);
        /* bulk: k = 2, the second slot NONE for even VPs */
        for (uint64_t i = 0; i < n; i++) {
            cells[2 * i] = bspram_pram_cell(P2, g2.A, (3 * i + st) % m);
            cells[2 * i + 1] = i % 2 ? bspram_pram_cell(P2, g2.B, i % m) : BSPRAM_PRAM_NONE;
        }
        bspram_pram_gather(P2, 2, cells, out);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t x = out[2 * i] + (i % 2 ? out[2 * i + 1] : 0);
            reg[i] += x;
            cells[i] = i % 7 ? bspram_pram_cell(P2, g2.A, (5 * i + st) % m) : BSPRAM_PRAM_NONE;
            val[i] = x + reg[i];
        }
        bspram_pram_scatter(P2, 1, cells, val);
        bspram_pram_store(P1, g1.A, m1, m);
        bspram_pram_store(P2, g2.A, m2, m);
        CHECK(memcmp(m1, m2, m * sizeof *m1) == 0);
    }
    /* the same requests in the same order: the same batches, records and costs */
    bspram_pram_stats s1 = bspram_pram_stats_of(P1), s2 = bspram_pram_stats_of(P2);
    CHECK_EQ_U64(s1.steps, 4);
    CHECK_EQ_U64(s1.steps, s2.steps);
    CHECK_EQ_U64(s1.work, s2.work);
    CHECK_EQ_U64(s1.supersteps, s2.supersteps);
    CHECK_EQ_U64(s1.charge, s2.charge);
    size_t n1, n2;
    const bspram_pram_step_record *t1 = bspram_pram_trace(P1, &n1), *t2 = bspram_pram_trace(P2, &n2);
    CHECK(n1 == n2 && memcmp(t1, t2, n1 * sizeof *t1) == 0);
    free(init);
    free(cells);
    free(out);
    free(val);
    free(reg);
    free(m1);
    free(m2);
    bspram_pram_destroy(P1);
    bspram_pram_destroy(P2);
}

/* Reads see memory before the step's writes: every VP reads A[i] and
 * writes A[(i+1) mod n] in one per-VP step (EREW: all exclusive). */
static void shift_read(bspram_vp *vp, void *arg)
{
    bspram_vp_read(vp, *(bspram_pram_array *)arg, bspram_vp_id(vp));
}

static void shift_write(bspram_vp *vp, void *arg)
{
    uint64_t i = bspram_vp_id(vp), n = bspram_vp_n(vp);
    bspram_vp_write(vp, *(bspram_pram_array *)arg, (i + 1) % n, bspram_vp_value(vp, 0));
}

static void shift(const shape *sh)
{
    bspram_pram *P = make(sh, BSPRAM_EREW, 1);
    const uint64_t n = sh->n;
    bspram_pram_array A = bspram_pram_alloc(P, NULL, n);
    uint64_t *v = malloc(n * sizeof *v);
    for (uint64_t i = 0; i < n; i++)
        v[i] = i;
    bspram_pram_load(P, A, v, n);
    for (int st = 0; st < 3; st++)
        bspram_pram_step(P, shift_read, shift_write, &A);
    bspram_pram_store(P, A, v, n);
    bool ok = true;
    for (uint64_t i = 0; i < n; i++)
        ok &= v[i] == (i + n - 3 % n) % n;
    CHECK(ok);
    bspram_pram_stats s = bspram_pram_stats_of(P);
    CHECK_EQ_U64(s.steps, 3);
    CHECK_EQ_U64(s.work, 6 * n);
    free(v);
    bspram_pram_destroy(P);
}

/* ---- a VP's own writes to one cell (EREW, CREW) ---- */

#define OWN_N 37
#define OWN_WRITES 40 /* past the short lists' quadratic pass */

typedef struct own_prog {
    bspram_pram_array A, B;
    int many; /* OWN_WRITES writes per VP instead of five */
} own_prog;

/* VP i's j-th write: cell A[i] or B[i], and its value. */
static void own_write(uint64_t i, int j, int many, int *to_b, uint64_t *value)
{
    *to_b = many ? (int)(rnd(i, 7, (uint64_t)j) % 3 == 0) : j == 1;
    *value = 1000 * (uint64_t)j + i;
}

static int own_count(int many) { return many ? OWN_WRITES : 5; }

static void own_body(bspram_vp *vp, void *arg)
{
    const own_prog *g = arg;
    const uint64_t i = bspram_vp_id(vp);
    for (int j = 0; j < own_count(g->many); j++) {
        int to_b;
        uint64_t v;
        own_write(i, j, g->many, &to_b, &v);
        bspram_vp_write(vp, to_b ? g->B : g->A, i, v);
    }
}

/* One step of every VP's writes, by form: 0 per-VP step, 1 textbook, 2
 * bulk (slots in program order, a NONE among them). A[i] and B[i] must
 * hold VP i's last writes there. */
static void own_writes(bspram_pram_model model, int form, int many, int threads, uint64_t seed)
{
    bspram_pram_config c = bspram_pram_config_default(OWN_N, model);
    c.p = 5;
    c.threads = threads;
    c.seed = seed;
    bspram_pram *P = bspram_pram_create(&c);
    own_prog g = {bspram_pram_alloc(P, "A", OWN_N), bspram_pram_alloc(P, "B", OWN_N), many};
    const int w = own_count(many);
    uint64_t want_a[OWN_N] = {0}, want_b[OWN_N] = {0};
    uint64_t *cells = malloc((size_t)OWN_N * (w + 1) * sizeof *cells);
    uint64_t *values = malloc((size_t)OWN_N * (w + 1) * sizeof *values);
    for (uint64_t i = 0; i < OWN_N; i++)
        for (int j = 0; j <= w; j++) {
            const size_t s = i * (size_t)(w + 1) + (size_t)j;
            if (j == 2) { /* a NONE slot among the VP's slots */
                cells[s] = BSPRAM_PRAM_NONE, values[s] = 0;
                continue;
            }
            int to_b;
            uint64_t v;
            own_write(i, j - (j > 2), many, &to_b, &v);
            cells[s] = bspram_pram_cell(P, to_b ? g.B : g.A, i);
            values[s] = v;
            (to_b ? want_b : want_a)[i] = v;
        }
    if (form == 0)
        bspram_pram_step(P, NULL, own_body, &g);
    else if (form == 1)
        bspram_pram_for_all(P, own_body, &g);
    else
        bspram_pram_scatter(P, (uint64_t)(w + 1), cells, values);
    uint64_t a[OWN_N], b[OWN_N];
    bspram_pram_store(P, g.A, a, OWN_N);
    bspram_pram_store(P, g.B, b, OWN_N);
    bool same = !memcmp(a, want_a, sizeof a) && !memcmp(b, want_b, sizeof b);
    CHECK(same);
    if (!same)
        fprintf(stderr, "  %s, form %d, %d writes per VP, T = %d, seed %" PRIu64 ": A[0] = %" PRIu64
                ", want %" PRIu64 "\n", bspram_pram_model_name(model), form, w, threads, seed, a[0],
                want_a[0]);
    const bspram_pram_stats st = bspram_pram_stats_of(P);
    CHECK_EQ_U64(st.violations, 0);
    CHECK_EQ_U64(st.weakest, BSPRAM_EREW);
    free(cells);
    free(values);
    bspram_pram_destroy(P);
}

/* A bulk scatter under the last-write rule where the VPs of only some
 * components write one cell twice (their requests are built and rewritten)
 * and the others' VPs write distinct cells, with NONE slots among them (the
 * engine reads their slots as they are): A and B must hold each VP's last
 * write to each cell, computed here in slot order. */
#define MIX_N 200
#define MIX_K 3
static void mixed_writes(bspram_pram_model model, int threads, uint64_t seed)
{
    bspram_pram_config c = bspram_pram_config_default(MIX_N, model);
    c.p = 8; /* 25 VPs a component */
    c.threads = threads;
    c.seed = seed;
    bspram_pram *P = bspram_pram_create(&c);
    const bspram_pram_array A = bspram_pram_alloc(P, "A", MIX_N), B = bspram_pram_alloc(P, "B", MIX_N);
    uint64_t cells[MIX_N * MIX_K], values[MIX_N * MIX_K], want_a[MIX_N] = {0}, want_b[MIX_N] = {0};
    for (uint64_t i = 0; i < MIX_N; i++) {
        const uint64_t comp = i / 25;
        for (int j = 0; j < MIX_K; j++) {
            const size_t s = i * MIX_K + (size_t)j;
            values[s] = 1000 * (uint64_t)j + i + seed;
            int to = -1; /* -1 NONE, 0 A[i], 1 B[i] */
            if ((comp == 2 || comp == 5) && i % 2 == 0)
                to = j == 1 ? -1 : 0; /* A[i] twice: the second counts */
            else if (i % 3 == 0)
                to = j == 0 ? -1 : j - 1;
            else
                to = j == 2 ? -1 : j;
            cells[s] = to < 0 ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, to ? B : A, i);
            if (to >= 0)
                (to ? want_b : want_a)[i] = values[s];
        }
    }
    bspram_pram_scatter(P, MIX_K, cells, values);
    uint64_t a[MIX_N], b[MIX_N];
    bspram_pram_store(P, A, a, MIX_N);
    bspram_pram_store(P, B, b, MIX_N);
    const bool same = !memcmp(a, want_a, sizeof a) && !memcmp(b, want_b, sizeof b);
    CHECK(same);
    if (!same)
        fprintf(stderr, "  mixed writes: %s, T = %d, seed %" PRIu64 "\n", bspram_pram_model_name(model), threads,
                seed);
    CHECK_EQ_U64(bspram_pram_stats_of(P).violations, 0);
    bspram_pram_destroy(P);
}

int main(void)
{
    for (int model = BSPRAM_EREW; model <= BSPRAM_CREW; model++)
        for (int form = 0; form < 3; form++)
            for (int many = 0; many < 2; many++)
                for (int threads = 1; threads <= 3; threads++)
                    for (uint64_t seed = 1; seed <= 6; seed++)
                        own_writes((bspram_pram_model)model, form, many, threads, seed);
    for (int model = BSPRAM_EREW; model <= BSPRAM_CREW; model++)
        for (int threads = 1; threads <= 3; threads++)
            for (uint64_t seed = 1; seed <= 3; seed++)
                mixed_writes((bspram_pram_model)model, threads, seed);

    const shape shapes[] = {
        {1000, 64, 1, 2, 0}, /* per = 16: components 62 and 63 host 8 and 0 VPs */
        {1000, 64, 3, 2, 2},
        {777, 1, 2, 2, 0},   /* one component */
        {5, 8, 2, 4, 1},     /* more components than VPs */
        {4096, 512, 2, 1, 0},
    };
    const size_t nshapes = sizeof shapes / sizeof shapes[0];
    const unsigned sum_i64 = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64);
    const unsigned combining_ops[] = {
        sum_i64, bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_U64),
        bspram_op_builtin(BSPRAM_OP_XOR, BSPRAM_TYPE_U64), bspram_op_builtin(BSPRAM_OP_MIN, BSPRAM_TYPE_I64),
        bspram_op_builtin(BSPRAM_OP_PROD, BSPRAM_TYPE_U64)};
    for (size_t i = 0; i < nshapes; i++) {
        const shape *sh = &shapes[i];
        for (int model = BSPRAM_EREW; model < BSPRAM_CRCW_COMBINING; model++)
            rule_steps(sh, (bspram_pram_model)model, sum_i64, false);
        for (size_t j = 0; j < sizeof combining_ops / sizeof combining_ops[0]; j++)
            rule_steps(sh, BSPRAM_CRCW_COMBINING, combining_ops[j], false);
        rule_steps(sh, BSPRAM_CRCW_COMBINING, 0, true); /* gcd, a user operation */
        reduce_steps(sh, bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64), false);
        reduce_steps(sh, bspram_op_builtin(BSPRAM_OP_MAX, BSPRAM_TYPE_I64), false);
        reduce_steps(sh, 0, true);
        prog_equivalence(sh);
        shift(sh);
    }
    return check_report("test_pram_rules");
}
