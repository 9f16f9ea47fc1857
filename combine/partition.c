/* A component's records partitioned by destination before they are posted
 * (the record channel, router.h): the two passes of a radix partition
 * (Polychroniou and Ross, SIGMOD 2014) — a histogram of destinations, then a
 * scatter — with one reservation per destination between them, so that a
 * phase posts a run per destination reached instead of a message per record
 * (Valiant §2's records are the same: a run of n records of s bytes is n
 * messages of s bytes). engine_internal.h has the passes' inline steps. */
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"

bool bspram__combine_out_ready(lane_scratch *L, uint64_t p)
{
    if (L->dcount)
        return true;
    if (p > BSPRAM__OUT_MAX_P)
        return false;
    /* Zero pages: a lane touches only the destinations it reaches. */
    L->dcount = bspram__base_calloc(p, sizeof *L->dcount, "bspram_combine");
    L->dcur = bspram__base_malloc(p * sizeof *L->dcur, "bspram_combine");
    L->dtouch = bspram__base_malloc(p * sizeof *L->dtouch, "bspram_combine");
    L->ntouch = 0;
    return true;
}

void bspram__combine_out_reserve(lane_scratch *L, bspram_component *self, uint32_t size)
{
    bspram__bsp_reserve_runs(self, size, L->ntouch, L->dtouch, L->dcount, L->dcur);
    L->ntouch = 0;
}

void bspram__combine_out_stage(lane_scratch *L, bspram_component *self, size_t n)
{
    bspram__bsp_account(self, n, (uint32_t)sizeof(compact_wire));
    bspram__combine_out_stage_room(L, n);
}

void bspram__combine_out_stage_room(lane_scratch *L, size_t n)
{
    if (L->nstage + n <= L->capstage)
        return;
    L->capstage = bspram__capacity(L->capstage, L->nstage + n, 256);
    L->stage = bspram__base_realloc(L->stage, L->capstage * sizeof *L->stage, "bspram_combine");
    L->stage_dst = bspram__base_realloc(L->stage_dst, L->capstage * sizeof *L->stage_dst, "bspram_combine");
}

void bspram__combine_out_bound(lane_scratch *L, bspram_machine *m, unsigned lane, uint64_t p, size_t n)
{
    const uint64_t bound = 256 * p > (UINT64_C(1) << 16) ? 256 * p : (UINT64_C(1) << 16);
    if (L->nstage && L->nstage + n > bound)
        bspram__combine_out_flush(L, m, lane);
}

void bspram__combine_out_flush(lane_scratch *L, bspram_machine *m, unsigned lane)
{
    if (!L->nstage)
        return;
    const uint32_t size = L->sunit * (uint32_t)sizeof(compact_wire);
    bspram__bsp_reserve_lane(m, lane, size, L->ntouch, L->dtouch, L->dcount, L->dcur);
    L->ntouch = 0;
    if (L->sunit == 1)
        for (size_t i = 0; i < L->nstage; i++)
            memcpy(bspram__out_place(L, L->stage_dst[i], sizeof(compact_wire)), &L->stage[i], sizeof(compact_wire));
    else /* wire records, two units each */
        for (size_t i = 0; i < L->nstage; i += 2)
            memcpy(bspram__out_place(L, L->stage_dst[i], sizeof(wire)), &L->stage[i], sizeof(wire));
    L->nstage = 0;
}
