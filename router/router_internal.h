/* bspram — the router's state, shared by its files (outbox.c, exchange.c,
 * inbox.c, host.c) and its transports.
 * Internal (not installed): the layers above see only router.h. */
#ifndef BSPRAM_ROUTER_INTERNAL_H
#define BSPRAM_ROUTER_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "router/barrier_internal.h"
#include "base/grow.h"
#include "router/router.h"
#include "router/transport.h"

/* The blocks a lane carves its chunks from: they never move and are freed
 * only with the router; a chunk, once carved, goes from outbox to free list
 * and back (bspram__lane's spare), so payload pointers stay valid until the
 * chunk is released. A chunk always returns to the lane that carved it:
 * were a receiver to keep the chunks it released, a lane that posts more
 * than it receives superstep after superstep would carve anew every time
 * while its receivers' free lists grew without bound. */
typedef struct bspram__arena_block {
    char *base;
    size_t cap, used;
} bspram__arena_block;

typedef struct bspram__arena {
    bspram__arena_block *blocks;
    size_t n, cap;
} bspram__arena;

/* A piece of an outbox: entries (bspram__entry + payload, 8-byte aligned).
 * The header fills a cache line and `cap` is a multiple of it, so the data
 * is whole cache lines: a write-combining window is flushed a line at a time. */
typedef struct bspram__chunk {
    _Alignas(64) struct bspram__chunk *next;
    uint64_t cap, used;
    uint64_t before; /* bytes used in the outbox's chunks before this one */
} bspram__chunk;

/* Software write-combining (Polychroniou and Ross, SIGMOD 2014; Wassenberg and
 * Sanders, Euro-Par 2011): a lane posts to a cache-resident window of
 * BSPRAM__WINDOW bytes per destination that mirrors the lines of the
 * destination's tail chunk, and copies its complete lines to the chunk with
 * non-temporal stores. Scattered posts to thousands of destinations then cost
 * no read for ownership of every line they open. Only in supersteps that
 * outgrow the caches (host.c, windows_from; exchange.c) and where the windows of all
 * destinations fit a core's L2 (p ≤ BSPRAM__WINDOW_MAX_P); otherwise posts go
 * straight to the chunks. */
#define BSPRAM__LINE 64u
#define BSPRAM__SPARE_CLASSES 64u
#define BSPRAM__WINDOW 256u
#define BSPRAM__WINDOW_MAX_P 8192u

/* What a chunk holds: entries, each a header and its payload, 8-byte aligned.
 * Three forms, told apart by len32:
 *   a message   8 bytes {src, len32 = len < 2^31} and len bytes: nearly every
 *               message that counts what it stores;
 *   a long one  24 bytes {src, BSPRAM__ENTRY_LONG, len, extra}: 2^31 bytes or
 *               more, or one that counts `extra` bytes besides its stored
 *               payload (bspram__router_post_counted; the records count
 *               len + extra);
 *   a run       8 bytes {src, BSPRAM__RUN_BIT | (size/8 − 1) << 24 | count}
 *               and count records of size bytes (size a multiple of 8, at
 *               most BSPRAM__RUN_MAX_SIZE; 1 ≤ count < 2^24): the record
 *               channel (bspram__router_reserve), one header for the run and
 *               none per record. The records count it as count messages of
 *               size bytes each. A run of 2^24 records or more has a 16-byte
 *               header {src, BSPRAM__RUN_BIT | BSPRAM__RUN_LONG_BIT |
 *               (size/8 − 1) << 24, count}.
 * A message of len bytes is a run of one record of len bytes, as far as the
 * readers go (bspram__entry_count, bspram__entry_record). */
typedef struct bspram__entry {
    uint32_t src;
    uint32_t len32;
} bspram__entry;

typedef struct bspram__entry_long {
    bspram__entry head;
    uint64_t len, extra;
} bspram__entry_long;

#define BSPRAM__ENTRY_LONG UINT32_MAX
#define BSPRAM__ENTRY_SHORT_MAX 0x7FFFFFFFu          /* a message's len32 is below it */
#define BSPRAM__RUN_BIT 0x80000000u
#define BSPRAM__RUN_MAX_COUNT 0xFFFFFFu               /* records in one run's header */
#define BSPRAM__RUN_MAX_SIZE 512u                     /* bytes in one record */
#define BSPRAM__RUN_LONG_BIT 0x40000000u

typedef struct bspram__entry_run_long {
    bspram__entry head;
    uint64_t count;
} bspram__entry_run_long;

