/* A random bulk program on the shared memory of combine/shared.h and its
 * sequential reference, shared by the tests of that layer.
 *
 * Components issue every species mixed — reads, writes of each policy,
 * reductions and fetch-and-ops with built-in and user operations, combining
 * writes — on segments of every layout and widths 1..8, and send each other
 * the messages of tests/pattern.h. The plan is a pure function of (seed,
 * step, component, request), so the host computes the reference memory of
 * every step before the run; each step checks its inbox and the answers to
 * its previous step's requests against it, and records every answer for the
 * checks that need all components (fetch-and-op prefixes) and for
 * comparisons between thread counts.
 *
 * Step kinds (by step mod 4): 0 mixed requests and messages; 1 mixed
 * requests, no messages; 2 messages, no requests (no batch); 3 updates only
 * (no reverse flow) and messages. Per step and cell the plan picks one
 * update species (combine.h: one per cell and batch). */
#ifndef BSPRAM_TESTS_SHARED_PROGRAM_H
#define BSPRAM_TESTS_SHARED_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bspram.h"
#include "check.h"
#include "pattern.h"

enum { SP_SEGS = 10 };

/* Species a cell may get in a step. */
enum {
    SP_NONE = 0, SP_ARB, SP_PRIO, SP_COMMON, /* the ones any width takes */
    SP_RED_SUM, SP_RED_XOR, SP_RED_MAX_I64, SP_RED_UADD, SP_RED_SUM_F64,
    SP_FETCH_SUM, SP_FETCH_UADD, SP_FETCH_MAX_U64,
    SP_CW_SUM, SP_CW_UMAX, SP_CW_MIN_I64,
    SP_SPECIES
};

typedef enum { SP_OPTIONS_AUTO = 0, SP_OPTIONS_FIXED = 1, SP_OPTIONS_ADAPTIVE = 2 } sp_options;

typedef struct sp_config {
    uint64_t p;
    int threads;
    uint64_t seed;
    uint64_t steps;
    uint64_t max_req;    /* requests per component and step: uniform in [0, max_req] */
    sp_options options;
} sp_config;

/* One request of the plan. */
typedef struct sp_req {
    uint64_t cell;       /* global cell number */
    bspram_request r;
    int generic;         /* issue through bspram_shared_issue */
} sp_req;

typedef struct sp_world {
    sp_config cfg;
    bspram_machine *m;
    bspram_space *s;
    bspram_shared *sh;
    uint32_t seg[SP_SEGS];
    unsigned w[SP_SEGS];
    uint64_t n[SP_SEGS], base[SP_SEGS + 1]; /* global cell numbers base[i] .. base[i+1] */
    unsigned op_uadd, op_umax;
    uint64_t comb_seed;
    pattern pt;
    expected *e;        /* [steps]: the inboxes each step's messages give */
    uint64_t **mem;     /* [steps + 1][cells]: the reference before each step */
    uint64_t ***got;    /* [steps][p][requests]: the answers the components saw */
} sp_world;

static const unsigned sp_widths[SP_SEGS] = {8, 1, 2, 3, 4, 5, 6, 7, 8, 8};
static const uint64_t sp_cells[SP_SEGS] = {61, 23, 17, 19, 29, 11, 13, 7, 37, 41};

static inline uint64_t sp_cells_total(const sp_world *w) { return w->base[SP_SEGS]; }
static inline unsigned sp_mode(uint64_t s) { return (unsigned)(s % 4); }
static inline bool sp_sends(uint64_t s) { return sp_mode(s) != 1; }

static uint64_t sp_uadd(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a + b;
}

static uint64_t sp_umax(uint64_t a, uint64_t b, void *ctx)
{
    (void)ctx;
    return a > b ? a : b;
}

static inline uint64_t sp_mask(unsigned w, uint64_t v)
{
    return w >= 8 ? v : v & ((UINT64_C(1) << (8 * w)) - 1);
}

static inline unsigned sp_seg_of(const sp_world *w, uint64_t cell)
{
    unsigned i = 0;
    while (cell >= w->base[i + 1])
        i++;
    return i;
}

static inline uint64_t sp_count(const sp_world *w, uint64_t s, uint64_t c)
{
    if (sp_mode(s) == 2)
        return 0;
    return bspram_random_below(w->cfg.max_req + 1, w->cfg.seed, s, c, 1);
}

