/* The hashed global address space (address_space.h): segments, owners, and the
 * owners' local storage — one open-addressing table per component per
 * hashed segment (Valiant §2's hashed memory), or contiguous block/cyclic
 * storage for the physical layouts of §5. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/error.h"
#include "base/grow.h"
#include "hash/address_space.h"
#include "hash/hash_internal.h"

typedef struct segment {
    int live;
    uint64_t n;
    unsigned w;
    bspram_layout layout;
    /* hashed: owner c's table is slots [tstart[c], tstart[c+1]); its key
     * index + 1 (0 = empty) in key32[slot] for a segment of at most
     * 2^32 − 1 cells, else key64[slot]; cell bytes at slot·w. */
    uint64_t *tstart;
    uint32_t *key32;
    uint64_t *key64;
    unsigned char *bytes;
    uint64_t block; /* block layout: cells per owner, ceil(n/p); cyclic: rows */
} segment;

struct bspram_space {
    uint64_t p;
    bspram_hash hash;
    segment *segs; /* segs[1..nsegs-1]; segs[0] unused */
    uint32_t nsegs;
    size_t cap;
    uint32_t free_from; /* no segment below this number is free: the least free
                           number is found without rescanning (O(1) amortised) */
    uint64_t held_first, held_end; /* the owners whose cells this process holds
                                      ([0, p) but over MPI: hash_internal.h) */
    bool wide_keys; /* bspram__hash_space_wide_keys: 64-bit keys for every segment */
};

bspram_space *bspram_space_create(uint64_t p, bspram_hash_kind kind, uint64_t seed)
{
    if (p == 0 || p > (UINT64_C(1) << 31))
        bspram__base_fatal("bspram_space_create(p=%" PRIu64 "): p must be in [1, 2147483648]", p);
    if (kind != BSPRAM_HASH_XXH3 && kind != BSPRAM_HASH_TABULATION)
        bspram__base_fatal("bspram_space_create(kind=%d): unknown hash family; valid: %d (xxh3), %d (tabulation)",
                           (int)kind, BSPRAM_HASH_XXH3, BSPRAM_HASH_TABULATION);
    bspram_space *s = bspram__base_calloc(1, sizeof *s, "bspram_space_create");
    s->p = p;
    bspram__hash_init(&s->hash, kind, seed);
    s->nsegs = 1;
    s->free_from = 1;
    s->held_end = p;
    return s;
}

static void segment_release(segment *g)
{
    free(g->tstart);
    free(g->key32);
    free(g->key64);
    free(g->bytes);
    memset(g, 0, sizeof *g);
}

void bspram_space_destroy(bspram_space *s)
{
    if (!s)
        return;
    for (uint32_t i = 1; i < s->nsegs; i++)
        segment_release(&s->segs[i]);
    free(s->segs);
    free(s);
}

uint64_t bspram_space_p(const bspram_space *s)
{
    BSPRAM_NONNULL(s);
    return s->p;
}

const bspram_hash *bspram__hash_space_hash(const bspram_space *s)
{
    BSPRAM_NONNULL(s);
    return &s->hash;
}

/* Keys of 32 bits: a segment of at most 2^32 − 1 cells (index + 1 fits). */
static bool narrow_keys(const bspram_space *s, uint64_t n)
{
    return n <= UINT32_MAX && !s->wide_keys;
}

void bspram__hash_space_wide_keys(bspram_space *s)
{
    BSPRAM_NONNULL(s);
    s->wide_keys = true;
}

/* The key in a slot of g's tables (index + 1, or 0 for an empty slot). */
static inline uint64_t key_at(const segment *g, uint64_t slot)
{
    return g->key32 ? g->key32[slot] : g->key64[slot];
}

