/* The multi-phase combining engine (Valiant 1992, §2 and §5) on the bulk BSP
 * machine: every phase is one superstep through the router, so every charge
 * max(q, r) reported for a batch is read back from the router's records.
 *
 * Data layout. A request in flight is a 32-byte wire record: key = species
 * (top byte) | address (56 bits), the combined value, an auxiliary word
 * (write policy key, or the number of original requests merged, its
 * "weight"), H(t) (31 bits; bit 31 marks a request that has reached its final
 * component early), and a handle naming the sender's group for the reverse
 * flow. Combining at a component groups its held wires by key with an
 * open-addressing table (expected O(1) per wire) in a per-thread scratch
 * area; groups keep the order of their first arrival, so everything — the
 * spreading offsets, the reverse-flow order, the fetch-and-op prefixes — is a
 * pure function of the seed, whatever the number of threads.
 *
 * Reverse flow (§2: "whenever requests are combined at a component, the
 * sources of the requests in that stage are stored at that component"): each
 * component keeps, per level (phase), the sources of each READ/FETCH group
 * it formed. An answer (16 bytes: handle, level, value) is fanned out to the
 * sources, adding the preceding contributions for fetch-and-op.
 * Reductions on hashed segments travel as 16-byte compact records. */
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "combine/combine.h"
#include "combine/ops_internal.h"
#include "hash/random.h"

#define ADDR_MASK ((UINT64_C(1) << BSPRAM_ADDRESS_BITS) - 1)
#define FINAL_FLAG 0x80000000u
#define MAX_LEVELS (BSPRAM_MAX_PHASES + 2)

typedef struct wire {
    uint64_t key;
    uint64_t value;
    uint64_t aux;
    uint32_t owner;  /* H(t) | FINAL_FLAG */
    uint32_t handle; /* sender's reverse-flow group, if READ/FETCH */
} wire;

/* The compact wire record (16 bytes) of a REDUCE group of a hashed segment
 * outside the adaptive strategy: it needs no weight, no handle and no flag,
 * and H(t) is recomputed by the receiver (a hash is cheaper than moving 16
 * more bytes through the router). Halves the router's bytes for reductions. */
typedef struct compact_wire {
    uint64_t key;
    uint64_t value;
} compact_wire;

typedef struct reply {
    uint32_t handle;
    uint32_t level;
    uint64_t value;
} reply;

typedef struct source {
    uint32_t comp, handle;
    uint64_t contrib;
} source;

/* The reverse-flow record of one component at one level. */
typedef struct level_rec {
    uint32_t *first; /* first[g]..first[g+1]: sources of group g */
    uint8_t *kind;
    size_t ng, capg;
    source *src;
    size_t ns, caps;
} level_rec;

typedef struct comp_state {
    level_rec lv[MAX_LEVELS];
    wire *arrived;            /* requests that reached their final component early */
    uint32_t *arrived_src;
    uint8_t *arrived_level;
    size_t na, capa;
    unsigned flags;           /* this batch: 1 = has READ/FETCH, 2 = has physical,
                                 4 = more than one update species */
    unsigned ukind;           /* this batch: its first update species, or 0xff */
} comp_state;

typedef struct lane_scratch {
    struct tslot {
        uint64_t key;
        uint32_t stamp, group;
    } *t; /* one 16-byte slot per probe: key, stamp and group in one line */
    size_t tcap;
    uint32_t stamp;
    wire *items;
    uint32_t *isrc, *igroup;
    uint8_t *ilevel;
    size_t icap;
    wire *g;
    uint32_t *gcount, *ghandle;
    size_t gcap;
    char pad[64];
} lane_scratch;

struct bspram_combiner {
    bspram_machine *m;
    bspram_space *s;
    bspram_combine_options o;
    uint64_t p;
    int lanes;
    comp_state *cs;
    lane_scratch *ls;
    bspram_user_op_fn ufn[BSPRAM_MAX_OPS];
    void *uctx[BSPRAM_MAX_OPS];
    uint64_t uid[BSPRAM_MAX_OPS];   /* identities of the user operations */
    char uname[BSPRAM_MAX_OPS][32]; /* their names, for error messages */
    unsigned nops;
    uint64_t batch;      /* bspram_combine calls so far (advanced on the calling thread) */
    uint64_t batch_seed; /* the spreading key of the current batch: (seed, batch) */
    /* the current batch */
    const bspram_request *req;
    const uint64_t *first;
    uint64_t *results;
    bspram_basis basis;
    unsigned m_phases; /* m: phases of the basis */
    unsigned M;        /* forward supersteps */
    unsigned phase;    /* current forward phase, or reverse step */
    int adaptive;
    unsigned flags;    /* OR of the components' flags, known after phase 1 */
    int check_species; /* more than one update species in the batch */
};

