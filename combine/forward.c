/* The forward phases (Valiant §2, §5). In phase i every component combines
 * the requests it holds (group.c) and sends each group on:
 *   i < m   to h_i(t)·suffix(i) + k, k random per (batch, phase, component,
 *           group) or k = s mod suffix(i) for source spreading (§4);
 *   i = m   to H(t) — or, for a block/cyclic segment, straight to its owner
 *           (PHYSICAL_DIRECT_LAST) or on to an extra phase m+1 that moves it
 *           there (PHYSICAL_EXTRA_PHASE), §5;
 * and, in the adaptive strategy, a component that saw almost no combining
 * sends its lone requests straight to their final components; in the ROUTE
 * strategy phase i < m goes where the programmer's route says (§5). */
#include <inttypes.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"
#include "hash/random.h"
#include "hash/hash_internal.h"
#include "bsp/machine_internal.h"

static inline bool addr_physical(const bspram_combiner *C, unsigned flags, uint64_t addr)
{
    if (!(flags & BATCH_PHYSICAL))
        return false; /* no physical segment in the batch: skip the lookup */
    return bspram_segment_layout(C->s, (uint32_t)(addr >> BSPRAM_SEGMENT_SHIFT)) != BSPRAM_LAYOUT_HASHED;
}

/* Phase 1: check component c's n requests, and note in cs what they hold
 * (cs->flags, cs->ukind). Inlined twice: for a part with gaps, and for one
 * without, whose loop tests no slot for a gap. */
__attribute__((always_inline)) static inline void validate_slots(const bspram_combiner *C, uint64_t c,
                                                                 const bspram_batch_part *part, comp_state *cs,
                                                                 const bool gaps)
{
    const bool has_results = part->results != NULL;
    const size_t slots = (size_t)bspram__batch_part_slots(part);
    uint64_t cached_seg = 0, cached_n = 0;
    unsigned cached_w = 0;
    bspram_layout cached_layout = BSPRAM_LAYOUT_HASHED;
    unsigned flags = 0, ukind = BSPRAM__NO_KIND;
    /* The checks of a species are made at its first request after a change
     * of species or segment (they depend on nothing else, and what they add
     * to flags and ukind is the same for every request of the species): a
     * component's requests are mostly of one species, so most requests skip
     * them. The first failing request is the same as checking each. */
    unsigned last_kind = 256; /* none */
    for (size_t s = 0, j = 0; s < slots; s++, j++) {
        if (gaps && bspram__batch_part_gap(part, s)) {
            j--; /* j counts the requests */
            continue;
        }
        const bspram_request rj = bspram__batch_part_slot(part, s), *r = &rj;
        uint64_t seg = r->address >> BSPRAM_SEGMENT_SHIFT;
        if (seg != cached_seg || (r->address & (BSPRAM_SEGMENT_MAX_CELLS - 1)) >= cached_n) {
            char err[200];
            if (bspram__hash_address_check(C->s, r->address, err, sizeof err))
                bspram__base_fatal("bspram_combine(request %zu of component %" PRIu64 "): %s", j, c, err);
            cached_seg = seg;
            cached_n = bspram_segment_cells(C->s, (uint32_t)seg);
            cached_w = bspram_segment_width(C->s, (uint32_t)seg);
            cached_layout = bspram_segment_layout(C->s, (uint32_t)seg);
            last_kind = 256;
        }
        unsigned kind = r->kind;
        if (kind != last_kind) {
            if (!bspram__kind_valid(kind, C->nops))
                bspram__base_fatal("bspram_combine(request %zu of component %" PRIu64 ", address 0x%" PRIx64
                             "): unknown species or operation (kind %u); valid: 0 read, 1-3 write, "
                             "32+op reduce, 64+op fetch with op < %u",
                             j, c, r->address, kind, C->nops);
            if (bspram__is_op(kind) && cached_w != 8)
                bspram__base_fatal("bspram_combine(request %zu of component %" PRIu64 ", address 0x%" PRIx64
                             "): reduce, fetch-and-op and combining writes need cells of 8 bytes; the "
                             "segment's are %u", j, c, r->address, cached_w);
            if (bspram__answers(kind)) {
                if (!has_results)
                    bspram__base_fatal("bspram_combine(results=NULL): the batch holds READ or FETCH requests "
                                 "(request %zu of component %" PRIu64 ")", j, c);
                flags |= BATCH_ANSWERS;
            }
            if (kind != BSPRAM_READ) {
                if (ukind == BSPRAM__NO_KIND)
                    ukind = kind;
                else if (ukind != kind)
                    flags |= BATCH_SPECIES;
            }
            if (cached_layout != BSPRAM_LAYOUT_HASHED)
                flags |= BATCH_PHYSICAL;
            last_kind = kind;
        }
    }
    cs->flags = flags;
    cs->ukind = ukind;
    cs->na = 0;
}

