/* Valiant's experiment of §4 on the real engine (experiment.h). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/abort.h"
#include "base/error.h"
#include "combine/cycles.h"
#include "combine/engine_internal.h"
#include "combine/experiment.h"
#include "hash/random.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

int bspram_pattern_check(uint64_t p, uint64_t v, uint64_t d, char *err, size_t err_len)
{
    if (!err) /* no reason wanted: snprintf(NULL, 0, …) writes nothing */
        err_len = 0;
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
    BSPRAM_NONNULL(s);
    BSPRAM_NONNULL(requests);
    BSPRAM_NONNULL(first);
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

/* The experiment runs as one team (one parallel region for every run and
 * entry): the first lane (each MPI rank's, on its own copy) does the serial steps — a new hash, new options, a pattern
 * built on demand — while the other lanes wait at a barrier; batches and
 * verification run on every lane. */
typedef struct experiment {
    const bspram_table_config *cfg;
    bspram_table_entry *entries;
    size_t n;
    bspram_space *s;
    uint32_t seg;
    bspram_combiner *C;
    pattern *pats;
    size_t np, keep;
    const uint64_t *first;
    pattern *cur;        /* the pattern of the batch in progress (set by the first lane) */
    uint64_t *bad;       /* [lanes]: the least cell each lane found wrong */
    double base_sum;
} experiment;

/* Every lane checks its share of this process's cells against the
 * sequential fold and clears them; the least wrong cell of all lanes (the
 * same line for any T, and over MPI for any number of ranks, each checking
 * the cells its components own) is reported by the process of lane 0. */
static void verify_and_clear(bspram_team *t, experiment *x, const pattern *pt, const char *what,
                             uint64_t run)
{
    bspram_machine *m = bspram__bsp_team_machine(t);
    unsigned lane = bspram__bsp_team_lane(t), lo, hi;
    bspram__bsp_machine_lanes(m, &lo, &hi);
    const unsigned k = lane - lo, T = hi - lo;
    uint64_t cells = x->cfg->v / pt->d, bad = UINT64_MAX;
    for (uint64_t a = cells * k / T; a < cells * (k + 1) / T; a++) {
        uint64_t address = ((uint64_t)x->seg << BSPRAM_SEGMENT_SHIFT) | a;
        if (!bspram_holds(x->s, address))
            continue; /* over MPI: another rank checks the cells its components own */
        unsigned char *cell = bspram_cell(x->s, address);
        uint64_t got;
        memcpy(&got, cell, 8);
        if (got != pt->ref[a] && a < bad)
            bad = a;
        memset(cell, 0, 8);
    }
    const bool lead = bspram__bsp_team_leads(t);
    bspram__bsp_team_gather(t, &bad, sizeof bad, lead ? x->bad : NULL);
    if (!lead)
        return;
    for (int l = 0; l < bspram_machine_threads(m); l++)
        if (x->bad[l] < bad)
            bad = x->bad[l];
    if (bad == UINT64_MAX)
        return;
    if (lane != 0) /* every rank found it: the one with lane 0 reports it and ends the job */
        for (;;)
            pause();
    /* A wrong result, not a misuse: exit status 3 (docs/cli.md). */
    bspram__base_fatal_status(3, "bspram table: verification failed: basis %s, degree %" PRIu64
                              ", run %" PRIu64 ": cell %" PRIu64 " differs from the sequential reduce",
                              what, pt->d, run, bad);
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
        bspram__base_fatal("bspram table(p=%" PRIu64 ", v=%" PRIu64 ", degree=%" PRIu64 "): %s", p, v, d, err);
    if (*np > keep) {
        (*np)--;
        free(pats[*np].req);
        free(pats[*np].ref);
    }
    pattern *pt = &pats[(*np)++];
    pt->d = d;
    pt->req = bspram__base_malloc(v * sizeof *pt->req, "bspram table");
    uint64_t *first = bspram__base_malloc((p + 1) * sizeof *first, "bspram table");
    bspram_pattern_fill(s, seg, p, v, d, pt->req, first);
    free(first);
    /* The sequential reference: fold every request's value into its cell. */
    pt->ref = bspram__base_calloc(v / d, sizeof *pt->ref, "bspram table");
    for (uint64_t i = 0; i < v; i++)
        pt->ref[pt->req[i].address & (BSPRAM_SEGMENT_MAX_CELLS - 1)] += pt->req[i].value;
    return pt;
}