/* ---------------------------------------------------------------- helpers */

/* The capacity (doubling from 16) that holds `need` elements. */
static size_t capacity_for(size_t cap, size_t need)
{
    size_t c = cap ? cap : 16;
    while (c < need)
        c *= 2;
    return c;
}

static void *grow(void *ptr, size_t *cap, size_t need, size_t elem, const char *what)
{
    if (need <= *cap)
        return ptr;
    *cap = capacity_for(*cap, need);
    return bspram_realloc(ptr, *cap * elem, what);
}

/* Parallel arrays sharing one capacity. */
#define RESIZE(ptr, cap) ((ptr) = bspram_realloc((ptr), (cap) * sizeof *(ptr), "bspram_combine"))

static void lane_items_reserve(lane_scratch *L, size_t n)
{
    if (n <= L->icap)
        return;
    L->icap = capacity_for(L->icap, n);
    RESIZE(L->items, L->icap);
    RESIZE(L->isrc, L->icap);
    RESIZE(L->igroup, L->icap);
    RESIZE(L->ilevel, L->icap);
}

static void lane_groups_reserve(lane_scratch *L, size_t n)
{
    if (n <= L->gcap)
        return;
    L->gcap = capacity_for(L->gcap, n);
    RESIZE(L->g, L->gcap);
    RESIZE(L->gcount, L->gcap);
    RESIZE(L->ghandle, L->gcap);
}

/* Prepare the grouping table for n keys: a power of two ≥ 2n, cleared in
 * O(1) by bumping the stamp. */
static void table_reset(lane_scratch *L, size_t n)
{
    size_t need = 16;
    while (need < 2 * n)
        need *= 2;
    if (need > L->tcap) {
        free(L->t);
        L->tcap = need;
        L->t = bspram_calloc(need, sizeof *L->t, "bspram_combine");
        L->stamp = 0;
    }
    if (++L->stamp == 0) {
        for (size_t i = 0; i < L->tcap; i++)
            L->t[i].stamp = 0;
        L->stamp = 1;
    }
}

static inline size_t table_slot(uint64_t key, size_t mask)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & mask;
}

static inline int is_reply_kind(unsigned kind) { return kind == BSPRAM_READ || kind >= 64; }
static inline int is_write_kind(unsigned kind) { return kind >= 1 && kind <= 3; }

static inline uint64_t apply_op(const bspram_combiner *C, unsigned op, uint64_t a, uint64_t b)
{
    if (op < BSPRAM_BUILTIN_OPS)
        return op_apply_builtin(op, a, b);
    return C->ufn[op](a, b, C->uctx[op]);
}

static const char *kind_name(const bspram_combiner *C, unsigned kind, char *buf, size_t len)
{
    static const char *const w[4] = {"read", "write(arbitrary)", "write(priority)", "write(common)"};
    if (kind < 4)
        return w[kind];
    unsigned op = kind & 31u;
    const char *on = op < BSPRAM_BUILTIN_OPS ? bspram_op_name(op) : C->uname[op];
    snprintf(buf, len, "%s(%s#%u)", kind < 64 ? "reduce" : "fetch", on, op);
    return buf;
}

/* Merge wire `it` into group `g` (same key). Valiant §5: any commutative
 * associative operation can be applied when requests are combined. */
static inline void merge(const bspram_combiner *C, wire *g, const wire *it)
{
    unsigned kind = (unsigned)(g->key >> 56);
    switch (kind) {
    case BSPRAM_READ:
        g->aux += it->aux;
        return;
    case BSPRAM_WRITE_ARBITRARY:
    case BSPRAM_WRITE_PRIORITY:
        if (it->aux < g->aux || (it->aux == g->aux && it->value < g->value)) {
            g->aux = it->aux;
            g->value = it->value;
        }
        return;
    case BSPRAM_WRITE_COMMON:
        if (it->value != g->value)
            bspram_fatal("bspram_combine: common-write conflict at address 0x%" PRIx64
                         " (segment %" PRIu64 ", cell %" PRIu64 "): origin %" PRIu64 " writes %" PRIu64
                         ", origin %" PRIu64 " writes %" PRIu64,
                         g->key & ADDR_MASK, (g->key & ADDR_MASK) >> BSPRAM_SEGMENT_SHIFT,
                         g->key & (BSPRAM_SEGMENT_MAX_CELLS - 1), g->aux, g->value, it->aux, it->value);
        if (it->aux < g->aux)
            g->aux = it->aux;
        return;
    default:
        g->value = apply_op(C, kind & 31u, g->value, it->value);
        g->aux += it->aux;
        return;
    }
}

