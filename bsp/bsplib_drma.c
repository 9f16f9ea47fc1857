/* BSPlib DRMA: registrations, bsp_put, bsp_get and their hp/direct variants.
 *
 * Registrations are slots of a table shared by the processes (BSPlib 1998,
 * §2.2: matched by call order, each process with its own address). A put or
 * get finds the slot by the caller's address, reads the remote process's
 * address and size for that slot, checks the bounds, and posts one message
 * whose first word is the resolved remote address (bsplib_internal.h) — so
 * the sync only copies — or, on a transport that shares no memory, a
 * (slot, offset) reference that the receiver resolves while landing.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "bsp/bsplib_internal.h"
#include "bsp/machine_internal.h"
#include "router/router.h"
#include "router/router_internal.h" /* the inline hot path of posting */

size_t bspram__bsp_bsplib_reg_search(bsplib_proc *me, const void *addr)
{
    const bsplib_world *w = me->world;
    const bsplib_reg_entry *col = w->col ? w->col[me->pid] : NULL;
    for (size_t s = w->nslots; s-- > 0;) /* newest first */
        if (w->alive[s] && col[s].addr == (const char *)addr) {
            me->cache_addr = addr;
            me->cache_slot = s;
            return s;
        }
    return BSPLIB_NO_SLOT;
}


static void add_op(bsplib_proc *me, const void *addr, size_t size, int push)
{
    me->ops = bspram__grow(me->ops, &me->ops_cap, me->nops + 1, sizeof *me->ops, 8, "bsp_push_reg");
    me->ops[me->nops++] = (bsplib_reg_op){addr, size, push};
}

void bsp_push_reg(const void *address, bsp_size_t size)
{
    add_op(bsplib_me("bsp_push_reg"), address, size, 1);
}

void bsp_pop_reg(const void *address) { add_op(bsplib_me("bsp_pop_reg"), address, 0, 0); }

/* ---- applying registrations (process lo inside a sync; bsplib_sync.c) ---- */

/* Process q's i-th op of the superstep, as gathered. */
static const bsplib_reg_op *op_of(const bsplib_world *w, unsigned q, size_t i)
{
    return &w->peer_ops[q * w->peer_stride + i];
}

static size_t find_on(const bsplib_world *w, unsigned q, const void *addr)
{
    for (size_t s = w->nslots; s-- > 0;)
        if (w->alive[s] && w->col[q][s].addr == (const char *)addr)
            return s;
    return BSPLIB_NO_SLOT;
}

/* The newest live slot whose entries are NULL on every process, or
 * BSPLIB_NO_SLOT. */
static size_t find_all_null(const bsplib_world *w)
{
    for (size_t s = w->nslots; s-- > 0;) {
        if (!w->alive[s])
            continue;
        unsigned q = 0;
        while (q < w->p && !w->col[q][s].addr)
            q++;
        if (q == w->p)
            return s;
    }
    return BSPLIB_NO_SLOT;
}

/* The slot that pop i (the i-th op of every process, a pop everywhere)
 * removes. A pop names one slot, as in other BSPlib implementations: the one
 * the processes passing an address agree on (each one's newest live
 * registration of it). A process passing NULL takes no part in the area and
 * pops whatever slot the others name — its NULL registrations can go in any
 * order, not only newest first — but its entry there must be NULL. If every
 * process passes NULL, the newest slot that is NULL everywhere goes (all such
 * slots look alike: no process can put to or get from them). */
static size_t pop_slot(const bsplib_world *w, size_t i, unsigned long long ss)
{
    size_t s0 = BSPLIB_NO_SLOT;
    unsigned q0 = 0;
    for (unsigned q = 0; q < w->p; q++) {
        const void *addr = op_of(w, q, i)->addr;
        if (!addr)
            continue;
        size_t s = w->nslots ? find_on(w, q, addr) : BSPLIB_NO_SLOT;
        if (s == BSPLIB_NO_SLOT)
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_pop_reg(%p): address not registered (superstep %llu, "
                         "pid %u)", addr, ss, q);
        if (s0 == BSPLIB_NO_SLOT) {
            s0 = s;
            q0 = q;
        } else if (s != s0) {
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_sync(): registrations differ between processes in "
                         "superstep %llu: pop %zu removes registration %zu on pid %u but "
                         "%zu on pid %u; pops must be in the same order everywhere", ss,
                         i + 1, s0 + 1, q0, s + 1, q);
        }
    }
    if (s0 == BSPLIB_NO_SLOT) {
        s0 = w->nslots ? find_all_null(w) : BSPLIB_NO_SLOT;
        if (s0 == BSPLIB_NO_SLOT)
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_sync(): pop %zu in superstep %llu is bsp_pop_reg(NULL) on "
                         "every process, but no live registration is NULL on every process",
                         i + 1, ss);
        return s0;
    }
    for (unsigned q = 0; q < w->p; q++)
        if (!op_of(w, q, i)->addr && w->col[q][s0].addr)
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_sync(): pop %zu in superstep %llu is bsp_pop_reg(NULL) on "
                         "pid %u, but the registration it removes (registration %zu, named by "
                         "pid %u's address %p) has memory on pid %u (%p); a process passes NULL "
                         "only where it registered NULL", i + 1, ss, q, s0 + 1, q0,
                         op_of(w, q0, i)->addr, q, (void *)w->col[q][s0].addr);
    return s0;
}