/* Build the owners' tables of a hashed segment: count cells per owner, give
 * owner c a table of ceil(3·count/2) slots (load ≤ 2/3, so a lookup probes
 * O(1) slots in expectation: 2 at load 2/3, Knuth's (1 + 1/(1 − α))/2 for
 * linear probing), then insert. A table is not rounded up to a power of two
 * (its home slot is a multiply-high of the hash, bspram__cell_home): the
 * power of two took 2 slots a cell when counts sit just above one, the
 * owners' tables then the largest of a PRAM's memory after the router's. A
 * segment of at most 2^32 − 1 cells keys its slots by 32 bits (12 bytes a
 * slot of 8-byte cells, not 16). Only the held owners get tables (the
 * others' are empty): over MPI a rank's memory is its own components'
 * cells. The hash is computed twice rather than kept, so that building
 * needs no O(n) memory of its own. */
static void hashed_build(const bspram_space *s, segment *g, uint32_t seg,
                         const unsigned char *old_values /* n·w bytes by index, or NULL */)
{
    uint64_t p = s->p, n = g->n, first = s->held_first, end = s->held_end;
    uint64_t *count = bspram__base_calloc(p + 1, sizeof *count, "bspram_segment_alloc");
    uint64_t base = (uint64_t)seg << BSPRAM_SEGMENT_SHIFT;
    for (uint64_t i = 0; i < n; i++)
        count[bspram_reduce(bspram__hash_hash64_inline(&s->hash, base + i), p)]++;
    g->tstart = bspram__base_malloc((p + 1) * sizeof *g->tstart, "bspram_segment_alloc");
    uint64_t total = 0;
    for (uint64_t c = 0; c < p; c++) {
        g->tstart[c] = total;
        total += c >= first && c < end ? (3 * count[c] + 1) / 2 : 0;
    }
    g->tstart[p] = total;
    if (narrow_keys(s, n))
        g->key32 = bspram__base_calloc(total ? total : 1, sizeof *g->key32, "bspram_segment_alloc");
    else
        g->key64 = bspram__base_calloc(total ? total : 1, sizeof *g->key64, "bspram_segment_alloc");
    g->bytes = bspram__base_calloc(total ? total : 1, g->w, "bspram_segment_alloc");
    for (uint64_t i = 0; i < n && total; i++) {
        uint64_t h = bspram__hash_hash64_inline(&s->hash, base + i), c = bspram_reduce(h, p);
        if (c < first || c >= end)
            continue;
        uint64_t at = g->tstart[c], size = g->tstart[c + 1] - at;
        uint64_t pos = bspram__cell_home(h, size);
        while (key_at(g, at + pos))
            pos = bspram__cell_next(pos, size);
        if (g->key32)
            g->key32[at + pos] = (uint32_t)(i + 1);
        else
            g->key64[at + pos] = i + 1;
        if (old_values)
            memcpy(g->bytes + (at + pos) * g->w, old_values + i * g->w, g->w);
    }
    free(count);
}

/* bytes in words: "32 TiB", "15.6 GiB", "512 bytes". */
static const char *size_text(uint64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = {"PiB", "TiB", "GiB", "MiB", "KiB"};
    for (int k = 0; k < 5; k++) {
        const uint64_t u = (uint64_t)1 << (50 - 10 * k);
        if (bytes >= u) {
            if (bytes % u == 0)
                snprintf(buf, len, "%" PRIu64 " %s", bytes / u, unit[k]);
            else
                snprintf(buf, len, "%.1f %s", (double)bytes / (double)u, unit[k]);
            return buf;
        }
    }
    snprintf(buf, len, "%" PRIu64 " bytes", bytes);
    return buf;
}

/* The most memory this process can have: the machine's, or less under
 * RLIMIT_AS or RLIMIT_DATA. *what says which. */
static uint64_t memory_limit(const char **what)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t most = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : UINT64_MAX;
    *what = "the machine's memory";
    static const struct {
        int resource;
        const char *name;
    } lim[] = {{RLIMIT_AS, "its RLIMIT_AS"}, {RLIMIT_DATA, "its RLIMIT_DATA"}};
    for (int i = 0; i < 2; i++) {
        struct rlimit r;
        if (getrlimit(lim[i].resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY && (uint64_t)r.rlim_cur < most) {
            most = (uint64_t)r.rlim_cur;
            *what = lim[i].name;
        }
    }
    return most;
}

