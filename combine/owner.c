/* What the owner of a cell does once every request for it has arrived
 * (combine.h, "Species and their meaning at one cell"): combine once more,
 * check that the batch puts at most one update species on the cell, answer
 * the reads with the value before the batch, apply the update, and answer
 * fetch-and-ops with the value just before each one's contribution — or,
 * where the outcome is bit for bit the same, fold each record into its cell
 * as it comes (fold_into_cells). */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"
#include "hash/hash_internal.h"

/* Two update species at one cell: found by a second grouping, by address. */
static void check_species(const bspram_combiner *C, lane_scratch *L, size_t ng)
{
    bspram__combine_table_reset(L, ng);
    size_t mask = L->tcap - 1;
    for (size_t g = 0; g < ng; g++) {
        unsigned kind = bspram__key_kind(L->g[g].key);
        if (kind == BSPRAM_READ)
            continue;
        uint64_t addr = bspram__key_address(L->g[g].key);
        size_t pos = bspram__table_slot(addr, mask);
        while (L->t[pos].stamp == L->stamp && L->t[pos].key != addr)
            pos = (pos + 1) & mask;
        if (L->t[pos].stamp == L->stamp) {
            char b1[64], b2[64];
            unsigned other = bspram__key_kind(L->g[L->t[pos].group].key);
            bspram__base_fatal("bspram_combine: two update species at address 0x%" PRIx64
                         " in one batch: %s and %s", addr, bspram__combine_kind_name(C, other, b1, sizeof b1),
                         bspram__combine_kind_name(C, kind, b2, sizeof b2));
        }
        L->t[pos].stamp = L->stamp;
        L->t[pos].key = addr;
        L->t[pos].group = (uint32_t)g;
    }
}

/* The built-in operations on integers (op ids below 2·7: i64 and u64) are
 * exactly associative, so folding a cell's records into it one by one,
 * (((x ⊕ v1) ⊕ v2) ⊕ …), gives the bits of x ⊕ (v1 ⊕ v2 ⊕ …), the group's
 * value applied once; floating point would not. */
static inline bool exactly_associative(unsigned op)
{
    return op < 2 * 7;
}

/* An inbox of updates of one exactly associative operation on hashed
 * segments at owner c — compact reductions, or fetch-and-ops as wire
 * records (`answer`) — once the lane has seen two updates meet (so grouping
 * would tell it nothing new, BSPRAM__MET_UPDATES): every record is applied
 * straight to its cell in arrival order, with no group table and no list of
 * addresses, and a fetch-and-op is answered with the cell's value just before
 * it, which is its group's value before the group plus the values of the
 * group's earlier arrivals, as the grouped answer is. A first pass over all
 * n records finds each one's first slot and asks for it, so that their
 * memory latencies overlap (as bspram_cells does); a second probes and
 * applies. The tables must key by 32 bits (a segment of at most 2^32 − 1
 * cells, hash_internal.h): the first pass returns false, before any cell is
 * touched, at a segment of 64-bit keys, and the owner groups its inbox
 * instead (one test per segment met, not one per record). */