/* Lane 0: options for one batch of the run. */
static void set_options(experiment *x, bspram_strategy strategy, const bspram_basis *basis,
                        uint64_t hint, bspram_spread spread, uint64_t seed)
{
    bspram_combine_options o = bspram_combine_defaults(x->cfg->p);
    o.strategy = strategy;
    if (basis)
        o.basis = *basis;
    o.degree_hint = hint;
    o.spread = spread;
    o.seed = seed;
    bspram_combiner_set_options(x->C, &o);
}

/* Lane 0: the batch just run (the current pattern, its basis and seed) on
 * the cycle model of cfg->schedule and cfg->router; the phases' cycles into per_phase
 * (CYCLES_SYNC). An OBSERVE observation adds its supersteps, one cycle each
 * (every component sends and receives at most one message in each). */
static uint64_t cycles(const experiment *x, const bspram_combine_stats *st, uint64_t *per_phase)
{
    return st->observe_phases +
           bspram__combine_cycles_batch(x->s, &st->basis, x->cur->req, x->first, x->C->o.seed,
                                x->cfg->schedule == BSPRAM_SCHEDULE_ASYNC,
                                x->cfg->router == BSPRAM_ROUTER_SSTAR, per_phase);
}

static void experiment_lane(bspram_team *t, void *arg)
{
    experiment *x = arg;
    const bspram_table_config *cfg = x->cfg;
    const bool lead = bspram__bsp_team_leads(t); /* over MPI: each rank's first lane */
    bspram_combine_stats st;
    for (uint64_t run = 0; run < cfg->runs; run++) {
        if (lead) {
            /* A new H for every run (Valiant §4: the h_i are drawn per pattern). */
            bspram_space_rehash(x->s, bspram_random2(cfg->seed, 0x68617368, run + 1));
            set_options(x, BSPRAM_STRATEGY_FIXED, NULL, 0, BSPRAM_SPREAD_RANDOM,
                        bspram_random3(cfg->seed, 0x62617365, run, 0));
            x->cur = &x->pats[0];
        }
        bspram__bsp_team_barrier(t);
        bspram__combine_team(t, x->C, x->cur->req, x->first, NULL, &st);
        const double base_run = !lead ? 0 /* stats are the first lane's */
                                : cfg->schedule ? (double)cycles(x, &st, NULL)
                                                : (double)st.charge;
        if (lead)
            x->base_sum += base_run;
        verify_and_clear(t, x, x->cur, "baseline", run);
        for (size_t e = 0; e < x->n; e++) {
            bspram_table_entry *E = &x->entries[e];
            if (lead) {
                set_options(x, E->strategy, &E->basis,
                            E->degree_hint == BSPRAM_TABLE_HINT_DEGREE ? E->degree : E->degree_hint,
                            cfg->spread, bspram_random3(cfg->seed, 0x656e7472, run, e + 1));
                x->cur = get_pattern(x->pats, &x->np, x->keep, x->s, x->seg, cfg->p, cfg->v, E->degree);
            }
            bspram__bsp_team_barrier(t);
            bspram__combine_team(t, x->C, x->cur->req, x->first, NULL, &st);
            verify_and_clear(t, x, x->cur, E->basis_text, run);
            if (!lead)
                continue;
            uint64_t phase_cost[BSPRAM_MAX_PHASES + 2], total = st.charge;
            memcpy(phase_cost, st.forward_charge, sizeof phase_cost);
            if (cfg->schedule)
                total = cycles(x, &st, phase_cost);
            /* ASYNC: the phases overlap; no phase factors. */
            const unsigned phases = cfg->schedule == BSPRAM_SCHEDULE_ASYNC ? 0 : st.phases;
            if (phases > E->phases)
                E->phases = phases;
            for (unsigned i = 1; i <= phases; i++)
                E->phase_charge[i] += (double)phase_cost[i];
            E->total += (double)total;
            const double ratio = (double)total / base_run;
            E->ratio_sum += ratio;
            E->ratio_sum2 += ratio * ratio;
            if (!E->chosen[0] && bspram_basis_format(&st.basis, E->chosen, sizeof E->chosen) >=
                                     sizeof E->chosen)
                bspram__base_fatal("bspram table: the basis run for %s does not fit in %zu bytes",
                             E->basis_text, sizeof E->chosen);
        }
        if (lead) { /* the first lane owns the log */
            bspram_machine_clear_records(bspram__bsp_team_machine(t));
            if (cfg->progress)
                cfg->progress(run + 1, cfg->runs, cfg->progress_ctx);
        }
    }
}

