/* Valiant's experiment of §4 on the real engine (experiment.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "combine/experiment.h"
#include "hash/random.h"

int bspram_pattern_check(uint64_t p, uint64_t v, uint64_t d, char *err, size_t err_len)
{
    if (p == 0 || v == 0 || v % p) {
        snprintf(err, err_len, "v = %" PRIu64 " must be a positive multiple of p = %" PRIu64, v, p);
        return -1;
    }
    if (d == 0 || d > p) {
        snprintf(err, err_len, "degree %" PRIu64 " must be in [1, p = %" PRIu64 "]", d, p);
        return -1;
    }
    if (v % d) {
        snprintf(err, err_len, "degree %" PRIu64 " must divide v = %" PRIu64, d, v);
        return -1;
    }
    return 0;
}

void bspram_pattern_fill(const bspram_space *s, uint32_t seg, uint64_t p, uint64_t v, uint64_t d,
                         bspram_request *requests, uint64_t *first)
{
    uint64_t q = v / p;
    uint8_t kind = bspram_kind_reduce(bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64));
    uint64_t base = bspram_address(s, seg, 0);
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * q;
    for (uint64_t c = 0; c < p; c++)
        for (uint64_t sl = 0; sl < q; sl++) {
            uint64_t x = sl * p + c;
            bspram_request *r = &requests[c * q + sl];
            r->address = base + x / d;
            r->value = x + 1;
            r->kind = kind;
        }
}

typedef struct pattern {
    uint64_t d;
    bspram_request *req;
    uint64_t *ref; /* sequential fold per cell */
} pattern;

static void verify_and_clear(bspram_space *s, uint32_t seg, const pattern *pt, uint64_t v,
                             const char *what, uint64_t run, int threads)
{
    uint64_t cells = v / pt->d, bad = UINT64_MAX;
#pragma omp parallel for schedule(static) num_threads(threads)
    for (uint64_t a = 0; a < cells; a++) {
        uint64_t addr = ((uint64_t)seg << BSPRAM_SEGMENT_SHIFT) | a;
        unsigned char *cell = bspram_cell(s, addr);
        uint64_t got;
        memcpy(&got, cell, 8);
        if (got != pt->ref[a]) {
#pragma omp critical
            if (a < bad)
                bad = a;
        }
        memset(cell, 0, 8);
    }
    if (bad != UINT64_MAX)
        bspram_fatal("bspram table: verification failed: basis %s, degree %" PRIu64 ", run %" PRIu64
                     ": cell %" PRIu64 " differs from the sequential reduce", what, pt->d, run, bad);
}

/* The pattern of degree d, built once and kept while the cache holds at most
 * `keep` patterns besides the baseline (pats[0]); beyond that the last slot
 * is rebuilt when the degree changes (large v: memory over time). */
static pattern *get_pattern(pattern *pats, size_t *np, size_t keep, const bspram_space *s, uint32_t seg,
                            uint64_t p, uint64_t v, uint64_t d)
{
    for (size_t i = 0; i < *np; i++)
        if (pats[i].d == d)
            return &pats[i];
    char err[160];
    if (bspram_pattern_check(p, v, d, err, sizeof err))
        bspram_fatal("bspram table(p=%" PRIu64 ", v=%" PRIu64 ", degree=%" PRIu64 "): %s", p, v, d, err);
    if (*np > keep) {
        (*np)--;
        free(pats[*np].req);
        free(pats[*np].ref);
    }
    pattern *pt = &pats[(*np)++];
    pt->d = d;
    pt->req = bspram_malloc(v * sizeof *pt->req, "bspram table");
    uint64_t *first = bspram_malloc((p + 1) * sizeof *first, "bspram table");
    bspram_pattern_fill(s, seg, p, v, d, pt->req, first);
    free(first);
    /* The sequential reference: fold every request's value into its cell. */
    pt->ref = bspram_calloc(v / d, sizeof *pt->ref, "bspram table");
    for (uint64_t i = 0; i < v; i++)
        pt->ref[pt->req[i].address & (BSPRAM_SEGMENT_MAX_CELLS - 1)] += pt->req[i].value;
    return pt;
}

