/* One batch as supersteps of a running team (machine.h, team style): the M
 * forward phases, then — if the batch holds READ or FETCH requests — the M
 * reverse steps, each one exchange of the team, so every charge a batch
 * reports is read back from the router's records. The host-side
 * bspram_combine is a thin driver: a team whose lanes run one batch.
 *
 * What the lanes must agree on after phase 1 — whether the batch has
 * answers, physical segments, several update species — travels in the tag of
 * phase 1's exchange (the router ORs the tags), so no lane reads another's
 * state. Several update species are detected with two ORs: over the
 * components with an update, all species equal k iff OR(kind) = k and
 * OR(~kind) = ~k, i.e. iff OR(kind) & OR(~kind) = 0. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"
#include "hash/random.h"
#include "hash/hash_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

enum {
    TAG_UPDATE = 1u << 3,  /* some component has an update */
    TAG_KIND_SHIFT = 4,    /* 8 bits: OR of the update kinds */
    TAG_NOT_KIND_SHIFT = 12, /* 8 bits: OR of their complements */
};

static void set_phase_label(bspram_team *t, const char *dir, unsigned i)
{
    char label[BSPRAM_LABEL_LEN];
    snprintf(label, sizeof label, "combine:%s:%u", dir, i);
    bspram__bsp_team_set_label(t, label);
}

static void observe_label(bspram_team *t, unsigned j)
{
    set_phase_label(t, "observe", j);
}

static void check_offsets(const uint64_t *first, uint64_t from, uint64_t to)
{
    if (from == 0 && first[0] != 0)
        bspram__base_fatal("bspram_combine(first[0]=%" PRIu64 "): first[0] must be 0", first[0]);
    for (uint64_t c = from; c < to; c++)
        if (first[c + 1] < first[c])
            bspram__base_fatal("bspram_combine(first[%" PRIu64 "]=%" PRIu64 ", first[%" PRIu64 "]=%" PRIu64
                         "): offsets must not decrease", c, first[c], c + 1, first[c + 1]);
}

/* The lane's view of a new batch. */
static void begin(const bspram_combiner *C, lane_scratch *L, const bspram_request *requests,
                  const uint64_t *first, uint64_t *results, const bspram_batch_part *parts)
{
    batch_state *b = &L->b;
    b->req = requests;
    b->first = first;
    b->results = results;
    b->parts = parts;
    L->nconf = 0;
    L->met = 0;
    L->reply_staged = false; /* until the reverse flow (bspram__combine_reply_begin) */
    /* Valiant §4: the spreading offsets k are drawn anew for every request in
     * every invocation. The key is (seed, batch number), so a batch's offsets
     * are a pure function of (seed, number of earlier batches, phase,
     * component, group), whatever the number of threads. */
    b->seed = bspram_random2(C->o.seed, UINT64_C(0x6261746368), b->number++);
    b->rkey = bspram__random3_key_of(b->seed);
    {   /* the inline draw (forward.c) is bspram_random3's: checked once a batch */
        uint64_t x = UINT64_C(0x9E3779B97F4A7C15) ^ b->number;
        if (bspram__random3_abc(&b->rkey, bspram__random3_ab(&b->rkey, 1, x), x, 7) !=
            bspram_random3(b->seed, 1, x, 7))
            bspram__base_fatal("bspram_combine: internal error: the inline XXH3 of three words differs "
                         "from bspram_random3");
    }
    switch (C->o.strategy) {
    case BSPRAM_STRATEGY_AUTO: b->basis = bspram_basis_auto(C->p, C->o.degree_hint); break;
    case BSPRAM_STRATEGY_ADAPTIVE: b->basis = bspram_basis_adaptive(C->p); break;
    case BSPRAM_STRATEGY_OBSERVE: b->basis = bspram_basis_auto(C->p, 0); break; /* until observed */
    case BSPRAM_STRATEGY_ROUTE: b->basis = bspram_basis_auto(C->p, 1); break; /* one phase: (p) */
    default: b->basis = C->o.basis; break;
    }
    b->observe = 0;
    b->observed = 0;
    b->adaptive = C->o.strategy == BSPRAM_STRATEGY_ADAPTIVE;
    b->m_phases = C->o.strategy == BSPRAM_STRATEGY_ROUTE ? C->o.route_phases : b->basis.m;
}