void bspram_table_run(const bspram_table_config *cfg, bspram_table_entry *entries, size_t n,
                      double *baseline)
{
    BSPRAM_NONNULL(cfg);
    BSPRAM_NONNULL(baseline);
    if (n > 0) /* no entries: NULL is fine */
        BSPRAM_NONNULL(entries);
    uint64_t p = cfg->p, v = cfg->v;
    if (cfg->schedule != BSPRAM_SCHEDULE_SYNC && cfg->schedule != BSPRAM_SCHEDULE_CYCLES_SYNC &&
        cfg->schedule != BSPRAM_SCHEDULE_ASYNC)
        bspram__base_fatal("bspram_table_run(schedule=%d): unknown schedule; valid: 0 sync, 1 cycles-sync, 2 async",
                           (int)cfg->schedule);
    if (cfg->router != BSPRAM_ROUTER_SIMPLE && cfg->router != BSPRAM_ROUTER_SSTAR)
        bspram__base_fatal("bspram_table_run(router=%d): unknown router; valid: 0 simple, 1 sstar", (int)cfg->router);
    if (cfg->router == BSPRAM_ROUTER_SSTAR && cfg->schedule == BSPRAM_SCHEDULE_SYNC)
        bspram__base_fatal("bspram_table_run(router=1, schedule=0): the S*PRAM counts cycles; give the schedule "
                           "1 cycles-sync or 2 async");
    char err[160];
    if (bspram_pattern_check(p, v, 1, err, sizeof err))
        bspram__base_fatal("bspram table(p=%" PRIu64 ", v=%" PRIu64 "): %s", p, v, err);
    bspram_config mc = bspram_config_default(p);
    mc.threads = cfg->threads;
    mc.seed = cfg->seed;
    bspram_machine *m = bspram_machine_create(&mc);
    experiment x;
    memset(&x, 0, sizeof x);
    x.cfg = cfg;
    x.entries = entries;
    x.n = n;
    x.s = bspram_space_create(p, cfg->hash, bspram_random2(cfg->seed, 0x68617368, 0));
    x.seg = bspram_segment_alloc(x.s, v, 8, BSPRAM_LAYOUT_HASHED);
    bspram_combine_options o = bspram_combine_defaults(p);
    o.spread = cfg->spread;
    x.C = bspram_combiner_create(m, x.s, &o);
    x.pats = bspram__base_calloc(n + 1, sizeof *x.pats, "bspram table");
    uint64_t *first = bspram__base_malloc((p + 1) * sizeof *first, "bspram table");
    for (uint64_t c = 0; c <= p; c++)
        first[c] = c * (v / p);
    x.first = first;
    x.bad = bspram__base_calloc((size_t)bspram_machine_threads(m), sizeof *x.bad, "bspram table");
    /* Keep every pattern if they fit in 256 MiB, else the baseline and one. */
    size_t keep = (size_t)((UINT64_C(256) << 20) / (v * (sizeof(bspram_request) + 8)));
    x.keep = keep < 2 ? 1 : keep - 1;
    get_pattern(x.pats, &x.np, x.keep, x.s, x.seg, p, v, 1); /* the baseline: pats[0] */
    for (size_t e = 0; e < n; e++) {
        get_pattern(x.pats, &x.np, x.keep, x.s, x.seg, p, v, entries[e].degree);
        memset(entries[e].phase_charge, 0, sizeof entries[e].phase_charge);
        entries[e].total = 0;
        entries[e].ratio_sum = entries[e].ratio_sum2 = 0;
        entries[e].phases = 0;
        entries[e].chosen[0] = 0;
    }
    bspram__bsp_machine_team_for(m, experiment_lane, &x, "bspram_table_run");

    double runs = (double)(cfg->runs ? cfg->runs : 1);
    *baseline = x.base_sum / runs;
    for (size_t e = 0; e < n; e++) {
        for (unsigned i = 1; i <= entries[e].phases; i++)
            entries[e].phase_charge[i] /= runs;
        entries[e].total /= runs;
        /* The sample standard deviation (n − 1), from the sums. */
        double mean = entries[e].ratio_sum / runs;
        double var = cfg->runs > 1 ? (entries[e].ratio_sum2 - runs * mean * mean) / (runs - 1) : 0;
        entries[e].factor_sd = var > 0 ? sqrt(var) : 0;
    }
    for (size_t i = 0; i < x.np; i++) {
        free(x.pats[i].req);
        free(x.pats[i].ref);
    }
    free(x.pats);
    free(first);
    free(x.bad);
    bspram_combiner_destroy(x.C);
    bspram_segment_free(x.s, x.seg);
    bspram_space_destroy(x.s);
    bspram_machine_destroy(m);
}