static void validate(const bspram_combiner *C, uint64_t c, const bspram_batch_part *part, comp_state *cs)
{
    if (!part->requests && part->gaps)
        validate_slots(C, c, part, cs, true);
    else
        validate_slots(C, c, part, cs, false);
}

/* Phase 1: load component c's n checked requests as wire records; inlined
 * for parts with gaps and without, as validate_slots. */
__attribute__((always_inline)) static inline void load_slots(const bspram_combiner *C, uint64_t c, lane_scratch *L,
                                                             const bspram_batch_part *part, const bool gaps)
{
    const size_t slots = (size_t)bspram__batch_part_slots(part);
    bspram__combine_items_reserve(L, (size_t)part->n);
    for (size_t s = 0, j = 0; s < slots; s++, j++) {
        if (gaps && bspram__batch_part_gap(part, s)) {
            j--; /* j counts the requests */
            continue;
        }
        const bspram_request rj = bspram__batch_part_slot(part, s), *r = &rj;
        const unsigned kind = r->kind;
        wire *w = &L->items[j];
        w->key = bspram__key(kind, r->address);
        /* A READ's value is unused: it carries the label (conflict reports). */
        w->value = kind == BSPRAM_READ ? r->label : r->value;
        switch (kind) { /* the policy keys of combine.h */
        case BSPRAM_WRITE_ARBITRARY: w->aux = bspram_random2(C->o.seed, c, j); break;
        case BSPRAM_WRITE_PRIORITY: w->aux = (c << 32) | (uint64_t)j; break;
        case BSPRAM_WRITE_COMMON: w->aux = c; break;
        default: w->aux = 1; break; /* weight: one original request */
        }
        w->owner = (uint32_t)bspram__hashed_owner(C, r->address);
        /* The handle names the request's slot for the reverse flow (its
         * answer goes to results[slot]); a write, which has no answer,
         * carries its label there instead. */
        w->handle = bspram__is_write(kind) ? r->label : (uint32_t)s;
        L->isrc[j] = (uint32_t)c;
        L->ilevel[j] = 0;
    }
}

static void load(const bspram_combiner *C, uint64_t c, lane_scratch *L, const bspram_batch_part *part)
{
    if (!part->requests && part->gaps)
        load_slots(C, c, L, part, true);
    else
        load_slots(C, c, L, part, false);
}

/* A group's destination in pass 1 of the forward step's send, with this bit
 * when the request is final there. */
#define FINAL_DEST (UINT64_C(1) << 63)

/* Group g of component c as the wire record it travels as: flagged final
 * where it is, and carrying its reverse-flow handle (a write keeps its
 * winner's label) and, if answered outside the adaptive strategy, c as its
 * source (bspram__wire_source). */
static inline wire wire_of(const batch_state *b, const lane_scratch *L, uint64_t c, size_t g, bool final)
{
    wire w = L->g[g];
    w.owner = (w.owner & ~BSPRAM__FINAL_FLAG) | (final ? BSPRAM__FINAL_FLAG : 0u);
    const unsigned kind = bspram__key_kind(w.key);
    if (!bspram__is_write(kind))
        w.handle = L->ghandle[g];
    if (!b->adaptive && bspram__answers(kind))
        w.aux = c;
    return w;
}

/* Does a group of this kind travel as a compact record (wire.h)? */
static inline bool compact_kind(const batch_state *b, unsigned pflags, unsigned kind)
{
    return bspram__is_reduce(kind) && !b->adaptive && !(pflags & BATCH_PHYSICAL);
}

