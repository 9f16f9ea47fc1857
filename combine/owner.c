/* What the owner of a cell does once every request for it has arrived
 * (combine.h, "Species and their meaning at one cell"): combine once more,
 * check that the batch puts at most one update species on the cell, answer
 * the reads with the value before the batch, apply the update, and answer
 * fetch-and-ops with the value just before each one's contribution. */
#include <inttypes.h>
#include <stddef.h>
#include <string.h>

#include "base/error.h"
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

enum { FOLD_AHEAD = 16 };

/* An inbox of compact reductions of one exactly associative operation on
 * hashed segments, at owner c, once the lane has seen two updates meet (so
 * grouping would tell it nothing new, BSPRAM__MET_UPDATES): every record is
 * applied straight to its cell, with no group table and no list of
 * addresses. The slots of up to FOLD_AHEAD records of one segment are found
 * and asked for ahead, so that their memory latencies overlap (as
 * bspram_cells does). */
static void fold_into_cells(const bspram_combiner *C, uint64_t c, unsigned op, const bspram__run *runs, size_t nr)
{
    bspram__cell_table T = {0};
    uint64_t tseg = 0;
    for (size_t i = 0; i < nr; i++) {
        const char *rec = runs[i].data; /* records are read by memcpy: a run need not be aligned */
        const size_t count = (size_t)runs[i].count;
        for (size_t j0 = 0, m; j0 < count; j0 += m) {
            uint64_t slot[FOLD_AHEAD], want[FOLD_AHEAD];
            const size_t ahead = count - j0 < FOLD_AHEAD ? count - j0 : FOLD_AHEAD;
            for (m = 0; m < ahead; m++) { /* a chunk ends where its segment does */
                uint64_t addr;
                memcpy(&addr, rec + (j0 + m) * sizeof(compact_wire) + offsetof(compact_wire, key), 8);
                addr = bspram__key_address(addr);
                if (addr >> BSPRAM_SEGMENT_SHIFT != tseg) {
                    if (m > 0)
                        break;
                    tseg = addr >> BSPRAM_SEGMENT_SHIFT;
                    bspram__hash_cell_table(C->s, (uint32_t)tseg, c, &T);
                }
                want[m] = (addr & (BSPRAM_SEGMENT_MAX_CELLS - 1)) + 1;
                slot[m] = bspram__hash_hash64_inline(C->hash, addr) & T.mask;
                __builtin_prefetch(&T.key[slot[m]]);
                __builtin_prefetch(T.bytes + slot[m] * 8, 1);
            }
            for (size_t j = 0; j < m; j++) {
                uint64_t pos = slot[j], x, v;
                memcpy(&v, rec + (j0 + j) * sizeof(compact_wire) + offsetof(compact_wire, value), 8);
                while (T.key[pos] != want[j])
                    pos = (pos + 1) & T.mask; /* present: the table holds all of c's cells */
                memcpy(&x, T.bytes + pos * 8, 8);
                x = bspram__op_apply_builtin(op, x, v);
                memcpy(T.bytes + pos * 8, &x, 8);
            }
        }
    }
}

void bspram__combine_owner_level(bspram_combiner *C, bspram_component *self, uint64_t c, unsigned lane,
                         const bspram__run *runs, size_t nr)
{
    lane_scratch *L = &C->ls[lane];
    const batch_state *b = &L->b;
    comp_state *cs = &C->cs[c];
    size_t n = 0, ng;
    /* Compact reductions only, none answered: grouped straight from the
     * runs (group.c), without an item per record. */
    bool compact = cs->na == 0 && !(b->flags & BATCH_ANSWERS);
    for (size_t i = 0; compact && i < nr; i++)
        compact = runs[i].size == sizeof(compact_wire);
    if (compact && nr > 0 && (L->met & BSPRAM__MET_UPDATES) && !(b->flags & (BATCH_SPECIES | BATCH_PHYSICAL))) {
        compact_wire first;
        memcpy(&first, runs[0].data, sizeof first);
        const unsigned op = bspram__kind_op(bspram__key_kind(first.key));
        if (exactly_associative(op)) {
            fold_into_cells(C, c, op, runs, nr);
            return; /* nothing answered, nothing more to do */
        }
    }
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
                L->isrc[n] = src;
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
    bspram__combine_send_replies(L, self, C->p);
}
