/* BSPlib: the end of a superstep (bsp_sync and bsp_end) — how one BSPlib
 * superstep maps onto router exchanges (bsp.h, top; docs/bsplib.md).
 *
 *   1. Exchange "bsp_sync": puts, get requests and sends. Each process's tag
 *      says what it brings (bsplib_internal.h); the OR tells everyone, in the
 *      same barrier, whether a get round or a registration step follows, and
 *      whether some process is in bsp_end while another is in bsp_sync.
 *   2. If anyone has gets: each process serves the requests it received —
 *      reading its own memory *before* landing any put (BSPlib: gets see the
 *      values from before the superstep's puts) — and keeps its puts and
 *      BSMP messages (copied out of the router, which the next exchange
 *      recycles); exchange "bsp_sync:get" delivers the replies, which land
 *      first, then the kept puts (BSPlib: a get's result is written before
 *      any put's, so where both write the put wins).
 *      Otherwise each process just lands its puts and queues its messages,
 *      zero-copy: a payload stays valid until this process's next exchange
 *      ends, i.e. through the whole next superstep — what bsp_hpmove needs.
 *   3. If anyone issued bsp_shm requests (combine/bsp_shm.h): the
 *      superstep's DRMA is complete; every process runs one combining batch
 *      (bspram__bsp_bsplib_shm.batch: its phases are exchanges labelled
 *      "combine:forward:i" / "combine:reverse:j", which recycle the router's
 *      storage — so in step 2 such a superstep keeps its BSMP messages, as a
 *      superstep with gets does) and writes the answers to the callers'
 *      buffers.
 *   4. If anyone registered, set the tag size or made a collective bsp_shm
 *      call: pid 0 checks that the processes agree and updates the shared
 *      tables while the others wait in one barrier. Nobody reads the tables
 *      meanwhile: on a transport that shares memory puts and gets resolve
 *      addresses when issued; elsewhere receivers resolve registration
 *      references while landing, so a barrier first waits until everyone has
 *      landed (and, after a batch, until every owner has applied its
 *      updates, before pid 0 frees or allocates segments).
 *
 * Puts land in inbox order — by source pid, then issue order (router.h) —
 * which is BSPlib's defined order for puts to the same place. Only a process
 * writes its own memory, so landing needs no synchronisation beyond the
 * exchange. Race-freedom of the next superstep: another process reads this
 * one's memory only through bsp_direct_get, which waits for `landed`.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/error.h"
#include "base/grow.h"
#include "bsp/bsplib_internal.h"
#include "bsp/machine_internal.h"
#include "router/router.h"

bsplib_shm_hooks bspram__bsp_bsplib_shm; /* installed by combine/bsp_shm.c, if linked */

/* Serve the get requests in the inbox: reply with the bytes as they are now. */
static void serve_gets(bsplib_proc *me, const bspram_message *in, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bsplib_msg m = bsplib_decode(&in[i]);
        if (m.kind != BSPLIB_KIND_GET)
            continue;
        bsplib_encode_put(bspram_send_buffer(me->self, in[i].src, bsplib_put_len(m.len)), m.dst,
                          bsplib_resolve(me, (unsigned)in[i].src, m.src, m.len), m.len);
    }
}

/* What land() does with an inbox: land its puts (and hpputs), queue its
 * BSMP messages, or both. */
enum { LAND_PUTS = 1, LAND_SENDS = 2, LAND_ALL = LAND_PUTS | LAND_SENDS };

/* A message that is not a plain put to an address of this process (a
 * window put, a reference, an hpput, a send, a get, a NOP): out of line, so
 * that the loop over plain puts below keeps everything in registers.
 * Returns whether it is a send. */
static __attribute__((noinline)) int land_other(bsplib_proc *me, const bspram_message *in,
                                                unsigned what)
{
    bsplib_msg m = bsplib_decode(in);
    if (!(what & LAND_PUTS))
        return m.kind == BSPLIB_KIND_SEND;
    if (m.kind == BSPLIB_KIND_PUT) {
        me->window_puts += ((uint64_t)(uintptr_t)m.dst >> 62) == 1;
        memcpy(bsplib_resolve(me, (unsigned)in->src, m.dst, m.len), m.src, m.len);
    } else if (m.kind == BSPLIB_KIND_HPPUT) { /* copy from the sender's memory (to an address, or
                                                 a collective's window) */
        me->window_puts += ((uint64_t)(uintptr_t)m.dst >> 62) == 1;
        memmove(bsplib_resolve(me, (unsigned)in->src, m.dst, m.len), m.src, m.len);
    }
    return m.kind == BSPLIB_KIND_SEND;
}