/* Group items[0..n) by key into L->g[0..ng); igroup[j] = group of item j. */
static size_t group_items(const bspram_combiner *C, lane_scratch *L, size_t n)
{
    table_reset(L, n);
    lane_groups_reserve(L, n);
    size_t mask = L->tcap - 1, ng = 0;
    const uint32_t stamp = L->stamp;
    for (size_t j = 0; j < n; j++) {
        const wire *it = &L->items[j];
        size_t pos = table_slot(it->key, mask);
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
            merge(C, &L->g[g], it);
            L->gcount[g]++;
        }
        L->igroup[j] = g;
    }
    return ng;
}

/* Store the sources of this component's READ/FETCH groups at `level` and give
 * each such group a handle (Valiant §2, §5: stored sources for the reverse
 * flow). Sources keep their arrival order. */
static void record_sources(comp_state *cs, lane_scratch *L, unsigned level, size_t n, size_t ng)
{
    level_rec *R = &cs->lv[level];
    size_t nh = 0;
    for (size_t g = 0; g < ng; g++)
        L->ghandle[g] = is_reply_kind((unsigned)(L->g[g].key >> 56)) ? (uint32_t)nh++ : UINT32_MAX;
    R->ng = nh;
    if (nh == 0)
        return;
    R->first = grow(R->first, &R->capg, nh + 1, sizeof *R->first, "bspram_combine");
    size_t capk = R->capg;
    (void)capk;
    R->kind = bspram_realloc(R->kind, R->capg, "bspram_combine");
    memset(R->first, 0, (nh + 1) * sizeof *R->first);
    for (size_t j = 0; j < n; j++) {
        uint32_t h = L->ghandle[L->igroup[j]];
        if (h != UINT32_MAX)
            R->first[h + 1]++;
    }
    for (size_t h = 0; h < nh; h++)
        R->first[h + 1] += R->first[h];
    R->ns = R->first[nh];
    R->src = grow(R->src, &R->caps, R->ns, sizeof *R->src, "bspram_combine");
    for (size_t g = 0; g < ng; g++)
        if (L->ghandle[g] != UINT32_MAX)
            R->kind[L->ghandle[g]] = (uint8_t)(L->g[g].key >> 56);
    /* Scatter in item order; first[h] is advanced and then restored. */
    for (size_t j = 0; j < n; j++) {
        uint32_t h = L->ghandle[L->igroup[j]];
        if (h == UINT32_MAX)
            continue;
        source *sp = &R->src[R->first[h]++];
        sp->comp = L->isrc[j];
        sp->handle = L->items[j].handle;
        sp->contrib = L->items[j].value;
    }
    for (size_t h = nh; h > 0; h--)
        R->first[h] = R->first[h - 1];
    R->first[0] = 0;
}

static inline int addr_physical(const bspram_combiner *C, unsigned flags, uint64_t addr)
{
    if (!(flags & 2))
        return 0; /* no physical segment in the batch: skip the lookup */
    return bspram_segment_layout(C->s, (uint32_t)(addr >> BSPRAM_SEGMENT_SHIFT)) != BSPRAM_LAYOUT_HASHED;
}

/* ---------------------------------------------------------------- forward */

