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
 * barrier lane 0 reaches only when it has read them.
 *
 * Over MPI a process runs a block of the lanes: its first lane appends the
 * flows of its own lanes' sources and the loads of its own components (the
 * others' are zero), and bspram__router_pattern_gather puts the processes'
 * parts together when the pattern is read — the trace, the machine's
 * pattern, pricing from inside a program — in one concatenation of the
 * records kept since the last one. Processes run increasing blocks of
 * lanes, so process order is source order there too.
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
    const char *what = "the message pattern (BSPRAM_PATTERN)";
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
                uint64_t bytes = bspram__entry_len(e) + bspram__entry_extra(e), k = bspram__entry_count(e);
                if (!f || f->src != e->src) { /* the outbox holds its entries by source */
                    f = &(*tmp)[n++];
                    *f = (bspram_flow){.src = e->src, .dst = dst};
                }
                f->messages += k;
                f->bytes += bytes * k;
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
                                             "the processes' loads (BSPRAM_PATTERN)");
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
    /* This process's lanes: all of them but over MPI (the rest come with
     * bspram__router_pattern_gather). */
    size_t total = 0;
    for (unsigned l = r->lane_lo; delivered && l < r->lane_hi; l++)
        total += r->lane[l].n_flows[par];
    bspram_flow *to = bspram_pattern_append(&r->pattern, record, total);
    for (unsigned l = r->lane_lo; delivered && l < r->lane_hi; l++) {
        const bspram__lane *ln = &r->lane[l];
        if (ln->n_flows[par])
            memcpy(to, ln->flows[par], ln->n_flows[par] * sizeof *to);
        to += ln->n_flows[par];
    }
    bspram_process_load *load = bspram_pattern_append_loads(&r->pattern, record, r->p);
    if (r->lane_lo != 0 || r->lane_hi != r->lanes)
        memset(load, 0, r->p * sizeof *load);
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++) {
        const bspram__lane *ln = &r->lane[l];
        if (ln->end > ln->first)
            memcpy(load + ln->first, ln->loads[par], (ln->end - ln->first) * sizeof *load);
    }
}

/* A process's part of records [from, n) of its pattern, as words: its
 * components [first, end) and the record count, then per record whether it
 * was kept, its flows (src, dst, messages, bytes, largest) and, if it has
 * loads, its components' (work, seconds' bits). */
enum { PART_HEAD = 3, RECORD_HEAD = 3, FLOW_WORDS = 5, LOAD_WORDS = 2 };

static uint64_t *pattern_part(const bspram_router *r, size_t from, uint64_t first, uint64_t end,
                              size_t *words)
{
    const bspram_pattern *pat = &r->pattern;
    size_t n = PART_HEAD;
    for (size_t i = from; i < pat->n; i++)
        n += RECORD_HEAD + pat->at[i].count * FLOW_WORDS + (pat->at[i].load_count ? (end - first) * LOAD_WORDS : 0);
    uint64_t *w = bspram__base_malloc(n * sizeof *w, "the message pattern (BSPRAM_PATTERN)"), *at = w;
    *at++ = first;
    *at++ = end;
    *at++ = pat->n - from;
    for (size_t i = from; i < pat->n; i++) {
        const bspram_pattern_slot *slot = &pat->at[i];
        *at++ = (uint64_t)slot->kept;
        *at++ = slot->count;
        *at++ = slot->load_count != 0;
        for (size_t f = 0; f < slot->count; f++) {
            const bspram_flow *fl = &pat->flows[slot->first + f];
            *at++ = fl->src, *at++ = fl->dst, *at++ = fl->messages, *at++ = fl->bytes, *at++ = fl->largest;
        }
        for (uint64_t c = first; slot->load_count && c < end; c++) {
            const bspram_process_load *ld = &pat->loads[slot->load_first + c];
            *at++ = ld->work;
            memcpy(at++, &ld->seconds, sizeof ld->seconds);
        }
    }
    *words = n;
    return w;
}

