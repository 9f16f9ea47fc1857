/* The shared-memory transport: a parallel counting sort of message headers.
 *
 * Every lane counted, while posting, how many messages it sent to each
 * destination (count[d]). Delivery:
 *   1. each lane, for the destinations it owns, computes the inbox offsets in
 *      (source lane, issue) order — which is (source component, issue) order,
 *      since lanes serve increasing blocks of components and post in
 *      non-decreasing source order — and turns every lane's count[d] into the
 *      slot where that lane's first message to d goes;      barrier
 *   2. each lane scatters its headers to those slots and clears its counts;
 *                                                          barrier
 * Payloads are not copied: a header carries a pointer to where the sender
 * wrote the payload. No locks; each slot is written by exactly one lane.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "router/router_internal.h"

static void deliver_shm(bspram_router *r, unsigned lane)
{
    bspram_lane *ln = &r->lane[lane];
    const unsigned L = r->lanes;
    const uint64_t first = ln->first, nd = ln->end - ln->first;

    /* 1a. Sizes of our inboxes (and the largest: Valiant's r). */
    uint64_t total = 0, rmax = 0;
    for (uint64_t i = 0; i < nd; i++) {
        uint64_t c = 0;
        for (unsigned k = 0; k < L; k++)
            c += r->lane[k].count[first + i];
        ln->in_off[i] = total;
        total += c;
        if (c > rmax)
            rmax = c;
    }
    ln->in_off[nd] = total;
    ln->r = rmax;
    if (total > ln->cap_in) {
        size_t cap = ln->cap_in ? ln->cap_in : 1024;
        while (cap < total)
            cap *= 2;
        free(ln->in);
        ln->in = bspram_malloc(cap * sizeof *ln->in, "bspram_router_exchange (inbox)");
        ln->cap_in = cap;
    }
    /* 1b. Slots, destination by destination, source lane by source lane. */
    for (uint64_t i = 0; i < nd; i++) {
        uintptr_t slot = (uintptr_t)(ln->in + ln->in_off[i]);
        for (unsigned k = 0; k < L; k++) {
            uintptr_t *c = &r->lane[k].count[first + i];
            uintptr_t n = *c;
            if (n) { /* untouched counts stay 0 for the next superstep */
                *c = slot;
                slot += n * sizeof(bspram_message);
            }
        }
    }
    bspram_barrier_wait(&r->barrier, 0);

    /* 2. Scatter our headers, then clear the counts we used. */
    uintptr_t *slot = ln->count;
    for (size_t j = 0; j < ln->n_out; j++) {
        const bspram_message *m = &ln->out[j];
        bspram_message *to = (bspram_message *)slot[m->dst];
        *to = *m;
        slot[m->dst] = (uintptr_t)(to + 1);
    }
    for (size_t j = 0; j < ln->n_out; j++)
        slot[ln->out[j].dst] = 0;
    bspram_barrier_wait(&r->barrier, 0);
}

const bspram_transport bspram_transport_shm = {"shm", deliver_shm};
