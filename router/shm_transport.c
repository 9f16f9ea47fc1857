/* The shared-memory transport: each lane builds the inboxes of its own block.
 *
 * After the barrier that ends posting, the outbox of every lane k for every
 * destination d holds k's messages to d in (source, issue) order. Lanes serve
 * increasing blocks of components, so reading the outboxes of d lane by lane
 * — only the lanes that posted to d's block, in lane order — gives d's inbox
 * in (source component, issue) order, whatever the number of lanes. The
 * lane that serves d counts d's messages and bytes at the exchange (its
 * offsets, r and h) and writes d's array of message headers when d's inbox
 * is first read (shm_build), just before d reads the payloads: headers and
 * payloads then come from memory once. The headers point at the payloads in
 * the sending lane's storage: payloads are not copied by delivery, nothing is
 * locked, and no second barrier is needed, because only the lane serving d
 * reads d's inbox before the next exchange.
 *
 * The allreduce is the superstep barrier (barrier_internal.h) with its tag OR;
 * the statistics are reduced by lane 0 reading every lane's slot after it,
 * only in supersteps where some lane brought any (an empty superstep touches
 * no other lane's cache lines). Slots are double-buffered by episode parity:
 * a lane writes slot e+1 only after the barrier of episode e, and can write
 * slot e+2 only after lane 0 has arrived at e+1, i.e. finished reading e.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/barrier_internal.h"
#include "router/router_internal.h"
#include "router/router.h"

typedef struct shm_slot {
    _Alignas(64) bspram__stats stats[2]; /* by episode parity */
    unsigned episode;                    /* allreduces this lane has done */
    bool dirty[2];                       /* stats[par] is not all zero */
} shm_slot;

typedef struct shm_state {
    bspram_barrier barrier;
    shm_slot *slot; /* [lanes] */
    unsigned lanes;
} shm_state;

static void *shm_open(unsigned lanes, unsigned *lo, unsigned *hi)
{
    (void)lo, (void)hi; /* every lane is here */
    shm_state *s = bspram__base_calloc(1, sizeof *s, "the shared-memory transport");
    s->lanes = lanes;
    s->slot = aligned_alloc(64, sizeof *s->slot * lanes);
    if (!s->slot)
        bspram__base_fatal("the shared-memory transport (%u lanes): out of memory", lanes);
    memset(s->slot, 0, sizeof *s->slot * lanes);
    bspram__router_barrier_init(&s->barrier, lanes);
    return s;
}

static void shm_close(void *state)
{
    shm_state *s = state;
    bspram__router_barrier_destroy(&s->barrier);
    free(s->slot);
    free(s);
}

static unsigned shm_allreduce(bspram_router *r, unsigned lane, unsigned tag, bspram__stats *stats)
{
    shm_state *s = r->tstate;
    shm_slot *mine = &s->slot[lane];
    unsigned par = mine->episode++ & 1u;
    /* A lane without statistics leaves a zero slot (a stale one would be read
     * if another lane brings any), writing it only when it was not zero: an
     * empty superstep writes nothing. */
    if (stats && ((tag & BSPRAM__TAG_STATS) || mine->dirty[par])) {
        mine->stats[par] = *stats;
        mine->dirty[par] = (tag & BSPRAM__TAG_STATS) != 0;
    }
    unsigned all = bspram__router_barrier_wait_doing(&s->barrier, lane, tag,
                                             lane == r->lane_lo ? bspram__router_waiting : NULL, r);
    if (stats && lane == 0 && (all & BSPRAM__TAG_STATS)) /* its own are in *stats already */
        for (unsigned l = 1; l < s->lanes; l++)
            bspram__stats_fold(stats, &s->slot[l].stats[par]);
    return all;
}

enum { PREFETCH_LINES = 8 };

