/* The combiner object: options, user operations, names. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"
#include "bsp/machine_internal.h"

const char *bspram__combine_kind_name(const bspram_combiner *C, unsigned kind, char *buf, size_t len)
{
    static const char *const w[4] = {"read", "write(arbitrary)", "write(priority)", "write(common)"};
    if (kind <= BSPRAM_WRITE_COMMON)
        return w[kind];
    unsigned op = bspram__kind_op(kind);
    const char *on = op < BSPRAM_BUILTIN_OPS ? bspram_op_name(op) : C->uname[op];
    snprintf(buf, len, "%s(%s#%u)",
             bspram__is_reduce(kind) ? "reduce" : bspram__is_fetch(kind) ? "fetch" : "write", on, op);
    return buf;
}

bspram_combine_options bspram_combine_defaults(uint64_t p)
{
    bspram_combine_options o;
    memset(&o, 0, sizeof o);
    o.strategy = BSPRAM_STRATEGY_FIXED;
    uint64_t b = p;
    if (bspram_basis_make(&o.basis, p, 1, &b, NULL, 0))
        bspram__base_fatal("bspram_combine_defaults(p=%" PRIu64 "): p must be >= 1", p);
    o.spread = BSPRAM_SPREAD_RANDOM;
    o.physical = BSPRAM_PHYSICAL_EXTRA_PHASE;
    return o;
}

void bspram_combiner_set_options(bspram_combiner *C, const bspram_combine_options *o)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    BSPRAM_NONNULL(o);
    if (o->strategy == BSPRAM_STRATEGY_FIXED) {
        char err[160], buf[BSPRAM_BASIS_TEXT_MAX];
        if (o->basis.p != C->p ||
            bspram_basis_make(&(bspram_basis){0}, C->p, o->basis.m, o->basis.b + 1, err, sizeof err)) {
            if (o->basis.p != C->p)
                snprintf(err, sizeof err, "basis product is %" PRIu64 "; it must equal p = %" PRIu64,
                         o->basis.p, C->p);
            if (o->basis.m)
                bspram_basis_format(&o->basis, buf, sizeof buf);
            bspram__base_fatal("bspram_combiner_set_options(basis=%s): %s", o->basis.m ? buf : "(empty)", err);
        }
    } else if (o->strategy == BSPRAM_STRATEGY_ROUTE) {
        if (!o->route || o->route_phases < 1 || o->route_phases > BSPRAM_MAX_PHASES)
            bspram__base_fatal("bspram_combiner_set_options(route_phases=%u%s): ROUTE needs a route and "
                               "route_phases in [1, %d]", o->route_phases, o->route ? "" : ", route=NULL",
                               BSPRAM_MAX_PHASES);
    } else if (o->strategy != BSPRAM_STRATEGY_AUTO && o->strategy != BSPRAM_STRATEGY_ADAPTIVE &&
               o->strategy != BSPRAM_STRATEGY_OBSERVE) {
        bspram__base_fatal("bspram_combiner_set_options(strategy=%d): unknown strategy; valid: 0 fixed, 1 auto, 2 adaptive, 3 observe, 4 route",
                     (int)o->strategy);
    }
    if (o->spread != BSPRAM_SPREAD_RANDOM && o->spread != BSPRAM_SPREAD_SOURCE)
        bspram__base_fatal("bspram_combiner_set_options(spread=%d): unknown spreading; valid: 0 random, 1 source", (int)o->spread);
    if (o->physical != BSPRAM_PHYSICAL_EXTRA_PHASE && o->physical != BSPRAM_PHYSICAL_DIRECT_LAST)
        bspram__base_fatal("bspram_combiner_set_options(physical=%d): unknown delivery; valid: 0 extra phase, 1 direct last",
                     (int)o->physical);
    C->o = *o;
}

bspram_combiner *bspram_combiner_create(bspram_machine *m, bspram_space *s, const bspram_combine_options *o)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(s);
    BSPRAM_NONNULL(o);
    if (bspram_machine_p(m) != bspram_space_p(s))
        bspram__base_fatal("bspram_combiner_create: the machine has p = %" PRIu64
                     " components but the address space has p = %" PRIu64,
                     bspram_machine_p(m), bspram_space_p(s));
    bspram_combiner *C = bspram__base_calloc(1, sizeof *C, "bspram_combiner_create");
    C->m = m;
    C->s = s;
    C->hash = bspram__hash_space_hash(s);
    C->p = bspram_machine_p(m);
    C->lanes = bspram_machine_threads(m);
    C->cs = bspram__base_calloc(C->p, sizeof *C->cs, "bspram_combiner_create");
    /* aligned: each lane's scratch on cache lines of its own */
    size_t bytes = ((size_t)C->lanes * sizeof *C->ls + 63) / 64 * 64;
    C->ls = aligned_alloc(64, bytes);
    if (!C->ls)
        bspram__base_fatal("bspram_combiner_create: out of memory");
    memset(C->ls, 0, bytes);
    C->nops = BSPRAM_BUILTIN_OPS;
    bspram_combiner_set_options(C, o);
    /* Over MPI a rank holds its own components' cells and no others
     * (bspram_holds): its memory is its share. */
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    bspram__hash_space_hold(s, first, end);
    return C;
}