static void validate_and_load(bspram_combiner *C, uint64_t c, lane_scratch *L, comp_state *cs)
{
    uint64_t lo = C->first[c], hi = C->first[c + 1];
    size_t n = (size_t)(hi - lo);
    lane_items_reserve(L, n);
    uint64_t cached_seg = 0, cached_n = 0;
    unsigned cached_w = 0;
    bspram_layout cached_layout = BSPRAM_LAYOUT_HASHED;
    unsigned flags = 0, ukind = 0xff;
    for (size_t j = 0; j < n; j++) {
        const bspram_request *r = &C->req[lo + j];
        uint64_t seg = r->address >> BSPRAM_SEGMENT_SHIFT;
        if (seg != cached_seg || (r->address & (BSPRAM_SEGMENT_MAX_CELLS - 1)) >= cached_n) {
            char err[200];
            if (bspram_address_check(C->s, r->address, err, sizeof err))
                bspram_fatal("bspram_combine(request %zu of component %" PRIu64 "): %s", j, c, err);
            cached_seg = seg;
            cached_n = bspram_segment_cells(C->s, (uint32_t)seg);
            cached_w = bspram_segment_width(C->s, (uint32_t)seg);
            cached_layout = bspram_segment_layout(C->s, (uint32_t)seg);
        }
        unsigned kind = r->kind;
        int ok = kind <= 3 || (kind >= 32 && kind < 32 + C->nops) || (kind >= 64 && kind < 64 + C->nops);
        if (!ok)
            bspram_fatal("bspram_combine(request %zu of component %" PRIu64 ", address 0x%" PRIx64
                         "): unknown species or operation (kind %u); valid: 0 read, 1-3 write, "
                         "32+op reduce, 64+op fetch with op < %u",
                         j, c, r->address, kind, C->nops);
        if (kind >= 32 && cached_w != 8)
            bspram_fatal("bspram_combine(request %zu of component %" PRIu64 ", address 0x%" PRIx64
                         "): reduce and fetch-and-op need cells of 8 bytes; the segment's are %u",
                         j, c, r->address, cached_w);
        if (is_reply_kind(kind))
            flags |= 1;
        if (kind != BSPRAM_READ) {
            if (ukind == 0xff)
                ukind = kind;
            else if (ukind != kind)
                flags |= 4;
        }
        if (cached_layout != BSPRAM_LAYOUT_HASHED)
            flags |= 2;
        wire *w = &L->items[j];
        w->key = ((uint64_t)kind << 56) | r->address;
        w->value = r->value;
        switch (kind) {
        case BSPRAM_WRITE_ARBITRARY: w->aux = bspram_random2(C->o.seed, c, j); break;
        case BSPRAM_WRITE_PRIORITY: w->aux = (c << 32) | (uint64_t)j; break;
        case BSPRAM_WRITE_COMMON: w->aux = c; break;
        default: w->aux = 1; break; /* weight: one original request */
        }
        w->owner = (uint32_t)bspram_hashed_owner(C->s, r->address);
        w->handle = (uint32_t)j;
        L->isrc[j] = (uint32_t)c;
        L->ilevel[j] = 0;
    }
    cs->flags = flags;
    cs->ukind = ukind;
    cs->na = 0;
}

static void arrive(comp_state *cs, const wire *w, uint32_t src, unsigned level)
{
    if (cs->na + 1 > cs->capa) {
        cs->capa = capacity_for(cs->capa, cs->na + 1);
        RESIZE(cs->arrived, cs->capa);
        RESIZE(cs->arrived_src, cs->capa);
        RESIZE(cs->arrived_level, cs->capa);
    }
    cs->arrived[cs->na] = *w;
    cs->arrived_src[cs->na] = src;
    cs->arrived_level[cs->na] = (uint8_t)level;
    cs->na++;
}

/* Read a delivered wire record of either size; `sent` is the phase it was
 * sent in. Returns whether it has reached its final component. */
static inline int unpack(const bspram_combiner *C, const bspram_message *msg, unsigned sent, wire *w,
                         int need_owner)
{
    if (msg->len == sizeof(compact_wire)) {
        const compact_wire *cw = msg->data;
        w->key = cw->key;
        w->value = cw->value;
        w->aux = 1;
        w->owner = need_owner ? (uint32_t)bspram_hashed_owner(C->s, cw->key & ADDR_MASK) : 0;
        w->handle = 0;
        return sent >= C->m_phases; /* hashed: at H(t) after phase m */
    }
    *w = *(const wire *)msg->data;
    return (w->owner & FINAL_FLAG) != 0;
}