static inline bool bspram__entry_is_long(const bspram__entry *e) { return e->len32 == BSPRAM__ENTRY_LONG; }
static inline bool bspram__entry_is_run(const bspram__entry *e)
{
    return (e->len32 & BSPRAM__RUN_BIT) && e->len32 != BSPRAM__ENTRY_LONG;
}
static inline uint32_t bspram__run_len32(uint32_t size, uint32_t count)
{
    return BSPRAM__RUN_BIT | (size / 8 - 1) << 24 | count;
}

static inline bool bspram__entry_is_run_long(const bspram__entry *e)
{
    return bspram__entry_is_run(e) && (e->len32 & BSPRAM__RUN_LONG_BIT);
}

/* Messages in entry e: a run's count, else 1. */
static inline uint64_t bspram__entry_count(const bspram__entry *e)
{
    if (!bspram__entry_is_run(e))
        return 1;
    return (e->len32 & BSPRAM__RUN_LONG_BIT) ? ((const bspram__entry_run_long *)e)->count
                                             : (e->len32 & BSPRAM__RUN_MAX_COUNT);
}

/* The size of each of e's messages (a run's record size). */
static inline uint64_t bspram__entry_len(const bspram__entry *e)
{
    if (bspram__entry_is_long(e))
        return ((const bspram__entry_long *)e)->len;
    if (e->len32 & BSPRAM__RUN_BIT)
        return (uint64_t)((e->len32 >> 24 & 0x3Fu) + 1) * 8;
    return e->len32;
}

static inline uint64_t bspram__entry_extra(const bspram__entry *e)
{
    return bspram__entry_is_long(e) ? ((const bspram__entry_long *)e)->extra : 0;
}

static inline const void *bspram__entry_payload(const bspram__entry *e)
{
    if (bspram__entry_is_long(e))
        return (const char *)e + sizeof(bspram__entry_long);
    return (const char *)e + (bspram__entry_is_run_long(e) ? sizeof(bspram__entry_run_long) : sizeof *e);
}

/* The bytes a message entry with a payload of len bytes (and extra) takes in a chunk. */
static inline uint64_t bspram__entry_size(uint64_t len, uint64_t extra)
{
    return (len <= BSPRAM__ENTRY_SHORT_MAX && !extra ? sizeof(bspram__entry) : sizeof(bspram__entry_long)) +
           bspram__round8(len);
}

/* The entry after e. */
static inline const char *bspram__entry_next(const bspram__entry *e)
{
    uint64_t len = bspram__entry_len(e);
    return (const char *)bspram__entry_payload(e) +
           (bspram__entry_is_run(e) ? len * bspram__entry_count(e) : bspram__round8(len));
}

/* The inbox headers of the entries in [at, end) (to dst), written at m;
 * returns the end. The transports' one decoder of a run of entries. */