static void describe(char *buf, size_t len, const bsplib_reg_op *op)
{
    if (op->push)
        snprintf(buf, len, "bsp_push_reg(%p, %zu)", op->addr, op->size);
    else
        snprintf(buf, len, "bsp_pop_reg(%p)", op->addr);
}

void bspram__bsp_bsplib_registrations_apply(bsplib_world *w, uint64_t superstep)
{
    const bsplib_peer *pr = w->peer;
    unsigned long long ss = (unsigned long long)superstep;
    for (unsigned q = 1; q < w->p; q++)
        if (pr[q].nops != pr[0].nops)
            bspram__bsp_bsplib_fatal_agreed(w, "bsp_sync(): registrations differ between processes in superstep "
                         "%llu: pid 0 called bsp_push_reg/bsp_pop_reg %llu times, pid %u %llu "
                         "times; all must register the same slots in the same order", ss,
                         (unsigned long long)pr[0].nops, q, (unsigned long long)pr[q].nops);
    for (size_t i = 0; i < pr[0].nops; i++) {
        for (unsigned q = 1; q < w->p; q++)
            if (op_of(w, q, i)->push != op_of(w, 0, i)->push) {
                char a[96], b[96];
                describe(a, sizeof a, op_of(w, 0, i));
                describe(b, sizeof b, op_of(w, q, i));
                bspram__bsp_bsplib_fatal_agreed(w, "bsp_sync(): registrations differ between processes in "
                             "superstep %llu: call %zu is %s on pid 0 but %s on pid %u; all must "
                             "register in the same order", ss, i + 1, a, b, q);
            }
        if (op_of(w, 0, i)->push) {
            if (w->nslots == w->slots_cap) { /* the columns and alive share one capacity */
                size_t cap = bspram__capacity(w->slots_cap, w->nslots + 1, 16);
                if (!w->col)
                    w->col = bspram__base_calloc(w->p, sizeof *w->col, "bsp_push_reg");
                for (unsigned q = 0; q < w->p; q++)
                    w->col[q] = bspram__base_realloc(w->col[q], cap * sizeof **w->col, "bsp_push_reg");
                w->alive = bspram__base_realloc(w->alive, cap, "bsp_push_reg");
                w->slots_cap = cap;
            }
            size_t s = w->nslots++;
            for (unsigned q = 0; q < w->p; q++) {
                const bsplib_reg_op *op = op_of(w, q, i);
                /* NULL means "nothing here": size 0, so no byte can be put there. */
                w->col[q][s] = (bsplib_reg_entry){(char *)(uintptr_t)op->addr,
                                                  op->addr ? op->size : 0};
            }
            w->alive[s] = 1;
        } else {
            size_t s0 = pop_slot(w, i, ss);
            w->alive[s0] = 0;
            while (w->nslots && !w->alive[w->nslots - 1])
                w->nslots--; /* reuse dead slots at the top */
        }
    }
}

void bspram__bsp_bsplib_world_free_tables(bsplib_world *w)
{
    if (w->col)
        for (unsigned q = 0; q < w->p; q++)
            free(w->col[q]);
    free(w->col);
    free(w->alive);
    free(w->peer);
    free(w->peer_ops);
    free(w->gathered);
}

/* ---- communication ---- */

/* Why target() refused: out of line, so that the hot path of every put and
 * get keeps its registers. */