const char *bspram__hash_segment_problem(const bspram_space *s, uint64_t n, unsigned w, bspram_layout layout,
                                         char *buf, size_t len)
{
    BSPRAM_NONNULL(s);
    if (layout != BSPRAM_LAYOUT_HASHED)
        return NULL; /* calloc'd storage: its pages are touched as cells are, or refused at once */
    /* At least 3/2 slots of key + w bytes per cell the process holds (load
     * at most 2/3), whatever the hash: the tables are built whole, hashing
     * every cell first, so a segment that cannot fit is refused before. */
    const unsigned key = narrow_keys(s, n) ? 4 : 8;
    const bspram_u128 held = (bspram_u128)n * (s->held_end - s->held_first) / s->p;
    const bspram_u128 need128 = held * 3 * (key + w) / 2;
    const uint64_t need = need128 > UINT64_MAX ? UINT64_MAX : (uint64_t)need128;
    const char *what;
    const uint64_t most = memory_limit(&what);
    if (need <= most)
        return NULL;
    char a[32], b[32];
    snprintf(buf, len, "a hashed segment of %" PRIu64 " cells needs at least %s for its owners' tables (3/2 "
             "slots of %u + %u bytes per cell this process holds); this process can have at most %s (%s)", n,
             size_text(need, a, sizeof a), key, w, size_text(most, b, sizeof b), what);
    return buf;
}

uint32_t bspram_segment_alloc(bspram_space *s, uint64_t n, unsigned w, bspram_layout layout)
{
    BSPRAM_NONNULL(s);
    if (n == 0 || n > BSPRAM_SEGMENT_MAX_CELLS)
        bspram__base_fatal("bspram_segment_alloc(n=%" PRIu64 ", w=%u): n must be in [1, 2^40]", n, w);
    if (w < 1 || w > 8)
        bspram__base_fatal("bspram_segment_alloc(n=%" PRIu64 ", w=%u): w must be in [1, 8] bytes", n, w);
    if (layout != BSPRAM_LAYOUT_HASHED && layout != BSPRAM_LAYOUT_BLOCK &&
        layout != BSPRAM_LAYOUT_CYCLIC)
        bspram__base_fatal("bspram_segment_alloc(n=%" PRIu64 ", w=%u, layout=%d): unknown layout; "
                     "valid: 0 (hashed), 1 (block), 2 (cyclic)", n, w, (int)layout);
    char why[320];
    if (bspram__hash_segment_problem(s, n, w, layout, why, sizeof why))
        bspram__base_fatal("bspram_segment_alloc(n=%" PRIu64 ", w=%u): %s", n, w, why);
    uint32_t seg = 0;
    for (uint32_t i = s->free_from; i < s->nsegs; i++)
        if (!s->segs[i].live) {
            seg = i;
            break;
        }
    if (!seg) {
        if (s->nsegs > BSPRAM_MAX_SEGMENTS)
            bspram__base_fatal("bspram_segment_alloc(n=%" PRIu64 ", w=%u): more than %u live segments",
                         n, w, BSPRAM_MAX_SEGMENTS);
        s->segs = bspram__grow(s->segs, &s->cap, s->nsegs + 1, sizeof *s->segs, 8, "bspram_segment_alloc");
        seg = s->nsegs++;
    }
    s->free_from = seg + 1; /* every number below seg is live, and seg now is */
    segment *g = &s->segs[seg];
    memset(g, 0, sizeof *g);
    g->live = 1;
    g->n = n;
    g->w = w;
    g->layout = layout;
    if (layout == BSPRAM_LAYOUT_HASHED) {
        hashed_build(s, g, seg, NULL);
    } else {
        g->block = (n + s->p - 1) / s->p;
        uint64_t slots = layout == BSPRAM_LAYOUT_BLOCK ? n : g->block * s->p;
        g->bytes = bspram__base_calloc(slots, w, "bspram_segment_alloc");
    }
    return seg;
}