/* Land one message: a put to an address of this process, a window put, or
 * anything else through land_other. Returns whether it is a send. Most
 * messages of a fine-grained program are puts of one word to an address
 * (bsplib_internal.h: word ≥ BSPLIB_KIND_LIMIT, bits 62–63 clear), and most
 * of a collective's are puts to a window (bit 62): those land here from the
 * sender's buffer in the router, with the word copy inlined. */
static inline __attribute__((always_inline)) size_t land_message(bsplib_proc *me, const bspram_message *m,
                                                                  unsigned what)
{
    const unsigned char *d = (const unsigned char *)m->data;
    uint64_t word;
    memcpy(&word, d, 8);
    if ((what & LAND_PUTS) && word >= BSPLIB_KIND_LIMIT && !(word >> 62)) {
        if (m->len == 16) /* a word */
            memcpy((void *)(uintptr_t)word, d + 8, 8);
        else
            memcpy((void *)(uintptr_t)word, d + 8, (size_t)m->len - 8);
    } else if ((what & LAND_PUTS) && (word >> 62) == 1) { /* a window put: a collective's round */
        void *to = bsplib_resolve(me, (unsigned)m->src, (const void *)(uintptr_t)word, m->len - 8);
        me->window_puts++;
        if (m->len == 16) /* a word: an 8-byte collective's block */
            memcpy(to, d + 8, 8);
        else
            memcpy(to, d + 8, (size_t)m->len - 8);
    } else {
        return (size_t)land_other(me, m, what);
    }
    return 0;
}

/* Queue message m if it is a BSMP message (room made by the caller). */
static void queue_message(bsplib_proc *me, const bspram_message *m, size_t tagpad)
{
    bsplib_msg b = bsplib_decode(m);
    if (b.kind != BSPLIB_KIND_SEND)
        return;
    if (b.len < tagpad)
        bspram__bsp_bsplib_fatal(me, "bsp_sync: a message from pid %u is shorter than the tag size %zu "
                     "(internal error)", (unsigned)m->src, me->queue_tagsize);
    const unsigned char *src = b.src;
    bsplib_qentry *e = &me->queue[me->qlen++];
    e->tag = src;
    e->payload = src + tagpad;
    e->len = b.len - tagpad;
    me->qbytes += e->len;
}

/* Land the puts of the inbox in this process's memory and queue its BSMP
 * messages (zero-copy: they stay where they are until the next sync). */
static void land(bsplib_proc *me, const bspram_message *in, size_t n, unsigned what)
{
    if (!n)
        return;
    size_t nsend = 0;
    for (size_t i = 0; i < n; i++)
        nsend += land_message(me, &in[i], what);
    size_t tagpad = bsplib_tagpad(me->queue_tagsize);
    if (!nsend || !(what & LAND_SENDS))
        return;
    me->queue = bspram__grow(me->queue, &me->qcap, me->qlen + nsend, sizeof *me->queue, 16,
                             "bsp_sync: message queue");
    for (size_t i = 0; i < n; i++)
        queue_message(me, &in[i], tagpad);
}

/* land(…, LAND_ALL) over this process's inbox read as runs (router.h,
 * bspram__router_inbox_runs), in the same order: the runs of the router's
 * record channel — one-word puts are records of 16 bytes {where, word},
 * bsp_put — land record after record, with no message header built for
 * them; each record is the message it stands for. */