void bspram_combiner_destroy(bspram_combiner *C)
{
    if (!C)
        return;
    for (uint64_t c = 0; c < C->p; c++) {
        comp_state *cs = &C->cs[c];
        for (unsigned l = 0; l < BSPRAM__MAX_LEVELS; l++) {
            free(cs->lv[l].first);
            free(cs->lv[l].kind);
            free(cs->lv[l].src);
            free(cs->lv[l].contrib);
        }
        free(cs->arrived);
        free(cs->arrived_src);
        free(cs->arrived_level);
    }
    for (int l = 0; l < C->lanes; l++) {
        lane_scratch *L = &C->ls[l];
        free(L->t);
        free(L->items); free(L->isrc); free(L->igroup); free(L->ilevel);
        free(L->g); free(L->gcount); free(L->ghandle); free(L->gaddr); free(L->gcell); free(L->gdest);
        free(L->dcount); free(L->dcur); free(L->dtouch); free(L->rep);
        free(L->stage); free(L->stage_dst); free(L->fslot);
        free(L->conf);
    }
    free(C->cs);
    free(C->ls);
    free(C);
}

unsigned bspram_combiner_add_op(bspram_combiner *C, const char *name, bspram_user_op_fn fn, void *ctx,
                                uint64_t identity)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    if (!fn)
        bspram__base_fatal("bspram_combiner_add_op(name=%s): fn is NULL", name ? name : "(null)");
    if (C->nops >= BSPRAM_MAX_OPS)
        bspram__base_fatal("bspram_combiner_add_op(name=%s): more than %d user operations",
                     name ? name : "(null)", BSPRAM_MAX_OPS - BSPRAM_BUILTIN_OPS);
    unsigned id = C->nops++;
    C->ufn[id] = fn;
    C->uctx[id] = ctx;
    C->uid[id] = identity;
    snprintf(C->uname[id], sizeof C->uname[id], "%s", name ? name : "user");
    return id;
}

unsigned bspram_combiner_op_count(const bspram_combiner *C)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    return C->nops;
}

uint64_t bspram_combiner_op_identity(const bspram_combiner *C, unsigned op)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    if (op < BSPRAM_BUILTIN_OPS)
        return bspram_op_identity(op);
    if (op >= C->nops)
        bspram__base_fatal("bspram_combiner_op_identity(op=%u): no such operation; valid: 0..%u", op, C->nops - 1);
    return C->uid[op];
}