/* The lane's part of phase 1's tag: its components' flags and update kinds. */
static unsigned phase1_tag(const bspram_combiner *C, const bspram_team *t)
{
    unsigned tag = 0;
    for (uint64_t c = bspram__bsp_team_first(t); c < bspram__bsp_team_end(t); c++) {
        const comp_state *cs = &C->cs[c];
        tag |= cs->flags;
        if (cs->ukind != BSPRAM__NO_KIND)
            tag |= TAG_UPDATE | cs->ukind << TAG_KIND_SHIFT | (~cs->ukind & 0xffu) << TAG_NOT_KIND_SHIFT;
    }
    return tag;
}

/* The batch's flags, and its one update species if it has one (the OR of
 * the components' species is that species when no bit differs). */
static unsigned batch_flags(unsigned all, unsigned *ukind)
{
    unsigned flags = all & (BATCH_ANSWERS | BATCH_PHYSICAL | BATCH_SPECIES);
    unsigned kinds = (all >> TAG_KIND_SHIFT) & 0xffu, not_kinds = (all >> TAG_NOT_KIND_SHIFT) & 0xffu;
    if ((all & TAG_UPDATE) && (kinds & not_kinds))
        flags |= BATCH_SPECIES;
    *ukind = (all & TAG_UPDATE) && !(flags & BATCH_SPECIES) ? kinds : BSPRAM__NO_KIND;
    return flags;
}

static bool reverse_step(bspram_component *self, void *combiner)
{
    bspram_combiner *C = combiner;
    unsigned lane = bspram__bsp_lane(self);
    const batch_state *b = &C->ls[lane].b;
    uint64_t c = bspram_pid(self);
    const bspram__run *runs;
    size_t k = bspram__bsp_inbox_runs(self, &runs);
    if (b->phase == 1)
        bspram__combine_owner_level(C, self, c, lane, runs, k);
    else
        bspram__combine_handle_replies(C, b, self, c, runs, k);
    return false;
}

/* The first lane: what the batch cost, read back from the records from nrec0 on. */
static void read_stats(const bspram_combiner *C, const batch_state *b, size_t nrec0,
                       bspram_combine_stats *stats)
{
    unsigned rev = (b->flags & BATCH_ANSWERS) ? b->M : 0;
    memset(stats, 0, sizeof *stats);
    size_t nrec;
    const bspram_record *rec = bspram_machine_records(C->m, &nrec);
    stats->phases = b->M;
    stats->reverse_phases = rev;
    stats->basis = b->basis;
    stats->first_record = nrec0;
    stats->observe_phases = b->observe;
    stats->observed_degree = b->observed;
    for (unsigned j = 1; j <= b->observe; j++)
        stats->observe_charge += rec[nrec0 + j - 1].charge;
    stats->charge = stats->observe_charge;
    nrec0 += b->observe; /* the forward phases follow the observation */
    for (unsigned i = 1; i <= b->M; i++) {
        const bspram_record *r = &rec[nrec0 + i - 1];
        stats->forward_charge[i] = r->charge;
        stats->forward_q[i] = r->q;
        stats->forward_r[i] = r->r;
        stats->forward_messages[i] = r->messages;
        stats->charge += r->charge;
    }
    for (unsigned j = 1; j <= rev; j++) {
        stats->reverse_charge[j] = rec[nrec0 + b->M + j - 1].charge;
        stats->reverse_total += stats->reverse_charge[j];
    }
}

/* Cells by index from a base address. */
typedef struct cells_from {
    const bspram_space *s;
    uint64_t base;
} cells_from;

