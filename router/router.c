/* The router: posting, the exchange protocol around the transport, records.
 *
 * Posting appends the message (a 16-byte entry and the payload) to the
 * lane's outbox for its destination; so each payload is written once, and
 * every outbox holds its messages in (source, issue) order.
 *
 * One exchange (thread of lane l):
 *   1. close the lane's send statistics; barrier with tag OR — the OR tells
 *      every lane whether anything was posted at all;
 *   2. lane 0 completes the previous record (its receive side: r and h) and
 *      appends this one with its send side (q, messages, bytes, …);
 *   3. if anything was posted, the transport builds the inboxes of the lane's
 *      own block (shm_transport.c) and computes their r and h, which lane 0
 *      folds in at the next exchange (or at bspram_router_flush);
 *   4. the lane resets the storage of the other parity for the superstep to come.
 * So an exchange costs one barrier, empty or not.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/router_internal.h"

#define ROUTER_BIT 0x80000000u /* some lane posted a message */
#define WORK_BIT 0x20000000u   /* some lane declared work */
#define ARENA_BLOCK (1u << 20)

/* p < 2^32 and l ≤ lanes < 2^32, so p·l fits in 64 bits. */
static uint64_t lane_first(uint64_t p, unsigned lanes, unsigned l)
{
    return p * l / lanes;
}

bspram_router *bspram_router_create(uint64_t p, unsigned lanes)
{
    if (p < 1 || p > BSPRAM_MAX_COMPONENTS)
        bspram_fatal("bspram_router_create(p=%llu, lanes=%u): p must be in [1, %llu]",
                     (unsigned long long)p, lanes, (unsigned long long)BSPRAM_MAX_COMPONENTS);
    if (lanes < 1)
        bspram_fatal("bspram_router_create(p=%llu, lanes=%u): lanes must be >= 1",
                     (unsigned long long)p, lanes);
    bspram_router *r = bspram_calloc(1, sizeof *r, "bspram_router_create");
    r->p = p;
    r->lanes = lanes;
    r->transport = &bspram_transport_shm;
    r->lane = aligned_alloc(64, ((sizeof(bspram_lane) * lanes + 63) / 64) * 64);
    if (!r->lane)
        bspram_fatal("bspram_router_create(p=%llu, lanes=%u): out of memory", (unsigned long long)p, lanes);
    memset(r->lane, 0, sizeof(bspram_lane) * lanes);
    for (unsigned l = 0; l < lanes; l++) {
        bspram_lane *ln = &r->lane[l];
        ln->first = lane_first(p, lanes, l);
        ln->end = lane_first(p, lanes, l + 1);
        for (int par = 0; par < 2; par++) {
            /* calloc: pages of destinations never posted to are never touched */
            ln->outbox[par] = bspram_calloc(p, sizeof *ln->outbox[par], "bspram_router_create");
            ln->sent[par].src = ln->first;
        }
        ln->in_off = bspram_calloc(ln->end - ln->first + 1, sizeof *ln->in_off, "bspram_router_create");
    }
    bspram_barrier_init(&r->barrier, lanes);
    strcpy(r->label, "superstep");
    r->clock = omp_get_wtime();
    return r;
}

static void arena_free(bspram_arena *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->blocks[i].base);
    free(a->blocks);
}

void bspram_router_destroy(bspram_router *r)
{
    if (!r)
        return;
    for (unsigned l = 0; l < r->lanes; l++) {
        bspram_lane *ln = &r->lane[l];
        for (int par = 0; par < 2; par++) {
            arena_free(&ln->arena[par]);
            free(ln->outbox[par]);
            free(ln->touched[par]);
        }
        free(ln->in);
        free(ln->in_off);
    }
    free(r->lane);
    bspram_barrier_destroy(&r->barrier);
    bspram_log_free(&r->log);
    free(r);
}

