/* bspram — the router's state, shared by router.c and its transports.
 * Not installed: the layers above see only router.h. */
#ifndef BSPRAM_ROUTER_INTERNAL_H
#define BSPRAM_ROUTER_INTERNAL_H

#include <stdint.h>

#include "router/barrier_internal.h"
#include "router/router.h"

/* Storage of one lane for one superstep parity: blocks that are reused
 * from superstep to superstep and never move, so payload pointers stay
 * valid until the storage is reset two exchanges later. */
typedef struct bspram_arena_block {
    char *base;
    size_t cap, used;
} bspram_arena_block;

typedef struct bspram_arena {
    bspram_arena_block *blocks;
    size_t n, cap, cur;
} bspram_arena;

/* A piece of an outbox: entries (bspram_entry + payload, 8-byte aligned). */
typedef struct bspram_segment {
    struct bspram_segment *next;
    uint64_t cap, used;
} bspram_segment;

/* The header written before each payload in a segment. `extra` is what a
 * by-reference message moves besides its stored payload (bspram_router_post
 * _counted): the records count len + extra bytes. */
typedef struct bspram_entry {
    uint64_t len;
    uint32_t src;
    uint32_t extra;
} bspram_entry;

/* What one lane posted to one destination in one superstep: a chain of
 * segments in issue order. The write cursor lives here, not in the segment,
 * so that posting touches one cache line of bookkeeping (the tail's `used`
 * is set when the lane enters the exchange). `hint` remembers last time's
 * size, so that in a steady state one segment suffices. */
typedef struct bspram_outbox {
    char *at, *limit;                  /* free space of the tail segment */
    bspram_segment *head, *tail;
    uint64_t count;                    /* messages */
    uint64_t hint;                     /* bytes used last time, capped */
} bspram_outbox;

/* What one lane sent in the current superstep (final when it enters the
 * exchange). */
typedef struct bspram_lane_sent {
    uint64_t messages, bytes, max_message;
    uint64_t q, h_out, work;         /* maxima over this lane's closed components */
    uint64_t src;                    /* the component posting now, and its */
    uint64_t src_count, src_bytes, src_work; /* messages, bytes and work so far */
} bspram_lane_sent;

/* Everything indexed by superstep parity is written in one superstep and read
 * in the next (by other lanes), so the lane writes the other copy meanwhile. */
typedef struct bspram_lane {
    _Alignas(64) uint64_t first, end;  /* components [first, end) */
    uint64_t step;                     /* exchanges this lane has done */

    /* Posting side (written only by this lane's thread). */
    bspram_outbox *outbox[2];          /* [p] by destination */
    uint32_t *touched[2];              /* destinations with a non-empty outbox */
    size_t n_touched[2], cap_touched[2];
    bspram_arena arena[2];
    bspram_lane_sent sent[2];

    /* Receiving side: this lane builds the inboxes of its own block. */
    bspram_message *in;
    size_t cap_in;
    uint64_t *in_off;                  /* [end-first+1] offsets into in */
    uint64_t r[2];                     /* most messages received by one of ours */
    uint64_t h_in[2];                  /* most bytes received by one of ours */
    int delivered;                     /* the last exchange moved messages */
} bspram_lane;

/* The transport seam (DESIGN.md, decision 8): how the posted messages reach
 * their destinations' inboxes. Called by every lane after the barrier that
 * ends posting, when some lane posted something; on return, the inboxes of
 * the lane's own block are complete, with r[parity] and h_in[parity] set. */
typedef struct bspram_transport {
    const char *name;
    void (*deliver)(bspram_router *r, unsigned lane);
} bspram_transport;

extern const bspram_transport bspram_transport_shm;

struct bspram_router {
    uint64_t p;
    unsigned lanes;
    bspram_lane *lane;
    bspram_barrier barrier;
    const bspram_transport *transport;

    /* Written by lane 0 only. */
    bspram_log log;
    char label[BSPRAM_LABEL_LEN];
    int pending;            /* log's last record still needs r and h_in */
    double clock;           /* when the previous exchange ended */
};

#endif