static inline bspram_message *bspram__router_entry_messages(const char *at, const char *end, bspram_message *m,
                                                            uint64_t dst)
{
    while (at < end) {
        const bspram__entry *e = (const bspram__entry *)at;
        /* Each entry's place depends on the last one's length: ask for
         * lines ahead so the walk does not wait on memory each line. */
        __builtin_prefetch(at + 8 * 64);
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
    return m;
}

/* What one lane posted to one destination in one superstep: a chain of
 * chunks in issue order. The write cursor and the tail chunk's end live
 * here, not in the chunk, so that posting touches one cache line of
 * bookkeeping: the chunk's header is far behind the cursor, out of the
 * caches, and reading it at every full window was most of the posts' time
 * (the tail's `used` is set when the lane enters the exchange). While a
 * window is open (`line` ≠ NULL) the cursor is in the window, whose first
 * byte stands for the chunk's byte at `line`. */
typedef struct bspram__outbox {
    _Alignas(64) char *at;             /* where the next entry goes, */
    char *limit;                       /* and the end of its room */
    char *line;                        /* the tail chunk's line the window mirrors, or NULL */
    char *end;                         /* the end of the tail chunk's room; without a tail,
                                          a chunk kept for the outbox, or NULL (outbox.c) */
    bspram__chunk *head, *tail;
    uint64_t count;                    /* messages */
    uint64_t bytes;                    /* what the records count of them (len + extra) */
} bspram__outbox;
/* One cache line: posting touches one line of bookkeeping, and a lane's
 * tables by destination are 2·64 bytes a destination (router.h, Memory). */
_Static_assert(sizeof(bspram__outbox) == 64, "an outbox's bookkeeping is one cache line");

/* What one lane sent in the current superstep (final when it enters the
 * exchange). */
typedef struct bspram__lane_sent {
    uint64_t messages, bytes, max_message;
    uint64_t q, h_out, work;         /* maxima over this lane's closed components */
    uint64_t src;                    /* the component posting now, and its */
    uint64_t src_count, src_bytes, src_work; /* messages, bytes and work so far */
} bspram__lane_sent;

/* The run bspram__router_append last began or extended in this superstep
 * for a destination (the lane's slot dst mod BSPRAM__OPEN_RUNS; emptied at
 * every exchange): a record appended to dst joins it while it is of the
 * same source and record size and still the last entry of dst's outbox —
 * the outbox's cursor at the run's end, which any other entry written to
 * dst moves past. Otherwise the record begins a run, which takes the slot.
 * 64 slots: a BSPlib program's puts to up to 64 processes, interleaved in
 * any order, each extend their destination's run. */
#define BSPRAM__OPEN_RUNS 64u
typedef struct bspram__open_run {
    uint64_t dst;              /* UINT64_MAX: none */
    struct bspram__entry *run; /* its header, */
    struct bspram__outbox *o;  /* in dst's outbox */
} bspram__open_run;
_Static_assert(BSPRAM__OPEN_RUNS <= 64, "a lane's slots taken are bits of one word (open_used)");

/* Everything indexed by superstep parity is written in one superstep and read
 * in the next (by the transport), so the lane writes the other copy meanwhile. */
typedef struct bspram__lane {
    _Alignas(64) uint64_t first, end;  /* components [first, end) */
    uint64_t step;                     /* exchanges this lane has done */

    /* Posting side (written only by this lane's thread). */
    bspram__outbox *outboxes;          /* both parities', by destination: bspram__lane_outbox */
    uint32_t *hint;                    /* [p]: bytes each outbox used last time, capped, so
                                          that in a steady state one chunk suffices */
    uint32_t *touched[2];              /* destinations with a non-empty outbox */
    size_t n_touched[2], cap_touched[2];
    bspram__arena store;               /* the blocks this lane's chunks were carved from */
    /* Free chunks by size class (bspram__router_spare_class), both parities':
     * those of this lane's outboxes once read (bspram__router_reset_parity),
     * and those a receiver released as soon as its inbox was read
     * (bspram__router_inbox_release; through `returned` when the receiver is
     * another lane), which this lane posts into next: a phase's messages are
     * held about once, the records read giving their room to the records
     * posted. */
    bspram__chunk *spare[BSPRAM__SPARE_CLASSES];
    uint64_t spare_classes;            /* bit k: spare[k] is not empty */
    /* This lane's chunks that other lanes released, a chain pushed by them
     * (release) and taken whole by this lane (acquire) when its free lists
     * cannot serve a post: the receivers' reads of the payloads happen
     * before this lane's next writes to them. */
    _Atomic(bspram__chunk *) returned;
    bspram__lane_sent sent[2];
    /* The open runs of bspram__router_append, a slot per dst mod
     * BSPRAM__OPEN_RUNS (bspram__append). */
    bspram__open_run open[BSPRAM__OPEN_RUNS];
    uint64_t open_used;                /* bit k: slot k was taken this superstep */
    char *window;                      /* [p][BSPRAM__WINDOW], or NULL */
    bool windows;                      /* post through the windows this superstep */
    unsigned heavy;                    /* supersteps the windows stay on (exchange.c) */

    /* Which lanes posted to this lane's block, by parity: a lane that posts to
     * a destination of this block for the first time in a superstep appends
     * its number (atomically: several lanes may at once), so that delivery
     * visits only those lanes — O(senders), not O(lanes), per destination.
     * Ordered by the barrier; emptied by this lane after its delivery. */
    _Alignas(64) atomic_uint n_senders[2];
    uint32_t *senders;                 /* the middle of [2 lanes]: parity 1's list grows up
                                          from it, parity 0's down, so that the few
                                          senders of a light superstep touch one page */

    /* Posting side: the lanes whose blocks this lane has posted to, a bit
     * each (so it registers once per superstep with each). */
    uint64_t *registered[2];           /* [ceil(lanes/64)] */
    size_t cap_registered;             /* their size in bytes */

    /* Receiving side: the transport builds the inboxes of this lane's block. */
    bspram_message *in;
    size_t cap_in;
    uint64_t *in_off;                  /* [end-first+1] offsets into in */
    /* Lazy delivery (the shm transport): the exchange computes the offsets
     * and r and h from the outboxes' counts; the headers of a destination's
     * inbox are written when it is first read (bspram__router_inbox), just
     * before its payloads are, so headers and payloads come from memory once. */
    bool lazy;                         /* headers are built on first read */
    /* One inbox as runs (bspram__router_inbox_runs, valid until the lane
     * reads another component's or exchanges): on the shm transport built
     * from the outboxes' entries of inbox runs_inbox of delivery
     * runs_delivery, n_runs of them (no more than its messages); on the
     * others made from the messages of one inbox. One inbox at a time, so
     * that the descriptors cost the largest inbox's, not a superstep's: a
     * run of one record has a 24-byte descriptor beside its 32 bytes. */
    bspram__run *runs;
    size_t cap_runs, n_runs;
    uint64_t runs_inbox, runs_delivery;
    uint64_t deliveries;               /* exchanges that delivered */
    uint64_t *in_built;                /* [end-first]: == deliveries once built */
    uint64_t *released;                /* [end-first]: == deliveries once released */
    const uint32_t *from;              /* from[0..n_from): the lanes that posted to us, */
    unsigned n_from;                   /* in the last delivery, */
    unsigned from_par;                 /* of this parity */
    uint64_t r[2];                     /* most messages received by one of ours */
    uint64_t h_in[2];                  /* most bytes received by one of ours */
    int delivered;                     /* the last exchange moved messages (on shm: to this
                                          lane's block) */

    /* The message pattern (only while the router keeps it): this lane's
     * sources' flows of the superstep of parity par, sorted by (src, dst);
     * lane 0 reads them after the exchange's barrier (pattern.c); unsorted
     * is where they are built. */
    bspram_flow *flows[2], *unsorted;
    size_t n_flows[2], cap_flows[2], cap_unsorted;
    /* With the pattern, each of this lane's components' load by parity
     * ([end-first], made when first needed): its declared work, and the
     * lane's time from leaving the previous exchange (`left`) to entering
     * this one (pattern.c). */
    bspram_process_load *loads[2];
    double left;
} bspram__lane;

/* The outboxes of both parities lie in runs of BSPRAM__OUTBOX_RUN
 * destinations, parity 0's run then parity 1's, so the two outboxes of a
 * destination share a page: a lane that posts to few destinations touches
 * few pages of its O(p) table, and the scans over a block of destinations
 * still read consecutive lines. */
#define BSPRAM__OUTBOX_RUN 32u
static inline bspram__outbox *bspram__lane_outbox(const bspram__lane *ln, unsigned par, uint64_t dst)
{
    return ln->outboxes + (dst / BSPRAM__OUTBOX_RUN * 2 + par) * BSPRAM__OUTBOX_RUN + dst % BSPRAM__OUTBOX_RUN;
}

struct bspram_router {
    uint64_t p;
    unsigned lanes;
    unsigned lane_lo, lane_hi; /* this process's lanes (all of them but over MPI); lane_lo
                                  appends the records */
    uint64_t windows_from;  /* bytes a lane posts in a superstep before it uses windows */
    bspram__lane *lane;
    char *slabs;            /* this process's lanes' tables by destination, a slab each */
    size_t slab, slabs_bytes; /* (bspram__base_pages: untouched pages cost nothing) */
    const bspram__transport *transport;
    void *tstate;           /* the transport's state */
    /* Read by every lane at every exchange, so it sits with the fields above,
     * not beside `clock`, which lane 0 writes at every exchange: there it
     * cost the other lanes a cache miss per superstep. */
    bool keep_pattern;      /* set between exchanges only (bspram__router_keep_pattern) */
    bool mail;              /* senders register at the exchange, through the transport's seal
                               (transport.h): lanes of one component each, at most
                               BSPRAM__MAIL_LANES of them, on a transport that mails */
    const void **gather;    /* [lanes]: what each lane brings to bspram__router_gather */

    /* Written by lane 0 only, every superstep: on cache lines of their own,
     * away from the fields every lane reads at every exchange. */
    _Alignas(64) bspram_log log;
    char label[BSPRAM_LABEL_LEN];
    int pending;            /* log's last record still needs r and h_in */
    double clock;           /* when the previous exchange ended */
    double t_enter;         /* when lane 0 entered the current exchange */
    unsigned waiting;       /* what bspram__router_waiting does now: BSPRAM__WAIT_* */
    bspram_pattern pattern; /* index-aligned with log */
    /* Over MPI, records [0, pattern_whole) of the pattern hold every
     * process's flows and loads (bspram__router_pattern_gather), whose
     * first whole_flows flows and whole_loads loads they are; later ones
     * this process's own. */
    size_t pattern_whole, whole_flows, whole_loads;
};

/* Lane 0's work while it waits in an exchange's barrier (the transport calls
 * it at every allreduce, transport.h; it does something only in exchanges):
 * the log made ready for the record that follows the barrier — room, and its
 * page touched — and, when lane 0 posted nothing (so that nothing happened
 * between entering the exchange and arriving), the time the exchange began.
 * Neither needs this superstep's statistics, and both (a clock read, and a
 * page fault every 34 records on 4 KiB pages) were on every empty superstep's
 * critical path when they followed the barrier. Takes the router as void *
 * so that a barrier can call it. */
enum { BSPRAM__WAIT_LOG = 1, BSPRAM__WAIT_CLOCK = 2 };
void bspram__router_waiting(void *router);

/* Make room in the log for the next append and touch its memory, so that the
 * append costs no allocation and no page fault (records.c). */
void bspram__router_log_ready(bspram_log *log);

/* Posting (outbox.c): the hot path is here, inline, so that the layers that
 * post once per put or request (bsp/) pay no call for it. */

/* Count `count` messages of `bytes` bytes in all, the largest of `largest`,
 * put in outbox o by the component posting now (s->src): what every post,
 * run and appended record records. */
static inline void bspram__sent_count(bspram__outbox *o, bspram__lane_sent *s, uint64_t count, uint64_t bytes,
                                      uint64_t largest)
{
    o->count += count;
    o->bytes += bytes;
    s->src_count += count;
    s->src_bytes += bytes;
    if (largest > s->max_message)
        s->max_message = largest;
}

/* Append the entry (there is room: need = bspram__entry_size(len, extra))
 * and count it; returns where its payload goes. */
static inline void *bspram__post_entry(bspram__outbox *o, bspram__lane_sent *s, uint64_t src, uint64_t len,
                               uint64_t extra, size_t need)
{
    bspram__entry *e = (bspram__entry *)o->at;
    uint64_t counted = len + extra;
    o->at += need;
    e->src = (uint32_t)src;
    void *payload;
    if (len <= BSPRAM__ENTRY_SHORT_MAX && !extra) {
        e->len32 = (uint32_t)len;
        payload = e + 1;
    } else {
        bspram__entry_long *x = (bspram__entry_long *)e;
        e->len32 = BSPRAM__ENTRY_LONG;
        x->len = len;
        x->extra = extra;
        payload = x + 1;
    }
    bspram__sent_count(o, s, 1, counted, counted);
    return payload;
}

/* Everything else about a post, out of line (outbox.c): a bad destination or
 * size, a new source component, a long entry, a full window or chunk. */
void *bspram__router_post_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint64_t len,
                        uint64_t extra, const char *call);