static inline __attribute__((always_inline)) void land_runs(bsplib_proc *me)
{
    const bspram__run *u;
    const size_t nr = bspram__bsp_inbox_runs(me->self, &u);
    size_t nsend = 0;
    for (size_t i = 0; i < nr; i++) {
        const unsigned char *d = (const unsigned char *)u[i].data;
        const uint64_t count = u[i].count;
        if (u[i].size == 16) {
            for (uint64_t k = 0; k < count; k++, d += 16) {
                uint64_t word;
                memcpy(&word, d, 8);
                if (word >= BSPLIB_KIND_LIMIT && !(word >> 62)) { /* a word to an address */
                    memcpy((void *)(uintptr_t)word, d + 8, 8);
                    continue;
                }
                if ((word >> 62) == 1) { /* a word to a window: an 8-byte collective's block */
                    memcpy(bsplib_resolve(me, u[i].src, (const void *)(uintptr_t)word, 8), d + 8, 8);
                    me->window_puts++;
                    continue;
                }
                const bspram_message m = {d, 16, u[i].src, (uint32_t)me->pid};
                nsend += land_message(me, &m, LAND_ALL);
            }
            continue;
        }
        for (uint64_t k = 0; k < count; k++, d += u[i].size) {
            const bspram_message m = {d, u[i].size, u[i].src, (uint32_t)me->pid};
            nsend += land_message(me, &m, LAND_ALL);
        }
    }
    if (!nsend)
        return;
    size_t tagpad = bsplib_tagpad(me->queue_tagsize);
    me->queue = bspram__grow(me->queue, &me->qcap, me->qlen + nsend, sizeof *me->queue, 16,
                             "bsp_sync: message queue");
    for (size_t i = 0; i < nr; i++)
        for (uint64_t k = 0; k < u[i].count; k++) {
            const bspram_message m = {(const char *)u[i].data + k * u[i].size, u[i].size, u[i].src,
                                      (uint32_t)me->pid};
            queue_message(me, &m, tagpad);
        }
}

/* In a superstep with gets, the get replies must land before the puts
 * (BSPlib: a get takes effect "before any data is written by any bsp_put"),
 * but they arrive with a second exchange, which recycles the first one's
 * messages. So the first inbox's puts, hpputs and sends are kept: copied out
 * of the router into 8-byte aligned slots of this process's own, with headers
 * pointing at them, and landed after the replies. Likewise in a superstep
 * with bsp_shm requests, whose combining phases are exchanges too: there the
 * puts land at once and only the sends are kept (sends_only). The copies live
 * until the next superstep that keeps (the queue of sends points into them,
 * and is emptied at the next sync before anything is kept again). */
static int kept_kind(unsigned kind, int sends_only)
{
    return sends_only ? kind == BSPLIB_KIND_SEND : kind != BSPLIB_KIND_GET;
}

static size_t keep(bsplib_proc *me, const bspram_message *in, size_t n, int sends_only)
{
    size_t k = 0, bytes = 0;
    for (size_t i = 0; i < n; i++)
        if (kept_kind(bsplib_decode(&in[i]).kind, sends_only)) {
            k++;
            bytes += (size_t)bspram__round8(in[i].len);
        }
    me->kept = bspram__grow(me->kept, &me->kept_cap, k, sizeof *me->kept, 16, "bsp_sync: gets");
    if (bytes > me->qcopy_cap) { /* replaced, not grown: the old copies are dead */
        free(me->qcopy);
        me->qcopy = bspram__base_malloc(bytes, "bsp_sync: gets");
        me->qcopy_cap = bytes;
    }
    unsigned char *buf = me->qcopy;
    k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!kept_kind(bsplib_decode(&in[i]).kind, sends_only))
            continue;
        memcpy(buf, in[i].data, (size_t)in[i].len);
        me->kept[k] = in[i];
        me->kept[k++].data = buf;
        buf += bspram__round8(in[i].len);
    }
    return k;
}

static void set_label(bsplib_proc *me, const char *label)
{
    /* The rank's first lane appends the records (router/exchange.c), so it may relabel
     * right before an exchange (router.h, bspram__router_set_label). */
    bsplib_world *w = me->world;
    if (me->pid == w->lo && w->label != label) {
        bspram__router_set_label(bspram__bsp_machine_router(w->m), label);
        w->label = label;
    }
}

const void *bspram__bsp_bsplib_gather(bsplib_proc *me, const void *mine, size_t n)
{
    bsplib_world *w = me->world;
    const bool lead = me->pid == w->lo;
    if (lead)
        w->gathered = bspram__grow(w->gathered, &w->gathered_cap, (size_t)w->p * n, 1, 4096,
                                   "bsp_sync (what the processes agree on)");
    bspram__router_gather(bspram__bsp_machine_router(w->m), me->pid, mine, n, lead ? w->gathered : NULL);
    return lead ? w->gathered : NULL;
}

/* The agreements of a sync: every process's part (bsplib_peer, then its
 * registration ops) reaches process lo of every rank (bspram__router_gather:
 * no record, on every transport alike). Collective: every process calls it. */
