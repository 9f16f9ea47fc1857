/* Combining at a component (Valiant §2): the requests a component holds in a
 * phase are grouped by key — same address and species — and each group is
 * merged into one request. An open-addressing table (expected O(1) per
 * request) in the lane's scratch does it; groups keep the order of their
 * first arrival, so everything downstream (spreading offsets, reverse-flow
 * order, fetch-and-op prefixes) is a pure function of the seed, whatever the
 * number of threads. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"

/* Parallel arrays sharing one capacity. */
#define RESIZE(ptr, cap) ((ptr) = bspram__base_realloc((ptr), (cap) * sizeof *(ptr), "bspram_combine"))

void bspram__combine_items_reserve(lane_scratch *L, size_t n)
{
    if (n <= L->icap)
        return;
    L->icap = bspram__capacity(L->icap, n, 16);
    RESIZE(L->items, L->icap);
    RESIZE(L->isrc, L->icap);
    RESIZE(L->igroup, L->icap);
    RESIZE(L->ilevel, L->icap);
}

static void groups_reserve(lane_scratch *L, size_t n)
{
    if (n <= L->gcap)
        return;
    L->gcap = bspram__capacity(L->gcap, n, 16);
    RESIZE(L->g, L->gcap);
    RESIZE(L->gcount, L->gcap);
    RESIZE(L->ghandle, L->gcap);
    RESIZE(L->gaddr, L->gcap);
    RESIZE(L->gcell, L->gcap);
    RESIZE(L->gdest, L->gcap);
}

/* Prepare the table for n keys: a power of two ≥ 2n, cleared in O(1) by
 * bumping the stamp. */
void bspram__combine_table_reset(lane_scratch *L, size_t n)
{
    size_t need = bspram__capacity(16, 2 * n, 16);
    if (need > L->tcap) {
        free(L->t);
        L->tcap = need;
        L->t = bspram__base_calloc(need, sizeof *L->t, "bspram_combine");
        L->stamp = 0;
    }
    if (++L->stamp == 0) {
        for (size_t i = 0; i < L->tcap; i++)
            L->t[i].stamp = 0;
        L->stamp = 1;
    }
}

/* A conflict met by this lane (combine.h, bspram_combiner_watch). */
static void conflict(lane_scratch *L, uint64_t key, unsigned what, uint32_t a, uint32_t b)
{
    L->conf = bspram__grow(L->conf, &L->capconf, L->nconf + 1, sizeof *L->conf, 16, "bspram_combine");
    bspram_conflict *x = &L->conf[L->nconf++];
    x->address = bspram__key_address(key);
    x->what = what;
    x->label[0] = a < b ? a : b;
    x->label[1] = a < b ? b : a;
}

/* Merge wire `it` into group `g` (same key). A read's label travels in its
 * value, a write's in its handle, beside the value it carries (forward.c). */
static inline void merge(const bspram_combiner *C, lane_scratch *L, wire *g, const wire *it)
{
    unsigned kind = bspram__key_kind(g->key);
    switch (kind) {
    case BSPRAM_READ:
        L->met |= g->value != it->value ? BSPRAM__MET_READS : 0u;
        if (C->watch & BSPRAM_WATCH_READS) {
            if (!(C->watch & BSPRAM_WATCH_DISTINCT) || g->value != it->value)
                conflict(L, g->key, BSPRAM_WATCH_READS, (uint32_t)g->value, (uint32_t)it->value);
            if (it->value < g->value)
                g->value = it->value;
        }
        g->aux += it->aux;
        return;
    case BSPRAM_WRITE_ARBITRARY:
    case BSPRAM_WRITE_PRIORITY:
    case BSPRAM_WRITE_COMMON: {
        L->met |= (g->handle != it->handle ? BSPRAM__MET_WRITES : 0u) |
                  (g->value != it->value ? BSPRAM__MET_VALUES : 0u);
        if (C->watch) {
            if ((C->watch & BSPRAM_WATCH_WRITES) &&
                (!(C->watch & BSPRAM_WATCH_DISTINCT) || g->handle != it->handle))
                conflict(L, g->key, BSPRAM_WATCH_WRITES, g->handle, it->handle);
            if ((C->watch & BSPRAM_WATCH_VALUES) && it->value != g->value)
                conflict(L, g->key, BSPRAM_WATCH_VALUES, g->handle, it->handle);
        }
        if (kind == BSPRAM_WRITE_COMMON && it->value != g->value && !(C->watch & BSPRAM_WATCH_VALUES)) {
            uint64_t a = bspram__key_address(g->key);
            bspram__base_fatal("bspram_combine: common-write conflict at address 0x%" PRIx64
                         " (segment %" PRIu64 ", cell %" PRIu64 "): origin %" PRIu64 " writes %" PRIu64
                         ", origin %" PRIu64 " writes %" PRIu64,
                         a, a >> BSPRAM_SEGMENT_SHIFT, a & (BSPRAM_SEGMENT_MAX_CELLS - 1), g->aux,
                         g->value, it->aux, it->value);
        }
        /* The least policy key wins (combine.h; for COMMON the least origin).
         * The label kept is the least when watching WRITES (so the pair
         * reported is the two least writers), else the winner's (so a VALUES
         * pair names two requests with their own values). */
        bool wins = it->aux < g->aux || (it->aux == g->aux && it->value < g->value);
        if ((C->watch & BSPRAM_WATCH_WRITES) ? it->handle < g->handle : wins)
            g->handle = it->handle;
        if (wins) {
            g->aux = it->aux;
            g->value = it->value;
        }
        return;
    }
    default:
        L->met |= BSPRAM__MET_UPDATES;
        g->value = bspram__apply(C, bspram__kind_op(kind), g->value, it->value);
        g->aux += it->aux;
        return;
    }
}