/* The first short entry to dst in this superstep from the lane's current
 * source (outbox.c): what bspram__post found checked, without its checks
 * again — in a superstep of a few small messages (a collective's round)
 * every post is a first one. */
void *bspram__router_post_first(bspram_router *r, unsigned lane, bspram__outbox *o, uint64_t src, uint64_t dst,
                                uint64_t len, size_t need);

/* bspram__router_post (router.h). */
static inline void *bspram__post(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst,
                                 uint64_t len, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram__lane_sent *s = &ln->sent[par];
    size_t need = sizeof(bspram__entry) + (size_t)bspram__round8(len);
    bspram__outbox *o;
    /* A short entry (len < 2^31) that fits where the outbox's cursor is. */
    if (__builtin_expect(dst >= r->p || src != s->src || len > BSPRAM__ENTRY_SHORT_MAX, 0))
        return bspram__router_post_slow(r, lane, src, dst, len, 0, call);
    o = bspram__lane_outbox(ln, par, dst);
    if (__builtin_expect((size_t)(o->limit - o->at) < need, 0))
        return o->tail ? bspram__router_post_slow(r, lane, src, dst, len, 0, call)
                       : bspram__router_post_first(r, lane, o, src, dst, len, need);
    return bspram__post_entry(o, s, src, len, 0, need);
}