static _Noreturn __attribute__((cold, noinline)) void
target_fail(bsplib_proc *me, const char *call, bsp_pid_t pid, const void *src, const void *dst,
            bsp_size_t offset, bsp_size_t nbytes, int is_put)
{
    const char *what = is_put ? "dst" : "src";
    if (pid >= me->p)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, src=%p, dst=%p, offset=%zu, nbytes=%zu): pid outside [0, %u)",
                     call, pid, src, dst, offset, nbytes, me->p);
    size_t s = bsplib_reg_find(me, is_put ? dst : src);
    if (s == BSPLIB_NO_SLOT && !(is_put ? dst : src)) /* NULL names only a registration of NULL */
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, %s=NULL, offset=%zu, nbytes=%zu): %s is NULL, and this process "
                     "has no registration of NULL", call, pid, what, offset, nbytes, what);
    if (s == BSPLIB_NO_SLOT)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, src=%p, dst=%p, offset=%zu, nbytes=%zu): %s is not a "
                     "registered address (bsp_push_reg, then bsp_sync)", call, pid, src, dst,
                     offset, nbytes, what);
    const bsplib_reg_entry *e = &me->world->col[pid][s];
    bspram__bsp_bsplib_fatal(me, "%s(pid=%u, src=%p, dst=%p, offset=%zu, nbytes=%zu): bytes [%zu, %zu) "
                 "outside the registration, which has %zu bytes on pid %u", call, pid, src,
                 dst, offset, nbytes, offset, offset + nbytes, e->size, pid);
}

/* The remote entry of `local`'s registration on pid, with [offset,
 * offset+nbytes) checked against it; *slot is the registration's slot. */
static inline const bsplib_reg_entry *target(bsplib_proc *me, const char *call, bsp_pid_t pid,
                                             const void *src, const void *dst, const void *local,
                                             bsp_size_t offset, bsp_size_t nbytes, int is_put,
                                             size_t *slot)
{
    size_t s;
    const bsplib_reg_entry *e;
    if (__builtin_expect(pid >= me->p, 0) ||
        __builtin_expect((s = bsplib_reg_find(me, local)) == BSPLIB_NO_SLOT, 0) ||
        (e = &me->world->col[pid][s],
         __builtin_expect(offset > e->size || nbytes > e->size - offset, 0)))
        target_fail(me, call, pid, src, dst, offset, nbytes, is_put);
    *slot = s;
    return e;
}

/* How a message names bytes [offset, …) of registration slot s on pid: the
 * address there when the transport shares memory, else a reference that pid
 * resolves (bsplib_internal.h, bsplib_ref). */
static inline const void *remote_place(bsplib_proc *me, const char *call, const bsplib_reg_entry *e,
                                       size_t s, bsp_size_t offset)
{
    if (__builtin_expect(me->world->shared, 1))
        return e->addr + offset;
    if (offset >> BSPLIB_REF_OFFSET_BITS || s >= BSPLIB_REF_MAX_SLOTS)
        bspram__bsp_bsplib_fatal(me, "%s(offset=%zu): on a transport that shares no memory, offsets must be "
                     "below 2^%d and registrations fewer than 2^%d", call, offset,
                     BSPLIB_REF_OFFSET_BITS, 63 - BSPLIB_REF_OFFSET_BITS);
    return bsplib_ref(s, offset);
}

static _Noreturn __attribute__((cold, noinline)) void
null_buffer(bsplib_proc *me, const char *call, bsp_pid_t pid, const char *args, const void *other,
            bsp_size_t offset, bsp_size_t nbytes, const char *which)
{
    bspram__bsp_bsplib_fatal(me, "%s(pid=%u, %s=%p, offset=%zu, nbytes=%zu): %s is NULL", call, pid, args,
                 other, offset, nbytes, which);
}

/* The checked put; `call` names the API function in errors. */
static inline __attribute__((always_inline)) void put(bsp_pid_t pid, const void *src,
                                                       const void *dst, bsp_size_t offset,
                                                       bsp_size_t nbytes, const char *call)
{
    bsplib_proc *me = bsplib_me(call);
    size_t s;
    const bsplib_reg_entry *e = target(me, call, pid, src, dst, dst, offset, nbytes, 1, &s);
    if (__builtin_expect(!src && nbytes, 0))
        null_buffer(me, call, pid, "src=NULL, dst", dst, offset, nbytes, "src");
    const void *where = remote_place(me, call, e, s, offset);
    /* Lane = pid in BSPlib's machine (p = T): straight to the router. A put
     * of a multiple of 8 bytes (up to the channel's record, 512 bytes with
     * its word) is a fixed-size record {where, bytes} of the record channel,
     * appended to this process's open run to pid: no header per put, and
     * the records count it as the message of 8 + nbytes bytes it is. Other
     * sizes are messages of their own (8 + nbytes is no multiple of 8: a
     * record of the channel would count other bytes). */
    if (nbytes == 8) {
        /* A word, the common case of fine-grained puts: read it before the
         * append, so that only the record (on the stack) lives across the
         * router call, not src and nbytes (a put copies its source when
         * issued anyway). */
        uint64_t msg[2] = {(uint64_t)(uintptr_t)where, 0};
        memcpy(&msg[1], src, 8);
        memcpy(bspram__append(me->router, me->pid, me->pid, pid, (uint32_t)bsplib_put_len(8), call), msg,
               sizeof msg);
        return;
    }
    if (!(nbytes & 7) && nbytes && nbytes <= BSPLIB_RECORD_MAX) {
        bsplib_encode_put(bspram__append(me->router, me->pid, me->pid, pid, (uint32_t)bsplib_put_len(nbytes),
                                         call),
                          where, src, nbytes);
        return;
    }
    bsplib_encode_put(bspram__post(me->router, me->pid, me->pid, pid, bsplib_put_len(nbytes),
                                         call),
                      where, src, nbytes);
}