/* The segment whose cells take floating-point sums: its values stay whole
 * numbers, so every order of summation gives the same bits. */
enum { SP_F64_SEG = SP_SEGS - 1 };

static inline unsigned sp_species(const sp_world *w, uint64_t s, uint64_t cell)
{
    unsigned seg = sp_seg_of(w, cell), width = w->w[seg];
    uint64_t x = bspram_random3(w->cfg.seed ^ 0x5eedu, s, cell, 7);
    if (seg == SP_F64_SEG)
        return sp_mode(s) == 3 || x % 2 ? SP_RED_SUM_F64 : SP_NONE;
    if (width < 8)
        return sp_mode(s) == 3 ? 1 + (unsigned)(x % 3) : (unsigned)(x % 4);
    if (sp_mode(s) == 3) { /* no fetch, no read-only cells */
        static const unsigned upd[] = {SP_ARB, SP_PRIO, SP_COMMON, SP_RED_SUM, SP_RED_XOR,
                                       SP_RED_MAX_I64, SP_RED_UADD, SP_RED_SUM_F64, SP_CW_SUM,
                                       SP_CW_UMAX, SP_CW_MIN_I64};
        unsigned sp = upd[x % (sizeof upd / sizeof upd[0])];
        return sp == SP_RED_SUM_F64 ? SP_RED_SUM : sp;
    }
    unsigned sp = (unsigned)(x % SP_SPECIES);
    return sp == SP_RED_SUM_F64 ? SP_RED_SUM : sp;
}

static inline uint64_t sp_f64(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

static inline uint8_t sp_kind(const sp_world *w, unsigned sp)
{
    const unsigned u64 = BSPRAM_TYPE_U64, i64 = BSPRAM_TYPE_I64;
    switch (sp) {
    case SP_ARB: return BSPRAM_WRITE_ARBITRARY;
    case SP_PRIO: return BSPRAM_WRITE_PRIORITY;
    case SP_COMMON: return BSPRAM_WRITE_COMMON;
    case SP_RED_SUM: return bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, u64));
    case SP_RED_XOR: return bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_XOR, u64));
    case SP_RED_MAX_I64: return bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_MAX, i64));
    case SP_RED_UADD: return bspram_kind_reduce(w->op_uadd);
    case SP_RED_SUM_F64: return bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_F64));
    case SP_FETCH_SUM: return bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_SUM, u64));
    case SP_FETCH_UADD: return bspram_kind_fetch(w->op_uadd);
    case SP_FETCH_MAX_U64: return bspram_kind_fetch(bspram_op_builtin(BSPRAM_OP_MAX, u64));
    case SP_CW_SUM: return bspram_kind_combine_write(bspram_op_builtin(BSPRAM_OP_SUM, u64));
    case SP_CW_UMAX: return bspram_kind_combine_write(w->op_umax);
    case SP_CW_MIN_I64: return bspram_kind_combine_write(bspram_op_builtin(BSPRAM_OP_MIN, i64));
    default: return BSPRAM_READ;
    }
}

/* a ⊕ b for the operation of an op kind (built in or the world's user ops). */
static inline uint64_t sp_apply(const sp_world *w, unsigned op, uint64_t a, uint64_t b)
{
    if (op == w->op_uadd)
        return sp_uadd(a, b, NULL);
    if (op == w->op_umax)
        return sp_umax(a, b, NULL);
    return bspram_op_apply(op, a, b);
}

/* Request j of component c in step s. */
static inline sp_req sp_plan(const sp_world *w, uint64_t s, uint64_t c, uint64_t j)
{
    const uint64_t seed = w->cfg.seed;
    sp_req q;
    memset(&q, 0, sizeof q);
    q.cell = bspram_random_below(sp_cells_total(w), seed, s, c, 100 + 2 * j);
    unsigned i = sp_seg_of(w, q.cell);
    unsigned sp = sp_species(w, s, q.cell);
    bool read = sp == SP_NONE || (sp_mode(s) != 3 && bspram_random_below(3, seed, s, c, 101 + 2 * j) == 0);
    q.r.address = bspram_address(w->s, w->seg[i], q.cell - w->base[i]);
    q.r.kind = read ? BSPRAM_READ : sp_kind(w, sp);
    uint64_t x = bspram_random3(seed ^ 0x76616c, s, c, j);
    switch (read ? SP_NONE : sp) {
    case SP_COMMON: q.r.value = bspram_random3(seed ^ 0xc0, s, q.cell, 0); break;
    case SP_RED_SUM_F64: q.r.value = sp_f64((double)(int)(x % 2001) - 1000.0); break;
    case SP_FETCH_SUM: case SP_FETCH_UADD: q.r.value = 1 + x % 100000; break;
    default: q.r.value = x; break;
    }
    q.r.label = (uint32_t)c;
    q.generic = q.r.kind >= 96 || bspram_random_below(2, seed, s, c, 1000 + j) == 0;
    return q;
}