__attribute__((always_inline)) static inline bool fold(const bspram_combiner *C, lane_scratch *L, uint64_t c,
                                                      unsigned op, const bspram__run *runs, size_t nr, size_t n,
                                                      bool answer, unsigned level)
{
    const size_t size = answer ? sizeof(wire) : sizeof(compact_wire);
    L->fslot = bspram__grow(L->fslot, &L->capfslot, n, sizeof *L->fslot, 256, "bspram_combine");
    uint64_t *slot = L->fslot;
    bspram__cell_table T = {0};
    uint64_t tseg = 0;
    /* Records are read by memcpy (a run need not be aligned): the key is
     * first and the value second in both forms. */
    for (size_t i = 0, k = 0; i < nr; i++)
        for (uint64_t j = 0; j < runs[i].count; j++, k++) {
            uint64_t addr;
            memcpy(&addr, (const char *)runs[i].data + j * size, 8);
            addr = bspram__key_address(addr);
            if (addr >> BSPRAM_SEGMENT_SHIFT != tseg) {
                tseg = addr >> BSPRAM_SEGMENT_SHIFT;
                bspram__hash_cell_table(C->s, (uint32_t)tseg, c, &T);
                if (!T.key32)
                    return false;
            }
            slot[k] = bspram__cell_home(bspram__hash_hash64_inline(C->hash, addr), T.size);
            __builtin_prefetch(&T.key32[slot[k]]);
            __builtin_prefetch(T.bytes + slot[k] * 8, 1);
        }
    tseg = 0;
    for (size_t i = 0, k = 0; i < nr; i++)
        for (uint64_t j = 0; j < runs[i].count; j++, k++) {
            const char *r = (const char *)runs[i].data + j * size;
            uint64_t addr, v, x, pos = slot[k];
            memcpy(&addr, r, 8);
            memcpy(&v, r + 8, 8);
            addr = bspram__key_address(addr);
            if (addr >> BSPRAM_SEGMENT_SHIFT != tseg) {
                tseg = addr >> BSPRAM_SEGMENT_SHIFT;
                bspram__hash_cell_table(C->s, (uint32_t)tseg, c, &T);
            }
            const uint64_t want = (addr & (BSPRAM_SEGMENT_MAX_CELLS - 1)) + 1;
            while (T.key32[pos] != want) /* present: the table holds all of c's cells */
                pos = bspram__cell_next(pos, T.size);
            memcpy(&x, T.bytes + pos * 8, 8);
            if (answer) {
                uint32_t handle;
                memcpy(&handle, r + offsetof(wire, handle), sizeof handle);
                uint64_t from; /* the sender, as bspram__wire_source reads it */
                memcpy(&from, r + offsetof(wire, aux), sizeof from);
                bspram__combine_reply(L, L->b.adaptive ? runs[i].src : (uint32_t)from, handle, level, x);
            }
            x = bspram__op_apply_builtin(op, x, v);
            memcpy(T.bytes + pos * 8, &x, 8);
        }
    return true;
}

/* fold() with the usual cases' operation and form known to the compiler,
 * so that its loop applies them without a switch per record. */
static bool fold_into_cells(const bspram_combiner *C, lane_scratch *L, uint64_t c, unsigned op,
                            const bspram__run *runs, size_t nr, size_t n, bool answer, unsigned level)
{
    const unsigned sum = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_U64);
    if (op == sum && !answer)
        return fold(C, L, c, sum, runs, nr, n, false, level);
    if (op == sum)
        return fold(C, L, c, sum, runs, nr, n, true, level);
    return fold(C, L, c, op, runs, nr, n, answer, level);
}

/* The operation every record of the owner's inbox updates with, if they are
 * all reductions (compact) or all fetch-and-ops (wire records) of one exactly
 * associative operation on hashed segments; else BSPRAM_MAX_OPS. */
static unsigned foldable(const batch_state *b, const comp_state *cs, const bspram__run *runs, size_t nr,
                         bool *answer, size_t *n)
{
    if (nr == 0 || cs->na != 0 || (b->flags & (BATCH_SPECIES | BATCH_PHYSICAL)))
        return BSPRAM_MAX_OPS;
    uint64_t key0;
    memcpy(&key0, runs[0].data, 8);
    const unsigned kind = bspram__key_kind(key0), op = bspram__kind_op(kind);
    *answer = bspram__is_fetch(kind);
    if (!exactly_associative(op) || !(*answer || bspram__is_reduce(kind)))
        return BSPRAM_MAX_OPS;
    const uint32_t size = *answer ? (uint32_t)sizeof(wire) : (uint32_t)sizeof(compact_wire);
    if (!bspram__runs_of_size(runs, nr, size))
        return BSPRAM_MAX_OPS;
    for (size_t i = 0; i < nr; i++) {
        *n += runs[i].count;
        for (uint64_t j = 0; *answer && j < runs[i].count; j++) { /* reads may ride with fetches */
            uint64_t key;
            memcpy(&key, (const char *)runs[i].data + j * size, 8);
            if (bspram__key_kind(key) != kind)
                return BSPRAM_MAX_OPS;
        }
    }
    return op;
}

