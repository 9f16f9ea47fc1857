/* BSPlib on the SPMD machine: the state shared by bsplib_*.c (not installed).
 *
 * One `bsplib_world` per BSP section (bsp_begin … bsp_end), one
 * `bsplib_proc` per process. A thread finds its process through the
 * thread-local `bspram__bsp_bsplib_current` (BSPlib's API has no handle argument; this is
 * the one global it forces).
 *
 * Message format on the router (every message's first 8 bytes are a word):
 *   word ≥ BSPLIB_KIND_LIMIT  a put (or a get's reply): the word is the
 *                             destination, the payload follows. On a
 *                             transport that shares memory the sender
 *                             resolves it to the receiver's address from the
 *                             registration table; otherwise it is a
 *                             registration reference (bsplib_ref: slot and
 *                             offset), resolved by the receiver.
 *   BSPLIB_KIND_SEND          BSMP: tag (padded to 8 bytes), then payload
 *   BSPLIB_KIND_GET           get request: remote source (address, or a
 *                             reference as above), local destination
 *                             address (returned as the reply's word), count
 *   BSPLIB_KIND_NOP           a 0-byte put or get reply (nothing to copy)
 *   word with bit 62 set      a window put (the collectives', coll/): bits
 *                             0..61 are a byte offset in the receiver's
 *                             collective window (bsplib_coll_window), which
 *                             the receiver resolves while landing; the
 *                             payload follows, as for a put
 *   BSPLIB_KIND_HPPUT         an unbuffered bsp_hpput of ≥ BSPLIB_HPPUT_BY_REFERENCE
 *                             bytes: destination address, source address,
 *                             byte count; the receiver copies straight from
 *                             the sender's memory at the sync, and the
 *                             message counts 8 + n bytes in the records,
 *                             like a bsp_put of n bytes (only on a transport
 *                             that shares memory; elsewhere an hpput is a put)
 * No user address is below 4096: Linux never maps page 0 (mmap_min_addr), and
 * a NULL registration has size 0, so its puts are 0-byte NOPs.
 * The encoders and the decoder at the end of this file are the only code that
 * reads or writes these words.
 */
#ifndef BSPRAM_BSP_BSPLIB_INTERNAL_H
#define BSPRAM_BSP_BSPLIB_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/grow.h"
#include "bsp/bsp.h"
#include "bsp/machine.h"
#include "router/router.h"

enum {
    BSPLIB_KIND_SEND = 0,
    BSPLIB_KIND_GET = 1,
    BSPLIB_KIND_NOP = 2,
    BSPLIB_KIND_HPPUT = 3,
    BSPLIB_KIND_LIMIT = 4096,
    /* What bsplib_decode calls a put: on the wire a put's word is its
     * destination, any value ≥ BSPLIB_KIND_LIMIT; no other kind is ≥ it. */
    BSPLIB_KIND_PUT = BSPLIB_KIND_LIMIT,
};

/* Exchange tag bits: what each process brings to the sync; the OR tells
 * everyone what anyone brought, at no cost beyond the barrier itself. */
enum {
    BSPLIB_TAG_SYNC = 1u << 0,    /* I am in bsp_sync */
    BSPLIB_TAG_END = 1u << 1,     /* I am in bsp_end */
    BSPLIB_TAG_GETS = 1u << 2,    /* I issued gets: a second exchange is needed */
    BSPLIB_TAG_REG = 1u << 3,     /* I pushed or popped registrations */
    BSPLIB_TAG_TAGSIZE = 1u << 4, /* I set the tag size */
    BSPLIB_TAG_HPPUT = 1u << 5,   /* I issued unbuffered hpputs: a barrier ends the
                                     sync after landing, so my sources stay intact
                                     until everyone has copied them */
    BSPLIB_TAG_SHM = 1u << 6,     /* I issued bsp_shm requests: a combining batch
                                     runs after landing (bspram__bsp_bsplib_shm.batch) */
    BSPLIB_TAG_SHM_CALLS = 1u << 7, /* I made collective bsp_shm calls (alloc, free,
                                       add_op, set_basis): pid 0 applies them
                                       (bspram__bsp_bsplib_shm.apply) between barriers */
    BSPLIB_TAG_COLL = 1u << 8,    /* I am in a round of a collective (coll/) */
    /* Bits 9..27 are the collectives' own (bspram__bsp_bsplib_coll_sync): the bsp layer
     * only carries them through the barrier's OR. */
    BSPLIB_TAG_COLL_BITS = 0x0FFFFE00u,
};

