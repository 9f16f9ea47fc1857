/* The shared-memory transport: each lane builds the inboxes of its own block.
 *
 * After the barrier that ends posting, the outbox of every lane k for every
 * destination d holds k's messages to d in (source, issue) order. Lanes serve
 * increasing blocks of components, so reading the outboxes of d lane by lane
 * gives d's inbox in (source component, issue) order, whatever the number of
 * lanes. The lane that serves d writes d's array of message headers, which
 * point at the payloads where their senders wrote them: payloads are never
 * copied, nothing is locked, and no second barrier is needed, because only
 * the lane serving d reads d's inbox before the next exchange.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/router_internal.h"

static void deliver_shm(bspram_router *r, unsigned lane)
{
    bspram_lane *ln = &r->lane[lane];
    const unsigned L = r->lanes, par = (unsigned)(ln->step & 1);
    const uint64_t first = ln->first, nd = ln->end - ln->first;

    /* Sizes of our inboxes, and the most messages one receives (Valiant's r). */
    uint64_t total = 0, rmax = 0;
    for (uint64_t i = 0; i < nd; i++) {
        uint64_t c = 0;
        for (unsigned k = 0; k < L; k++)
            c += r->lane[k].outbox[par][first + i].count;
        ln->in_off[i] = total;
        total += c;
        if (c > rmax)
            rmax = c;
    }
    ln->in_off[nd] = total;
    if (total > ln->cap_in) {
        size_t cap = ln->cap_in ? ln->cap_in : 1024;
        while (cap < total)
            cap *= 2;
        free(ln->in);
        ln->in = bspram_malloc(cap * sizeof *ln->in, "bspram_router_exchange (inbox)");
        ln->cap_in = cap;
    }
    /* The headers, and the most bytes one receives (the receive side of h). */
    uint64_t hmax = 0;
    bspram_message *m = ln->in;
    for (uint64_t i = 0; i < nd; i++) {
        uint64_t bytes = 0;
        /* The outboxes are many short runs: prefetch the next destination's
         * first entries while this one's are read (hardware prefetchers do
         * not ramp up on runs of a few cache lines). */
        if (i + 1 < nd)
            for (unsigned k = 0; k < L; k++) {
                const bspram_segment *h = r->lane[k].outbox[par][first + i + 1].head;
                if (h) {
                    __builtin_prefetch(h + 1);
                    __builtin_prefetch((const char *)(h + 1) + 64);
                }
            }
        for (unsigned k = 0; k < L; k++) {
            const bspram_outbox *o = &r->lane[k].outbox[par][first + i];
            for (const bspram_segment *seg = o->head; seg; seg = seg->next) {
                const char *at = (const char *)(seg + 1), *end = at + seg->used;
                while (at < end) {
                    const bspram_entry *e = (const bspram_entry *)at;
                    m->data = e + 1;
                    m->len = e->len;
                    m->src = e->src;
                    m->dst = (uint32_t)(first + i);
                    m++;
                    bytes += e->len + e->extra;
                    at += sizeof *e + ((e->len + 7) & ~(uint64_t)7);
                }
            }
        }
        if (bytes > hmax)
            hmax = bytes;
    }
    ln->r[par] = rmax;
    ln->h_in[par] = hmax;
}

const bspram_transport bspram_transport_shm = {"shm", deliver_shm};