/* Issue q from component self; returns the index the call gave. */
static inline size_t sp_issue(sp_world *w, bspram_component *self, const sp_req *q)
{
    unsigned k = q->r.kind;
    if (q->generic)
        return bspram_shared_issue(w->sh, self, &q->r);
    if (k == BSPRAM_READ)
        return bspram_shared_read(w->sh, self, q->r.address);
    if (k <= BSPRAM_WRITE_COMMON)
        return bspram_shared_write(w->sh, self, q->r.address, q->r.value, k);
    if (k < 64)
        return bspram_shared_reduce(w->sh, self, q->r.address, k - 32, q->r.value);
    return bspram_shared_fetch(w->sh, self, q->r.address, k - 64, q->r.value);
}

/* The reference: mem[s + 1] from mem[s] and step s's requests. */
static void sp_reference_step(sp_world *w, uint64_t s)
{
    const uint64_t cells = sp_cells_total(w);
    const uint64_t *before = w->mem[s];
    uint64_t *after = w->mem[s + 1];
    memcpy(after, before, cells * sizeof *after);
    /* the winners of arbitrary and priority writes, and combining writes' first value */
    uint64_t *key = malloc(cells * sizeof *key);
    bool *seen = calloc(cells, sizeof *seen);
    for (uint64_t c = 0; c < w->cfg.p; c++) {
        uint64_t k = sp_count(w, s, c);
        for (uint64_t j = 0; j < k; j++) {
            sp_req q = sp_plan(w, s, c, j);
            unsigned kind = q.r.kind;
            uint64_t g = q.cell, v = q.r.value;
            if (kind == BSPRAM_READ)
                continue;
            if (kind == BSPRAM_WRITE_ARBITRARY) {
                uint64_t r = bspram_random2(w->comb_seed, c, j);
                if (!seen[g] || r < key[g] || (r == key[g] && v < after[g])) {
                    key[g] = r;
                    after[g] = v; /* masked below */
                }
            } else if (kind == BSPRAM_WRITE_PRIORITY) {
                if (!seen[g])
                    after[g] = v; /* the first in (component, index) order */
            } else if (kind == BSPRAM_WRITE_COMMON) {
                after[g] = v;
            } else if (kind >= 96) { /* combining write: ⊕ of the values */
                after[g] = seen[g] ? sp_apply(w, kind - 96, after[g], v) : v;
            } else { /* reduce or fetch: cell ⊕ values */
                after[g] = sp_apply(w, kind % 32, after[g], v);
            }
            seen[g] = true;
        }
    }
    for (uint64_t g = 0; g < cells; g++)
        after[g] = sp_mask(w->w[sp_seg_of(w, g)], after[g]);
    free(key);
    free(seen);
}

/* Check component c's answers to its step-s requests and record them. */
static void sp_check_answers(sp_world *w, uint64_t s, uint64_t c, const uint64_t *ans, size_t n)
{
    uint64_t k = sp_count(w, s, c);
    CHECK_EQ_U64(n, k);
    if (n != k)
        return;
    CHECK(n == 0 || ans != NULL);
    int ok = 1;
    for (uint64_t j = 0; j < k; j++) {
        sp_req q = sp_plan(w, s, c, j);
        unsigned kind = q.r.kind;
        if (kind == BSPRAM_READ)
            ok &= ans[j] == w->mem[s][q.cell]; /* memory before the step's updates */
        else if (!(kind >= 64 && kind < 96))
            ok &= ans[j] == 0; /* no answer */
        w->got[s][c][j] = ans[j];
    }
    CHECK(ok);
}

/* Fetch-and-op answers of step s: per cell, a chain from the cell's value
 * before the step in which each answer is the ⊕ of the ones before it. */