void bspram_table_run(const bspram_table_config *cfg, bspram_table_entry *entries, size_t n,
                      double *baseline)
{
    uint64_t p = cfg->p, v = cfg->v;
    char err[160];
    if (bspram_pattern_check(p, v, 1, err, sizeof err))
        bspram_fatal("bspram table(p=%" PRIu64 ", v=%" PRIu64 "): %s", p, v, err);
    bspram_config mc = bspram_config_default(p);
    mc.threads = cfg->threads;
    mc.seed = cfg->seed;
    bspram_machine *m = bspram_machine_create(&mc);
    bspram_space *s = bspram_space_create(p, cfg->hash, bspram_random2(cfg->seed, 0x68617368, 0));
    uint32_t seg = bspram_segment_alloc(s, v, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    o.spread = cfg->spread;
    bspram_combiner *C = bspram_combiner_create(m, s, &o);

    pattern *pats = bspram_calloc(n + 1, sizeof *pats, "bspram table");
    size_t np = 0;
    uint64_t *first = bspram_malloc((p + 1) * sizeof *first, "bspram table");
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * (v / p);
    /* Keep every pattern if they fit in 256 MiB, else the baseline and one. */
    size_t keep = (size_t)((UINT64_C(256) << 20) / (v * (sizeof(bspram_request) + 8)));
    keep = keep < 2 ? 1 : keep - 1;
    pattern *base = get_pattern(pats, &np, keep, s, seg, p, v, 1);
    for (size_t e = 0; e < n; e++) {
        get_pattern(pats, &np, keep, s, seg, p, v, entries[e].degree);
        memset(entries[e].phase_charge, 0, sizeof entries[e].phase_charge);
        entries[e].total = 0;
        entries[e].phases = 0;
        entries[e].chosen[0] = 0;
    }

    double base_sum = 0;
    bspram_combine_stats st;
    for (uint64_t run = 0; run < cfg->runs; run++) {
        /* A new H for every run (Valiant §4: the h_i are drawn per pattern). */
        bspram_space_rehash(s, bspram_random2(cfg->seed, 0x68617368, run + 1));
        o = bspram_combine_defaults(p);
        o.spread = BSPRAM_SPREAD_RANDOM;
        o.seed = bspram_random3(cfg->seed, 0x62617365, run, 0);
        bspram_combiner_set_options(C, &o);
        bspram_combine(C, base->req, first, NULL, &st);
        base_sum += (double)st.charge;
        verify_and_clear(s, seg, base, v, "baseline", run, cfg->threads);
        for (size_t e = 0; e < n; e++) {
            bspram_table_entry *E = &entries[e];
            o.strategy = E->strategy;
            o.basis = E->basis;
            o.degree_hint = E->degree_hint == BSPRAM_TABLE_HINT_DEGREE ? E->degree : E->degree_hint;
            o.spread = cfg->spread;
            o.seed = bspram_random3(cfg->seed, 0x656e7472, run, e + 1);
            bspram_combiner_set_options(C, &o);
            pattern *pt = get_pattern(pats, &np, keep, s, seg, p, v, E->degree);
            bspram_combine(C, pt->req, first, NULL, &st);
            verify_and_clear(s, seg, pt, v, E->basis_text, run, cfg->threads);
            if (st.phases > E->phases)
                E->phases = st.phases;
            for (unsigned i = 1; i <= st.phases; i++)
                E->phase_charge[i] += (double)st.forward_charge[i];
            E->total += (double)st.charge;
            if (!E->chosen[0])
                bspram_basis_format(&st.basis, E->chosen, sizeof E->chosen);
        }
        bspram_machine_clear_records(m);
    }
    double runs = (double)(cfg->runs ? cfg->runs : 1);
    *baseline = base_sum / runs;
    for (size_t e = 0; e < n; e++) {
        for (unsigned i = 1; i <= entries[e].phases; i++)
            entries[e].phase_charge[i] /= runs;
        entries[e].total /= runs;
    }
    for (size_t i = 0; i < np; i++) {
        free(pats[i].req);
        free(pats[i].ref);
    }
    free(pats);
    free(first);
    bspram_combiner_destroy(C);
    bspram_segment_free(s, seg);
    bspram_space_destroy(s);
    bspram_machine_destroy(m);
}
