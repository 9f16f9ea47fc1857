/* The message pattern of each superstep, kept on request: per pair of
 * components the messages, bytes and largest message (router/records.h,
 * bspram_flow), so that a run can be priced afterwards on other
 * architectures. A router that does not keep it pays one test per exchange.
 *
 * Each lane reads its own outboxes when it enters the exchange (the
 * entries' headers: the payloads are not touched), so every message is
 * counted as the records count it (a by-reference message with its extra
 * bytes). Lane 0 concatenates the lanes' flows after the barrier — lanes
 * serve increasing blocks of sources, so lane order is source order — the
 * same double-buffering by parity as the outboxes: a lane writes this
 * parity's flows again two exchanges on, after a barrier lane 0 reaches
 * only when it has read them. (A distributed transport would gather them.)
 */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "router/router_internal.h"

static int cmp_flow(const void *a, const void *b)
{
    const bspram_flow *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

void bspram__pattern_lane(bspram__lane *ln, unsigned par)
{
    size_t n = 0;
    for (size_t i = 0; i < ln->n_touched[par]; i++) {
        uint32_t dst = ln->touched[par][i];
        const bspram__outbox *o = &ln->outbox[par][dst];
        bspram_flow *f = NULL;
        for (const bspram__chunk *ch = o->head; ch; ch = ch->next) {
            const char *at = (const char *)(ch + 1), *end = at + ch->used;
            while (at < end) {
                const bspram__entry *e = (const bspram__entry *)at;
                uint64_t bytes = e->len + e->extra;
                if (!f || f->src != e->src) { /* the outbox holds runs by source */
                    ln->flows[par] = bspram__grow(ln->flows[par], &ln->cap_flows[par], n + 1,
                                                  sizeof *f, 64, "bspram_router_exchange (pattern)");
                    f = &ln->flows[par][n++];
                    *f = (bspram_flow){.src = e->src, .dst = dst};
                }
                f->messages++;
                f->bytes += bytes;
                if (bytes > f->largest)
                    f->largest = bytes;
                at += bspram__entry_size(e->len);
            }
        }
    }
    if (n > 1)
        qsort(ln->flows[par], n, sizeof *ln->flows[par], cmp_flow);
    ln->n_flows[par] = n;
}

void bspram__pattern_append(bspram_router *r, unsigned par, size_t record, int delivered)
{
    size_t total = 0;
    for (unsigned l = 0; delivered && l < r->lanes; l++)
        total += r->lane[l].n_flows[par];
    r->gather = bspram__grow(r->gather, &r->cap_gather, total, sizeof *r->gather, 64,
                             "bspram_router_exchange (pattern)");
    size_t at = 0;
    for (unsigned l = 0; delivered && l < r->lanes; l++) {
        const bspram__lane *ln = &r->lane[l];
        if (ln->n_flows[par])
            memcpy(r->gather + at, ln->flows[par], ln->n_flows[par] * sizeof *r->gather);
        at += ln->n_flows[par];
    }
    bspram_pattern_append(&r->pattern, record, r->gather, total);
}

void bspram_router_keep_pattern(bspram_router *r, bool on) { r->keep_pattern = on; }

bool bspram_router_keeps_pattern(const bspram_router *r) { return r->keep_pattern; }

const bspram_pattern *bspram_router_pattern(const bspram_router *r) { return &r->pattern; }
