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
 * reads d's inbox before the next exchange. The exception is a small
 * superstep among a few processes of one component each: its outboxes are
 * mailed, a copy of at most 1 KiB each (shm_seal, below).
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

/* Mail: an outbox of one chunk of at most MAIL_DATA bytes, copied by its
 * sender at the exchange (shm_seal) to the slot of its (sender, receiver)
 * pair, which the receiver reads after the barrier. A small superstep's
 * message (a collective's round) then crosses between cores as the cache
 * lines it fills, written by one core and read by the other, where through the
 * outbox the receiver would fetch the sender's list entry, its count, its
 * outbox, its chunk's header and its chunk, each a line the other core last
 * wrote (and the sender fetch them back). Only where every lane serves one
 * component (BSPlib's processes) and there are at most BSPRAM__MAIL_LANES
 * lanes: a receiver looks at a slot of every lane, and a slot carries one
 * destination. Slots are double-buffered by parity, as the outboxes are:
 * the sender writes parity par's slot again two exchanges on, after the
 * barrier the receiver reaches only once it has read it. */
enum { MAIL_SLOT = 1024 };
typedef struct shm_mail {
    _Alignas(64) uint64_t stamp; /* the exchange it was sealed in (the lanes' step + 1) */
    uint64_t count, bytes, used; /* the outbox's messages and bytes (what the records
                                    count), and the bytes of its entries in data */
    char data[MAIL_SLOT - 4 * sizeof(uint64_t)];
} shm_mail;
#define MAIL_DATA (sizeof(((shm_mail *)0)->data))
_Static_assert(MAIL_DATA % 16 == 0, "a slot's data is copied in 16-byte steps");

/* A receiving lane's senders of its last delivery, in lane order (the
 * lane's `from`), and which of them mailed, by lane. */
typedef struct shm_receiver {
    _Alignas(64) uint32_t from[BSPRAM__MAIL_LANES];
    uint64_t mailed;
} shm_receiver;

typedef struct shm_state {
    bspram_barrier barrier;
    shm_slot *slot; /* [lanes] */
    unsigned lanes;
    shm_mail *mail;         /* [from][to][parity], with at most BSPRAM__MAIL_LANES lanes */
    shm_receiver *receiver; /* [lanes], likewise */
} shm_state;

static shm_mail *mail_slot(const shm_state *s, unsigned from, unsigned to, unsigned par)
{
    return &s->mail[((size_t)from * s->lanes + to) * 2 + par];
}

static void *shm_open(unsigned lanes, unsigned *lo, unsigned *hi)
{
    (void)lo, (void)hi; /* every lane is here */
    shm_state *s = bspram__base_calloc(1, sizeof *s, "the shared-memory transport");
    s->lanes = lanes;
    s->slot = aligned_alloc(64, sizeof *s->slot * lanes);
    if (!s->slot)
        bspram__base_fatal("the shared-memory transport (%u lanes): out of memory", lanes);
    memset(s->slot, 0, sizeof *s->slot * lanes);
    if (lanes <= BSPRAM__MAIL_LANES) {
        const size_t slots = (size_t)lanes * lanes * 2;
        s->mail = aligned_alloc(64, sizeof *s->mail * slots);
        s->receiver = aligned_alloc(64, sizeof *s->receiver * lanes);
        if (!s->mail || !s->receiver)
            bspram__base_fatal("the shared-memory transport (%u lanes): out of memory", lanes);
        memset(s->mail, 0, sizeof *s->mail * slots);
        memset(s->receiver, 0, sizeof *s->receiver * lanes);
    }
    bspram__router_barrier_init(&s->barrier, lanes);
    return s;
}

static void shm_close(void *state)
{
    shm_state *s = state;
    bspram__router_barrier_destroy(&s->barrier);
    free(s->mail);
    free(s->receiver);
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

/* Mail each outbox of lane `lane` that fits a slot; register the lane with
 * the receiver of each other one (r->mail: one component per lane, so the
 * destination is its lane's number). */
static void shm_seal(bspram_router *r, unsigned lane, unsigned par)
{
    shm_state *s = r->tstate;
    bspram__lane *ln = &r->lane[lane];
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        const uint32_t d = ln->touched[par][i];
        const bspram__outbox *o = bspram__lane_outbox(ln, par, d);
        const bspram__chunk *ch = o->head;
        if (ch == o->tail && ch->used <= MAIL_DATA) {
            shm_mail *m = mail_slot(s, lane, d, par);
            /* A few words in 16-byte steps, without a call (a chunk's room
             * and a slot's data are multiples of 16 bytes); more by memcpy. */
            if (ch->used <= 64)
                for (size_t b = 0; b < ch->used; b += 16)
                    memcpy(m->data + b, (const char *)(ch + 1) + b, 16);
            else
                memcpy(m->data, ch + 1, ch->used);
            m->count = o->count;
            m->bytes = o->bytes;
            m->used = ch->used;
            m->stamp = ln->step + 1; /* published by the barrier */
        } else {
            bspram__router_register_sender(&r->lane[d], par, lane);
        }
    }
}