uint64_t bspram_router_p(const bspram_router *r) { return r->p; }
unsigned bspram_router_lanes(const bspram_router *r) { return r->lanes; }

uint64_t bspram_router_lane_first(const bspram_router *r, unsigned lane)
{
    return lane >= r->lanes ? r->p : r->lane[lane].first;
}

unsigned bspram_router_lane_of(const bspram_router *r, uint64_t c)
{
    /* The largest l with first(l) <= c; first(l) = floor(l·p/L). (c + 1)·L
     * fits in 64 bits: c < p < 2^32 and L < 2^32. */
    unsigned l = (unsigned)(((c + 1) * r->lanes - 1) / r->p);
    if (l >= r->lanes)
        l = r->lanes - 1;
    while (l > 0 && r->lane[l].first > c)
        l--;
    while (l + 1 < r->lanes && r->lane[l + 1].first <= c)
        l++;
    return l;
}

/* Payload space for len bytes, 8-byte aligned, that never moves. */
static void *arena_take(bspram_arena *a, uint64_t len)
{
    size_t need = (size_t)((len + 7) & ~(uint64_t)7);
    if (a->n && a->blocks[a->cur].cap - a->blocks[a->cur].used >= need) {
        bspram_arena_block *b = &a->blocks[a->cur];
        void *p = b->base + b->used;
        b->used += need;
        return p;
    }
    /* Move on to a later block that fits, bringing it next to the current
     * one, or make a new block; blocks are reused across supersteps. */
    size_t next = a->n ? a->cur + 1 : 0;
    size_t fit = next;
    while (fit < a->n && a->blocks[fit].cap < need)
        fit++;
    if (fit == a->n) {
        if (a->n == a->cap) {
            a->cap = a->cap ? 2 * a->cap : 8;
            a->blocks = bspram_realloc(a->blocks, a->cap * sizeof *a->blocks, "bspram_router_post");
        }
        size_t cap = need > ARENA_BLOCK ? need : ARENA_BLOCK;
        a->blocks[a->n].base = bspram_malloc(cap, "bspram_router_post (payload storage)");
        a->blocks[a->n].cap = cap;
        a->blocks[a->n].used = 0;
        a->n++;
    }
    bspram_arena_block tmp = a->blocks[fit];
    a->blocks[fit] = a->blocks[next];
    a->blocks[next] = tmp;
    a->cur = next;
    a->blocks[next].used = need;
    return a->blocks[next].base;
}

static void arena_reset(bspram_arena *a)
{
    for (size_t i = 0; i < a->n; i++)
        a->blocks[i].used = 0;
    a->cur = 0;
}

/* Fold the current component's counts into the lane's maxima. */
static void close_src(bspram_lane_sent *s)
{
    s->messages += s->src_count;
    s->bytes += s->src_bytes;
    if (s->src_count > s->q)
        s->q = s->src_count;
    if (s->src_bytes > s->h_out)
        s->h_out = s->src_bytes;
    if (s->src_work > s->work)
        s->work = s->src_work;
    s->src_count = s->src_bytes = s->src_work = 0;
}

/* Make src the lane's current component, closing the statistics of the
 * previous one. Sources must be in the lane and must not decrease, so that
 * the lane's posting order is (source, issue) order. */
static __attribute__((noinline)) void enter_src(bspram_lane *ln, unsigned lane, uint64_t src,
                                                const char *call)
{
    bspram_lane_sent *s = &ln->sent[ln->step & 1];
    if (src == s->src)
        return;
    if (src < s->src || src >= ln->end)
        bspram_fatal("%s: component %llu cannot act in lane %u now (lane serves [%llu, %llu), "
                     "component %llu already acted; superstep %llu)", call,
                     (unsigned long long)src, lane, (unsigned long long)ln->first,
                     (unsigned long long)ln->end, (unsigned long long)s->src,
                     (unsigned long long)ln->step);
    close_src(s);
    s->src = src;
}

