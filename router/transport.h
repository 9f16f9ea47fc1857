/* bspram — the transport seam: what the router asks of whatever moves its
 * messages between lanes. Internal (not installed).
 *
 * The router (outbox.c, exchange.c, inbox.c, host.c) owns posting, the
 * outboxes, the inbox arrays and the records; a transport owns everything
 * that crosses between lanes. It is the
 * set of operations a distributed transport (one lane team spread over MPI
 * ranks) has to provide, so nothing in the router assumes one address space:
 *
 *   allreduce   the superstep barrier: every lane brings a tag and leaves with
 *               the OR of all tags; with statistics, lane 0 also leaves with
 *               their reduction (sums and maxima, bspram__stats_fold) — the
 *               router's records are built from it, never by reading other
 *               lanes' state.
 *   deliver     after an allreduce whose OR says some lane posted: build the
 *               inboxes of the lane's own block from every lane's outboxes, in
 *               (source component, issue) order, and set the lane's receive
 *               statistics (r and h_in of this parity) — or, where nothing
 *               came to the block, clear the lane's `delivered`: its
 *               inboxes are empty and it brings no receive statistics.
 *   build       optional: deliver may leave an inbox's headers to be written
 *               when the inbox is first read (the lane's `lazy`); this writes
 *               them.
 *   build_runs  optional, with build: the same inbox as runs (the lane's
 *               runs at in_off, n_runs); without it the router makes the
 *               runs from the built messages.
 *   read        one-sided read of n bytes of another lane's memory (what
 *               bsp_direct_get needs; an MPI transport would use MPI_Get).
 *               NULL when the transport cannot.
 *   abort       end every lane of the job at once with a status, after the
 *               error line is printed (a fatal error on any lane).
 *   shares_memory  receivers may use senders' virtual addresses: messages that
 *               carry an address of the receiver (BSPlib puts), or a reference
 *               to the sender's memory (an unbuffered bsp_hpput), are only
 *               legal on such a transport; the layers above ask before they
 *               take those shortcuts.
 *
 * Two transports exist: "shm" (shm_transport.c, the default: receivers read
 * payloads in the sending lane's storage, one barrier per superstep) and "staged"
 * (staged_transport.c, for tests: every payload is copied through staging
 * buffers, statistics are reduced by message under a lock, the barrier is a
 * mutex and a condition variable, and it says it shares no memory). The whole
 * test suite runs on both (BSPRAM_TRANSPORT, base/environment.h).
 */
#ifndef BSPRAM_ROUTER_TRANSPORT_H
#define BSPRAM_ROUTER_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct bspram_router bspram_router;

/* One lane's contribution to a superstep's record, and (after allreduce) the
 * reduction over all lanes. */
typedef struct bspram__stats {
    uint64_t messages, bytes;   /* sums: what was posted this superstep */
    uint64_t q, h_out;          /* maxima over components: messages and bytes sent */
    uint64_t max_message, work; /* maxima: largest message, declared work */
    uint64_t r, h_in;           /* maxima: received in the *previous* superstep */
} bspram__stats;

/* acc ← the reduction of acc and x. */
static inline void bspram__stats_fold(bspram__stats *acc, const bspram__stats *x)
{
    acc->messages += x->messages;
    acc->bytes += x->bytes;
#define BSPRAM__MAX(f) if (x->f > acc->f) acc->f = x->f
    BSPRAM__MAX(q); BSPRAM__MAX(h_out); BSPRAM__MAX(max_message);
    BSPRAM__MAX(work); BSPRAM__MAX(r); BSPRAM__MAX(h_in);
#undef BSPRAM__MAX
}

/* A tag bit the router sets when the lane brings non-zero statistics; a
 * transport may skip the statistics reduction when no lane set it (an empty
 * superstep then costs the barrier alone). */
#define BSPRAM__TAG_STATS 0x20000000u
/* The tag bit of a lane that posted messages in this exchange (the router's
 * own bit, ORed into the result): a transport may pack them before the
 * allreduce, which never carries it in a barrier. */
#define BSPRAM__TAG_POSTED 0x80000000u