/* Largest P (threads are not free; this also keeps pids in 16 bits of logs). */
#define BSPLIB_MAX_P 65536u

#define BSPLIB_NO_SLOT SIZE_MAX

/* bsp_hpputs of at least this many bytes travel by reference (one copy, at
 * the sync) instead of being buffered (two copies); below it the extra
 * barrier would cost more than the copy saves. */
#define BSPLIB_HPPUT_BY_REFERENCE 4096

typedef struct bsplib_reg_entry { /* one process's part of a registration slot */
    char *addr;
    size_t size;
} bsplib_reg_entry;

typedef struct bsplib_reg_op { /* a push or pop, pending until the sync */
    const void *addr;
    size_t size;
    int push;
} bsplib_reg_op;

typedef struct bsplib_qentry { /* a received BSMP message */
    const unsigned char *tag;
    const unsigned char *payload;
    size_t len;
} bsplib_qentry;

typedef struct bsplib_world bsplib_world;

/* What each process brings to the agreements of a sync — registrations, the
 * tag size, the call it is in — gathered from every process through the
 * router (bsplib_sync.c, bspram__router_gather), so that the process that
 * checks and applies them (the first of its MPI rank; pid 0 on one machine)
 * reads no other process's memory. */
typedef struct bsplib_peer {
    uint64_t nops;            /* its bsp_push_reg / bsp_pop_reg calls this superstep */
    uint64_t tagsize_next;
    uint64_t tagsize_changed;
    char where[48];           /* the call it is in (a collective's label) */
} bsplib_peer;

/* ---- The extensions' state ----
 * The extensions built on BSPlib in the layers above (the collectives, coll/;
 * bsp_shm, combine/bsp_shm.c) keep their state in slots of the process and of
 * the section's world, one slot per extension, named here. The bsp layer
 * knows only the names, never the types: an extension makes its state at
 * its first use and sets it in its slot with the destructor that frees it
 * (bsplib_ext_set, bsplib_world_ext_set). bsp_end calls the destructors
 * (process lo of each rank, after the rank's other processes have stopped,
 * before the machine is destroyed): every process's slots first, then the
 * world's. A slot is NULL until its extension sets it. */
typedef enum bsplib_ext_id {
    BSPLIB_EXT_COLL, /* the collectives (coll/coll_internal.h, coll_state):
                        per process only */
    BSPLIB_EXT_SHM,  /* bsp_shm (combine/bsp_shm.c): per process (its requests
                        and calls) and per world (the space, the combiner) */
    BSPLIB_EXT_COUNT
} bsplib_ext_id;

typedef struct bsplib_ext_slot {
    void *state;
    void (*destroy)(void *state);
} bsplib_ext_slot;

typedef struct bsplib_proc {
    bsplib_world *world;
    bspram_component *self;
    bspram_router *router; /* the machine's router: puts post to it directly */
    unsigned pid, p;
    uint64_t superstep; /* bsp_syncs completed */

    /* registrations pushed/popped this superstep, in call order */
    bsplib_reg_op *ops;
    size_t nops, ops_cap;
    /* last registration found by address (reset when the table changes) */
    const void *cache_addr;
    size_t cache_slot;

    int has_gets; /* issued a get this superstep */
    int has_hpputs; /* issued an hpput by reference this superstep */
    unsigned shm_tag; /* BSPLIB_TAG_SHM*: what bsp_shm brings to the sync */
    bsplib_ext_slot ext[BSPLIB_EXT_COUNT]; /* the extensions' state of this
                                              process (its own) */

    /* BSMP */
    size_t tagsize;       /* for messages sent this superstep */
    size_t tagsize_next;  /* from the next superstep on */
    int tagsize_changed;
    size_t queue_tagsize; /* of the messages in the queue */
    bsplib_qentry *queue;
    size_t qlen, qpos, qcap, qbytes; /* qbytes: payload bytes not yet moved */
    unsigned char *qcopy;            /* in supersteps with gets: messages kept */
    size_t qcopy_cap;                /* out of the router until the replies land */
    bspram_message *kept;            /* their headers */
    size_t kept_cap;

    int queue_owned; /* the queue points into qcopy, not into the router */

    /* The collectives' supersteps (coll/): where window puts to this process
     * land in the current superstep, and the call this process is in (for
     * the error line when processes are in different calls: read by others
     * only after a barrier that every process meets in a collective round). */
    unsigned char *window;
    size_t window_size;
    size_t window_puts; /* window puts landed by the last superstep */
    const char *where;

    jmp_buf leave; /* processes 1..P−1 leave the SPMD function through it */

    /* Supersteps whose writes into this process's memory have all landed
     * (release); bsp_direct_get waits on it (acquire). Own cache line. */
    _Alignas(64) atomic_uint_fast64_t landed;
} bsplib_proc;