static bool forward_step(bspram_component *self, void *arg)
{
    bspram_combiner *C = arg;
    uint64_t c = bspram_pid(self);
    lane_scratch *L = &C->ls[bspram_lane(self)];
    comp_state *cs = &C->cs[c];
    unsigned phase = C->phase;
    size_t n = 0;
    if (phase == 1) {
        validate_and_load(C, c, L, cs);
        n = (size_t)(C->first[c + 1] - C->first[c]);
    } else {
        const bspram_message *msgs;
        size_t k = bspram_inbox(self, &msgs);
        lane_items_reserve(L, k);
        for (size_t j = 0; j < k; j++) {
            if (unpack(C, &msgs[j], phase - 1, &L->items[n], 1)) {
                arrive(cs, &L->items[n], msgs[j].src, phase - 1);
                continue;
            }
            L->isrc[n] = msgs[j].src;
            n++;
        }
    }
    size_t ng = group_items(C, L, n);
    record_sources(cs, L, phase, n, ng);

    const bspram_basis *B = &C->basis;
    unsigned m = C->m_phases;
    uint64_t suffix = phase <= m ? B->suffix[phase] : 1;
    uint64_t seed = C->batch_seed;
    unsigned pflags = phase == 1 ? cs->flags : C->flags;
    /* Adaptive (beyond the paper): a component that saw almost no combining
     * in the previous phase (at most 1 in 32 of the requests it received
     * met another of its address) holds evidence that the degree is low
     * compared with the spread; it sends its uncombined requests straight to
     * their owners instead of spending the remaining phases on them. */
    int quiet = C->adaptive && phase >= 2 && phase < m && (n - ng) * 32 <= n;
    for (size_t g = 0; g < ng; g++) {
        wire out = L->g[g];
        uint64_t addr = out.key & ADDR_MASK;
        uint64_t H = out.owner & ~FINAL_FLAG;
        uint64_t dest;
        int final = 0;
        if (phase > m) { /* the extra phase of §5: hashed address → physical */
            dest = addr_physical(C, pflags, addr) ? bspram_owner(C->s, addr) : H;
            final = 1;
        } else if (phase == m) {
            if (addr_physical(C, pflags, addr)) {
                if (C->o.physical == BSPRAM_PHYSICAL_DIRECT_LAST) {
                    dest = bspram_owner(C->s, addr);
                    final = 1;
                } else {
                    dest = H; /* the extra phase moves it on */
                }
            } else {
                dest = H;
                final = 1;
            }
        } else if (quiet && L->gcount[g] == 1 &&
                   (is_write_kind((unsigned)(out.key >> 56)) || out.aux == 1)) {
            /* Adaptive: this request has met no other of its address in
             * phase 1..phase-1, evidence that its group is small; send it
             * straight to its final component. */
            dest = addr_physical(C, pflags, addr) ? bspram_owner(C->s, addr) : H;
            final = 1;
        } else {
            uint64_t k = C->o.spread == BSPRAM_SPREAD_SOURCE
                             ? c % suffix
                             : bspram_random_below(suffix, seed, phase, c, g);
            dest = (H / suffix) * suffix + k;
        }
        unsigned kind = (unsigned)(out.key >> 56);
        if (kind >= 32 && kind < 64 && !C->adaptive && !(pflags & 2)) {
            compact_wire cw = {out.key, out.value};
            memcpy(bspram_send_buffer(self, dest, sizeof cw), &cw, sizeof cw);
            continue;
        }
        out.owner = (uint32_t)H | (final ? FINAL_FLAG : 0u);
        out.handle = L->ghandle[g];
        memcpy(bspram_send_buffer(self, dest, sizeof out), &out, sizeof out);
    }
    return false;
}

/* ---------------------------------------------------------------- owners */

static void send_reply(bspram_component *self, uint64_t dst, uint32_t handle, uint32_t level, uint64_t value)
{
    reply r = {handle, level, value};
    memcpy(bspram_send_buffer(self, dst, sizeof r), &r, sizeof r);
}

/* Deliver `value` to the sources of group h at `level` of component c:
 * results for level 1 (the requests), replies one level down otherwise. */
static void fan_out(bspram_combiner *C, bspram_component *self, uint64_t c, unsigned level,
                    uint32_t h, uint64_t value)
{
    level_rec *R = &C->cs[c].lv[level];
    unsigned kind = R->kind[h];
    uint64_t x = value;
    for (uint32_t j = R->first[h]; j < R->first[h + 1]; j++) {
        const source *sp = &R->src[j];
        if (level == 1)
            C->results[C->first[c] + sp->handle] = x;
        else
            send_reply(self, sp->comp, sp->handle, level - 1, x);
        if (kind >= 64)
            x = apply_op(C, kind & 31u, x, sp->contrib);
    }
}

