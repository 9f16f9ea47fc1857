/* bspram — the router's state, shared by router.c and its transports.
 * Not installed: the layers above see only router.h. */
#ifndef BSPRAM_ROUTER_INTERNAL_H
#define BSPRAM_ROUTER_INTERNAL_H

#include <stdint.h>

#include "router/router.h"

/* Payload storage of one lane for one superstep parity: blocks that are
 * reused from superstep to superstep and never move, so payload pointers
 * stay valid until the storage is reset two exchanges later. */
typedef struct bspram_arena_block {
    char *base;
    size_t cap, used;
} bspram_arena_block;

typedef struct bspram_arena {
    bspram_arena_block *blocks;
    size_t n, cap, cur;
} bspram_arena;

/* What one lane sent in the current superstep (final when it enters the
 * exchange). */
typedef struct bspram_lane_sent {
    uint64_t messages, bytes, max_message;
    uint64_t q, h_out, work;         /* maxima over this lane's closed components */
    uint64_t src;                    /* the component posting now, and its */
    uint64_t src_count, src_bytes, src_work; /* messages, bytes and work so far */
} bspram_lane_sent;

typedef struct bspram_lane {
    _Alignas(64) uint64_t first, end;  /* components [first, end) */
    uint64_t step;                     /* exchanges this lane has done */

    /* Posting side (written only by this lane's thread). */
    bspram_message *out;
    size_t n_out, cap_out;
    bspram_arena arena[2];             /* by superstep parity */
    /* By superstep parity: lane 0 reads every lane's statistics of this
     * exchange while the lanes already reset those of the next one. */
    bspram_lane_sent sent[2];
    /* count[d]: messages this lane posted to d in this superstep; during the
     * exchange the owner of d turns it into the slot where they go. */
    uintptr_t *count;

    /* Receiving side (written by this lane's thread during the exchange). */
    bspram_message *in;
    size_t cap_in;
    uint64_t *in_off;                  /* [end-first+1] offsets into in */
    uint64_t r;                        /* most messages received by one of ours */
    uint64_t h_in[2];                  /* most bytes received, by parity */
    int delivered;                     /* last exchange moved messages */
} bspram_lane;

/* The transport seam (DESIGN.md, decision 8): how the posted messages reach
 * their destinations' inboxes. Called by every lane after the barrier that
 * ends posting when some lane posted something; on return, every inbox of
 * the lane's block is complete and all lanes have synchronised. */
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
    int pending;            /* log's last record still needs its h_in */
    double clock;           /* when the previous exchange ended */
};

#endif