static void sp_check_fetches(sp_world *w, uint64_t s)
{
    const uint64_t cells = sp_cells_total(w);
    for (uint64_t g = 0; g < cells; g++) {
        unsigned sp = sp_species(w, s, g);
        if (sp != SP_FETCH_SUM && sp != SP_FETCH_UADD && sp != SP_FETCH_MAX_U64)
            continue;
        uint64_t cap = 16, n = 0;
        uint64_t *val = malloc(cap * sizeof *val), *ans = malloc(cap * sizeof *ans);
        unsigned op = 0;
        for (uint64_t c = 0; c < w->cfg.p; c++) {
            uint64_t k = sp_count(w, s, c);
            for (uint64_t j = 0; j < k; j++) {
                sp_req q = sp_plan(w, s, c, j);
                if (q.cell != g || q.r.kind < 64 || q.r.kind >= 96)
                    continue;
                if (n == cap) {
                    cap *= 2;
                    val = realloc(val, cap * sizeof *val);
                    ans = realloc(ans, cap * sizeof *ans);
                }
                op = q.r.kind - 64;
                val[n] = q.r.value;
                ans[n++] = w->got[s][c][j];
            }
        }
        /* Greedy: take a request whose answer is the running value, one
         * that leaves it unchanged first (in a valid chain at most one that
         * changes it can match). */
        uint64_t cur = w->mem[s][g];
        bool ok = true;
        for (uint64_t done = 0; done < n && ok; done++) {
            uint64_t pick = n;
            for (uint64_t i = done; i < n; i++) {
                if (ans[i] != cur)
                    continue;
                pick = i;
                if (sp_apply(w, op, cur, val[i]) == cur)
                    break;
            }
            if (pick == n) {
                ok = false;
                break;
            }
            cur = sp_apply(w, op, cur, val[pick]);
            uint64_t tv = val[pick], ta = ans[pick];
            val[pick] = val[done];
            ans[pick] = ans[done];
            val[done] = tv;
            ans[done] = ta;
        }
        CHECK(ok);
        CHECK_EQ_U64(cur, w->mem[s + 1][g]);
        free(val);
        free(ans);
    }
}

/* The step: check the inbox and the answers, issue, send. */
static bool sp_step(bspram_component *self, void *arg)
{
    sp_world *w = arg;
    uint64_t c = bspram_pid(self);
    uint64_t *mine = bspram_local(self);
    uint64_t s = (*mine)++;
    const bspram_message *in;
    size_t n = bspram_inbox(self, &in);
    if (s == 0)
        CHECK_EQ_U64(n, 0);
    else if (sp_sends(s - 1))
        CHECK(inbox_matches(&w->e[s - 1], s - 1, c, in, n));
    else
        CHECK_EQ_U64(n, 0);
    const uint64_t *ans;
    size_t na = bspram_shared_answers(w->sh, self, &ans);
    if (s == 0)
        CHECK_EQ_U64(na, 0);
    else
        sp_check_answers(w, s - 1, c, ans, na);
    uint64_t k = sp_count(w, s, c);
    for (uint64_t j = 0; j < k; j++) {
        sp_req q = sp_plan(w, s, c, j);
        CHECK_EQ_U64(sp_issue(w, self, &q), j);
    }
    if (sp_sends(s))
        pattern_send(self, &w->pt, s, c);
    return s + 1 < w->cfg.steps;
}