static void owner_level(bspram_combiner *C, bspram_component *self, uint64_t c, unsigned lane,
                        const bspram_message *msgs, size_t k)
{
    lane_scratch *L = &C->ls[lane];
    comp_state *cs = &C->cs[c];
    size_t n = 0;
    lane_items_reserve(L, cs->na + k);
    for (size_t j = 0; j < cs->na; j++, n++) {
        L->items[n] = cs->arrived[j];
        L->isrc[n] = cs->arrived_src[j];
        L->ilevel[n] = cs->arrived_level[j];
    }
    for (size_t j = 0; j < k; j++, n++) {
        unpack(C, &msgs[j], C->M, &L->items[n], 0); /* owners need no H(t) */
        L->isrc[n] = msgs[j].src;
        L->ilevel[n] = (uint8_t)C->M;
    }
    cs->na = 0;
    size_t ng = group_items(C, L, n);

    /* Two update species at one cell: found by a second grouping by address
     * (only when the batch holds more than one update species). */
    table_reset(L, ng);
    size_t mask = L->tcap - 1;
    for (size_t g = 0; C->check_species && g < ng; g++) {
        unsigned kind = (unsigned)(L->g[g].key >> 56);
        if (kind == BSPRAM_READ)
            continue;
        uint64_t addr = L->g[g].key & ADDR_MASK;
        size_t pos = table_slot(addr, mask);
        while (L->t[pos].stamp == L->stamp && L->t[pos].key != addr)
            pos = (pos + 1) & mask;
        if (L->t[pos].stamp == L->stamp) {
            char b1[64], b2[64];
            unsigned other = (unsigned)(L->g[L->t[pos].group].key >> 56);
            bspram_fatal("bspram_combine: two update species at address 0x%" PRIx64
                         " in one batch: %s and %s", addr, kind_name(C, other, b1, sizeof b1),
                         kind_name(C, kind, b2, sizeof b2));
        }
        L->t[pos].stamp = L->stamp;
        L->t[pos].key = addr;
        L->t[pos].group = (uint32_t)g;
    }

    /* Reads first: they see memory before the batch's updates. Then updates
     * (fetch-and-op answers carry the value just before the group's). The
     * answers go to each merged item's sender, in arrival order. */
    uint64_t wseg = UINT64_MAX;
    unsigned w = 8;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t g = 0; g < ng; g++) {
            unsigned kind = (unsigned)(L->g[g].key >> 56);
            if ((kind == BSPRAM_READ) != (pass == 0))
                continue;
            uint64_t addr = L->g[g].key & ADDR_MASK;
            unsigned char *cell = bspram_cell(C->s, addr);
            if (addr >> BSPRAM_SEGMENT_SHIFT != wseg) {
                wseg = addr >> BSPRAM_SEGMENT_SHIFT;
                w = bspram_segment_width(C->s, (uint32_t)wseg);
            }
            uint64_t old = 0;
            memcpy(&old, cell, w);
            if (kind >= 1 && kind <= 3) {
                memcpy(cell, &L->g[g].value, w);
            } else if (kind >= 32) {
                uint64_t nv = apply_op(C, kind & 31u, old, L->g[g].value);
                memcpy(cell, &nv, 8);
            }
            L->ghandle[g] = 0;
            L->g[g].aux = old; /* the value answers start from */
        }
    }
    if (!self)
        return;
    /* Answer every READ/FETCH item in arrival order. */
    for (size_t g = 0; g < ng; g++)
        L->gcount[g] = 0;
    for (size_t j = 0; j < n; j++) {
        uint32_t g = L->igroup[j];
        unsigned kind = (unsigned)(L->g[g].key >> 56);
        if (!is_reply_kind(kind))
            continue;
        uint64_t x = L->g[g].aux;
        send_reply(self, L->isrc[j], L->items[j].handle, L->ilevel[j], x);
        if (kind >= 64)
            L->g[g].aux = apply_op(C, kind & 31u, x, L->items[j].value);
    }
}

static void handle_replies(bspram_combiner *C, bspram_component *self, uint64_t c,
                           const bspram_message *msgs, size_t k)
{
    for (size_t j = 0; j < k; j++) {
        const reply *r = msgs[j].data;
        if (r->level == 0) { /* an answer to an item that was a request itself */
            C->results[C->first[c] + r->handle] = r->value;
            continue;
        }
        fan_out(C, self, c, r->level, r->handle, r->value);
    }
}

static bool reverse_step(bspram_component *self, void *arg)
{
    bspram_combiner *C = arg;
    uint64_t c = bspram_pid(self);
    const bspram_message *msgs;
    size_t k = bspram_inbox(self, &msgs);
    if (C->phase == 1)
        owner_level(C, self, c, (unsigned)bspram_lane(self), msgs, k);
    else
        handle_replies(C, self, c, msgs, k);
    return false;
}

/* ---------------------------------------------------------------- API */

bspram_combine_options bspram_combine_defaults(uint64_t p)
{
    bspram_combine_options o;
    memset(&o, 0, sizeof o);
    o.strategy = BSPRAM_STRATEGY_FIXED;
    uint64_t b = p;
    if (bspram_basis_make(&o.basis, p, 1, &b, NULL, 0))
        bspram_fatal("bspram_combine_defaults(p=%" PRIu64 "): p must be >= 1", p);
    o.spread = BSPRAM_SPREAD_RANDOM;
    o.physical = BSPRAM_PHYSICAL_EXTRA_PHASE;
    return o;
}