static void agree(bsplib_proc *me)
{
    bsplib_world *w = me->world;
    bspram_router *r = bspram__bsp_machine_router(w->m);
    const bool lead = me->pid == w->lo;
    bsplib_peer mine;
    memset(&mine, 0, sizeof mine);
    mine.nops = me->nops;
    mine.tagsize_next = me->tagsize_next;
    mine.tagsize_changed = (uint64_t)me->tagsize_changed;
    snprintf(mine.where, sizeof mine.where, "%s", me->where ? me->where : "");
    if (lead && !w->peer)
        w->peer = bspram__base_calloc(w->p, sizeof *w->peer, "bsp_sync");
    bspram__router_gather(r, me->pid, &mine, sizeof mine, lead ? w->peer : NULL);
    if (lead) { /* the ops' stride: the most any process made */
        w->peer_stride = 0;
        for (unsigned q = 0; q < w->p; q++)
            if (w->peer[q].nops > w->peer_stride)
                w->peer_stride = (size_t)w->peer[q].nops;
        w->peer_ops = bspram__grow(w->peer_ops, &w->peer_ops_cap, (size_t)w->p * w->peer_stride,
                                   sizeof *w->peer_ops, 16, "bsp_sync");
    }
    bspram__router_barrier(r, me->pid, 0); /* the stride is published on this rank */
    const size_t stride = w->peer_stride;
    if (!stride)
        return;
    me->ops = bspram__grow(me->ops, &me->ops_cap, stride, sizeof *me->ops, 8, "bsp_push_reg");
    memset(me->ops + me->nops, 0, (stride - me->nops) * sizeof *me->ops);
    bspram__router_gather(r, me->pid, me->ops, stride * sizeof *me->ops, lead ? w->peer_ops : NULL);
}

/* bsp_set_tagsize is collective: every process calls it in the same
 * superstep, with the same size. A process that does not call it would go on
 * parsing messages with the old size, so comparing the sizes alone misses a
 * partial call that repeats the size in force. */
static void check_tagsizes(bsplib_world *w, uint64_t superstep)
{
    const bsplib_peer *pr = w->peer;
    unsigned caller = w->p, other = w->p;
    for (unsigned q = 0; q < w->p && (caller == w->p || other == w->p); q++) {
        if (pr[q].tagsize_changed) {
            if (caller == w->p)
                caller = q;
        } else if (other == w->p) {
            other = q;
        }
    }
    if (caller < w->p && other < w->p)
        bspram__bsp_bsplib_fatal_agreed(w, "bsp_set_tagsize: called by pid %u but not by pid %u in superstep "
                     "%llu; all processes must call it in the same superstep", caller, other,
                     (unsigned long long)superstep);
    for (unsigned q = 1; q < w->p; q++)
        if (pr[q].tagsize_next != pr[0].tagsize_next)
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_set_tagsize: processes set different tag sizes in superstep "
                         "%llu: pid 0 has %llu, pid %u has %llu; all must set the same",
                         (unsigned long long)superstep, (unsigned long long)pr[0].tagsize_next, q,
                         (unsigned long long)pr[q].tagsize_next);
}

/* Copy the messages still in the queue out of the router, whose storage the
 * next exchange recycles (a collective's later rounds keep the queue). */
static void own_queue(bsplib_proc *me)
{
    if (me->queue_owned || me->qpos == me->qlen)
        return;
    size_t tagpad = bsplib_tagpad(me->queue_tagsize), bytes = 0;
    for (size_t i = me->qpos; i < me->qlen; i++)
        bytes += tagpad + (size_t)bspram__round8(me->queue[i].len);
    if (bytes > me->qcopy_cap) { /* the old copies are dead: the queue is not in them */
        free(me->qcopy);
        me->qcopy = bspram__base_malloc(bytes, "bsp_sync: message queue");
        me->qcopy_cap = bytes;
    }
    unsigned char *buf = me->qcopy;
    for (size_t i = me->qpos; i < me->qlen; i++) {
        bsplib_qentry *e = &me->queue[i];
        memcpy(buf, e->tag, tagpad);
        if (e->len)
            memcpy(buf + tagpad, e->payload, e->len);
        e->tag = buf;
        e->payload = buf + tagpad;
        buf += tagpad + (size_t)bspram__round8(e->len);
    }
    me->queue_owned = 1;
}

/* Processes in different calls at one barrier: one line naming two of them.
 * Every process computes the same pair (pid 0 and the lowest pid whose call
 * differs from pid 0's), so whichever prints first prints it. */