struct bsplib_world {
    /* The transport shares memory (router.h): puts may carry the receiver's
     * addresses, hpputs references to the sender's memory. */
    bool shared;
    bspram_machine *m;
    unsigned p;
    bsplib_proc *procs;       /* [p]; only [lo, hi) run here (all but over MPI) */
    unsigned lo, hi;          /* the processes of this MPI rank; lo keeps the tables */

    /* The agreements' gathered parts: peer[q] for process q, and its ops at
     * peer_ops[q · peer_stride …]. Written and read by process lo only. */
    bsplib_peer *peer;
    bsplib_reg_op *peer_ops;
    size_t peer_stride, peer_ops_cap;
    unsigned char *gathered;  /* bspram__bsp_bsplib_gather's buffer (process lo) */
    size_t gathered_cap;

    /* The registration table. Slot s holds col[q][s] for every process q;
     * alive[s] says whether it is registered. Written only by process lo
     * inside a sync, between two barriers; read by this rank's processes
     * during supersteps. Over MPI each rank keeps its own copy (addresses of
     * other ranks' processes only name their areas; their sizes bound puts). */
    bsplib_reg_entry **col;
    unsigned char *alive;
    size_t nslots, slots_cap;

    double t_begin;
    const char *label; /* the router's current label (pid 0 only) */
    char user_label[BSPRAM_LABEL_LEN]; /* bsp_label's, "" for "bsp_sync" (written by the
                                          rank's first process only) */
    uint64_t section;  /* 1 for the program's first section, 2 for the next, … */

    /* The extensions' state of the section on this rank (bsp_shm's: created
     * and changed by process lo only, inside a sync between barriers
     * (bspram__bsp_bsplib_shm.apply); read by everyone during supersteps). */
    bsplib_ext_slot ext[BSPLIB_EXT_COUNT];

    /* What the lead publishes to its rank's processes
     * (bspram__bsp_bsplib_publish): written by process lo only. */
    unsigned char *publication;
    size_t publication_cap;

    /* Start and stop of the team (bsplib_spmd.c). */
    void (*spmd)(void); /* what processes 1..P−1 run */
    int argc;
    char **argv;
    pthread_t driver;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bspram_component *comp0; /* lane 0's component, handed to pid 0 */
    int finished;            /* pid 0 has passed bsp_end */
    bool lo_bound;           /* process lo's thread was bound to its lane's place, */
    cpu_set_t lo_mask;       /* and had this mask before */
};

extern _Thread_local bsplib_proc *bspram__bsp_bsplib_current;

/* Whether the section's processes are spread over several MPI ranks (some
 * run elsewhere): the extensions that still read other processes' state
 * directly (bsp_shm, the collectives) refuse to run then. */
static inline bool bsplib_world_spread(const bsplib_world *w) { return w->lo != 0 || w->hi != w->p; }

/* The calling thread's process, or a fatal error naming `call` if it is
 * outside a BSP section. */
_Noreturn void bspram__bsp_bsplib_outside(const char *call);
static inline bsplib_proc *bsplib_me(const char *call)
{
    bsplib_proc *me = bspram__bsp_bsplib_current;
    if (__builtin_expect(me == NULL, 0))
        bspram__bsp_bsplib_outside(call);
    return me;
}

/* A fatal error, the one way every BSPlib misuse ends (bsp_abort's raw text
 * takes the same path, bsplib_spmd.c): one line, "bspram: <message>", with
 * " (superstep S, pid P)" appended when me is not NULL — NULL for what no
 * single process did (processes disagree, the program left a section open).
 * If several threads fail at once, only the first prints (base/error.h). */