/* Start a new tail segment for outbox o with room for at least `need`. */
static __attribute__((noinline)) void outbox_grow(bspram_lane *ln, unsigned par, bspram_outbox *o, uint32_t dst, size_t need)
{
    bspram_segment *t = o->tail;
    if (t) {
        t->used = (uint64_t)(o->at - (char *)(t + 1));
    } else { /* first message to dst this superstep */
        if (ln->n_touched[par] == ln->cap_touched[par]) {
            ln->cap_touched[par] = ln->cap_touched[par] ? 2 * ln->cap_touched[par] : 256;
            ln->touched[par] = bspram_realloc(ln->touched[par], ln->cap_touched[par] * sizeof(uint32_t),
                                              "bspram_router_post");
        }
        ln->touched[par][ln->n_touched[par]++] = dst;
    }
    /* Segments grow geometrically; the first is as large as last time's total. */
    size_t cap = t ? 2 * t->cap : (o->hint > 192 ? (size_t)o->hint : 192);
    if (cap > (1u << 20))
        cap = 1u << 20;
    if (cap < need)
        cap = need;
    bspram_segment *seg = arena_take(&ln->arena[par], sizeof *seg + cap);
    seg->next = NULL;
    seg->cap = cap;
    seg->used = 0;
    if (t)
        t->next = seg;
    else
        o->head = seg;
    o->tail = seg;
    o->at = (char *)(seg + 1);
    o->limit = o->at + cap;
}

/* Entering the exchange: record how far each tail segment was filled. */
static void outboxes_close(bspram_lane *ln, unsigned par)
{
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        bspram_outbox *o = &ln->outbox[par][ln->touched[par][i]];
        o->tail->used = (uint64_t)(o->at - (char *)(o->tail + 1));
    }
}

/* What posting does rarely — a bad destination, a new source component, a
 * full segment — out of line, so that the hot path saves no registers
 * (every put and send goes through bspram_router_post). Returns to the hot
 * path, which then succeeds. */
static __attribute__((noinline)) void *post_slow(bspram_router *r, unsigned lane, uint64_t src,
                                                 uint64_t dst, uint64_t len, const char *call)
{
    bspram_lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    if (dst >= r->p)
        bspram_fatal("%s(dst=%llu): destination outside [0, %llu) (superstep %llu, component %llu)",
                     call, (unsigned long long)dst, (unsigned long long)r->p,
                     (unsigned long long)ln->step, (unsigned long long)src);
    enter_src(ln, lane, src, call);
    bspram_outbox *o = &ln->outbox[par][dst];
    size_t need = sizeof(bspram_entry) + (size_t)((len + 7) & ~(uint64_t)7);
    if ((size_t)(o->limit - o->at) < need)
        outbox_grow(ln, par, o, (uint32_t)dst, need);
    return bspram_router_post(r, lane, src, dst, len, call);
}

void *bspram_router_post(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint64_t len,
                         const char *call)
{
    bspram_lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram_lane_sent *s = &ln->sent[par];
    size_t need = sizeof(bspram_entry) + (size_t)((len + 7) & ~(uint64_t)7);
    bspram_outbox *o;
    if (__builtin_expect(dst >= r->p || src != s->src, 0) ||
        (o = &ln->outbox[par][dst], __builtin_expect((size_t)(o->limit - o->at) < need, 0)))
        return post_slow(r, lane, src, dst, len, call);
    bspram_entry *e = (bspram_entry *)o->at;
    o->at += need;
    o->count++;
    e->len = len;
    e->src = (uint32_t)src;
    e->extra = 0;
    s->src_count++;
    s->src_bytes += len;
    if (len > s->max_message)
        s->max_message = len;
    return e + 1;
}

