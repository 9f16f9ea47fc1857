/* The staged transport: a second, deliberately different implementation of
 * the seam (transport.h), used by the tests to show that the router, the
 * machine and BSPlib rely on nothing but the seam.
 *
 * It behaves as a message-passing network would. At an exchange each lane
 * packs what it posted into one staging buffer per receiving lane (like an
 * MPI send buffer); after a barrier each lane copies the buffers addressed to
 * it, sender lane by sender lane, into receive staging of its own and builds
 * its inboxes there. So a receiver never sees a sender's memory, every payload
 * is copied twice, and `shares_memory` is false: the layers above must not
 * send addresses. The allreduce is a mutex and a condition variable; the
 * statistics are reduced by message, each lane folding its own into an
 * accumulator as it arrives. Slow, and meant to be: only tests select it
 * (BSPRAM_TRANSPORT=staged).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/grow.h"
#include "router/router_internal.h"
#include "router/router.h"

/* A packed message: header, then the payload padded to 8 bytes. */
typedef struct staged_header {
    uint32_t dst, src;
    uint64_t len;   /* of each message */
    uint64_t extra;
    uint64_t count; /* messages: a run's records, staged together, or 1 */
} staged_header;

/* The bytes a staged entry's payload takes (a run's records are multiples of 8). */
static uint64_t staged_payload(const staged_header *h)
{
    return h->count == 1 ? bspram__round8(h->len) : h->len * h->count;
}

typedef struct staged_buffer {
    char *data;
    size_t len, cap;
} staged_buffer;

typedef struct staged_lane {
    staged_buffer receive[2]; /* by superstep parity: payloads live two exchanges */
    uint64_t *cursor;         /* [block size] next inbox slot per destination */
    size_t cap_cursor;
} staged_lane;

typedef struct staged_state {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned lanes, arrived, generation;
    unsigned acc_tag, result_tag;
    bspram__stats acc, result;
    staged_lane *lane;   /* [lanes] */
    staged_buffer *send; /* [lanes × lanes]: send[k·L + d] is lane k's buffer for lane d */
} staged_state;

static void *staged_open(unsigned lanes, unsigned *lo, unsigned *hi)
{
    (void)lo, (void)hi; /* every lane is here */
    staged_state *s = bspram__base_calloc(1, sizeof *s, "the staged transport");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->lanes = lanes;
    s->lane = bspram__base_calloc(lanes, sizeof *s->lane, "the staged transport");
    s->send = bspram__base_calloc((size_t)lanes * lanes, sizeof *s->send, "the staged transport");
    return s;
}

static void staged_close(void *state)
{
    staged_state *s = state;
    for (size_t i = 0; i < (size_t)s->lanes * s->lanes; i++)
        free(s->send[i].data);
    for (unsigned l = 0; l < s->lanes; l++) {
        free(s->lane[l].receive[0].data);
        free(s->lane[l].receive[1].data);
        free(s->lane[l].cursor);
    }
    free(s->send);
    free(s->lane);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->cond);
    free(s);
}

static unsigned staged_allreduce(bspram_router *r, unsigned lane, unsigned tag, bspram__stats *stats)
{
    staged_state *s = r->tstate;
    if (lane == r->lane_lo)
        bspram__router_waiting(r);
    pthread_mutex_lock(&s->lock);
    s->acc_tag |= tag;
    if (stats && (tag & BSPRAM__TAG_STATS))
        bspram__stats_fold(&s->acc, stats); /* this lane's statistics, as a message */
    if (++s->arrived == s->lanes) {
        s->result_tag = s->acc_tag;
        s->result = s->acc;
        s->acc_tag = 0;
        memset(&s->acc, 0, sizeof s->acc);
        s->arrived = 0;
        s->generation++;
        pthread_cond_broadcast(&s->cond);
    } else {
        unsigned gen = s->generation;
        while (s->generation == gen)
            pthread_cond_wait(&s->cond, &s->lock);
    }
    /* The next episode cannot end before this lane arrives in it: the result
     * is still this episode's. */
    unsigned all = s->result_tag;
    if (stats && lane == 0 && (all & BSPRAM__TAG_STATS))
        *stats = s->result;
    pthread_mutex_unlock(&s->lock);
    return all;
}

static void *buffer_append(staged_buffer *b, size_t n)
{
    b->data = bspram__grow(b->data, &b->cap, b->len + n, 1, 4096, "a superstep's exchange (staged)");
    void *at = b->data + b->len;
    b->len += n;
    return at;
}