void bspram_combiner_set_options(bspram_combiner *C, const bspram_combine_options *o)
{
    if (o->strategy == BSPRAM_STRATEGY_FIXED) {
        char err[160], buf[200];
        if (o->basis.p != C->p ||
            bspram_basis_make(&(bspram_basis){0}, C->p, o->basis.m, o->basis.b + 1, err, sizeof err)) {
            if (o->basis.p != C->p)
                snprintf(err, sizeof err, "basis product is %" PRIu64 "; it must equal p = %" PRIu64,
                         o->basis.p, C->p);
            bspram_fatal("bspram_combiner(basis=%s): %s",
                         o->basis.m ? bspram_basis_format(&o->basis, buf, sizeof buf) : "(empty)", err);
        }
    } else if (o->strategy != BSPRAM_STRATEGY_AUTO && o->strategy != BSPRAM_STRATEGY_ADAPTIVE) {
        bspram_fatal("bspram_combiner(strategy=%d): unknown strategy; valid: 0 fixed, 1 auto, 2 adaptive",
                     (int)o->strategy);
    }
    if (o->spread != BSPRAM_SPREAD_RANDOM && o->spread != BSPRAM_SPREAD_SOURCE)
        bspram_fatal("bspram_combiner(spread=%d): unknown spreading; valid: 0 random, 1 source", (int)o->spread);
    if (o->physical != BSPRAM_PHYSICAL_EXTRA_PHASE && o->physical != BSPRAM_PHYSICAL_DIRECT_LAST)
        bspram_fatal("bspram_combiner(physical=%d): unknown delivery; valid: 0 extra phase, 1 direct last",
                     (int)o->physical);
    C->o = *o;
}

bspram_combiner *bspram_combiner_create(bspram_machine *m, bspram_space *s, const bspram_combine_options *o)
{
    if (bspram_machine_p(m) != bspram_space_p(s))
        bspram_fatal("bspram_combiner_create: the machine has p = %" PRIu64
                     " components but the address space has p = %" PRIu64,
                     bspram_machine_p(m), bspram_space_p(s));
    bspram_combiner *C = bspram_calloc(1, sizeof *C, "bspram_combiner_create");
    C->m = m;
    C->s = s;
    C->p = bspram_machine_p(m);
    C->lanes = bspram_machine_threads(m);
    C->cs = bspram_calloc(C->p, sizeof *C->cs, "bspram_combiner_create");
    C->ls = bspram_calloc((size_t)C->lanes, sizeof *C->ls, "bspram_combiner_create");
    C->nops = BSPRAM_BUILTIN_OPS;
    bspram_combiner_set_options(C, o);
    return C;
}

void bspram_combiner_destroy(bspram_combiner *C)
{
    if (!C)
        return;
    for (uint64_t c = 0; c < C->p; c++) {
        comp_state *cs = &C->cs[c];
        for (unsigned l = 0; l < MAX_LEVELS; l++) {
            free(cs->lv[l].first);
            free(cs->lv[l].kind);
            free(cs->lv[l].src);
        }
        free(cs->arrived);
        free(cs->arrived_src);
        free(cs->arrived_level);
    }
    for (int l = 0; l < C->lanes; l++) {
        lane_scratch *L = &C->ls[l];
        free(L->t);
        free(L->items); free(L->isrc); free(L->igroup); free(L->ilevel);
        free(L->g); free(L->gcount); free(L->ghandle);
    }
    free(C->cs);
    free(C->ls);
    free(C);
}

unsigned bspram_combiner_add_op(bspram_combiner *C, const char *name, bspram_user_op_fn fn, void *ctx,
                                uint64_t identity)
{
    if (!fn)
        bspram_fatal("bspram_combiner_add_op(name=%s): fn is NULL", name ? name : "(null)");
    if (C->nops >= BSPRAM_MAX_OPS)
        bspram_fatal("bspram_combiner_add_op(name=%s): more than %d user operations",
                     name ? name : "(null)", BSPRAM_MAX_OPS - BSPRAM_BUILTIN_OPS);
    unsigned id = C->nops++;
    C->ufn[id] = fn;
    C->uctx[id] = ctx;
    C->uid[id] = identity;
    snprintf(C->uname[id], sizeof C->uname[id], "%s", name ? name : "user");
    return id;
}

uint64_t bspram_combiner_op_identity(const bspram_combiner *C, unsigned op)
{
    if (op < BSPRAM_BUILTIN_OPS)
        return bspram_op_identity(op);
    if (op >= C->nops)
        bspram_fatal("bspram_combiner_op_identity(op=%u): no such operation; valid: 0..%u", op, C->nops - 1);
    return C->uid[op];
}

static void set_label(bspram_combiner *C, const char *dir, unsigned i)
{
    char label[BSPRAM_LABEL_LEN];
    snprintf(label, sizeof label, "combine:%s:%u", dir, i);
    bspram_machine_set_label(C->m, label);
}