void bspram_combiner_watch(bspram_combiner *C, unsigned watch)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    const unsigned all = BSPRAM_WATCH_READS | BSPRAM_WATCH_WRITES | BSPRAM_WATCH_VALUES |
                         BSPRAM_WATCH_DISTINCT;
    if (watch & ~all)
        bspram__base_fatal("bspram_combiner_watch(watch=%u): unknown bits; valid: an OR of 1 reads, "
                     "2 writes, 4 values, 8 distinct", watch);
    C->watch = watch;
}

static int conflict_order(const void *pa, const void *pb)
{
    const bspram_conflict *a = pa, *b = pb;
    if (a->address != b->address)
        return a->address < b->address ? -1 : 1;
    if (a->what != b->what)
        return a->what < b->what ? -1 : 1;
    if (a->label[0] != b->label[0])
        return a->label[0] < b->label[0] ? -1 : 1;
    return (a->label[1] > b->label[1]) - (a->label[1] < b->label[1]);
}

size_t bspram_combiner_conflicts(bspram_combiner *C, bspram_conflict *out, size_t max)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    if (max > 0) /* with max 0, NULL is fine: the count only */
        BSPRAM_NONNULL(out);
    /* Gather this process's lanes' lists into its first lane's slot (which
     * that lane empties at its next batch), then over MPI every rank's lists;
     * sort, keep the first of each (address, what): the least pair. The
     * merges that met a conflict are a pure function of the seed, so is the
     * answer. */
    unsigned lo, hi;
    bspram__bsp_machine_lanes(C->m, &lo, &hi);
    lane_scratch *L0 = &C->ls[lo];
    for (unsigned l = lo + 1; l < hi; l++) {
        lane_scratch *L = &C->ls[l];
        if (!L->nconf)
            continue;
        L0->conf = bspram__grow(L0->conf, &L0->capconf, L0->nconf + L->nconf, sizeof *L0->conf, 16,
                                "bspram_combiner_conflicts");
        memcpy(L0->conf + L0->nconf, L->conf, L->nconf * sizeof *L->conf);
        L0->nconf += L->nconf;
        L->nconf = 0;
    }
    if (bspram__bsp_machine_spread(C->m)) {
        size_t bytes;
        bspram_conflict *all = bspram__bsp_machine_concat(C->m, L0->conf, L0->nconf * sizeof *L0->conf, &bytes);
        L0->nconf = bytes / sizeof *all;
        L0->conf = bspram__grow(L0->conf, &L0->capconf, L0->nconf, sizeof *L0->conf, 16,
                                "bspram_combiner_conflicts");
        if (L0->nconf)
            memcpy(L0->conf, all, bytes);
        free(all);
    }
    if (L0->nconf > 1) /* (qsort's base may not be NULL, even for no elements) */
        qsort(L0->conf, L0->nconf, sizeof *L0->conf, conflict_order);
    size_t n = 0;
    for (size_t i = 0; i < L0->nconf; i++) {
        const bspram_conflict *x = &L0->conf[i];
        if (n && L0->conf[n - 1].address == x->address && L0->conf[n - 1].what == x->what)
            continue;
        L0->conf[n++] = *x;
    }
    L0->nconf = n;
    if (out && max && n)
        memcpy(out, L0->conf, (n < max ? n : max) * sizeof *out);
    return n;
}

unsigned bspram__combine_met(bspram_combiner *C)
{
    unsigned lo, hi, met = 0;
    bspram__bsp_machine_lanes(C->m, &lo, &hi);
    for (unsigned l = lo; l < hi; l++)
        met |= C->ls[l].met;
    if (bspram__bsp_machine_spread(C->m)) { /* the OR over the ranks, bit by bit */
        uint64_t bits[4];
        for (unsigned b = 0; b < 4; b++)
            bits[b] = (met >> b) & 1u;
        bspram__bsp_machine_sum(C->m, bits, 4);
        met = 0;
        for (unsigned b = 0; b < 4; b++)
            met |= bits[b] ? 1u << b : 0u;
    }
    return met;
}