static void deliver_shm(bspram_router *r, unsigned lane)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    const uint64_t first = ln->first, nd = ln->end - ln->first;
    /* Only the lanes that posted to this block (router_internal.h): delivery
     * costs O(block × senders), not O(block × lanes). The lazy builds read
     * the same list: senders write it again only after the next exchange's
     * barrier, which this lane reaches after its last read of these inboxes. */
    if (atomic_load_explicit(&ln->n_senders[par], memory_order_relaxed) == 0) {
        /* Nobody posted to this block: every inbox is empty, as after an
         * exchange without messages (the record's r and h come from the
         * lanes that received; this one brings none). A small collective's
         * root, or a process that only sends, skips the block's offsets. */
        ln->delivered = 0;
        return;
    }
    const uint32_t *from;
    const unsigned L = bspram__router_lane_senders(ln, par, &from);
    ln->from = from;
    ln->n_from = L;
    ln->from_par = par;

    /* Offsets of our inboxes, the most messages one receives (Valiant's r)
     * and the most bytes (the receive side of h), from the outboxes' counts;
     * the headers are written when an inbox is first read (shm_build). */
    uint64_t total = 0, rmax = 0, hmax = 0;
    for (uint64_t i = 0; i < nd; i++) {
        uint64_t c = 0, bytes = 0;
        for (unsigned k = 0; k < L; k++) {
            const bspram__outbox *o = bspram__lane_outbox(&r->lane[from[k]], par, first + i);
            c += o->count;
            bytes += o->bytes;
        }
        ln->in_off[i] = total;
        total += c;
        if (c > rmax)
            rmax = c;
        if (bytes > hmax)
            hmax = bytes;
    }
    ln->in_off[nd] = total;
    ln->r[par] = rmax;
    ln->h_in[par] = hmax;
    ln->lazy = true;
    ln->deliveries++;
}

/* The headers of inbox i: the senders' outboxes for it, lane by lane, point
 * at the payloads where their senders' lanes stored them. */
static void shm_build(bspram_router *r, unsigned lane, uint64_t i)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = ln->from_par;
    const uint64_t dst = ln->first + i;
    /* Room for every inbox's headers of this delivery, made at its first
     * build (so a lane read only as runs has none): later builds of the
     * same delivery find it, and earlier deliveries' headers are dead. */
    if (ln->in_off[ln->end - ln->first] > ln->cap_in) /* a call only to grow */
        bspram__router_lane_inbox_reserve(ln, ln->in_off[ln->end - ln->first]);
    bspram_message *m = ln->in + ln->in_off[i];
    /* Components usually read their inboxes in order: start fetching the
     * next one's first lines. */
    if (dst + 1 < ln->end)
        for (unsigned k = 0; k < ln->n_from; k++) {
            const bspram__chunk *h = bspram__lane_outbox(&r->lane[ln->from[k]], par, dst + 1)->head;
            if (h)
                for (unsigned j = 1; j <= PREFETCH_LINES; j++)
                    __builtin_prefetch((const char *)h + j * 64);
        }
    for (unsigned k = 0; k < ln->n_from; k++) {
        const bspram__outbox *o = bspram__lane_outbox(&r->lane[ln->from[k]], par, dst);
        if (!o->count)
            continue;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next) {
            const char *at = (const char *)(ch + 1), *end = at + ch->used;
            while (at < end) {
                const bspram__entry *e = (const bspram__entry *)at;
                /* Each entry's place depends on the last one's length: ask for
                 * lines ahead so the walk does not wait on memory each line. */
                __builtin_prefetch(at + PREFETCH_LINES * 64);
                if (!(e->len32 & BSPRAM__RUN_BIT)) { /* a message (the usual entry here), decoded inline */
                    *m++ = (bspram_message){e + 1, e->len32, e->src, (uint32_t)dst};
                    at += sizeof *e + bspram__round8(e->len32);
                    continue;
                }
                const char *data = bspram__entry_payload(e);
                const uint64_t len = bspram__entry_len(e), n = bspram__entry_count(e);
                for (uint64_t j = 0; j < n; j++, m++, data += len) { /* a run's records */
                    m->data = data;
                    m->len = len;
                    m->src = e->src;
                    m->dst = (uint32_t)dst;
                }
                at = bspram__entry_next(e);
            }
        }
    }
    ln->in_built[i] = ln->deliveries;
}