void bspram_combine(bspram_combiner *C, const bspram_request *requests, const uint64_t *first,
                    uint64_t *results, bspram_combine_stats *stats)
{
    if (first[0] != 0)
        bspram_fatal("bspram_combine(first[0]=%" PRIu64 "): first[0] must be 0", first[0]);
    for (uint64_t c = 0; c < C->p; c++)
        if (first[c + 1] < first[c])
            bspram_fatal("bspram_combine(first[%" PRIu64 "]=%" PRIu64 ", first[%" PRIu64 "]=%" PRIu64
                         "): offsets must not decrease", c, first[c], c + 1, first[c + 1]);
    C->req = requests;
    C->first = first;
    C->results = results;
    /* Valiant §4: the spreading offsets k are drawn anew for every request in
     * every invocation. The key is (seed, batch number); the counter advances
     * here, once per call, on the calling thread, so a batch's offsets stay a
     * pure function of (seed, number of earlier batches, phase, component,
     * group), whatever the number of threads. */
    C->batch_seed = bspram_random2(C->o.seed, UINT64_C(0x6261746368), C->batch++);
    switch (C->o.strategy) {
    case BSPRAM_STRATEGY_AUTO: C->basis = bspram_basis_auto(C->p, C->o.degree_hint); break;
    case BSPRAM_STRATEGY_ADAPTIVE: C->basis = bspram_basis_adaptive(C->p); break;
    default: C->basis = C->o.basis; break;
    }
    C->adaptive = C->o.strategy == BSPRAM_STRATEGY_ADAPTIVE;
    C->m_phases = C->basis.m;

    size_t nrec0;
    bspram_machine_records(C->m, &nrec0);

    C->phase = 1;
    set_label(C, "forward", 1);
    bspram_machine_superstep(C->m, forward_step, C);
    unsigned flags = 0, ukind = 0xff;
    C->check_species = 0;
    for (uint64_t c = 0; c < C->p; c++) {
        flags |= C->cs[c].flags;
        if (C->cs[c].ukind != 0xff) {
            if (ukind != 0xff && ukind != C->cs[c].ukind)
                C->check_species = 1;
            ukind = C->cs[c].ukind;
        }
    }
    if (flags & 4)
        C->check_species = 1;
    C->flags = flags;
    if ((flags & 1) && !results)
        bspram_fatal("bspram_combine(results=NULL): the batch holds READ or FETCH requests");
    C->M = C->m_phases + ((flags & 2) && C->o.physical == BSPRAM_PHYSICAL_EXTRA_PHASE ? 1 : 0);
    for (unsigned i = 2; i <= C->M; i++) {
        C->phase = i;
        set_label(C, "forward", i);
        bspram_machine_superstep(C->m, forward_step, C);
    }
    unsigned rev = (flags & 1) ? C->M : 0;
    if (rev) {
        for (unsigned j = 1; j <= rev; j++) {
            C->phase = j;
            set_label(C, "reverse", j);
            bspram_machine_superstep(C->m, reverse_step, C);
        }
        /* The last answers reach the requesters: no superstep, no messages. */
#pragma omp parallel for schedule(static) num_threads(C->lanes)
        for (uint64_t c = 0; c < C->p; c++) {
            const bspram_message *msgs;
            size_t k = bspram_machine_inbox(C->m, c, &msgs);
            handle_replies(C, NULL, c, msgs, k);
        }
    } else {
        /* No answers to send: the owners apply the updates they received. */
#pragma omp parallel for schedule(static) num_threads(C->lanes)
        for (uint64_t c = 0; c < C->p; c++) {
            const bspram_message *msgs;
            size_t k = bspram_machine_inbox(C->m, c, &msgs);
            owner_level(C, NULL, c, (unsigned)omp_get_thread_num(), msgs, k);
        }
    }
    bspram_machine_set_label(C->m, "superstep");

    if (stats) {
        memset(stats, 0, sizeof *stats);
        size_t nrec;
        const bspram_record *rec = bspram_machine_records(C->m, &nrec);
        stats->phases = C->M;
        stats->reverse_phases = rev;
        stats->basis = C->basis;
        stats->first_record = nrec0;
        for (unsigned i = 1; i <= C->M; i++) {
            const bspram_record *r = &rec[nrec0 + i - 1];
            stats->forward_charge[i] = r->charge;
            stats->forward_q[i] = r->q;
            stats->forward_r[i] = r->r;
            stats->forward_messages[i] = r->messages;
            stats->charge += r->charge;
        }
        for (unsigned j = 1; j <= rev; j++) {
            stats->reverse_charge[j] = rec[nrec0 + C->M + j - 1].charge;
            stats->reverse_total += stats->reverse_charge[j];
        }
    }
}