static _Noreturn void calls_differ(bsplib_proc *me, unsigned all)
{
    bsplib_world *w = me->world;
    if (!(all & BSPLIB_TAG_COLL)) {
        if (me->where == NULL || strcmp(me->where, "bsp_end") != 0)
            for (;;) /* the processes in bsp_end report it; wait for the exit */
                pause();
        bspram__bsp_bsplib_fatal(me, "bsp_end(): this process reached bsp_end while other processes are "
                     "in bsp_sync; all must sync equally often");
    }
    agree(me);
    if (me->pid != w->lo) /* process lo of each rank reads the calls */
        for (;;)
            pause();
    const char *first = w->peer[0].where;
    unsigned q = 1;
    while (q < w->p && strcmp(w->peer[q].where, first) == 0)
        q++;
    if (q == w->p) /* cannot happen: the kinds differ */
        q = 1;
    bspram__bsp_bsplib_fatal_agreed(w, "%s: pid 0 is in %s while pid %u is in %s (superstep %llu); every "
                        "process must make the same collective calls in the same order", first,
                        first, q, w->peer[q].where, (unsigned long long)me->superstep);
}

/* The protocol of every superstep's end; `label` is the call (for errors)
 * and names the records unless `record` does. Inline in its two callers
 * (bsp_sync's and a collective's round), each with its constants folded:
 * a call and its eight arguments were a tenth of an 8-byte collective's
 * instructions in the bsp layer. */
static inline __attribute__((always_inline)) unsigned superstep(bsplib_proc *me, unsigned kind, const char *label, const char *record,
                          unsigned bits, int keep_queue, void (*check)(void *, unsigned), void *arg)
{
    bsplib_world *w = me->world;
    unsigned tag = kind | bits | (me->has_gets ? BSPLIB_TAG_GETS : 0) |
                   (me->nops ? BSPLIB_TAG_REG : 0) | (me->has_hpputs ? BSPLIB_TAG_HPPUT : 0) |
                   (me->tagsize_changed ? BSPLIB_TAG_TAGSIZE : 0) | me->shm_tag;
    me->shm_tag = 0;
    me->where = label;
    if (keep_queue)
        own_queue(me);
    set_label(me, record ? record : label);
    unsigned all = bspram__bsp_sync(me->self, tag);
    unsigned kinds = all & (BSPLIB_TAG_SYNC | BSPLIB_TAG_END | BSPLIB_TAG_COLL);
    if (kinds & (kinds - 1))
        calls_differ(me, all);
    if (check)
        check(arg, all & BSPLIB_TAG_COLL_BITS);

    me->window_puts = 0;
    if (!keep_queue) { /* the queue of the last superstep is gone; this one's starts empty */
        me->qlen = me->qpos = 0;
        me->qbytes = 0;
        me->queue_tagsize = me->tagsize;
        me->queue_owned = 0;
    }

    const bspram_message *in;
    size_t n;
    if (all & BSPLIB_TAG_GETS) {
        n = bspram_inbox(me->self, &in);
        serve_gets(me, in, n);
        size_t k = keep(me, in, n, 0);
        set_label(me, "bsp_sync:get");
        bspram__bsp_sync(me->self, 0);
        n = bspram_inbox(me->self, &in);
        land(me, in, n, LAND_ALL);       /* the replies first, */
        land(me, me->kept, k, LAND_ALL); /* then the puts: where both write, the put wins */
        me->queue_owned = 1;
    } else if (all & BSPLIB_TAG_SHM) {
        /* The combining phases below recycle the inbox: land the puts now,
         * queue the sends from copies. */
        n = bspram_inbox(me->self, &in);
        land(me, in, n, LAND_PUTS);
        size_t k = keep(me, in, n, 1);
        land(me, me->kept, k, LAND_SENDS);
        me->queue_owned = 1;
    } else {
        land_runs(me);
    }
    me->has_gets = 0;
    me->has_hpputs = 0;
    /* Wait until everyone has landed when landing reads what may change next:
     * the sources of unbuffered hpputs, or (on a transport without shared
     * memory, where puts name registration slots) the registration table. */
    if ((all & BSPLIB_TAG_HPPUT) || (!w->shared && (all & BSPLIB_TAG_REG)))
        bspram__router_barrier(bspram__bsp_machine_router(w->m), me->pid, 0);

    /* bsp_shm requests: one combining batch, its phases exchanges of this
     * sync (every process takes part, with or without requests of its own). */
    if (all & BSPLIB_TAG_SHM) {
        bspram__bsp_bsplib_shm.batch(me);
        /* The batch's last step (owners applying updates) is no exchange:
         * wait for it before pid 0 frees or allocates segments. */
        if (all & BSPLIB_TAG_SHM_CALLS)
            bspram__router_barrier(bspram__bsp_machine_router(w->m), me->pid, 0);
    }

    if (all & (BSPLIB_TAG_REG | BSPLIB_TAG_TAGSIZE | BSPLIB_TAG_SHM_CALLS)) {
        if (all & (BSPLIB_TAG_REG | BSPLIB_TAG_TAGSIZE))
            agree(me);
        if (all & BSPLIB_TAG_SHM_CALLS)
            bspram__bsp_bsplib_shm.gather(me);
        if (me->pid == w->lo) {
            if (all & BSPLIB_TAG_TAGSIZE)
                check_tagsizes(w, me->superstep);
            if (all & BSPLIB_TAG_REG)
                bspram__bsp_bsplib_registrations_apply(w, me->superstep);
            if (all & BSPLIB_TAG_SHM_CALLS)
                bspram__bsp_bsplib_shm.apply(w, me->superstep);
        }
        bspram__router_barrier(bspram__bsp_machine_router(w->m), me->pid, 0);
        me->nops = 0;
        me->cache_addr = NULL;
        me->cache_slot = BSPLIB_NO_SLOT;
    }
    me->tagsize = me->tagsize_next;
    me->tagsize_changed = 0;
    me->superstep++;
    atomic_store_explicit(&me->landed, me->superstep, memory_order_release);
    return all & BSPLIB_TAG_COLL_BITS;
}

