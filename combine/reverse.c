/* The reverse flow (Valiant §2: "whenever requests are combined at a
 * component, the sources of the requests in that stage are stored at that
 * component"; §5 for fetch-and-op): every combining point stores, per level,
 * the sources of each READ/FETCH group it formed; an answer travels back
 * along the same tree, one superstep per level, and is fanned out to the
 * sources — adding, for fetch-and-op, the contributions that precede each
 * source in the combining order (multiprefix). */
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "bsp/machine_internal.h"
#include "combine/engine_internal.h"

/* Store the sources of this component's READ/FETCH groups at `level` and give
 * each such group a handle. Sources keep their arrival order. `answers`:
 * whether any group may be a READ or FETCH (the batch's flags); without, the
 * loop over the groups is a memset (bench_combine degree 1: -2.7 % of the
 * instructions). */
void bspram__combine_record_sources(comp_state *cs, lane_scratch *L, unsigned level, size_t n, size_t ng,
                                    bool answers)
{
    level_rec *R = &cs->lv[level];
    size_t nh = 0;
    if (!answers) { /* no READ or FETCH among the groups: no handles, nothing stored */
        if (ng) /* ghandle may be NULL before the first group */
            memset(L->ghandle, 0xff, ng * sizeof *L->ghandle);
        R->ng = 0;
        return;
    }
    /* Exactly as large as the largest level record yet (not doubled past it):
     * the records of every level stay until the reverse flow, so they are
     * most of the engine's memory per request in flight. Room for every
     * group, so that each answered one's handle and kind are set in one
     * pass (in a batch of answers only, the usual one, that is exact). */
    if (ng + 1 > R->capg) {
        R->capg = (uint32_t)(ng + 1);
        R->first = bspram__base_realloc(R->first, (size_t)R->capg * sizeof *R->first, "bspram_combine");
        R->kind = bspram__base_realloc(R->kind, R->capg, "bspram_combine"); /* same capacity as first */
    }
    bool fetch = false;
    for (size_t g = 0; g < ng; g++) {
        const unsigned kind = bspram__key_kind(L->g[g].key);
        if (!bspram__answers(kind)) {
            L->ghandle[g] = UINT32_MAX;
            continue;
        }
        R->kind[nh] = (uint8_t)kind;
        fetch |= bspram__is_fetch(kind);
        L->ghandle[g] = (uint32_t)nh++;
    }
    R->ng = (uint32_t)nh;
    if (nh == 0)
        return;
    /* No two items met (n = ng, as at degree 1): group h's one source is
     * source h, and no counting is needed. */
    const bool single = n == ng;
    R->single = single; /* first[] is not written: group h's source is h */
    if (single) {
        R->ns = (uint32_t)nh;
    } else {
        memset(R->first, 0, (nh + 1) * sizeof *R->first);
        for (size_t j = 0; j < n; j++) {
            uint32_t h = L->ghandle[L->igroup[j]];
            if (h != UINT32_MAX)
                R->first[h + 1]++;
        }
        for (size_t h = 0; h < nh; h++)
            R->first[h + 1] += R->first[h];
        R->ns = R->first[nh];
    }
    if (R->ns > R->caps) {
        R->caps = R->ns;
        R->src = bspram__base_realloc(R->src, (size_t)R->caps * sizeof *R->src, "bspram_combine");
    }
    /* A READ's answer is the same for all its sources: their values are kept
     * only where a FETCH needs them, 8 bytes a source less for reads. */
    if (fetch && R->ns > R->capc) {
        R->capc = R->ns;
        R->contrib = bspram__base_realloc(R->contrib, (size_t)R->capc * sizeof *R->contrib, "bspram_combine");
    }
    /* Scatter in item order; first[h] is advanced and then restored. */
    for (size_t j = 0; j < n; j++) {
        uint32_t h = L->ghandle[L->igroup[j]];
        if (h == UINT32_MAX)
            continue;
        const uint32_t at = single ? h : R->first[h]++;
        R->src[at] = (struct source){L->isrc[j], L->items[j].handle};
        if (fetch)
            R->contrib[at] = L->items[j].value;
    }
    if (single)
        return;
    for (size_t h = nh; h > 0; h--)
        R->first[h] = R->first[h - 1];
    R->first[0] = 0;
}