/* The record channel (bspram__router_reserve, router.h): room for count
 * records of size bytes from src to dst, one run entry. The hot path: the
 * same source as the last post, no window open over the outbox and room in
 * its chunk; counts, bytes and the largest message are updated once per run. */
void *bspram__router_reserve_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                                  uint64_t count, const char *call);

static inline void *bspram__reserve(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                                    uint64_t count, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram__lane_sent *s = &ln->sent[par];
    const uint64_t bytes = (uint64_t)size * count;
    const size_t need = sizeof(bspram__entry) + (size_t)bytes;
    bspram__outbox *o;
    if (__builtin_expect(dst >= r->p || src != s->src || count - 1 >= BSPRAM__RUN_MAX_COUNT ||
                         size - 8 > BSPRAM__RUN_MAX_SIZE - 8 || (size & 7), 0) ||
        (o = bspram__lane_outbox(ln, par, dst), __builtin_expect(o->line != NULL, 0)) ||
        __builtin_expect((size_t)(o->limit - o->at) < need, 0))
        return bspram__router_reserve_slow(r, lane, src, dst, size, count, call);
    bspram__entry *e = (bspram__entry *)o->at;
    o->at += need;
    e->src = (uint32_t)src;
    e->len32 = bspram__run_len32(size, (uint32_t)count);
    bspram__sent_count(o, s, count, bytes, size);
    return e + 1;
}