void *bspram_router_post_counted(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                                 uint64_t len, uint64_t counted, const char *call)
{
    if (counted < len || counted - len > UINT32_MAX)
        bspram_fatal("%s: a message storing %llu bytes cannot count %llu (it must count between "
                     "its size and its size + %u)", call, (unsigned long long)len,
                     (unsigned long long)counted, UINT32_MAX);
    void *data = bspram_router_post(r, lane, src, dst, len, call);
    uint32_t extra = (uint32_t)(counted - len);
    bspram_entry *e = (bspram_entry *)data - 1;
    e->extra = extra;
    bspram_lane_sent *s = &r->lane[lane].sent[r->lane[lane].step & 1];
    s->src_bytes += extra;
    if (counted > s->max_message)
        s->max_message = counted;
    return data;
}

void bspram_router_send(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                        const void *data, uint64_t len, const char *call)
{
    if (!data && len)
        bspram_fatal("%s(dst=%llu, data=NULL, len=%llu): NULL payload with a non-zero size "
                     "(superstep %llu, component %llu)", call, (unsigned long long)dst,
                     (unsigned long long)len, (unsigned long long)r->lane[lane].step,
                     (unsigned long long)src);
    void *dest = bspram_router_post(r, lane, src, dst, len, call);
    if (len)
        memcpy(dest, data, (size_t)len);
}

void bspram_router_work(bspram_router *r, unsigned lane, uint64_t src, uint64_t w)
{
    bspram_lane *ln = &r->lane[lane];
    enter_src(ln, lane, src, "bspram_work");
    ln->sent[ln->step & 1].src_work += w;
}

/* Lane 0: fold the receive side of the last record (r and h, computed by
 * every lane while building its inboxes) into it. Every lane wrote them
 * before arriving at the barrier that precedes this call. */
static void complete_pending(bspram_router *r)
{
    if (!r->pending)
        return;
    bspram_record *rec = &r->log.records[r->log.n - 1];
    unsigned par = (unsigned)(rec->superstep & 1);
    for (unsigned l = 0; l < r->lanes; l++) {
        if (r->lane[l].r[par] > rec->r)
            rec->r = r->lane[l].r[par];
        if (r->lane[l].h_in[par] > rec->h_bytes)
            rec->h_bytes = r->lane[l].h_in[par];
    }
    rec->charge = rec->q > rec->r ? rec->q : rec->r;
    r->pending = 0;
}

/* Lane 0: the record of this exchange from every lane's send statistics
 * (read only if some lane has any: an empty superstep touches no other
 * lane's cache lines). */
static void append_record(bspram_router *r, int any_stats, int delivered, double t_enter)
{
    double t_end = omp_get_wtime();
    bspram_record rec;
    memset(&rec, 0, sizeof rec);
    rec.superstep = r->lane[0].step;
    memcpy(rec.label, r->label, sizeof rec.label);
    for (unsigned l = 0; any_stats && l < r->lanes; l++) {
        const bspram_lane_sent *s = &r->lane[l].sent[rec.superstep & 1];
        rec.messages += s->messages;
        rec.bytes += s->bytes;
        if (s->q > rec.q) rec.q = s->q;
        if (s->h_out > rec.h_bytes) rec.h_bytes = s->h_out;
        if (s->max_message > rec.max_message) rec.max_message = s->max_message;
        if (s->work > rec.work) rec.work = s->work;
    }
    rec.charge = rec.q;
    rec.seconds = t_end - r->clock;
    rec.exchange_seconds = t_end - t_enter;
    r->clock = t_end;
    bspram_log_append(&r->log, &rec);
    r->pending = delivered;
}

/* Ready the storage of parity par for a new superstep: its messages were
 * read in the superstep that just ended. */
static void reset_parity(bspram_lane *ln, unsigned par)
{
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        bspram_outbox *o = &ln->outbox[par][ln->touched[par][i]];
        uint64_t used = 0;
        for (const bspram_segment *seg = o->head; seg; seg = seg->next)
            used += seg->used;
        o->hint = used < (1u << 20) ? used : (1u << 20);
        o->head = o->tail = NULL;
        o->at = o->limit = NULL;
        o->count = 0;
    }
    ln->n_touched[par] = 0;
    arena_reset(&ln->arena[par]);
    memset(&ln->sent[par], 0, sizeof ln->sent[par]);
    ln->sent[par].src = ln->first;
}