/* Keep a request that reached its final component before the last phase. */
static void arrive(comp_state *cs, const wire *w, uint32_t src, unsigned level)
{
    if (cs->na + 1 > cs->capa) {
        cs->capa = bspram__capacity(cs->capa, cs->na + 1, 16);
        cs->arrived = bspram__base_realloc(cs->arrived, cs->capa * sizeof *cs->arrived, "bspram_combine");
        cs->arrived_src = bspram__base_realloc(cs->arrived_src, cs->capa * sizeof *cs->arrived_src, "bspram_combine");
        cs->arrived_level = bspram__base_realloc(cs->arrived_level, cs->capa, "bspram_combine");
    }
    cs->arrived[cs->na] = *w;
    cs->arrived_src[cs->na] = src;
    cs->arrived_level[cs->na] = (uint8_t)level;
    cs->na++;
}

/* Group g's destination in phase < m outside the adaptive shortcut: the
 * programmer's route, or h_phase(t)·suffix + k with k the source's offset or
 * a draw (Valiant §4, §5). Inlined: it runs once per group per phase (left
 * to the compiler, a larger forward step made it a call: 20 instructions
 * more per scatter-reduce operation). */
__attribute__((always_inline)) static inline uint64_t spread_dest(const bspram_combiner *C, const batch_state *b,
                                                                 unsigned phase, uint64_t ab, uint64_t c, size_t g,
                                                                 uint64_t H, uint64_t addr)
{
    if (C->o.strategy == BSPRAM_STRATEGY_ROUTE) {
        uint64_t dest = C->o.route(phase, addr, c, C->o.route_arg);
        if (dest >= C->p)
            bspram__base_fatal("bspram_combine: route(phase=%u, address=0x%" PRIx64 ", component=%" PRIu64
                               ") = %" PRIu64 ": not a component; p = %" PRIu64, phase, addr, c, dest, C->p);
        return dest;
    }
    const uint64_t suffix = b->basis.suffix[phase];
    uint64_t k = C->o.spread == BSPRAM_SPREAD_SOURCE ? c % suffix
                                                     : bspram_reduce(bspram__random3_abc(&b->rkey, ab, c, g), suffix);
    return bspram_basis_target(&b->basis, phase, H, k);
}

/* Staging a component's compact reductions of one phase for the lane's runs
 * as they are grouped: records are grouped as bspram__combine_group groups
 * items (the same groups, in the same order, with the same values), and each
 * new group is staged at once as its compact record with its destination, so
 * no item, no group and no second pass over the groups is written. */
typedef struct stager {
    compact_wire *st;
    uint32_t *sd;
    size_t mask, ng;
    uint32_t stamp;
    unsigned phase;
    bool last; /* phase m: every group goes to H(t) */
    uint64_t ab;
} stager;

static stager stage_begin(const bspram_combiner *C, const batch_state *b, uint64_t c, lane_scratch *L,
                          unsigned lane, unsigned phase, size_t n)
{
    bspram__combine_out_bound(L, C->m, lane, C->p, n);
    bspram__combine_out_unit(L, C->m, lane, 1);
    bspram__combine_table_reset(L, n);
    bspram__combine_out_stage_room(L, n);
    return (stager){L->stage + L->nstage, L->stage_dst + L->nstage, L->tcap - 1, 0, L->stamp, phase,
                    phase == b->m_phases, bspram__random3_ab(&b->rkey, phase, c)};
}

/* Inlined into the loops over a part's requests and over a phase's runs (as
 * a call per record it cost 15 % more instructions per operation). */
__attribute__((always_inline)) static inline void stage_one(bspram_combiner *C, const batch_state *b, uint64_t c,
                                                           lane_scratch *L, stager *S, uint64_t key, uint64_t value)
{
    size_t pos = bspram__table_slot(key, S->mask);
    while (L->t[pos].stamp == S->stamp && L->t[pos].key != key)
        pos = (pos + 1) & S->mask;
    if (L->t[pos].stamp == S->stamp) { /* merged as merge() merges a reduction */
        compact_wire *g = &S->st[L->t[pos].group];
        L->met |= BSPRAM__MET_UPDATES;
        g->value = bspram__apply(C, bspram__kind_op(bspram__key_kind(key)), g->value, value);
        return;
    }
    L->t[pos].stamp = S->stamp;
    L->t[pos].key = key;
    L->t[pos].group = (uint32_t)S->ng;
    const uint64_t addr = bspram__key_address(key), H = bspram__hashed_owner(C, addr);
    const uint64_t dest = S->last ? H : spread_dest(C, b, S->phase, S->ab, c, S->ng, H, addr);
    bspram__out_count(L, dest);
    S->st[S->ng] = (compact_wire){key, value};
    S->sd[S->ng++] = (uint32_t)dest;
}