/* The words of one record of a part, from `at`; returns where the next
 * record starts. */
static const uint64_t *part_record(const uint64_t *at, uint64_t comps, uint64_t *kept, uint64_t *flows,
                                   uint64_t *loads)
{
    *kept = at[0];
    *flows = at[1];
    *loads = at[2];
    return at + RECORD_HEAD + at[1] * FLOW_WORDS + (at[2] ? comps * LOAD_WORDS : 0);
}

void bspram__router_pattern_gather(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    bspram_pattern *pat = &r->pattern;
    if ((r->lane_lo == 0 && r->lane_hi == r->lanes) || r->lane_lo == r->lane_hi || !r->transport->concat ||
        pat->n <= r->pattern_whole)
        return; /* every lane here; no lane here (no part in the router); nothing new */
    const size_t from = r->pattern_whole;
    size_t words, bytes;
    uint64_t *mine = pattern_part(r, from, r->lane[r->lane_lo].first, r->lane[r->lane_hi - 1].end, &words);
    uint64_t *all = r->transport->concat(r->tstate, mine, words * sizeof *mine, &bytes);
    free(mine);
    /* Each process's part in process order: where each begins. */
    const uint64_t *end = all + bytes / sizeof *all;
    size_t parts = 0, cap = 0;
    const uint64_t **part = NULL;
    for (const uint64_t *at = all; at < end; parts++) {
        part = bspram__grow(part, &cap, parts + 1, sizeof *part, 8, "the message pattern (BSPRAM_PATTERN)");
        part[parts] = at;
        const uint64_t comps = at[1] - at[0], records = at[2];
        at += PART_HEAD;
        for (uint64_t i = 0, k, f, l; i < records; i++)
            at = part_record(at, comps, &k, &f, &l);
    }
    const uint64_t **cursor = bspram__base_calloc(parts ? parts : 1, sizeof *cursor,
                                                  "the message pattern (BSPRAM_PATTERN)");
    for (size_t q = 0; q < parts; q++)
        cursor[q] = part[q] + PART_HEAD;
    /* Records [from, n) again, whole: every process's flows, then loads. */
    const size_t n = pat->n;
    pat->n = from;
    pat->n_flows = r->whole_flows;
    pat->n_loads = r->whole_loads;
    for (size_t i = from; i < n; i++) {
        uint64_t kept = 0, total = 0, with_loads = 0;
        for (size_t q = 0; q < parts; q++) {
            uint64_t k, f, l;
            part_record(cursor[q], part[q][1] - part[q][0], &k, &f, &l);
            kept |= k, total += f, with_loads |= l;
        }
        bspram_flow *to = kept ? bspram_pattern_append(pat, i, (size_t)total) : NULL;
        bspram_process_load *load = kept && with_loads ? bspram_pattern_append_loads(pat, i, r->p) : NULL;
        if (load)
            memset(load, 0, r->p * sizeof *load);
        for (size_t q = 0; q < parts; q++) {
            const uint64_t first = part[q][0], comps = part[q][1] - first;
            uint64_t k, f, l;
            const uint64_t *next = part_record(cursor[q], comps, &k, &f, &l), *at = cursor[q] + RECORD_HEAD;
            for (uint64_t j = 0; j < f && to; j++, at += FLOW_WORDS)
                *to++ = (bspram_flow){.src = at[0], .dst = at[1], .messages = at[2], .bytes = at[3],
                                      .largest = at[4]};
            for (uint64_t c = 0; l && load && c < comps; c++, at += LOAD_WORDS) {
                load[first + c].work = at[0];
                memcpy(&load[first + c].seconds, &at[1], sizeof load[first + c].seconds);
            }
            cursor[q] = next;
        }
    }
    free(cursor);
    free(part);
    free(all);
    r->pattern_whole = pat->n;
    r->whole_flows = pat->n_flows;
    r->whole_loads = pat->n_loads;
}

void bspram__router_keep_pattern(bspram_router *r, bool on)
{
    BSPRAM_NONNULL(r);
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