/* bspram__router_append (router.h): one record of size bytes from src to
 * dst, at the end of the lane's open run for dst if that run is still the
 * outbox's last entry (bspram__open_run), else in a new run
 * (bspram__router_append_slow). The hot path is a post's work without the
 * entry header: the run's count goes up by one. */
void *bspram__router_append_slow(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, uint32_t size,
                                 const char *call);

static inline __attribute__((always_inline)) void *bspram__append(bspram_router *r, unsigned lane, uint64_t src,
                                                                  uint64_t dst, uint32_t size, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    bspram__lane_sent *s = &ln->sent[ln->step & 1];
    const bspram__open_run *u = &ln->open[dst % BSPRAM__OPEN_RUNS];
    if (__builtin_expect(u->dst == dst && src == s->src, 1)) {
        bspram__entry *e = u->run;
        bspram__outbox *o = u->o;
        const uint32_t len32 = e->len32, count = len32 & BSPRAM__RUN_MAX_COUNT;
        char *end = (char *)(e + 1) + (size_t)size * count;
        /* The run is dst's last entry, of src, of this size, and not full;
         * and the chunk has room (no window is open: a window's cursor is
         * never a chunk's address). */
        if (__builtin_expect(o->at == end && e->src == (uint32_t)src &&
                             (len32 ^ bspram__run_len32(size, 0)) < BSPRAM__RUN_MAX_COUNT &&
                             (size_t)(o->limit - end) >= size, 1)) {
            e->len32 = len32 + 1;
            o->at = end + size;
            bspram__sent_count(o, s, 1, size, size);
            return end;
        }
    }
    return bspram__router_append_slow(r, lane, src, dst, size, call);
}

/* bspram__router_reserve_runs (router.h): one run from src to each of
 * dst[0..n), count[dst[i]] records of size bytes, its room in cursor[dst[i]]
 * (count[dst[i]] becomes 0). The source's statistics are updated once; a
 * destination whose outbox has a window open or no room, or a bad value,
 * takes bspram__router_reserve_slow. */