static uint64_t cell_owner(uint64_t a, const void *from)
{
    const cells_from *g = from;
    return bspram_owner(g->s, g->base + a);
}

void bspram__combine_share_range(bspram_machine *m, const bspram_space *s, uint64_t base, uint64_t *words,
                                 size_t n)
{
    bspram__bsp_machine_share_owned(m, words, n, cell_owner, &(cells_from){s, base});
}

void bspram_gather_cells(bspram_combiner *C, uint64_t address, uint64_t count, uint64_t *values)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    if (count > 0)
        BSPRAM_NONNULL(values);
    char err[160] = "";
    if (count > 0 && (bspram__hash_address_check(C->s, address, err, sizeof err) ||
                      bspram__hash_address_check(C->s, address + count - 1, err, sizeof err) ||
                      (address + count - 1) >> BSPRAM_SEGMENT_SHIFT != address >> BSPRAM_SEGMENT_SHIFT))
        bspram__base_fatal("bspram_gather_cells(address=0x%" PRIx64 ", count=%" PRIu64 "): %s", address, count,
                           err[0] ? err : "the range leaves the segment");
    for (uint64_t i = 0; i < count; i++)
        values[i] = bspram_holds(C->s, address + i) ? bspram_load(C->s, address + i) : 0;
    bspram__combine_share_range(C->m, C->s, address, values, (size_t)count);
}

/* Whether request i has an answer (READ and FETCH). */
static bool answered(uint64_t i, const void *requests)
{
    const uint8_t k = ((const bspram_request *)requests)[i].kind;
    return k == BSPRAM_READ || (k >= bspram_kind_fetch(0) && k < bspram_kind_combine_write(0));
}

/* One batch in either form (batch_state: req/first/results or parts). */
static void run_batch(bspram_team *t, bspram_combiner *C, const bspram_request *requests,
                      const uint64_t *first, uint64_t *results, const bspram_batch_part *parts,
                      bspram_combine_stats *stats)
{
    if (bspram__bsp_team_machine(t) != C->m)
        bspram__base_fatal("internal error: a combining batch on the team of another machine than the combiner's");
    const unsigned lane = bspram__bsp_team_lane(t);
    const uint64_t lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t);
    if (!parts)
        check_offsets(first, lo, hi);
    if (bspram__bsp_team_posted(t))
        bspram__base_fatal("a combining batch: lane %u posted messages in this superstep; a batch "
                     "starts right after an exchange (its first phase would deliver them as "
                     "requests)", lane);
    batch_state *b = &C->ls[lane].b;
    begin(C, &C->ls[lane], requests, first, results, parts);
    const bool lead = bspram__bsp_team_leads(t);
    char saved[BSPRAM_LABEL_LEN] = ""; /* the first lane owns the label */
    if (lead)
        snprintf(saved, sizeof saved, "%s", bspram__bsp_team_label(t));
    /* The first lane owns the log: only its count of records is used. */
    size_t nrec0 = lead ? bspram__bsp_team_records(t) : 0;

    if (C->o.strategy == BSPRAM_STRATEGY_OBSERVE)
        b->observe = bspram__combine_observe(t, C, b, observe_label);
    b->phase = 1;
    set_phase_label(t, "forward", 1);
    bspram__bsp_team_each(t, bspram__combine_forward_step, C);
    bspram__combine_out_flush(&C->ls[lane], C->m, lane);
    b->flags = batch_flags(bspram__bsp_team_exchange(t, phase1_tag(C, t)), &b->ukind);
    b->M = b->m_phases +
           ((b->flags & BATCH_PHYSICAL) && C->o.physical == BSPRAM_PHYSICAL_EXTRA_PHASE ? 1 : 0);
    /* From phase 2 on each component reads only the inbox of its own block
     * and copies what it keeps (items, arrivals, groups, sources): its
     * inbox's storage is released for the components after it to post in. */
    for (unsigned i = 2; i <= b->M; i++) {
        b->phase = i;
        set_phase_label(t, "forward", i);
        bspram__bsp_team_each_consuming(t, bspram__combine_forward_step, C);
        bspram__combine_out_flush(&C->ls[lane], C->m, lane);
        bspram__bsp_team_exchange(t, 0);
    }
    if (b->flags & BATCH_ANSWERS) {
        bspram__combine_reply_begin(C, &C->ls[lane]);
        for (unsigned j = 1; j <= b->M; j++) {
            b->phase = j;
            set_phase_label(t, "reverse", j);
            bspram__bsp_team_each_consuming(t, reverse_step, C);
            bspram__combine_out_flush(&C->ls[lane], C->m, lane);
            bspram__bsp_team_exchange(t, 0);
        }
    }
    /* Without a superstep: the last answers reach their requesters, or (no
     * answers to send) the owners apply the updates they received; each
     * inbox is then released, so what the lane posts next (the next
     * batch's first phase) goes where these messages were. */
    for (uint64_t c = lo; c < hi; c++) {
        const bspram__run *runs;
        size_t k = bspram__bsp_team_inbox_runs(t, c, &runs);
        if (b->flags & BATCH_ANSWERS)
            bspram__combine_handle_replies(C, b, NULL, c, runs, k);
        else
            bspram__combine_owner_level(C, NULL, c, lane, runs, k);
        bspram__bsp_team_release_inbox(t, c);
    }
    bspram__bsp_team_set_label(t, saved);
    /* Over MPI a rank holds the answers to its components' requests; the
     * host form's `results` is whole on every rank (combine.h): the ranks
     * share the answers — the entries that are not answers stay untouched,
     * and no rank reads another's requests. The cells stay with their
     * owners' ranks (bspram_holds). */
    if (!parts && results && bspram__bsp_machine_spread(C->m)) {
        bspram__bsp_team_barrier(t); /* every local lane has landed its part */
        if (lead)
            bspram__bsp_machine_share_parts(C->m, results, sizeof *results, first, answered, requests);
        bspram__bsp_team_barrier(t);
    }
    if (stats) {
        bspram__bsp_team_flush(t);
        if (lead)
            read_stats(C, b, nrec0, stats);
    }
}