static void sp_create(sp_world *w, const sp_config *cfg)
{
    memset(w, 0, sizeof *w);
    w->cfg = *cfg;
    const uint64_t p = cfg->p, steps = cfg->steps;
    bspram_config mc = bspram_config_default(p);
    mc.threads = cfg->threads;
    mc.seed = cfg->seed * 3 + 1;
    mc.local_bytes = sizeof(uint64_t);
    w->m = bspram_machine_create(&mc);
    w->s = bspram_space_create(p, BSPRAM_HASH_XXH3, cfg->seed + 9);
    for (unsigned i = 0; i < SP_SEGS; i++) {
        w->w[i] = sp_widths[i];
        w->n[i] = sp_cells[i];
        w->seg[i] = bspram_segment_alloc(w->s, w->n[i], w->w[i], (bspram_layout)(i % 3));
        w->base[i + 1] = w->base[i] + w->n[i];
    }
    if (cfg->options == SP_OPTIONS_AUTO) {
        w->sh = bspram_shared_create(w->m, w->s, NULL);
        w->comb_seed = mc.seed;
    } else {
        bspram_combine_options o = bspram_combine_defaults(p);
        o.seed = cfg->seed + 77;
        if (cfg->options == SP_OPTIONS_ADAPTIVE) {
            o.strategy = BSPRAM_STRATEGY_ADAPTIVE;
        } else if (p % 4 == 0 && p > 4) {
            uint64_t b[2] = {4, p / 4};
            bspram_basis_make(&o.basis, p, 2, b, NULL, 0);
            o.spread = BSPRAM_SPREAD_SOURCE;
            o.physical = BSPRAM_PHYSICAL_DIRECT_LAST;
        }
        w->sh = bspram_shared_create(w->m, w->s, &o);
        w->comb_seed = o.seed;
    }
    bspram_combiner *C = bspram_shared_combiner(w->sh);
    w->op_uadd = bspram_combiner_add_op(C, "uadd", sp_uadd, NULL, 0);
    w->op_umax = bspram_combiner_add_op(C, "umax", sp_umax, NULL, 0);
    w->pt = (pattern){.seed = cfg->seed + 5, .p = p, .max_per_component = 4, .max_len = 40};
    w->e = malloc(steps * sizeof *w->e);
    for (uint64_t s = 0; s < steps; s++)
        expected_build(&w->e[s], &w->pt, s);
    const uint64_t cells = sp_cells_total(w);
    w->mem = malloc((steps + 1) * sizeof *w->mem);
    for (uint64_t s = 0; s <= steps; s++)
        w->mem[s] = malloc(cells * sizeof **w->mem);
    for (uint64_t g = 0; g < cells; g++) { /* random initial memory */
        unsigned i = sp_seg_of(w, g);
        uint64_t v = sp_mask(w->w[i], bspram_random2(cfg->seed ^ 0x1417, g, 3));
        if (i == SP_F64_SEG)
            v = sp_f64((double)(int)(v % 2001) - 1000.0);
        bspram_store(w->s, bspram_address(w->s, w->seg[i], g - w->base[i]), v);
        w->mem[0][g] = v;
    }
    for (uint64_t s = 0; s < steps; s++)
        sp_reference_step(w, s);
    w->got = malloc(steps * sizeof *w->got);
    for (uint64_t s = 0; s < steps; s++) {
        w->got[s] = malloc(p * sizeof **w->got);
        for (uint64_t c = 0; c < p; c++)
            w->got[s][c] = calloc(sp_count(w, s, c) + 1, sizeof ***w->got);
    }
}

/* Memory equals the reference before step s. */
static void sp_check_memory(const sp_world *w, uint64_t s)
{
    int ok = 1;
    for (uint64_t g = 0; g < sp_cells_total(w); g++) {
        unsigned i = sp_seg_of(w, g);
        ok &= bspram_load(w->s, bspram_address(w->s, w->seg[i], g - w->base[i])) == w->mem[s][g];
    }
    CHECK(ok);
}

/* After the last step: its answers from the host, every fetch chain, memory. */
static void sp_check_end(sp_world *w)
{
    uint64_t last = w->cfg.steps - 1;
    for (uint64_t c = 0; c < w->cfg.p; c++) {
        const uint64_t *ans;
        size_t n = bspram_shared_answers_of(w->sh, c, &ans);
        sp_check_answers(w, last, c, ans, n);
        const bspram_message *in;
        size_t k = bspram_machine_inbox(w->m, c, &in);
        if (sp_sends(last))
            CHECK(inbox_matches(&w->e[last], last, c, in, k));
        else
            CHECK_EQ_U64(k, 0);
    }
    for (uint64_t s = 0; s < w->cfg.steps; s++)
        sp_check_fetches(w, s);
    sp_check_memory(w, w->cfg.steps);
}

static void sp_destroy(sp_world *w)
{
    for (uint64_t s = 0; s < w->cfg.steps; s++) {
        for (uint64_t c = 0; c < w->cfg.p; c++)
            free(w->got[s][c]);
        free(w->got[s]);
        expected_free(&w->e[s]);
    }
    for (uint64_t s = 0; s <= w->cfg.steps; s++)
        free(w->mem[s]);
    free(w->got);
    free(w->mem);
    free(w->e);
    bspram_shared_destroy(w->sh);
    bspram_space_destroy(w->s);
    bspram_machine_destroy(w->m);
}

#endif