static segment *seg_get(const bspram_space *s, uint32_t seg, const char *call)
{
    if (seg == 0 || seg >= s->nsegs || !s->segs[seg].live)
        bspram__base_fatal("%s(segment=%" PRIu32 "): no such segment", call, seg);
    return &s->segs[seg];
}

void bspram_segment_free(bspram_space *s, uint32_t seg)
{
    BSPRAM_NONNULL(s);
    segment_release(seg_get(s, seg, "bspram_segment_free"));
    if (seg < s->free_from)
        s->free_from = seg;
}

uint64_t bspram_segment_cells(const bspram_space *s, uint32_t seg)
{
    BSPRAM_NONNULL(s);
    return seg_get(s, seg, "bspram_segment_cells")->n;
}

unsigned bspram_segment_width(const bspram_space *s, uint32_t seg)
{
    BSPRAM_NONNULL(s);
    return seg_get(s, seg, "bspram_segment_width")->w;
}

bspram_layout bspram_segment_layout(const bspram_space *s, uint32_t seg)
{
    BSPRAM_NONNULL(s);
    return seg_get(s, seg, "bspram_segment_layout")->layout;
}

uint64_t bspram_address(const bspram_space *s, uint32_t seg, uint64_t index)
{
    BSPRAM_NONNULL(s);
    const segment *g = seg_get(s, seg, "bspram_address");
    if (index >= g->n)
        bspram__base_fatal("bspram_address(segment=%" PRIu32 ", index=%" PRIu64
                     "): index out of range; the segment has %" PRIu64 " cells [0, %" PRIu64 ")",
                     seg, index, g->n, g->n);
    return ((uint64_t)seg << BSPRAM_SEGMENT_SHIFT) | index;
}

int bspram__hash_address_check(const bspram_space *s, uint64_t address, char *err, size_t err_len)
{
    BSPRAM_NONNULL(s);
    uint64_t seg = address >> BSPRAM_SEGMENT_SHIFT;
    uint64_t index = address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
    if (seg == 0 || seg >= s->nsegs || !s->segs[seg].live) {
        if (err && err_len)
            snprintf(err, err_len, "address 0x%" PRIx64 " is in no live segment (segment %" PRIu64 ")",
                     address, seg);
        return -1;
    }
    if (index >= s->segs[seg].n) {
        if (err && err_len)
            snprintf(err, err_len, "address 0x%" PRIx64 ": segment %" PRIu64 " index %" PRIu64
                     " out of range [0, %" PRIu64 ")", address, seg, index, s->segs[seg].n);
        return -1;
    }
    return 0;
}

uint64_t bspram_hashed_owner(const bspram_space *s, uint64_t address)
{
    BSPRAM_NONNULL(s);
    return bspram_hash_below(&s->hash, address, s->p);
}

uint64_t bspram_owner(const bspram_space *s, uint64_t address)
{
    BSPRAM_NONNULL(s);
    const segment *g = &s->segs[address >> BSPRAM_SEGMENT_SHIFT];
    uint64_t index = address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
    switch (g->layout) {
    case BSPRAM_LAYOUT_BLOCK: return index / g->block;
    case BSPRAM_LAYOUT_CYCLIC: return index % s->p;
    default: return bspram_hash_below(&s->hash, address, s->p);
    }
}

void *bspram_cell(const bspram_space *s, uint64_t address)
{
    BSPRAM_NONNULL(s);
    const segment *g = &s->segs[address >> BSPRAM_SEGMENT_SHIFT];
    uint64_t index = address & (BSPRAM_SEGMENT_MAX_CELLS - 1);
    switch (g->layout) {
    case BSPRAM_LAYOUT_BLOCK: return g->bytes + index * g->w;
    case BSPRAM_LAYOUT_CYCLIC: return g->bytes + ((index % s->p) * g->block + index / s->p) * g->w;
    default: break;
    }
    uint64_t h = bspram__hash_hash64_inline(&s->hash, address);
    uint64_t c = bspram_reduce(h, s->p);
    uint64_t first = g->tstart[c], size = g->tstart[c + 1] - first;
    uint64_t pos = bspram__cell_home(h, size);
    while (key_at(g, first + pos) != index + 1)
        pos = bspram__cell_next(pos, size); /* the cell is present: the table holds all of c's cells */
    return g->bytes + (first + pos) * g->w;
}