void bspram__combine_owner_level(bspram_combiner *C, bspram_component *self, uint64_t c, unsigned lane,
                         const bspram__run *runs, size_t nr)
{
    lane_scratch *L = &C->ls[lane];
    const batch_state *b = &L->b;
    comp_state *cs = &C->cs[c];
    size_t n = 0, ng;
    bool answer = false;
    const unsigned op = (L->met & BSPRAM__MET_UPDATES) ? foldable(b, cs, runs, nr, &answer, &n) : BSPRAM_MAX_OPS;
    if (op < BSPRAM_MAX_OPS && fold_into_cells(C, L, c, op, runs, nr, n, answer, b->M)) {
        if (self) /* a batch with answers: this owner's, if any */
            bspram__combine_send_replies(C, L, self);
        return;
    }
    n = 0;
    /* Compact reductions only, none answered: grouped straight from the
     * runs (group.c), without an item per record. */
    const bool compact = cs->na == 0 && !(b->flags & BATCH_ANSWERS) &&
                         bspram__runs_of_size(runs, nr, sizeof(compact_wire));
    if (compact) {
        ng = bspram__combine_group_compact(C, L, runs, nr, &n, false);
    } else {
        bspram__combine_items_reserve(L, cs->na);
        for (size_t j = 0; j < cs->na; j++, n++) {
            L->items[n] = cs->arrived[j];
            L->isrc[n] = cs->arrived_src[j];
            L->ilevel[n] = cs->arrived_level[j];
        }
        for (size_t i = 0; i < nr; i++) {
            const char *data = runs[i].data;
            const uint32_t src = runs[i].src, size = runs[i].size;
            const uint64_t count = runs[i].count;
            if (n + count > L->icap) /* items kept so far stay */
                bspram__combine_items_reserve(L, n + count);
            for (uint64_t j = 0; j < count; j++, n++, data += size) {
                bspram__unpack(C, b, data, size, b->M, &L->items[n], false); /* owners need no H(t) */
                L->isrc[n] = bspram__wire_source(b, &L->items[n], src);
                L->ilevel[n] = (uint8_t)b->M;
            }
        }
        cs->na = 0;
        ng = bspram__combine_group(C, L, n);
    }
    if (b->flags & BATCH_SPECIES)
        check_species(C, L, ng);

    /* Reads first: they see memory before the batch's updates. Then updates
     * (fetch-and-op answers carry the value just before the group's). */
    /* The cells, looked up together so that their memory latencies overlap. */
    for (size_t g = 0; g < ng; g++)
        L->gaddr[g] = bspram__key_address(L->g[g].key);
    bspram_cells(C->s, L->gaddr, ng, L->gcell);
    uint64_t wseg = UINT64_MAX;
    unsigned w = 8;
    /* No READ or FETCH in the batch: no reads, one pass. */
    for (int pass = (b->flags & BATCH_ANSWERS) ? 0 : 1; pass < 2; pass++) {
        for (size_t g = 0; g < ng; g++) {
            unsigned kind = bspram__key_kind(L->g[g].key);
            if ((kind == BSPRAM_READ) != (pass == 0))
                continue;
            uint64_t addr = L->gaddr[g];
            unsigned char *cell = L->gcell[g];
            if (addr >> BSPRAM_SEGMENT_SHIFT != wseg) {
                wseg = addr >> BSPRAM_SEGMENT_SHIFT;
                w = bspram_segment_width(C->s, (uint32_t)wseg);
            }
            uint64_t old = 0;
            if (w == 8) /* the usual width: a word, not a call to memcpy */
                memcpy(&old, cell, 8);
            else
                memcpy(&old, cell, w);
            if (bspram__stores(kind)) { /* a combining write stores the ⊕ of its values */
                memcpy(cell, &L->g[g].value, w);
            } else if (bspram__is_op(kind)) {
                uint64_t nv = bspram__apply(C, bspram__kind_op(kind), old, L->g[g].value);
                memcpy(cell, &nv, 8);
            }
            L->g[g].aux = old; /* the value answers start from */
        }
    }
    if (!self)
        return;
    /* Answer every READ/FETCH item, in arrival order, to its sender. */
    for (size_t j = 0; j < n; j++) {
        uint32_t g = L->igroup[j];
        unsigned kind = bspram__key_kind(L->g[g].key);
        if (!bspram__answers(kind))
            continue;
        uint64_t x = L->g[g].aux;
        bspram__combine_reply(L, L->isrc[j], L->items[j].handle, L->ilevel[j], x);
        if (bspram__is_fetch(kind))
            L->g[g].aux = bspram__apply(C, bspram__kind_op(kind), x, L->items[j].value);
    }
    bspram__combine_send_replies(C, L, self);
}