static inline void bspram__reserve_runs(bspram_router *r, unsigned lane, uint64_t src, uint32_t size, size_t n,
                                        const uint32_t *dst, uint32_t *count, char **cursor, const char *call)
{
    bspram__lane *ln = &r->lane[lane];
    const unsigned par = (unsigned)(ln->step & 1);
    bspram__lane_sent *s = &ln->sent[par];
    size_t i = 0;
    /* The first run through the checks of the slow path when the source is
     * new or the size is not a record's: after it, only the destination and
     * the count are checked per run. */
    if (n && (src != s->src || size < 8 || size > BSPRAM__RUN_MAX_SIZE || (size & 7))) {
        cursor[dst[0]] = bspram__router_reserve_slow(r, lane, src, dst[0], size, count[dst[0]], call);
        count[dst[0]] = 0;
        i = 1;
    }
    const uint64_t p = r->p;
    const uint32_t head = bspram__run_len32(size, 0);
    uint64_t total = 0;
    for (; i < n; i++) {
        const uint32_t d = dst[i];
        const uint64_t c = count[d];
        count[d] = 0;
        bspram__outbox *o;
        const size_t need = sizeof(bspram__entry) + (size_t)size * c;
        if (__builtin_expect(d >= p || c - 1 >= BSPRAM__RUN_MAX_COUNT, 0) ||
            (o = bspram__lane_outbox(ln, par, d), __builtin_expect(o->line != NULL, 0)) ||
            __builtin_expect((size_t)(o->limit - o->at) < need, 0)) {
            cursor[d] = bspram__router_reserve_slow(r, lane, src, d, size, c, call);
            continue;
        }
        bspram__entry *e = (bspram__entry *)o->at;
        o->at += need;
        o->count += c;
        o->bytes += (uint64_t)size * c;
        e->src = (uint32_t)src;
        e->len32 = head | (uint32_t)c;
        cursor[d] = (char *)(e + 1);
        total += c;
    }
    if (total) {
        s->src_count += total;
        s->src_bytes += total * size;
        if (size > s->max_message)
            s->max_message = size;
    }
}

/* The record channel by lane: a lane whose components' records need no
 * source at their receivers (combining's reductions, never answered) takes
 * their counts per component (bspram__router_account, in increasing
 * component order, as posting would) and reserves one run per destination
 * for all of them at once (bspram__router_reserve_lane), which does not
 * count them again. The runs carry the lane's last counted component as
 * their source. A lane's records then reach each destination in one run, in
 * component order, where a run per component would hold about one record
 * when the components are many (p = 4096: 256 records over 4096
 * destinations). Not while the router keeps the message pattern, which is
 * by source (bspram__router_lane_runs says whether the lane may). */
bool bspram__router_lane_runs(const bspram_router *r);
void bspram__router_account(bspram_router *r, unsigned lane, uint64_t src, uint64_t count, uint32_t size,
                            const char *call);
void bspram__router_reserve_lane(bspram_router *r, unsigned lane, uint32_t size, size_t n, const uint32_t *dst,
                                 uint32_t *count, char **cursor, const char *call);

/* bspram__router_send (router.h) without the checks of r and call, which its
 * callers inside the library need not make (bspram_send). */
void bspram__router_send_from(bspram_router *r, unsigned lane, uint64_t src, uint64_t dst, const void *data,
                  uint64_t len, const char *call);

/* What the exchange (exchange.c) and the router's end (host.c) ask of the
 * outboxes (outbox.c). */
/* Fold the lane's current component's counts into its maxima (s->src stays). */
static inline void bspram__router_close_src(bspram__lane_sent *s)
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
/* Entering the exchange: close lane ln's windows of parity par and record
 * how far each tail chunk was filled (fenced, for the lanes that read them). */
void bspram__router_outboxes_close(bspram__lane *ln, unsigned par);
/* Ready lane ln's storage of parity par for a new superstep (its messages
 * were read in the superstep that just ended). */
void bspram__router_reset_parity(bspram__lane *ln, unsigned par);
/* Free the blocks of arena a. */
void bspram__router_arena_free(bspram__arena *a);
/* Lane ln's free chunks (outbox.c takes them) by size class, four classes
 * an octave as in a general-purpose allocator: class c < 8 is (c + 1) lines,
 * then each octave [2^o, 2^(o+1)] lines (o >= 3) is cut in four steps of
 * 2^(o-2) lines. A chunk is carved at its class's size and a free chunk
 * files under the largest class it covers, so every chunk of class c holds
 * bspram__router_spare_size(c) bytes: one look at a list's head serves a
 * request (a class of raw log2 sizes mixed chunks from 32 to 58 KiB, a
 * 33 KiB request missed a list of thousands whose head was short, and new
 * chunks were carved every superstep). The last class keeps every chunk
 * above the one before it, sizes mixed (looked through on request). */
#define BSPRAM__SPARE_LAST (BSPRAM__SPARE_CLASSES - 1)

static inline uint64_t bspram__router_spare_size(unsigned c)
{
    if (c < 8)
        return (uint64_t)(c + 1) * BSPRAM__LINE;
    const unsigned o = 3 + (c - 8) / 4, s = (c - 8) % 4;
    return ((UINT64_C(1) << o) + ((uint64_t)(s + 1) << (o - 2))) * BSPRAM__LINE;
}