static void stage_end(bspram_combiner *C, bspram_component *self, uint64_t c, lane_scratch *L, const stager *S)
{
    bspram__bsp_account(self, S->ng, (uint32_t)sizeof(compact_wire));
    L->nstage += S->ng;
    C->cs[c].lv[S->phase].ng = 0; /* nothing answered: no handles */
}

/* The units of a staged record when a component's ng groups are all compact
 * reductions (1) or none is (2), else 0. The species a part or a batch
 * holds (flags, ukind: the one update species, if any) tell it without a
 * look at the groups, but for a mix of species. */
static unsigned stage_unit(const lane_scratch *L, size_t ng, bool may_compact, unsigned flags, unsigned ukind)
{
    if (!may_compact)
        return 2;
    if (!(flags & BATCH_SPECIES)) {
        if (ukind == BSPRAM__NO_KIND || !bspram__is_reduce(ukind))
            return 2; /* reads only, or one update species that is no reduction */
        if (!(flags & BATCH_ANSWERS))
            return 1; /* one reduction species, no reads */
    }
    size_t nred = 0;
    for (size_t g = 0; g < ng; g++)
        nred += bspram__is_reduce(bspram__key_kind(L->g[g].key));
    return nred == ng ? 1 : nred == 0 ? 2 : 0;
}

