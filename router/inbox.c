/* The inboxes: what a lane reads of the messages delivered to its block (as
 * messages or as runs per source), and what the transports use to build them.
 */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "router/router_internal.h"
#include "router/router.h"

static BSPRAM_NORETURN void released_read(unsigned lane, uint64_t dst)
{
    bspram__base_fatal("internal error: lane %u reads the inbox of component %llu after releasing it in "
                       "this superstep", lane, (unsigned long long)dst);
}

void bspram__router_inbox_release(bspram_router *r, unsigned lane, uint64_t dst)
{
    BSPRAM_NONNULL(r);
    bspram__lane *owner = &r->lane[lane];
    if (lane >= r->lanes || dst < owner->first || dst >= owner->end)
        bspram__base_fatal("internal error: lane %u releases the inbox of component %llu, outside its block",
                           lane, (unsigned long long)dst);
    if (!owner->delivered || !owner->lazy || !r->transport->release)
        return;
    uint64_t i = dst - owner->first;
    if (owner->released[i] == owner->deliveries)
        return;
    owner->released[i] = owner->deliveries;
    if (owner->in_off[i + 1] != owner->in_off[i])
        r->transport->release(r, lane, i);
}

size_t bspram__router_inbox(const bspram_router *r, unsigned lane, uint64_t dst,
                           const bspram_message **msgs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(msgs);
    *msgs = NULL;
    if (lane >= r->lanes || dst < r->lane[lane].first || dst >= r->lane[lane].end)
        bspram__base_fatal("internal error: lane %u reads the inbox of component %llu, outside its block "
                     "[%llu, %llu) (a lane reads only the inboxes it serves)", lane,
                     (unsigned long long)dst, (unsigned long long)bspram__router_lane_first(r, lane),
                     (unsigned long long)bspram__router_lane_first(r, lane + 1));
    const bspram__lane *owner = &r->lane[lane];
    if (!owner->delivered)
        return 0;
    uint64_t i = dst - owner->first;
    size_t n = (size_t)(owner->in_off[i + 1] - owner->in_off[i]);
    if (owner->lazy && owner->released[i] == owner->deliveries)
        released_read(lane, dst);
    /* A memoising read: the router is never defined const, and only the
     * lane's thread (or any one thread once the team stopped) reads its block. */
    if (owner->lazy && n && owner->in_built[i] != owner->deliveries)
        r->transport->build((bspram_router *)r, lane, i);
    if (n)
        *msgs = owner->in + owner->in_off[i];
    return n;
}

size_t bspram__router_runs_of(const bspram_router *r, unsigned lane, const bspram_message *msgs, size_t k,
                              const bspram__run **runs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(runs);
    /* The lane's run storage is its own thread's (or any one thread's once
     * the team stopped), as its inboxes are. */
    bspram__lane *ln = (bspram__lane *)&r->lane[lane];
    bspram__router_lane_runs_reserve(ln, k);
    ln->runs_inbox = UINT64_MAX; /* the storage no longer holds a built inbox's runs */
    size_t n = 0;
    for (size_t j = 0; j < k; j++) {
        bspram__run *last = n ? &ln->runs[n - 1] : NULL;
        if (last && last->src == msgs[j].src && last->size == msgs[j].len &&
            (const char *)last->data + last->count * last->size == (const char *)msgs[j].data) {
            last->count++;
            continue;
        }
        ln->runs[n++] = (bspram__run){msgs[j].data, 1, msgs[j].src, (uint32_t)msgs[j].len};
    }
    *runs = n ? ln->runs : NULL;
    return n;
}

size_t bspram__router_inbox_runs(const bspram_router *r, unsigned lane, uint64_t dst, const bspram__run **runs)
{
    BSPRAM_NONNULL(r);
    BSPRAM_NONNULL(runs);
    *runs = NULL;
    const bspram__lane *owner = lane < r->lanes ? &r->lane[lane] : NULL;
    if (owner && !owner->delivered && dst >= owner->first && dst < owner->end)
        return 0; /* an empty superstep's: nothing to build or read */
    if (!owner || !owner->lazy || !r->transport->build_runs) {
        const bspram_message *msgs;
        size_t k = bspram__router_inbox(r, lane, dst, &msgs);
        return k ? bspram__router_runs_of(r, lane, msgs, k, runs) : 0;
    }
    if (dst < owner->first || dst >= owner->end || !owner->delivered)
        return bspram__router_inbox(r, lane, dst, &(const bspram_message *){NULL}); /* its error, or 0 */
    uint64_t i = dst - owner->first;
    if (owner->released[i] == owner->deliveries)
        released_read(lane, dst);
    if (owner->in_off[i + 1] == owner->in_off[i])
        return 0;
    if (owner->runs_inbox != i || owner->runs_delivery != owner->deliveries)
        r->transport->build_runs((bspram_router *)r, lane, i);
    *runs = owner->runs;
    return owner->n_runs;
}

void bspram__router_lane_runs_reserve(bspram__lane *ln, uint64_t n)
{
    if (n <= ln->cap_runs)
        return;
    free(ln->runs); /* dead: rebuilt for every inbox read as runs */
    ln->cap_runs = bspram__capacity(ln->cap_runs, (size_t)n, 1024);
    ln->runs = bspram__base_malloc(ln->cap_runs * sizeof *ln->runs, "the inboxes' runs");
}

void bspram__router_lane_inbox_reserve(bspram__lane *ln, uint64_t n)
{
    if (n <= ln->cap_in)
        return;
    /* The old headers are dead (rebuilt at every delivery): no copy. */
    free(ln->in);
    ln->cap_in = bspram__capacity(ln->cap_in, (size_t)n, 1024);
    ln->in = bspram__base_malloc(ln->cap_in * sizeof *ln->in, "the inboxes");
}

void bspram__router_lane_inbox_layout(bspram__lane *ln, unsigned par, uint64_t *count, const uint64_t *bytes)
{
    const uint64_t nd = ln->end - ln->first;
    uint64_t rmax = 0, hmax = 0, total = 0;
    for (uint64_t i = 0; i < nd; i++) {
        const uint64_t c = count[i], b = bytes[i]; /* read before in_off[i] is written */
        rmax = c > rmax ? c : rmax;
        hmax = b > hmax ? b : hmax;
        ln->in_off[i] = count[i] = total;
        total += c;
    }
    ln->in_off[nd] = total;
    bspram__router_lane_inbox_reserve(ln, total);
    ln->r[par] = rmax;
    ln->h_in[par] = hmax;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void bspram__router_senders_sort(uint32_t *list, unsigned k)
{
    if (k > 32) {
        qsort(list, k, sizeof *list, cmp_u32);
    } else { /* a few senders, the usual case: insertion sort, a tenth of qsort's calls */
        for (unsigned i = 1; i < k; i++) {
            uint32_t x = list[i];
            unsigned j = i;
            for (; j > 0 && list[j - 1] > x; j--)
                list[j] = list[j - 1];
            list[j] = x;
        }
    }
}
