/* The message pattern of each superstep, kept on request: per pair of
 * components the messages, bytes and largest message (router/records.h,
 * bspram_flow), so that a run can be priced afterwards on other
 * architectures. A router that does not keep it pays one test per exchange.
 *
 * Each lane reads its own outboxes when it enters the exchange (the
 * entries' headers: the payloads are not touched), so every message is
 * counted as the records count it (a by-reference message with its extra
 * bytes). Visiting the destinations in increasing order gives the flows by
 * (dst, src); a stable counting sort on the source — the lane's block — puts
 * them in (src, dst) order in linear time. Lane 0 concatenates the lanes'
 * flows after the barrier — lanes serve increasing blocks of sources, so
 * lane order is source order — under the outboxes' double-buffering by
 * parity: a lane writes this parity's flows again two exchanges on, after a
 * barrier lane 0 reaches only when it has read them. (A distributed
 * transport would gather them.)
 */
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/error.h"
#include "base/grow.h"
#include "router/router_internal.h"
#include "router/router.h"

static int pattern_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void bspram__router_pattern_lane(bspram__lane *ln, unsigned par)
{
    const char *what = "bspram__router_exchange (pattern)";
    size_t nt = ln->n_touched[par];
    if (nt > 1)
        qsort(ln->touched[par], nt, sizeof *ln->touched[par], pattern_cmp_u32);
    /* By (dst, src) first. */
    bspram_flow **tmp = &ln->unsorted;
    size_t n = 0;
    for (size_t i = 0; i < nt; i++) {
        uint32_t dst = ln->touched[par][i];
        const bspram__outbox *o = bspram__lane_outbox(ln, par, dst);
        *tmp = bspram__grow(*tmp, &ln->cap_unsorted, n + o->count, sizeof **tmp, 64, what);
        bspram_flow *f = NULL;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next) {
            const char *at = (const char *)(ch + 1), *end = at + ch->used;
            while (at < end) {
                const bspram__entry *e = (const bspram__entry *)at;
                uint64_t bytes = bspram__entry_len(e) + bspram__entry_extra(e);
                if (!f || f->src != e->src) { /* the outbox holds runs by source */
                    f = &(*tmp)[n++];
                    *f = (bspram_flow){.src = e->src, .dst = dst};
                }
                f->messages++;
                f->bytes += bytes;
                if (bytes > f->largest)
                    f->largest = bytes;
                at = bspram__entry_next(e);
            }
        }
    }
    /* Stable counting sort by source, over the lane's block. */
    uint64_t block = ln->end - ln->first;
    size_t *start = bspram__base_calloc(block + 1, sizeof *start, what);
    for (size_t i = 0; i < n; i++)
        start[(*tmp)[i].src - ln->first + 1]++;
    for (uint64_t s = 0; s < block; s++)
        start[s + 1] += start[s];
    ln->flows[par] = bspram__grow(ln->flows[par], &ln->cap_flows[par], n, sizeof *ln->flows[par],
                                  64, what);
    for (size_t i = 0; i < n; i++)
        ln->flows[par][start[(*tmp)[i].src - ln->first]++] = (*tmp)[i];
    free(start);
    ln->n_flows[par] = n;
}

bspram_process_load *bspram__router_lane_loads(bspram__lane *ln, unsigned par)
{
    if (!ln->loads[par])
        ln->loads[par] = bspram__base_calloc(ln->end - ln->first, sizeof *ln->loads[par],
                                             "bspram__router_exchange (loads)");
    return ln->loads[par];
}

/* The lane enters the exchange: its computation time, from when it left the
 * previous one, is each of its components' time. A BSPlib process is a lane
 * of its own, so this is the process's own; components that share a lane
 * (the bulk machine with p > T) share its time, while their work is their
 * own. */
void bspram__router_pattern_enter(bspram__lane *ln, unsigned par)
{
    bspram_process_load *loads = bspram__router_lane_loads(ln, par);
    double seconds = bspram__clock() - ln->left;
    for (uint64_t i = 0; i < ln->end - ln->first; i++)
        loads[i].seconds = seconds > 0 ? seconds : 0;
}

void bspram__router_pattern_record(bspram_router *r, unsigned par, size_t record, int delivered)
{
    size_t total = 0;
    for (unsigned l = 0; delivered && l < r->lanes; l++)
        total += r->lane[l].n_flows[par];
    bspram_flow *to = bspram_pattern_append(&r->pattern, record, total);
    for (unsigned l = 0; delivered && l < r->lanes; l++) {
        const bspram__lane *ln = &r->lane[l];
        if (ln->n_flows[par])
            memcpy(to, ln->flows[par], ln->n_flows[par] * sizeof *to);
        to += ln->n_flows[par];
    }
    bspram_process_load *load = bspram_pattern_append_loads(&r->pattern, record, r->p);
    for (unsigned l = 0; l < r->lanes; l++) {
        const bspram__lane *ln = &r->lane[l];
        if (ln->end > ln->first)
            memcpy(load, ln->loads[par], (ln->end - ln->first) * sizeof *load);
        load += ln->end - ln->first;
    }
}

void bspram__router_keep_pattern(bspram_router *r, bool on)
{
    BSPRAM_NONNULL(r);
    /* lane_lo gathers the lanes' flows by reading their arrays */
    if (on && (r->lane_lo != 0 || r->lane_hi != r->lanes))
        bspram__base_fatal("bspram__router_keep_pattern: the %s transport spreads the lanes over "
                     "processes; the message pattern is kept on one process only",
                     r->transport->name);
    r->keep_pattern = on;
}

bool bspram__router_keeps_pattern(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->keep_pattern;
}

const bspram_pattern *bspram__router_pattern(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return &r->pattern;
}