bool bspram__combine_forward_step(bspram_component *self, void *combiner)
{
    bspram_combiner *C = combiner;
    uint64_t c = bspram_pid(self);
    lane_scratch *L = &C->ls[bspram__bsp_lane(self)];
    const batch_state *b = &L->b;
    comp_state *cs = &C->cs[c];
    unsigned phase = b->phase;
    size_t n = 0, ng = SIZE_MAX;
    if (phase == 1) {
        const bspram_batch_part part = bspram__batch_part(b, c);
        n = (size_t)part.n;
        validate(C, c, &part, cs);
        if (!(cs->flags & (BATCH_ANSWERS | BATCH_SPECIES)) && compact_kind(b, cs->flags, cs->ukind) &&
            bspram__combine_out_ready(L, C->p) && bspram__bsp_lane_runs(C->m)) {
            /* Reductions of one species on hashed segments (the usual PRAM
             * scatter-reduce): staged as they are grouped, from either form
             * (the arrays form's values are never NULL: a reduction has them). */
            stager S = stage_begin(C, b, c, L, bspram__bsp_lane(self), 1, n);
            if (part.requests)
                for (size_t j = 0; j < n; j++)
                    stage_one(C, b, c, L, &S, bspram__key(cs->ukind, part.requests[j].address),
                              part.requests[j].value);
            else if (!part.gaps) /* the arrays form (requests NULL) */
                for (size_t j = 0; j < n; j++)
                    stage_one(C, b, c, L, &S, bspram__key(cs->ukind, part.cells[j]), part.values[j]);
            else
                for (size_t s = 0, slots = n + (size_t)part.gaps; s < slots; s++)
                    if (part.cells[s] != BSPRAM__NO_REQUEST)
                        stage_one(C, b, c, L, &S, bspram__key(cs->ukind, part.cells[s]), part.values[s]);
            stage_end(C, self, c, L, &S);
            return false;
        }
        load(C, c, L, &part);
    } else {
        const bspram__run *runs;
        const size_t nr = bspram__bsp_inbox_runs(self, &runs);
        /* Compact reductions only, none final here, none answered: grouped
         * straight from the runs (group.c). */
        const bool compact = phase - 1 < b->m_phases && !(b->flags & BATCH_ANSWERS) &&
                             bspram__runs_of_size(runs, nr, sizeof(compact_wire));
        if (compact && compact_kind(b, b->flags, BSPRAM__KIND_REDUCE) && bspram__combine_out_ready(L, C->p) &&
            bspram__bsp_lane_runs(C->m)) { /* staged as they are grouped */
            size_t total = 0;
            for (size_t i = 0; i < nr; i++)
                total += runs[i].count;
            stager S = stage_begin(C, b, c, L, bspram__bsp_lane(self), phase, total);
            for (size_t i = 0; i < nr; i++) {
                const char *data = runs[i].data;
                for (uint64_t j = 0; j < runs[i].count; j++, data += sizeof(compact_wire)) {
                    compact_wire cw;
                    memcpy(&cw, data, sizeof cw);
                    stage_one(C, b, c, L, &S, cw.key, cw.value);
                }
            }
            stage_end(C, self, c, L, &S);
            return false;
        }
        if (compact)
            ng = bspram__combine_group_compact(C, L, runs, nr, &n, true);
        for (size_t i = 0; !compact && i < nr; i++) {
            const char *data = runs[i].data;
            const uint32_t src = runs[i].src, size = runs[i].size;
            const uint64_t count = runs[i].count;
            if (n + count > L->icap) /* items kept so far stay */
                bspram__combine_items_reserve(L, n + count);
            for (uint64_t j = 0; j < count; j++, data += size) {
                const bool final = bspram__unpack(C, b, data, size, phase - 1, &L->items[n], true);
                const uint32_t from = bspram__wire_source(b, &L->items[n], src);
                if (final) {
                    arrive(cs, &L->items[n], from, phase - 1);
                    continue;
                }
                L->isrc[n] = from;
                n++;
            }
        }
    }
    if (ng == SIZE_MAX)
        ng = bspram__combine_group(C, L, n);
    unsigned pflags = phase == 1 ? cs->flags : b->flags;
    bspram__combine_record_sources(cs, L, phase, n, ng, (pflags & BATCH_ANSWERS) != 0);

    unsigned m = b->m_phases;
    /* Adaptive (beyond the paper): a component that saw almost no combining
     * in the previous phase (at most 1 in 32 of the requests it received
     * met another of its address) holds evidence that the degree is low
     * compared with the spread; it sends its uncombined requests straight to
     * their owners instead of spending the remaining phases on them. */
    bool quiet = b->adaptive && phase >= 2 && phase < m && (n - ng) * 32 <= n;
    /* The spreading offset of group g is bspram_random_below(suffix, seed,
     * phase, c, g), drawn inline with its (phase, c) part once. */
    const uint64_t ab = bspram__random3_ab(&b->rkey, phase, c);
    /* Pass 1: every group's destination (and whether it is final there),
     * counted by destination; a reduction on a hashed segment outside the
     * adaptive strategy travels compact (wire.h). */
    const bool partition = bspram__combine_out_ready(L, C->p);
    const bool may_compact = compact_kind(b, pflags, BSPRAM__KIND_REDUCE);
    /* Every group a compact reduction, or (outside the adaptive strategy,
     * whose answered records carry their weight, not their source) none:
     * staged for the lane's runs (partition.c), a record of 1 or 2 units;
     * otherwise the lane's staged records go first. */
    const unsigned lane = bspram__bsp_lane(self);
    unsigned unit = 0;
    if (partition && bspram__bsp_lane_runs(C->m) && !b->adaptive)
        unit = stage_unit(L, ng, may_compact, pflags, phase == 1 ? cs->ukind : b->ukind);
    const bool staged = unit == 1, wstaged = unit == 2;
    if (unit) {
        bspram__combine_out_bound(L, C->m, lane, C->p, ng * unit);
        bspram__combine_out_unit(L, C->m, lane, unit);
        if (staged)
            bspram__combine_out_stage(L, self, ng);
        else {
            bspram__bsp_account(self, ng, (uint32_t)sizeof(wire));
            bspram__combine_out_stage_room(L, 2 * ng);
        }
    } else
        bspram__combine_out_flush(L, C->m, lane);
    size_t ncompact = 0;
    for (size_t g = 0; g < ng; g++) {
        const wire *out = &L->g[g];
        unsigned kind = bspram__key_kind(out->key);
        uint64_t addr = bspram__key_address(out->key);
        uint64_t H = out->owner & ~BSPRAM__FINAL_FLAG;
        uint64_t dest;
        bool final = false;
        if (phase > m) { /* the extra phase of §5: hashed address → physical */
            dest = addr_physical(C, pflags, addr) ? bspram_owner(C->s, addr) : H;
            final = true;
        } else if (phase == m) {
            if (addr_physical(C, pflags, addr)) {
                if (C->o.physical == BSPRAM_PHYSICAL_DIRECT_LAST) {
                    dest = bspram_owner(C->s, addr);
                    final = true;
                } else {
                    dest = H; /* the extra phase moves it on */
                }
            } else {
                dest = H;
                final = true;
            }
        } else if (quiet && L->gcount[g] == 1 && (bspram__is_write(kind) || out->aux == 1)) {
            /* Adaptive: this request has met no other of its address in
             * phase 1..phase-1, evidence that its group is small; send it
             * straight to its final component. */
            dest = addr_physical(C, pflags, addr) ? bspram_owner(C->s, addr) : H;
            final = true;
        } else {
            dest = spread_dest(C, b, phase, ab, c, g, H, addr);
        }
        if (partition)
            bspram__out_count(L, dest);
        if (staged) {
            L->stage[L->nstage + g] = (compact_wire){out->key, out->value};
            L->stage_dst[L->nstage + g] = (uint32_t)dest;
            continue;
        }
        if (wstaged) {
            const wire w = wire_of(b, L, c, g, final);
            memcpy(&L->stage[L->nstage + 2 * g], &w, sizeof w);
            L->stage_dst[L->nstage + 2 * g] = (uint32_t)dest;
            continue;
        }
        if (may_compact)
            ncompact += bspram__is_reduce(kind);
        L->gdest[g] = dest | (final ? FINAL_DEST : 0);
    }
    if (unit) {
        L->nstage += unit * ng;
        return false;
    }
    /* Pass 2: a run per destination, then every group's record in it, in
     * group order. Records of two sizes in one phase (a batch that mixes
     * reductions with other species), or a machine too large for the
     * counts, reserve a run per record instead, in group order: the inboxes
     * are the same either way. */
    const bool uniform = ncompact == 0 || ncompact == ng;
    const uint32_t size = ncompact ? (uint32_t)sizeof(compact_wire) : (uint32_t)sizeof(wire);
    if (partition && uniform)
        bspram__combine_out_reserve(L, self, size);
    else if (partition)
        for (size_t t = 0; t < L->ntouch; t++) /* the counts are not used */
            L->dcount[L->dtouch[t]] = 0;
    if (partition)
        L->ntouch = 0;
    if (partition && ncompact == ng) { /* the usual reduction: compact records */
        for (size_t g = 0; g < ng; g++) {
            compact_wire cw = {L->g[g].key, L->g[g].value};
            memcpy(bspram__out_place(L, L->gdest[g] & ~FINAL_DEST, sizeof cw), &cw, sizeof cw);
        }
        return false;
    }
    if (partition && ncompact == 0) { /* wire records only (answered, or not reductions) */
        for (size_t g = 0; g < ng; g++) {
            const wire w = wire_of(b, L, c, g, (L->gdest[g] & FINAL_DEST) != 0);
            memcpy(bspram__out_place(L, L->gdest[g] & ~FINAL_DEST, sizeof w), &w, sizeof w);
        }
        return false;
    }
    for (size_t g = 0; g < ng; g++) {
        const wire *out = &L->g[g];
        const uint64_t dest = L->gdest[g] & ~FINAL_DEST;
        const bool compact = ncompact && compact_kind(b, pflags, bspram__key_kind(out->key));
        const uint32_t sz = compact ? (uint32_t)sizeof(compact_wire) : (uint32_t)sizeof(wire);
        void *at = partition && uniform ? bspram__out_place(L, dest, sz) : bspram__bsp_reserve(self, dest, sz, 1);
        if (compact) {
            compact_wire cw = {out->key, out->value};
            memcpy(at, &cw, sizeof cw);
            continue;
        }
        const wire w = wire_of(b, L, c, g, (L->gdest[g] & FINAL_DEST) != 0);
        memcpy(at, &w, sizeof w);
    }
    return false;
}