unsigned bspram_router_exchange(bspram_router *r, unsigned lane, unsigned tag)
{
    bspram_lane *ln = &r->lane[lane];
    double t_enter = lane == 0 ? omp_get_wtime() : 0;
    if (tag & BSPRAM_TAG_ROUTER_MASK)
        bspram_fatal("bspram_router_exchange(tag=%#x): bits %#x are reserved by the router",
                     tag, BSPRAM_TAG_ROUTER_MASK);
    const unsigned par = (unsigned)(ln->step & 1);
    close_src(&ln->sent[par]);
    outboxes_close(ln, par);
    unsigned all = bspram_barrier_wait(&r->barrier, lane,
                                       tag | (ln->n_touched[par] ? ROUTER_BIT : 0) |
                                           (ln->sent[par].work ? WORK_BIT : 0));
    if (all & BSPRAM_TAG_LEAVE)
        return all & ~(ROUTER_BIT | WORK_BIT); /* a lane has left: deliver nothing, wait for nobody */
    ln->delivered = (all & ROUTER_BIT) != 0;
    if (lane == 0) {
        complete_pending(r);
        append_record(r, (all & (ROUTER_BIT | WORK_BIT)) != 0, ln->delivered, t_enter);
    }
    if (ln->delivered)
        r->transport->deliver(r, lane);
    ln->step++;
    reset_parity(ln, par ^ 1u);
    return all & ~(ROUTER_BIT | WORK_BIT);
}

unsigned bspram_router_barrier(bspram_router *r, unsigned lane, unsigned tag)
{
    if (tag & BSPRAM_TAG_ROUTER_MASK)
        bspram_fatal("bspram_router_barrier(tag=%#x): bits %#x are reserved by the router", tag,
                     BSPRAM_TAG_ROUTER_MASK);
    unsigned all = bspram_barrier_wait(&r->barrier, lane, tag);
    if (all & BSPRAM_TAG_LEAVE)
        bspram_fatal("bspram_router_barrier: lane %u is in a barrier (superstep %llu) while another "
                     "lane's program has ended; every lane must make the same collective calls",
                     lane, (unsigned long long)r->lane[lane].step);
    return all;
}

unsigned bspram_router_leave(bspram_router *r, unsigned lane)
{
    return bspram_barrier_wait(&r->barrier, lane, BSPRAM_TAG_LEAVE);
}

size_t bspram_router_inbox(const bspram_router *r, unsigned lane, uint64_t dst,
                           const bspram_message **msgs)
{
    (void)lane;
    *msgs = NULL;
    if (dst >= r->p)
        bspram_fatal("bspram_router_inbox(dst=%llu): component outside [0, %llu)",
                     (unsigned long long)dst, (unsigned long long)r->p);
    const bspram_lane *owner = &r->lane[bspram_router_lane_of(r, dst)];
    if (!owner->delivered)
        return 0;
    uint64_t i = dst - owner->first;
    size_t n = (size_t)(owner->in_off[i + 1] - owner->in_off[i]);
    if (n)
        *msgs = owner->in + owner->in_off[i];
    return n;
}

void bspram_router_set_label(bspram_router *r, const char *label)
{
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
}

void bspram_router_start_clock(bspram_router *r) { r->clock = omp_get_wtime(); }

void bspram_router_flush(bspram_router *r) { complete_pending(r); }

const bspram_log *bspram_router_log(const bspram_router *r) { return &r->log; }

void bspram_router_clear_log(bspram_router *r)
{
    complete_pending(r);
    bspram_log_clear(&r->log);
}