/* Inbox i as runs, in the lane's run storage (which holds one inbox's): one
 * descriptor per entry of the senders' outboxes, lane by lane, as
 * shm_build's headers but none per record of a run. */
static void shm_build_runs(bspram_router *r, unsigned lane, uint64_t i)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = ln->from_par;
    const uint64_t dst = ln->first + i;
    if (ln->in_off[i + 1] - ln->in_off[i] > ln->cap_runs) /* no more runs than messages; a call only to grow */
        bspram__router_lane_runs_reserve(ln, ln->in_off[i + 1] - ln->in_off[i]);
    bspram__run *u = ln->runs, *first = u;
    for (unsigned k = 0; k < ln->n_from; k++) {
        const bspram__outbox *o = bspram__lane_outbox(&r->lane[ln->from[k]], par, dst);
        if (!o->count)
            continue;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next) {
            const char *at = (const char *)(ch + 1), *end = at + ch->used;
            while (at < end) {
                const bspram__entry *e = (const bspram__entry *)at;
                __builtin_prefetch(at + PREFETCH_LINES * 64);
                u->src = e->src;
                if ((e->len32 & (BSPRAM__RUN_BIT | BSPRAM__RUN_LONG_BIT)) == BSPRAM__RUN_BIT) {
                    /* A run of the channel (the usual entry here), decoded inline. */
                    const uint32_t size = ((e->len32 >> 24 & 0x3Fu) + 1) * 8, count = e->len32 & BSPRAM__RUN_MAX_COUNT;
                    u->data = e + 1;
                    u->count = count;
                    u->size = size;
                    at += sizeof *e + (size_t)size * count;
                } else {
                    u->data = bspram__entry_payload(e);
                    u->count = bspram__entry_count(e);
                    u->size = (uint32_t)bspram__entry_len(e);
                    at = bspram__entry_next(e);
                }
                u++;
            }
        }
    }
    ln->n_runs = (size_t)(u - first);
    ln->runs_inbox = i;
    ln->runs_delivery = ln->deliveries;
}

/* Inbox i was read for good: the senders' chunks for it (nothing else is in
 * them) go back to the senders' free chunks, this lane's own at once and
 * another lane's through its returned chain, so that the senders post into
 * them next. The senders do not touch this parity's outboxes before the
 * next exchange, and then find them empty (bspram__router_reset_parity). */
static void shm_release(bspram_router *r, unsigned lane, uint64_t i)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = ln->from_par;
    const uint64_t dst = ln->first + i;
    for (unsigned k = 0; k < ln->n_from; k++) {
        bspram__lane *from = &r->lane[ln->from[k]];
        bspram__outbox *o = bspram__lane_outbox(from, par, dst);
        if (!o->head)
            continue;
        if (from == ln) {
            bspram__router_chunks_spare(ln, o->head);
        } else {
            bspram__chunk *old = atomic_load_explicit(&from->returned, memory_order_relaxed);
            do
                o->tail->next = old;
            while (!atomic_compare_exchange_weak_explicit(&from->returned, &old, o->head, memory_order_release,
                                                          memory_order_relaxed));
        }
        o->head = o->tail = NULL;
    }
}

static void shm_read(bspram_router *r, unsigned lane, unsigned from_lane, const void *remote,
                     void *local, size_t n)
{
    (void)r, (void)lane, (void)from_lane;
    memcpy(local, remote, n);
}

const bspram__transport bspram__router_transport_shm = {
    .name = "shm",
    .shares_memory = true,
    .open = shm_open,
    .close = shm_close,
    .allreduce = shm_allreduce,
    .deliver = deliver_shm,
    .build = shm_build,
    .build_runs = shm_build_runs,
    .release = shm_release,
    .read = shm_read,
    .abort = NULL, /* base/error.c's _exit ends every thread of the process */
};