/* Pack this lane's outboxes into one send buffer per receiving lane. */
static void staged_pack(bspram_router *r, staged_state *s, unsigned lane, unsigned par)
{
    bspram__lane *ln = &r->lane[lane];
    for (unsigned d = 0; d < r->lanes; d++)
        s->send[(size_t)lane * r->lanes + d].len = 0;
    for (size_t t = 0; t < ln->n_touched[par]; t++) {
        uint32_t dst = ln->touched[par][t];
        staged_buffer *b = &s->send[(size_t)lane * r->lanes + bspram__router_lane_of(r, dst)];
        for (const bspram__chunk *ch = bspram__lane_outbox(ln, par, dst)->head; ch; ch = ch->next) {
            const char *at = (const char *)(ch + 1), *end = at + ch->used;
            while (at < end) {
                const bspram__entry *e = (const bspram__entry *)at;
                staged_header h = {dst, e->src, bspram__entry_len(e), bspram__entry_extra(e),
                                   bspram__entry_count(e)};
                char *out = buffer_append(b, sizeof h + staged_payload(&h));
                memcpy(out, &h, sizeof h);
                memcpy(out + sizeof h, bspram__entry_payload(e), h.len * h.count);
                at = bspram__entry_next(e);
            }
        }
    }
}

/* Build this lane's inboxes from the buffers addressed to it, sender lane by
 * sender lane (so by source component, then issue), copying every payload. */
static void staged_unpack(bspram_router *r, staged_state *s, unsigned lane, unsigned par)
{
    bspram__lane *ln = &r->lane[lane];
    staged_lane *me = &s->lane[lane];
    const unsigned L = r->lanes;
    const uint64_t nd = ln->end - ln->first;
    me->cursor = bspram__grow(me->cursor, &me->cap_cursor, (size_t)nd + 1, sizeof *me->cursor, 64,
                              "a superstep's exchange (staged)");
    memset(me->cursor, 0, (nd + 1) * sizeof *me->cursor);
    uint64_t *bytes = ln->in_off; /* borrowed as per-destination byte counts */
    memset(bytes, 0, (nd + 1) * sizeof *bytes);
    size_t payload = 0;
    for (unsigned k = 0; k < L; k++) {
        const staged_buffer *b = &s->send[(size_t)k * L + lane];
        for (size_t at = 0; at < b->len;) {
            staged_header h;
            memcpy(&h, b->data + at, sizeof h);
            me->cursor[h.dst - ln->first] += h.count;
            bytes[h.dst - ln->first] += (h.len + h.extra) * h.count;
            payload += staged_payload(&h);
            at += sizeof h + staged_payload(&h);
        }
    }
    bspram__router_lane_inbox_layout(ln, par, me->cursor, bytes);
    staged_buffer *rb = &me->receive[par];
    rb->len = 0;
    rb->data = bspram__grow(rb->data, &rb->cap, payload + 8, 1, 4096, "a superstep's exchange (staged)");
    for (unsigned k = 0; k < L; k++) {
        const staged_buffer *b = &s->send[(size_t)k * L + lane];
        for (size_t at = 0; at < b->len;) {
            staged_header h;
            memcpy(&h, b->data + at, sizeof h);
            char *copy = rb->data + rb->len;
            memcpy(copy, b->data + at + sizeof h, h.len * h.count);
            rb->len += staged_payload(&h);
            bspram_message *m = &ln->in[me->cursor[h.dst - ln->first]];
            me->cursor[h.dst - ln->first] += h.count;
            for (uint64_t j = 0; j < h.count; j++, m++, copy += h.len) {
                m->data = copy;
                m->len = h.len;
                m->src = h.src;
                m->dst = h.dst;
            }
            at += sizeof h + staged_payload(&h);
        }
    }
}

static void staged_deliver(bspram_router *r, unsigned lane)
{
    staged_state *s = r->tstate;
    const unsigned par = (unsigned)(r->lane[lane].step & 1);
    r->lane[lane].lazy = false;
    staged_pack(r, s, lane, par);
    staged_allreduce(r, lane, 0, NULL); /* every send buffer is packed */
    staged_unpack(r, s, lane, par);
    /* No second barrier: a lane repacks its send buffers only after the next
     * allreduce, which every receiver reaches after unpacking. */
}

static void staged_read(bspram_router *r, unsigned lane, unsigned from_lane, const void *remote,
                        void *local, size_t n)
{
    (void)r, (void)lane, (void)from_lane;
    void *bounce = bspram__base_malloc(n, "a one-sided read (staged)");
    memcpy(bounce, remote, n);
    memcpy(local, bounce, n);
    free(bounce);
}

static void staged_abort(int status) { _exit(status); }

const bspram__transport bspram__router_transport_staged = {
    .name = "staged",
    .shares_memory = false,
    .open = staged_open,
    .close = staged_close,
    .allreduce = staged_allreduce,
    .deliver = staged_deliver,
    .read = staged_read,
    .abort = staged_abort,
};