_Noreturn void bspram__bsp_bsplib_fatal(const bsplib_proc *me, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* End the superstep: the protocol of bsp_sync / bsp_end (bsplib_sync.c).
 * kind is BSPLIB_TAG_SYNC or BSPLIB_TAG_END. */
void bspram__bsp_bsplib_superstep_end(bsplib_proc *me, unsigned kind);

/* ---- The collectives' supersteps (coll/ builds on these) ----
 * A collective runs its rounds as supersteps whose messages are window
 * puts: the receiver names, per superstep, the memory they land in (no
 * registration, so no extra barrier), and the sender names a byte offset in
 * it. On the router a window put is exactly a bsp_put: 8 + n bytes. */

/* Window puts to this process land in [base, base + size) at the end of the
 * current superstep (set before the process's bsp_sync). */
static inline void bsplib_coll_window(bsplib_proc *me, void *base, size_t size)
{
    me->window = (unsigned char *)base;
    me->window_size = size;
}

/* Put n bytes from src at byte `offset` of pid's window, at the end of this
 * superstep (src is copied now). `call` names the collective in errors. */
void bspram__bsp_bsplib_coll_put(bsplib_proc *me, unsigned pid, uint64_t offset, const void *src, size_t n,
                     const char *call);

/* The same put by reference where the processes share memory and n is at
 * least BSPLIB_HPPUT_BY_REFERENCE: the receiver copies from src at the sync,
 * as an unbuffered bsp_hpput does (one copy instead of two; the superstep
 * then ends with a barrier after landing). src must stay as it is until the
 * superstep ends, and no window of the superstep may cover it. The records
 * count the same bytes as a buffered put's. */
void bspram__bsp_bsplib_coll_put_ref(bsplib_proc *me, unsigned pid, uint64_t offset, const void *src, size_t n,
                                     const char *call);

/* End a superstep of a collective: a bsp_sync (its record labelled `label`)
 * whose tag carries `bits` (within BSPLIB_TAG_COLL_BITS) to every process;
 * returns the OR of all processes' bits, which check(arg, OR) sees first,
 * right after the barrier and before anything lands (so a check of the
 * processes' agreement comes before any put sized by disagreeing
 * arguments). `first` is set on the call's first superstep, which ends the
 * caller's superstep and replaces the BSMP queue as bsp_sync does; later
 * ones keep the queue (copied out of the router). Every process must be in
 * a collective round: a process in bsp_sync or bsp_end is a fatal error
 * naming both processes and their calls. */
unsigned bspram__bsp_bsplib_coll_sync(bsplib_proc *me, const char *label, unsigned bits, int first,
                          void (*check)(void *arg, unsigned all), void *arg);

/* A barrier of all processes (no record) with the OR of their tags (within
 * BSPLIB_TAG_COLL_BITS): the collectives' error paths. */
unsigned bspram__bsp_bsplib_barrier(bsplib_proc *me, unsigned tag);

/* Collective: what only the rank's lead (process lo, which keeps the
 * router's log) can compute, published to the rank's processes. First the
 * log is completed (bspram__bsp_team_flush, itself a barrier: every process
 * has left its last exchange), then the lead runs make(lead, buf, arg) into
 * a buffer of n bytes, and after a barrier every process of the rank copies
 * it to out (no record). The buffer is the world's and only this function
 * writes it, after the first barrier of its next call, which every process
 * reaches after it has read: no barrier is needed after the copy.
 * bsp_coll_last_cost (coll/cost.c) and bsp_model_price (models/price_in_program.c). */
void bspram__bsp_bsplib_publish(bsplib_proc *me, void *out, size_t n,
                                void (*make)(bsplib_proc *lead, void *buf, void *arg), void *arg);

/* The state of extension `id` of this process or of its section (see "The
 * extensions' state"), or NULL before its extension sets it. */
static inline void *bsplib_ext(const bsplib_proc *me, bsplib_ext_id id) { return me->ext[id].state; }
static inline void *bsplib_world_ext(const bsplib_world *w, bsplib_ext_id id)
{
    return w->ext[id].state;
}

/* Set the slot (empty until now) to state, which destroy(state) frees at
 * bsp_end. */
static inline void bsplib_ext_set(bsplib_proc *me, bsplib_ext_id id, void *state,
                                  void (*destroy)(void *state))
{
    me->ext[id] = (bsplib_ext_slot){state, destroy};
}
static inline void bsplib_world_ext_set(bsplib_world *w, bsplib_ext_id id, void *state,
                                        void (*destroy)(void *state))
{
    w->ext[id] = (bsplib_ext_slot){state, destroy};
}

/* Apply every process's pending registration ops (process lo, inside a
 * sync, after the agreement's gather: w->peer, w->peer_ops). */
void bspram__bsp_bsplib_registrations_apply(bsplib_world *w, uint64_t superstep);

/* Collective: every process brings n bytes (the same n everywhere); process
 * lo of each rank receives all processes' bytes, pid by pid (p × n bytes, in
 * a buffer of the world valid until the next call), which this returns there;
 * NULL on the other processes. No record: two barriers (bspram__router_gather).
 * For the agreements and error lines of the extensions. */
const void *bspram__bsp_bsplib_gather(bsplib_proc *me, const void *mine, size_t n);

/* A fatal error that every process finds alike (processes disagree): only
 * pid 0's rank prints it and ends the job; other ranks wait for that end. */
_Noreturn void bspram__bsp_bsplib_fatal_agreed(const bsplib_world *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* BSPlib spread over MPI ranks: installed by the MPI library
 * (bsp/bsplib_mpi.c, a constructor before main); all NULL in the
 * shared-memory library, where the job is one process.
 *   ranks     the job's processes (MPI ranks)
 *   rank      this one's
 *   announce  rank 0: a section of P BSP processes begins, whose processes
 *             run spmd from its start (NULL: main, shape (b)); the other
 *             ranks are waiting in await. BSPLIB_ANNOUNCE_SERVE (first,
 *             from bsp_init or bsp_begin): they have begun to wait — at
 *             exit, announce the end (an await that returns 0)
 *   await     ranks ≠ 0: the next announcement's P, and its spmd (the same
 *             function in this rank's address space) */
#define BSPLIB_ANNOUNCE_SERVE UINT32_MAX /* announce: the other ranks serve from now on */
typedef struct bsplib_spread_hooks {
    unsigned (*ranks)(void);
    unsigned (*rank)(void);
    void (*announce)(unsigned P, void (*spmd)(void));
    unsigned (*await)(void (**spmd)(void));
} bsplib_spread_hooks;
extern bsplib_spread_hooks bspram__bsp_bsplib_spread;

/* The slot of this process's newest live registration of addr, or
 * BSPLIB_NO_SLOT. */
size_t bspram__bsp_bsplib_reg_search(bsplib_proc *me, const void *addr);

/* The registration slot of this process's address `addr`, or BSPLIB_NO_SLOT:
 * the last one found is cached (most programs put to one area at a time). */
static inline size_t bsplib_reg_find(bsplib_proc *me, const void *addr)
{
    if (__builtin_expect(me->cache_slot != BSPLIB_NO_SLOT && me->cache_addr == addr, 1))
        return me->cache_slot;
    return bspram__bsp_bsplib_reg_search(me, addr);
}

void bspram__bsp_bsplib_world_free_tables(bsplib_world *w);

/* The bsp_shm extension (combine/bsp_shm.h) hooks into the sync here: the
 * bsp layer may not include the combining engine, so combine/bsp_shm.c
 * installs these (an ELF constructor, before main; never changed after).
 * All NULL in a program that does not use bsp_shm — and then no process
 * ever sets a BSPLIB_TAG_SHM* bit.
 *   batch  every process, in every sync where some process has the
 *          BSPLIB_TAG_SHM bit, after the superstep's puts and get replies
 *          have landed (the router holds nothing the process still needs:
 *          its BSMP messages are kept): runs the superstep's requests as one
 *          combining batch, as supersteps of the machine's team, and writes
 *          the answers to the callers' buffers;
 *   gather every process, in every sync where some process has
 *          BSPLIB_TAG_SHM_CALLS, after the batch: the collective calls of
 *          every process reach process lo of each rank (bspram__bsp_bsplib_gather);
 *   apply  process lo of each rank (pid 0 on one machine), right after, while
 *          the others wait at a barrier: checks that the collective calls
 *          agree and applies them (allocations, frees, operations, the
 *          basis) to its rank's copy of the extension's state.
 * bsp_end frees the extension's state through its slots' destructors
 * (BSPLIB_EXT_SHM, "The extensions' state"). */
typedef struct bsplib_shm_hooks {
    void (*batch)(bsplib_proc *me);
    void (*gather)(bsplib_proc *me);
    void (*apply)(bsplib_world *w, uint64_t superstep);
} bsplib_shm_hooks;
extern bsplib_shm_hooks bspram__bsp_bsplib_shm;

/* ---- The wire format (top of this file) ----
 * Senders size a message with the lengths below and fill the buffer the
 * router hands out with bsplib_encode_*; the sync reads it with
 * bsplib_decode. All inline: bsp_put's encoding is its hot path. */

/* A registration reference, the destination of puts and the source of gets
 * on a transport that shares no memory: bit 63 set (no user-space address
 * has it: x86-64 and AArch64 user addresses are below 2^48), the slot in bits
 * 40–62, the byte offset in bits 0–39. The receiver resolves it with its own
 * column of the registration table (bsplib_resolve). */
#define BSPLIB_REF_BIT (UINT64_C(1) << 63)
#define BSPLIB_REF_OFFSET_BITS 40
#define BSPLIB_REF_MAX_SLOTS (UINT64_C(1) << (63 - BSPLIB_REF_OFFSET_BITS))

static inline const void *bsplib_ref(size_t slot, uint64_t offset)
{
    return (const void *)(uintptr_t)(BSPLIB_REF_BIT | (uint64_t)slot << BSPLIB_REF_OFFSET_BITS |
                                     offset);
}

/* The address a put's destination or a get's source names in this process. */
#define BSPLIB_WINDOW_BIT (UINT64_C(1) << 62)

static inline const void *bsplib_window_ref(uint64_t offset)
{
    return (const void *)(uintptr_t)(BSPLIB_WINDOW_BIT | offset);
}

/* A window put of pid `from` past the end of this process's window: the two
 * passed the collective different arguments (bsplib_coll.c). */
_Noreturn void bspram__bsp_bsplib_window_overrun(const bsplib_proc *me, unsigned from, uint64_t offset,
                                     uint64_t len);

/* The address a put's destination or a get's source names in this process
 * (len bytes there: a window put beyond the window is fatal); `from` is the
 * pid whose message names it. */
static inline void *bsplib_resolve(const bsplib_proc *me, unsigned from, const void *where,
                                   uint64_t len)
{
    uint64_t w = (uint64_t)(uintptr_t)where;
    if (__builtin_expect(!(w >> 62), 1))
        return (void *)(uintptr_t)where;
    if (!(w & BSPLIB_REF_BIT)) {
        uint64_t offset = w & ~BSPLIB_WINDOW_BIT;
        if (offset > me->window_size || len > me->window_size - offset)
            bspram__bsp_bsplib_window_overrun(me, from, offset, len);
        return me->window + offset;
    }
    uint64_t slot = (w & ~BSPLIB_REF_BIT) >> BSPLIB_REF_OFFSET_BITS;
    uint64_t offset = w & ((UINT64_C(1) << BSPLIB_REF_OFFSET_BITS) - 1);
    return me->world->col[me->pid][slot].addr + offset;
}

/* The largest size of a message body or a tag: the router's largest message
 * (router.h), far above any memory and low enough that a message's length
 * (8 + tag + body) cannot wrap around; a size above it is a negative number
 * passed as a size. */
#define BSPLIB_MAX_BYTES BSPRAM_MAX_MESSAGE

/* A get request or a by-reference hpput: the kind word and three words. */
#define BSPLIB_REQUEST_LEN 32

/* Bytes of a put (or get reply) of nbytes: the destination word, then them. */
static inline uint64_t bsplib_put_len(uint64_t nbytes) { return 8 + nbytes; }

/* The largest put that is a record of the router's channel (router.h,
 * bspram__router_append): its word and its bytes fill at most a record of
 * 512 bytes. Puts of a multiple of 8 bytes up to it are records; the
 * receiver reads them as the messages they are. */
#define BSPLIB_RECORD_MAX 504u

/* The tag's share of a send: padded, so the payload stays 8-byte aligned
 * (the router's payloads are), as bsp_hpmove's callers may expect. */
static inline size_t bsplib_tagpad(size_t tagsize) { return (size_t)bspram__round8(tagsize); }

static inline uint64_t bsplib_send_len(size_t tagsize, uint64_t nbytes)
{
    return 8 + bsplib_tagpad(tagsize) + nbytes;
}

/* A put of nbytes from src to the receiver's address dst, into out
 * (bsplib_put_len(nbytes) bytes). A get's reply is such a put. */
static inline void bsplib_encode_put(unsigned char *out, const void *dst, const void *src,
                                     uint64_t nbytes)
{
    uint64_t word = nbytes ? (uint64_t)(uintptr_t)dst : BSPLIB_KIND_NOP;
    memcpy(out, &word, 8);
    if (nbytes == 8) /* a word: the common case of fine-grained puts, inlined */
        memcpy(out + 8, src, 8);
    else if (nbytes)
        memcpy(out + 8, src, nbytes);
}

static inline void bsplib_encode_request(unsigned char *out, uint64_t kind, const void *a,
                                         const void *b, uint64_t nbytes)
{
    uint64_t msg[4] = {kind, (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b, nbytes};
    memcpy(out, msg, sizeof msg);
}

/* A request for nbytes at the receiver's address src, to be put back at the
 * sender's address dst (BSPLIB_REQUEST_LEN bytes). */
static inline void bsplib_encode_get(unsigned char *out, const void *src, void *dst,
                                     uint64_t nbytes)
{
    bsplib_encode_request(out, BSPLIB_KIND_GET, src, dst, nbytes);
}

/* An unbuffered put: the receiver copies nbytes from the sender's address src
 * to its own address dst at the sync (BSPLIB_REQUEST_LEN bytes). */
static inline void bsplib_encode_hpput(unsigned char *out, const void *dst, const void *src,
                                       uint64_t nbytes)
{
    bsplib_encode_request(out, BSPLIB_KIND_HPPUT, dst, src, nbytes);
}

/* A BSMP message (bsplib_send_len(tagsize, nbytes) bytes); the tag's padding
 * is left as it is: nobody reads it. */
static inline void bsplib_encode_send(unsigned char *out, const void *tag, size_t tagsize,
                                      const void *payload, uint64_t nbytes)
{
    uint64_t word = BSPLIB_KIND_SEND;
    memcpy(out, &word, 8);
    if (tagsize)
        memcpy(out + 8, tag, tagsize);
    if (nbytes)
        memcpy(out + 8 + bsplib_tagpad(tagsize), payload, nbytes);
}

/* A message as read back. Each kind fills what it carries:
 *   PUT    copy len bytes from src (in the message) to dst (here)
 *   HPPUT  copy len bytes from src (the sender's memory) to dst (here)
 *   GET    reply with the len bytes at src (here), to land at dst (there)
 *   SEND   src: the body, len bytes: the tag padded by bsplib_tagpad, then
 *          the payload (the tag size is the receiver's to know)
 *   NOP    nothing */
typedef struct bsplib_msg {
    unsigned kind; /* BSPLIB_KIND_* */
    void *dst;
    const void *src;
    uint64_t len;
} bsplib_msg;

static inline bsplib_msg bsplib_decode(const bspram_message *m)
{
    const unsigned char *d = (const unsigned char *)m->data;
    uint64_t word;
    memcpy(&word, d, 8);
    bsplib_msg r = {BSPLIB_KIND_PUT, (void *)(uintptr_t)word, d + 8, m->len - 8};
    if (word >= BSPLIB_KIND_LIMIT)
        return r;
    r.kind = (unsigned)word;
    r.dst = NULL;
    if (word == BSPLIB_KIND_GET || word == BSPLIB_KIND_HPPUT) {
        uint64_t w[3]; /* GET: source, destination, bytes; HPPUT: destination, source, bytes */
        memcpy(w, d + 8, sizeof w);
        int get = word == BSPLIB_KIND_GET;
        r.dst = (void *)(uintptr_t)(get ? w[1] : w[0]);
        r.src = (const void *)(uintptr_t)(get ? w[0] : w[1]);
        r.len = w[2];
    }
    return r;
}

#endif