void bspram__bsp_bsplib_superstep_end(bsplib_proc *me, unsigned kind)
{
    /* bsp_label's name, read by the one process that writes it (the rank's
     * first, which labels the records). */
    const bsplib_world *w = me->world;
    const char *user = me->pid == w->lo && *w->user_label ? w->user_label : NULL;
    superstep(me, kind, kind == BSPLIB_TAG_END ? "bsp_end" : "bsp_sync",
              kind == BSPLIB_TAG_END ? NULL : user, 0, 0, NULL, NULL);
}

unsigned bspram__bsp_bsplib_coll_sync(bsplib_proc *me, const char *label, unsigned bits, int first,
                          void (*check)(void *arg, unsigned all), void *arg)
{
    return superstep(me, BSPLIB_TAG_COLL, label, NULL, bits & BSPLIB_TAG_COLL_BITS, !first, check, arg);
}

unsigned bspram__bsp_bsplib_barrier(bsplib_proc *me, unsigned tag)
{
    return bspram__router_barrier(bspram__bsp_machine_router(me->world->m), me->pid,
                                 tag & BSPLIB_TAG_COLL_BITS) & BSPLIB_TAG_COLL_BITS;
}

void bsp_sync(void)
{
    bsplib_proc *me = bsplib_me("bsp_sync()");
    bspram__bsp_bsplib_superstep_end(me, BSPLIB_TAG_SYNC);
}

/* The records' names for a student's supersteps: the rank's first process
 * keeps the name and the router takes it at that process's next exchange
 * (w->label is reset so that set_label relabels even when the buffer's
 * address is the same). */
void bsp_label(const char *name)
{
    bsplib_proc *me = bsplib_me("bsp_label()");
    if (name && strlen(name) >= BSPRAM_LABEL_LEN)
        bspram__bsp_bsplib_fatal(me, "bsp_label(name=\"%.40s...\"): a label has at most %d bytes",
                     name, BSPRAM_LABEL_LEN - 1);
    for (const char *c = name; c && *c; c++) /* a trace has a record per line */
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            bspram__bsp_bsplib_fatal(me, "bsp_label: the name has a control character (byte %d at %zu); a "
                             "label is printable text", (unsigned char)*c, (size_t)(c - name));
    bsplib_world *w = me->world;
    if (me->pid != w->lo)
        return;
    snprintf(w->user_label, sizeof w->user_label, "%s", name ? name : "");
    w->label = NULL;
}

void bsp_work(uint64_t w)
{
    bsplib_proc *me = bsplib_me("bsp_work()");
    bspram__router_work(bspram__bsp_machine_router(me->world->m), me->pid, me->pid, w);
}