size_t bspram__combine_group(const bspram_combiner *C, lane_scratch *L, size_t n)
{
    bspram__combine_table_reset(L, n);
    groups_reserve(L, n);
    size_t mask = L->tcap - 1, ng = 0;
    const uint32_t stamp = L->stamp;
    for (size_t j = 0; j < n; j++) {
        const wire *it = &L->items[j];
        size_t pos = bspram__table_slot(it->key, mask);
        while (L->t[pos].stamp == stamp && L->t[pos].key != it->key)
            pos = (pos + 1) & mask;
        uint32_t g;
        if (L->t[pos].stamp != stamp) {
            L->t[pos].stamp = stamp;
            L->t[pos].key = it->key;
            g = (uint32_t)ng++;
            L->t[pos].group = g;
            L->g[g] = *it;
            L->gcount[g] = 1;
        } else {
            g = L->t[pos].group;
            merge(C, L, &L->g[g], it);
            L->gcount[g]++;
        }
        L->igroup[j] = g;
    }
    return ng;
}

/* The same for an inbox of compact reductions only (wire.h), read straight
 * from its runs: a record that meets its group is merged as merge() merges
 * a reduction (its weight 1), and only a group's first record gets an item's
 * other fields — H(t) is hashed once per group, not per record (and not at
 * all for the owner, need_owner false), and no item
 * is written (a reduction is never answered, so no item is kept for the
 * reverse flow). The groups, their order and their values are those of
 * bspram__combine_group over the unpacked items. */
size_t bspram__combine_group_compact(const bspram_combiner *C, lane_scratch *L, const bspram__run *runs,
                                     size_t nr, size_t *n, bool need_owner)
{
    size_t total = 0;
    for (size_t i = 0; i < nr; i++)
        total += runs[i].count;
    *n = total;
    bspram__combine_table_reset(L, total);
    groups_reserve(L, total);
    const size_t mask = L->tcap - 1;
    const uint32_t stamp = L->stamp;
    size_t ng = 0;
    for (size_t i = 0; i < nr; i++) {
        const char *data = runs[i].data;
        for (uint64_t j = 0; j < runs[i].count; j++, data += sizeof(compact_wire)) {
            compact_wire cw;
            memcpy(&cw, data, sizeof cw);
            size_t pos = bspram__table_slot(cw.key, mask);
            while (L->t[pos].stamp == stamp && L->t[pos].key != cw.key)
                pos = (pos + 1) & mask;
            if (L->t[pos].stamp != stamp) {
                L->t[pos].stamp = stamp;
                L->t[pos].key = cw.key;
                L->t[pos].group = (uint32_t)ng;
                L->g[ng] = (wire){.key = cw.key,
                                  .value = cw.value,
                                  .aux = 1,
                                  .owner = need_owner ? (uint32_t)bspram__hashed_owner(C, bspram__key_address(cw.key)) : 0,
                                  .handle = 0};
                L->gcount[ng++] = 1;
            } else {
                wire *g = &L->g[L->t[pos].group];
                L->met |= BSPRAM__MET_UPDATES;
                g->value = bspram__apply(C, bspram__kind_op(bspram__key_kind(g->key)), g->value, cw.value);
                g->aux++;
                L->gcount[L->t[pos].group]++;
            }
        }
    }
    return ng;
}
