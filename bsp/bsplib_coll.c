/* BSPlib: what the collectives (coll/) build their rounds from — window
 * puts and the collective superstep (bsplib_sync.c; bsplib_internal.h, "The
 * collectives' supersteps") — and the lead's publication that the
 * extensions' queries of the log share (bspram__bsp_bsplib_publish).
 *
 * A window put is a bsp_put whose destination is a byte offset in the
 * receiver's window instead of a registered address: the receiver declares
 * its window for the superstep locally, so a collective needs no
 * registration (and no registration barrier) per call, and the message is
 * the same 8 + n bytes on the router — the records of a collective's rounds
 * are those of the puts it would make with registered buffers. */
#include <stdlib.h>

#include "base/error.h"
#include "bsp/bsplib_internal.h"
#include "bsp/machine_internal.h" /* bspram__bsp_team_flush */
#include "router/router_internal.h" /* the inline hot path of posting */

void bspram__bsp_bsplib_coll_put(bsplib_proc *me, unsigned pid, uint64_t offset, const void *src, size_t n,
                     const char *call)
{
    if (__builtin_expect(pid >= me->p || offset >= BSPLIB_WINDOW_BIT, 0))
        bspram__bsp_bsplib_fatal(me, "%s: a put to pid %u at offset %llu of its window (internal error)",
                     call, pid, (unsigned long long)offset);
    bsplib_encode_put(bspram__post(me->router, me->pid, me->pid, pid, bsplib_put_len(n), call),
                      bsplib_window_ref(offset), src, n);
}

void bspram__bsp_bsplib_coll_put_ref(bsplib_proc *me, unsigned pid, uint64_t offset, const void *src, size_t n,
                                     const char *call)
{
    if (n < BSPLIB_HPPUT_BY_REFERENCE || !me->world->shared || bsplib_put_len(n) - BSPLIB_REQUEST_LEN > UINT32_MAX) {
        bspram__bsp_bsplib_coll_put(me, pid, offset, src, n, call);
        return;
    }
    if (__builtin_expect(pid >= me->p || offset >= BSPLIB_WINDOW_BIT, 0))
        bspram__bsp_bsplib_fatal(me, "%s: a put to pid %u at offset %llu of its window (internal error)",
                     call, pid, (unsigned long long)offset);
    bsplib_encode_hpput(bspram__bsp_send_buffer_counted(me->self, pid, BSPLIB_REQUEST_LEN, bsplib_put_len(n)),
                        bsplib_window_ref(offset), src, n);
    me->has_hpputs = 1;
}

/* Only processes that disagree get here: each sizes its window and its
 * puts from its own arguments, and the first round's signature compares
 * them (coll/frame.c) — but in 5 bits, so 1 disagreement in 32 passes it. */
void bspram__bsp_bsplib_window_overrun(const bsplib_proc *me, unsigned from, uint64_t offset, uint64_t len)
{
    bspram__bsp_bsplib_fatal(me, "%s: pid %u put %llu bytes at offset %llu of this process's window, which "
                 "has %zu: the two processes passed the call different arguments (a size, "
                 "count, root or group); they must pass the same",
                 me->where ? me->where : "bsp_sync", from, (unsigned long long)len,
                 (unsigned long long)offset, me->window_size);
}

void bspram__bsp_bsplib_publish(bsplib_proc *me, void *out, size_t n,
                                void (*make)(bsplib_proc *lead, void *buf, void *arg), void *arg)
{
    bspram__bsp_team_flush(bspram__bsp_component_team(me->self));
    bsplib_world *w = me->world;
    if (me->pid == w->lo) {
        if (n > w->publication_cap) {
            free(w->publication);
            w->publication = bspram__base_malloc(n, "bsp: publication");
            w->publication_cap = n;
        }
        make(me, w->publication, arg);
    }
    bspram__bsp_bsplib_barrier(me, 0);
    if (n)
        memcpy(out, w->publication, n);
}