enum { PREFETCH_LINES = 8 };

/* deliver_shm with mail (r->mail: one component per lane): the lanes that
 * mailed to this one (their slot bears this exchange's stamp) and those
 * registered, in lane order, counted from the slots and the outboxes. */
static void deliver_mail(bspram_router *r, unsigned lane, unsigned par)
{
    const shm_state *s = r->tstate;
    bspram__lane *ln = &r->lane[lane];
    shm_receiver *rc = &s->receiver[lane];
    const uint64_t stamp = ln->step + 1;
    uint64_t mailed = 0, c = 0, bytes = 0;
    const shm_mail *m = mail_slot(s, 0, lane, par);
    for (unsigned l = 0; l < s->lanes; l++, m += 2 * s->lanes)
        if (m->stamp == stamp) {
            mailed |= UINT64_C(1) << l;
            c += m->count;
            bytes += m->bytes;
        }
    uint64_t all = mailed;
    const unsigned k = atomic_load_explicit(&ln->n_senders[par], memory_order_relaxed);
    const uint32_t *list = par ? ln->senders : ln->senders - k;
    for (unsigned j = 0; j < k; j++) {
        const bspram__outbox *o = bspram__lane_outbox(&r->lane[list[j]], par, ln->first);
        all |= UINT64_C(1) << list[j];
        c += o->count;
        bytes += o->bytes;
    }
    if (!all) { /* as in deliver_shm */
        ln->delivered = 0;
        return;
    }
    unsigned n = 0;
    for (; all; all &= all - 1)
        rc->from[n++] = (uint32_t)__builtin_ctzll(all);
    rc->mailed = mailed;
    ln->from = rc->from;
    ln->n_from = n;
    ln->from_par = par;
    ln->in_off[0] = 0;
    ln->in_off[1] = c;
    ln->r[par] = c;
    ln->h_in[par] = bytes;
    ln->lazy = true;
    ln->deliveries++;
}

/* Which of lane `lane`'s senders in its last delivery mailed, by lane. */
static uint64_t mailed_to(const bspram_router *r, unsigned lane)
{
    return r->mail ? ((const shm_state *)r->tstate)->receiver[lane].mailed : 0;
}

/* Whether lane `from` is among `mailed` (without mail, lanes may be many). */
static bool mailed_by(uint64_t mailed, uint32_t from) { return mailed && (mailed >> from & 1u); }

static void deliver_shm(bspram_router *r, unsigned lane)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    const uint64_t first = ln->first, nd = ln->end - ln->first;
    /* Only the lanes that posted to this block (router_internal.h): delivery
     * costs O(block × senders), not O(block × lanes). The lazy builds read
     * the same list: senders write it again only after the next exchange's
     * barrier, which this lane reaches after its last read of these inboxes. */
    if (r->mail) {
        deliver_mail(r, lane, par);
        return;
    }
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
    const uint64_t mailed = mailed_to(r, lane);
    for (unsigned k = 0; k < ln->n_from; k++) {
        if (mailed_by(mailed, ln->from[k])) {
            const shm_mail *ml = mail_slot(r->tstate, ln->from[k], lane, par);
            m = bspram__router_entry_messages(ml->data, ml->data + ml->used, m, dst);
            continue;
        }
        const bspram__outbox *o = bspram__lane_outbox(&r->lane[ln->from[k]], par, dst);
        if (!o->count)
            continue;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next)
            m = bspram__router_entry_messages((const char *)(ch + 1), (const char *)(ch + 1) + ch->used, m, dst);
    }
    ln->in_built[i] = ln->deliveries;
}

/* The run descriptors of the entries in [at, end) at u; returns the end. */
static bspram__run *entry_runs(const char *at, const char *end, bspram__run *u)
{
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
    return u;
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
    const uint64_t mailed = mailed_to(r, lane);
    for (unsigned k = 0; k < ln->n_from; k++) {
        if (mailed_by(mailed, ln->from[k])) {
            const shm_mail *ml = mail_slot(r->tstate, ln->from[k], lane, par);
            u = entry_runs(ml->data, ml->data + ml->used, u);
            continue;
        }
        const bspram__outbox *o = bspram__lane_outbox(&r->lane[ln->from[k]], par, dst);
        if (!o->count)
            continue;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next)
            u = entry_runs((const char *)(ch + 1), (const char *)(ch + 1) + ch->used, u);
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
    const uint64_t mailed = mailed_to(r, lane);
    for (unsigned k = 0; k < ln->n_from; k++) {
        if (mailed_by(mailed, ln->from[k])) /* its outbox stays with it */
            continue;
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
    .seal = shm_seal,
    .deliver = deliver_shm,
    .build = shm_build,
    .build_runs = shm_build_runs,
    .release = shm_release,
    .read = shm_read,
    .abort = NULL, /* base/error.c's _exit ends every thread of the process */
};