bool bspram__hash_cell_table(const bspram_space *s, uint32_t seg, uint64_t c, bspram__cell_table *t)
{
    if (seg == 0 || seg >= s->nsegs || !s->segs[seg].live || s->segs[seg].layout != BSPRAM_LAYOUT_HASHED)
        return false;
    const segment *g = &s->segs[seg];
    const uint64_t first = g->tstart[c];
    *t = (bspram__cell_table){g->key32 ? g->key32 + first : NULL, g->key64 ? g->key64 + first : NULL,
                              g->bytes + first * g->w, g->tstart[c + 1] - first, g->w};
    return true;
}

enum { CELLS_AHEAD = 16 };

void bspram_cells(const bspram_space *s, const uint64_t *addresses, size_t n, void **cells)
{
    BSPRAM_NONNULL(s);
    if (n > 0) { /* no addresses, no cells: NULL is fine */
        BSPRAM_NONNULL(addresses);
        BSPRAM_NONNULL(cells);
    }
    const segment *seg[CELLS_AHEAD];
    uint64_t first[CELLS_AHEAD], size[CELLS_AHEAD], pos[CELLS_AHEAD];
    for (size_t i0 = 0; i0 < n; i0 += CELLS_AHEAD) {
        size_t m = n - i0 < CELLS_AHEAD ? n - i0 : CELLS_AHEAD;
        /* Pass 1: the first slot of each hashed cell, asked for ahead. */
        for (size_t j = 0; j < m; j++) {
            uint64_t address = addresses[i0 + j];
            const segment *g = seg[j] = &s->segs[address >> BSPRAM_SEGMENT_SHIFT];
            if (g->layout != BSPRAM_LAYOUT_HASHED)
                continue;
            uint64_t h = bspram__hash_hash64_inline(&s->hash, address);
            uint64_t c = bspram_reduce(h, s->p);
            first[j] = g->tstart[c];
            size[j] = g->tstart[c + 1] - first[j];
            pos[j] = bspram__cell_home(h, size[j]);
            if (g->key32)
                __builtin_prefetch(&g->key32[first[j] + pos[j]]);
            else
                __builtin_prefetch(&g->key64[first[j] + pos[j]]);
            __builtin_prefetch(g->bytes + (first[j] + pos[j]) * g->w);
        }
        /* Pass 2: probe from there, as bspram_cell does. */
        for (size_t j = 0; j < m; j++) {
            uint64_t address = addresses[i0 + j];
            const segment *g = seg[j];
            if (g->layout != BSPRAM_LAYOUT_HASHED) {
                cells[i0 + j] = bspram_cell(s, address);
                continue;
            }
            uint64_t index = address & (BSPRAM_SEGMENT_MAX_CELLS - 1), p = pos[j];
            while (key_at(g, first[j] + p) != index + 1)
                p = bspram__cell_next(p, size[j]); /* the cell is present: the table holds all of c's cells */
            cells[i0 + j] = g->bytes + (first[j] + p) * g->w;
        }
    }
}

bool bspram_holds(const bspram_space *s, uint64_t address)
{
    BSPRAM_NONNULL(s);
    uint64_t c = bspram_owner(s, address);
    return c >= s->held_first && c < s->held_end;
}

static void check_or_die(const bspram_space *s, uint64_t address, const char *call)
{
    char err[160];
    if (bspram__hash_address_check(s, address, err, sizeof err))
        bspram__base_fatal("%s(address=0x%" PRIx64 "): %s", call, address, err);
    if (!bspram_holds(s, address))
        bspram__base_fatal("%s(address=0x%" PRIx64 "): the cell's owner, component %" PRIu64 ", is another "
                           "MPI rank's (this rank holds components [%" PRIu64 ", %" PRIu64 ")); read it in "
                           "a step, or test bspram_holds first", call, address, bspram_owner(s, address),
                           s->held_first, s->held_end);
}