/* The least class whose chunks hold `bytes` (> 0). */
static inline unsigned bspram__router_spare_class(uint64_t bytes)
{
    const uint64_t u = (bytes + BSPRAM__LINE - 1) / BSPRAM__LINE;
    if (u <= 8)
        return u ? (unsigned)u - 1 : 0;
    const unsigned o = 63u - (unsigned)__builtin_clzll(u - 1);
    const unsigned c = 8 + (o - 3) * 4 + (unsigned)((u - 1 - (UINT64_C(1) << o)) >> (o - 2));
    return c < BSPRAM__SPARE_LAST ? c : BSPRAM__SPARE_LAST;
}

/* Inline: a released inbox gives a few chunks per sender, a component at a
 * time. */
static inline void bspram__router_spare_put(bspram__lane *ln, bspram__chunk *ch)
{
    unsigned k = bspram__router_spare_class(ch->cap);
    if (k < BSPRAM__SPARE_LAST && bspram__router_spare_size(k) > ch->cap)
        k--; /* a block's rest (chunk_carve), at any size */
    ch->next = ln->spare[k];
    ln->spare[k] = ch;
    ln->spare_classes |= UINT64_C(1) << k;
}

/* Give the chunks of the chain from head to lane ln's free chunks. */
static inline void bspram__router_chunks_spare(bspram__lane *ln, bspram__chunk *head)
{
    while (head) {
        bspram__chunk *next = head->next;
        bspram__router_spare_put(ln, head);
        head = next;
    }
}

/* The message pattern (pattern.c): lane ln's flows of parity par, from its
 * outboxes (before the barrier); lane 0 appends every lane's flows as the
 * pattern of record `record` (after it). */
void bspram__router_pattern_lane(bspram__lane *ln, unsigned par);
void bspram__router_pattern_record(bspram_router *r, unsigned par, size_t record, int delivered);
bspram_process_load *bspram__router_lane_loads(bspram__lane *ln, unsigned par);
void bspram__router_pattern_enter(bspram__lane *ln, unsigned par);

/* The lanes that posted to lane ln's block in the superstep of parity par,
 * in increasing order (sorted in place); returns their count. Lanes serve
 * increasing blocks of sources: visiting senders in lane order keeps every
 * inbox in (source, issue) order. They registered in any order; one alone
 * (a small superstep's usual case) needs no sorting, and up to four (a
 * collective's round at P ≤ 5) no call. */
void bspram__router_senders_sort(uint32_t *list, unsigned k);

/* Lane `lane` joins the list of the lanes that posted to lane `to`'s block in
 * the superstep of parity par: once per superstep (outbox.c keeps the bits),
 * at its first post there, or at the exchange where the transport's seal
 * decides (r->mail). The list is read after the exchange's barrier. */
static inline void bspram__router_register_sender(bspram__lane *to, unsigned par, uint32_t lane)
{
    unsigned k = atomic_fetch_add_explicit(&to->n_senders[par], 1, memory_order_relaxed);
    *(par ? to->senders + k : to->senders - 1 - k) = lane;
}
static inline unsigned bspram__router_lane_senders(bspram__lane *ln, unsigned par, const uint32_t **senders)
{
    unsigned k = atomic_load_explicit(&ln->n_senders[par], memory_order_relaxed);
    uint32_t *list = par ? ln->senders : ln->senders - k;
    if (k > 4) {
        bspram__router_senders_sort(list, k);
    } else { /* a small collective's round: a few senders, sorted here without a call */
        for (unsigned i = 1; i < k; i++) {
            const uint32_t x = list[i];
            unsigned j = i;
            for (; j > 0 && list[j - 1] > x; j--)
                list[j] = list[j - 1];
            list[j] = x;
        }
    }
    *senders = list;
    return k;
}

/* Make room for n run descriptors in lane ln (contents not kept). */
void bspram__router_lane_runs_reserve(bspram__lane *ln, uint64_t n);

/* Make room for n inbox headers in lane ln (contents not kept). */
void bspram__router_lane_inbox_reserve(bspram__lane *ln, uint64_t n);

/* For a transport that counted, for each destination i of lane ln's block,
 * count[i] messages of bytes[i] bytes (what the records count) in the
 * superstep of parity par: the inbox offsets (in_off; count[i] becomes
 * inbox i's first slot, the cursor to fill it), r and h of that parity, and
 * room for the headers. bytes may be ln->in_off itself. */
void bspram__router_lane_inbox_layout(bspram__lane *ln, unsigned par, uint64_t *count, const uint64_t *bytes);

#endif