/* Inlined: bsp_put's hot path is a call layer shorter. */
void bsp_put(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset, bsp_size_t nbytes)
{
    put(pid, src, dst, offset, nbytes, "bsp_put");
}

void bsp_hpput(bsp_pid_t pid, const void *src, const void *dst, bsp_size_t offset,
               bsp_size_t nbytes)
{
    /* The router counts at most 2^32 − 1 bytes beyond what a message stores;
     * a receiver can copy from the sender's memory only if they share it. */
    bsplib_proc *me = bsplib_me("bsp_hpput");
    if (nbytes < BSPLIB_HPPUT_BY_REFERENCE || !me->world->shared ||
        bsplib_put_len(nbytes) - BSPLIB_REQUEST_LEN > UINT32_MAX) {
        put(pid, src, dst, offset, nbytes, "bsp_hpput");
        return;
    }
    /* Unbuffered: send where to copy from; the receiver copies at the sync. */
    size_t s;
    const bsplib_reg_entry *e = target(me, "bsp_hpput", pid, src, dst, dst, offset, nbytes, 1, &s);
    if (__builtin_expect(!src, 0))
        null_buffer(me, "bsp_hpput", pid, "src=NULL, dst", dst, offset, nbytes, "src");
    bsplib_encode_hpput(bspram__bsp_send_buffer_counted(me->self, pid, BSPLIB_REQUEST_LEN,
                                                   bsplib_put_len(nbytes)),
                        e->addr + offset, src, nbytes);
    me->has_hpputs = 1;
}

static void get(const char *call, bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                bsp_size_t nbytes)
{
    bsplib_proc *me = bsplib_me(call);
    size_t s;
    const bsplib_reg_entry *e = target(me, call, pid, src, dst, src, offset, nbytes, 0, &s);
    if (!dst && nbytes)
        bspram__bsp_bsplib_fatal(me, "%s(pid=%u, src=%p, offset=%zu, dst=NULL, nbytes=%zu): dst is NULL",
                     call, pid, src, offset, nbytes);
    bsplib_encode_get(bspram_send_buffer(me->self, pid, BSPLIB_REQUEST_LEN),
                      remote_place(me, call, e, s, offset), dst, nbytes);
    me->has_gets = 1;
}

void bsp_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes)
{
    get("bsp_get", pid, src, offset, dst, nbytes);
}

void bsp_hpget(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst, bsp_size_t nbytes)
{
    get("bsp_hpget", pid, src, offset, dst, nbytes);
}

void bsp_direct_get(bsp_pid_t pid, const void *src, bsp_size_t offset, void *dst,
                    bsp_size_t nbytes)
{
    bsplib_proc *me = bsplib_me("bsp_direct_get");
    if (!bspram__router_can_read(me->router))
        bspram__bsp_bsplib_fatal(me, "bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=%p, nbytes=%zu): the "
                     "library's transport has no one-sided read (MPI); use bsp_get", pid, src,
                     offset, dst, nbytes);
    size_t s;
    const bsplib_reg_entry *e = target(me, "bsp_direct_get", pid, src, dst, src, offset, nbytes, 0, &s);
    if (!dst && nbytes)
        bspram__bsp_bsplib_fatal(me, "bsp_direct_get(pid=%u, src=%p, offset=%zu, dst=NULL, nbytes=%zu): dst "
                     "is NULL", pid, src, offset, nbytes);
    /* pid may still be landing the last sync's puts: wait until it has
     * (acquire pairs with the release in bspram__bsp_bsplib_superstep_end). It is busy
     * copying, never waiting for us, so this ends soon; yield the core in
     * case pid needs it (oversubscription). */
    const atomic_uint_fast64_t *landed = &me->world->procs[pid].landed;
    for (unsigned spins = 0;
         atomic_load_explicit(landed, memory_order_acquire) < me->superstep; spins++)
        if (spins > 64)
            sched_yield();
    /* A one-sided read through the transport (a memcpy on shared memory). */
    bspram__router_read(me->router, me->pid, pid, e->addr + offset, dst, nbytes);
}