uint64_t bspram_load(const bspram_space *s, uint64_t address)
{
    BSPRAM_NONNULL(s);
    check_or_die(s, address, "bspram_load");
    uint64_t v = 0;
    memcpy(&v, bspram_cell(s, address), s->segs[address >> BSPRAM_SEGMENT_SHIFT].w);
    return v; /* little-endian: the low w bytes */
}

void bspram_store(bspram_space *s, uint64_t address, uint64_t value)
{
    BSPRAM_NONNULL(s);
    check_or_die(s, address, "bspram_store");
    memcpy(bspram_cell(s, address), &value, s->segs[address >> BSPRAM_SEGMENT_SHIFT].w);
}

void bspram_space_rehash(bspram_space *s, uint64_t new_seed)
{
    BSPRAM_NONNULL(s);
    bspram_hash old = s->hash;
    const bool whole = s->held_first == 0 && s->held_end == s->p;
    for (uint32_t i = 1; i < s->nsegs; i++) {
        segment *g = &s->segs[i];
        if (!g->live || g->layout != BSPRAM_LAYOUT_HASHED)
            continue;
        /* Gather values by index under the old H, then rebuild under the new. */
        unsigned char *vals = bspram__base_calloc(g->n, g->w, "bspram_space_rehash");
        for (uint64_t slot = 0; slot < g->tstart[s->p]; slot++) {
            const uint64_t key = key_at(g, slot);
            if (!key)
                continue;
            memcpy(vals + (key - 1) * g->w, g->bytes + slot * g->w, g->w);
            /* A cell may change ranks with its owner; a process holding part
             * of the owners cannot move it, so only zero cells may be held. */
            uint64_t v = 0;
            memcpy(&v, g->bytes + slot * g->w, g->w);
            if (!whole && v != 0)
                bspram__base_fatal("bspram_space_rehash(new_seed=%" PRIu64 "): cell 0x%" PRIx64 " holds %" PRIu64
                                   "; over MPI the space holds only this rank's owners' cells and a new H "
                                   "would move cells between ranks, so every cell must be 0 (clear them first)",
                                   new_seed, ((uint64_t)i << BSPRAM_SEGMENT_SHIFT) | (key - 1), v);
        }
        free(g->tstart);
        free(g->key32);
        free(g->key64);
        g->key32 = NULL;
        g->key64 = NULL;
        free(g->bytes);
        bspram__hash_init(&s->hash, old.kind, new_seed);
        hashed_build(s, g, i, vals);
        s->hash = old;
        free(vals);
    }
    bspram__hash_init(&s->hash, old.kind, new_seed);
}

void bspram__hash_space_hold(bspram_space *s, uint64_t first, uint64_t end)
{
    BSPRAM_NONNULL(s);
    if (first > end || end > s->p)
        bspram__base_fatal("internal error: holding cells [%" PRIu64 ", %" PRIu64 "): not a range of the %" PRIu64
                           " owners", first, end, s->p);
    if (first == s->held_first && end == s->held_end)
        return;
    for (uint32_t i = 1; i < s->nsegs; i++) {
        segment *g = &s->segs[i];
        if (!g->live || g->layout != BSPRAM_LAYOUT_HASHED)
            continue;
        unsigned char *vals = bspram__base_calloc(g->n, g->w, "holding a segment's cells");
        for (uint64_t slot = 0; slot < g->tstart[s->p]; slot++)
            if (key_at(g, slot))
                memcpy(vals + (key_at(g, slot) - 1) * g->w, g->bytes + slot * g->w, g->w);
        free(g->tstart);
        free(g->key32);
        free(g->key64);
        g->key32 = NULL;
        g->key64 = NULL;
        free(g->bytes);
        s->held_first = first;
        s->held_end = end;
        hashed_build(s, g, i, vals);
        free(vals);
    }
    s->held_first = first;
    s->held_end = end;
}