void bspram__combine_team(bspram_team *t, bspram_combiner *C, const bspram_request *requests,
                         const uint64_t *first, uint64_t *results, bspram_combine_stats *stats)
{
    BSPRAM_NONNULL(t);
    BSPRAM_NONNULL_AS(__func__, "c", C);
    BSPRAM_NONNULL(requests);
    BSPRAM_NONNULL(first);
    run_batch(t, C, requests, first, results, NULL, stats);
}

void bspram__combine_team_parts(bspram_team *t, bspram_combiner *C, const bspram_batch_part *parts,
                               bspram_combine_stats *stats)
{
    BSPRAM_NONNULL(t);
    BSPRAM_NONNULL_AS(__func__, "c", C);
    BSPRAM_NONNULL(parts);
    run_batch(t, C, NULL, NULL, NULL, parts, stats);
}

/* ---- the host-side driver ---- */

typedef struct host_batch {
    bspram_combiner *C;
    const bspram_request *requests;
    const uint64_t *first;
    uint64_t *results;
    bspram_combine_stats *stats;
} host_batch;

static void host_lane(bspram_team *t, void *arg)
{
    const host_batch *h = arg;
    bspram__combine_team(t, h->C, h->requests, h->first, h->results, h->stats);
}

void bspram_combine(bspram_combiner *C, const bspram_request *requests, const uint64_t *first,
                    uint64_t *results, bspram_combine_stats *stats)
{
    BSPRAM_NONNULL_AS(__func__, "c", C);
    BSPRAM_NONNULL(requests);
    BSPRAM_NONNULL(first);
    check_offsets(first, 0, C->p); /* here, so that a bad batch gives one line from one thread */
    host_batch h = {C, requests, first, results, stats};
    bspram__bsp_machine_team_for(C->m, host_lane, &h, "bspram_combine");
}