void bspram__combine_reply_begin(const bspram_combiner *C, lane_scratch *L)
{
    L->reply_staged = bspram__combine_out_ready(L, C->p) && bspram__bsp_lane_runs(C->m);
    L->sunit = 1; /* a reply is a unit; the forward phases' stage was flushed */
    L->nrep = 0;
}

void bspram__combine_reply_slow(lane_scratch *L, uint64_t dst, uint32_t handle, uint32_t level, uint64_t value)
{
    if (L->reply_staged) { /* the stage is full */
        bspram__combine_out_stage_room(L, 1);
        bspram__combine_reply(L, dst, handle, level, value);
        return;
    }
    L->rep = bspram__grow(L->rep, &L->caprep, L->nrep + 1, sizeof *L->rep, 256, "bspram_combine");
    L->rep[L->nrep++] = (struct pending_reply){dst, {handle, level, value}};
}

/* The component's replies, each destination's in the order they were made:
 * already staged for the lane's runs (a run per destination the lane
 * reaches, partition.c), counted here for the component; or else a run per
 * destination of the component. */
void bspram__combine_send_replies(const bspram_combiner *C, lane_scratch *L, bspram_component *self)
{
    const size_t n = L->nrep;
    L->nrep = 0;
    if (L->reply_staged) {
        if (n)
            bspram__bsp_account(self, n, (uint32_t)sizeof(reply));
        bspram__combine_out_bound(L, C->m, bspram__bsp_lane(self), C->p, 0);
        return;
    }
    if (!bspram__combine_out_ready(L, C->p)) {
        for (size_t j = 0; j < n; j++)
            memcpy(bspram__bsp_reserve(self, L->rep[j].dst, sizeof(reply), 1), &L->rep[j].r, sizeof(reply));
        return;
    }
    for (size_t j = 0; j < n; j++)
        bspram__out_count(L, L->rep[j].dst);
    bspram__combine_out_reserve(L, self, sizeof(reply));
    for (size_t j = 0; j < n; j++)
        memcpy(bspram__out_place(L, L->rep[j].dst, sizeof(reply)), &L->rep[j].r, sizeof(reply));
}

/* Deliver `value` to the sources of group h at `level` of component cs:
 * results (the component's, `results`) for level 1, the requests; replies
 * one level down otherwise. */
static inline void fan_out(bspram_combiner *C, lane_scratch *L, comp_state *cs, uint64_t *results,
                           unsigned level, uint32_t h, uint64_t value)
{
    const level_rec *R = &cs->lv[level];
    if (R->single) { /* one source, no prefix */
        const struct source *sp = &R->src[h];
        if (level == 1)
            results[sp->handle] = value;
        else
            bspram__combine_reply(L, sp->comp, sp->handle, level - 1, value);
        return;
    }
    unsigned kind = R->kind[h];
    uint64_t x = value;
    const uint32_t hi = R->first[h + 1];
    for (uint32_t j = R->first[h]; j < hi; j++) {
        const struct source *sp = &R->src[j];
        if (level == 1)
            results[sp->handle] = x;
        else
            bspram__combine_reply(L, sp->comp, sp->handle, level - 1, x);
        /* The level kept its sources' values; after the last source the
         * prefix is not needed. */
        if (bspram__is_fetch(kind) && j + 1 < hi)
            x = bspram__apply(C, bspram__kind_op(kind), x, R->contrib[j]);
    }
}

void bspram__combine_handle_replies(bspram_combiner *C, const batch_state *b, bspram_component *self,
                            uint64_t c, const bspram__run *runs, size_t nr)
{
    /* Without self (after the last superstep) every reply left is an answer
     * or reaches level 1, which makes no reply: no scratch is needed. */
    lane_scratch *L = self ? &C->ls[bspram__bsp_lane(self)] : NULL;
    comp_state *cs = &C->cs[c];
    uint64_t *results = bspram__batch_results(b, c);
    for (size_t i = 0; i < nr; i++) {
        const char *data = runs[i].data;
        for (uint64_t j = 0; j < runs[i].count; j++, data += runs[i].size) {
            reply r;
            memcpy(&r, data, sizeof r);
            if (r.level == 0) { /* an answer to an item that was a request itself */
                results[r.handle] = r.value;
                continue;
            }
            fan_out(C, L, cs, results, r.level, r.handle, r.value);
        }
    }
    if (self)
        bspram__combine_send_replies(C, L, self);
}