/* The most lanes for which a transport's seal is used. */
#define BSPRAM__MAIL_LANES 16u

typedef struct bspram__transport {
    const char *name;
    bool shares_memory;
    /* Per-router state for `lanes` lanes (NULL allowed); freed by close.
     * Sets [*lo, *hi) to the lanes this process runs (it finds [0, lanes)
     * there; a distributed transport gives each process a block). */
    void *(*open)(unsigned lanes, unsigned *lo, unsigned *hi);
    void (*close)(void *state);
    /* Collective over all lanes. stats may be NULL on every lane (a plain
     * barrier) or on none. Returns the OR of the tags; on lane 0, *stats is
     * the reduction of every lane's *stats if some tag had BSPRAM__TAG_STATS
     * (otherwise it is left as lane 0 brought it). Every write a lane made
     * before calling happens-before every read any lane makes after return.
     * On the process's first lane (r->lane_lo) it calls bspram__router_waiting(r)
     * once: in a barrier's wait, when no other lane waits for this one any
     * more (shm; MPI among a rank's lanes), else just before it waits. */
    unsigned (*allreduce)(bspram_router *r, unsigned lane, unsigned tag, bspram__stats *stats);
    /* Optional: a transport that carries small outboxes itself ("mail").
     * Where every lane serves one component and there are at most
     * BSPRAM__MAIL_LANES lanes, the router then registers no sender when it
     * posts (router_internal.h, r->mail); instead, at the exchange, before
     * its allreduce, each lane that posted calls seal, which carries each of
     * the lane's outboxes of parity par or registers the lane with the
     * destination's lane, for deliver to find either way. */
    void (*seal)(bspram_router *r, unsigned lane, unsigned par);
    void (*deliver)(bspram_router *r, unsigned lane);
    /* After a delivery that set the lane's `lazy`: write the headers of
     * inbox i of the lane's block (router_internal.h). */
    void (*build)(bspram_router *r, unsigned lane, uint64_t i);
    /* Likewise, inbox i as runs (router.h, bspram__router_inbox_runs). */
    void (*build_runs)(bspram_router *r, unsigned lane, uint64_t i);
    /* Optional, with build: inbox i of the lane's block will not be read
     * again before the next exchange (bspram__router_inbox_release); its
     * storage may be posted into at once. */
    void (*release)(bspram_router *r, unsigned lane, uint64_t i);
    void (*read)(bspram_router *r, unsigned lane, unsigned from_lane, const void *remote,
                 void *local, size_t n);
    void (*abort)(int status);
    /* Optional, for a transport spread over processes: with the team stopped,
     * one thread of every process calls it at once; *stats becomes the
     * reduction of every process's *stats. */
    void (*fold)(void *state, bspram__stats *stats);
    /* Optional, likewise: on every process's first lane, between two
     * allreduces, `all` (lanes × n bytes) holds this process's lanes' parts;
     * fill in the other processes' (bspram__router_gather). */
    void (*gather)(void *state, void *all, size_t n);
    /* Optional, for a transport spread over processes: the host collectives
     * of router.h (bspram__router_merge, bspram__router_concat), with the team
     * stopped; op is a bspram_merge_op. */
    void (*merge)(void *state, uint64_t *words, size_t n, int op);
    void *(*concat)(void *state, const void *mine, size_t bytes, size_t *total);
    /* Optional: this process's number among the job's (its MPI rank), and
     * their count. */
    unsigned (*rank)(void);
    unsigned (*ranks)(void);
} bspram__transport;

extern const bspram__transport bspram__router_transport_shm;
extern const bspram__transport bspram__router_transport_staged;

/* The transport named `name` ("shm", "staged", or one registered), or NULL. */
const bspram__transport *bspram__router_transport_find(const char *name);

/* Add a transport (the MPI library's, from its constructor), which becomes
 * the default when BSPRAM_TRANSPORT is unset. */
void bspram__router_transport_register(const bspram__transport *t);

/* The registered transport's rank of this process and count of processes,
 * else 0 and 1. */
unsigned bspram__router_process_rank(void);
unsigned bspram__router_process_ranks(void);

#endif
