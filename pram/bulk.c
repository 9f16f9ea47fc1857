/* The bulk phases (pram.h): gather, scatter, scatter-reduce, fetch-and-op.
 *
 * A phase is one combining batch (Valiant 1990, §4: the PRAM's concurrent
 * accesses to one cell are combined on the way to its owner, so a step of
 * n = p·s VPs costs the h-relation of s requests per component, not the
 * degree of the hottest cell). The requests are in VP order: VP i's k slots
 * are cells[i·k .. i·k+k), and component c hosts VPs [c·per, c·per+per), so
 * component c's requests are the slots [c·per·k, (c+1)·per·k) without their
 * NONE entries. One team does the whole phase: each lane checks and counts
 * its own components' requests, all lanes run the batch
 * (bspram__combine_team_parts), and the engine reads each component's slots
 * in the caller's arrays as they are (the arrays form of a batch part, a
 * NONE slot a gap: team_internal.h) and writes its answers straight into
 * `out` — no copy of the requests, no buffer of answers, whatever n·k is.
 * Only under the last-write rule (EREW, CREW) does a component with a VP
 * that writes one cell twice have its requests built, in the lane's buffer
 * of exactly that many (reused by the next phase), the VP's earlier writes
 * taking its last one's value.
 *
 * A slot that names no cell is found while counting: the lane keeps its
 * first (its least slot), its components issue nothing, the batch runs as a
 * collective must, and the host reports the least lane's — the same slot for
 * any T (pram.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/error.h"
#include "base/grow.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

typedef struct bulk_phase {
    bspram_pram *P;
    const char *call;
    uint64_t k;
    const uint64_t *cells;
    const uint64_t *values; /* NULL: reads */
    uint64_t *out;          /* NULL: no answers */
    uint64_t off;           /* slot s is at [s − off] of the three: 0, or the owned
                               forms' lo·k (their arrays start at VP lo) */
    uint8_t kind;
} bulk_phase;

/* Make *ptr hold `need` elements, exactly (its contents are not kept): a
 * phase's buffers are sized by its requests, not doubled past them. */
static void *reserve_exact(void *ptr, size_t *cap, size_t need, size_t elem, const char *what)
{
    if (need <= *cap)
        return ptr;
    free(ptr);
    *cap = need;
    return bspram__base_malloc(need * elem, what);
}

/* Does a VP write one cell twice among its k slots? Only asked under the
 * last-write rule (bspram__pram_last_write_counts), where such a VP's
 * earlier writes must take its last one's value: a VP of more than 16 slots
 * is counted as one that does (its requests are built and sorted, as
 * per-VP steps do). */
static bool writes_twice(const uint64_t *cells, uint64_t k)
{
    if (k > 16)
        return true;
    for (uint64_t i = 0; i + 1 < k; i++)
        if (cells[i] != BSPRAM_PRAM_NONE)
            for (uint64_t j = i + 1; j < k; j++)
                if (cells[j] == cells[i])
                    return true;
    return false;
}

_Static_assert(BSPRAM_PRAM_NONE == BSPRAM__NO_REQUEST, "a NONE slot is the engine's gap");

/* The mark of a part whose requests the lane builds (set while counting). */
static const bspram_request to_build;

static void bulk_phase_lane(bspram_team *t, void *arg)
{
    const bulk_phase *b = arg;
    bspram_pram *P = b->P;
    pram_lane *L = &P->lanes[bspram__bsp_team_lane(t)];
    const uint64_t k = b->k, lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t), off = b->off;
    /* Count first: a component's part is the caller's arrays (with their
     * NONE slots as the engine's gaps), but under the last-write rule a
     * component with a VP that writes one cell twice has its requests built
     * in the lane's buffer, exactly that many. */
    uint64_t nreq = 0;
    const bool last_counts = b->values && b->kind == bspram__pram_write_kind(P) && bspram__pram_last_write_counts(P);
    L->failed = false;
    for (uint64_t c = lo; c < hi && !L->failed; c++) {
        uint64_t v0, v1, r = 0;
        bool built = false;
        bspram__pram_vps(P, c, &v0, &v1);
        for (uint64_t s = v0 * k, e = v1 * k; s < e; s++) {
            const uint64_t cell = b->cells[s - off];
            if (cell == BSPRAM_PRAM_NONE)
                continue;
            if (!bspram__pram_cell_ok(P, cell)) {
                snprintf(L->error, sizeof L->error, "%s(k=%" PRIu64 ", cells[%" PRIu64 "]=0x%" PRIx64
                         "): names no cell of a live array (VP %" PRIu64 ", step %" PRIu64 ")",
                         b->call, k, s - off, cell, s / k, P->step);
                L->failed = true;
                break;
            }
            r++;
        }
        if (last_counts && k > 1)
            for (uint64_t v = v0; v < v1 && !built; v++)
                built = writes_twice(b->cells + (v * k - off), k);
        P->parts[c].n = r;
        P->parts[c].requests = built ? &to_build : NULL; /* until the lane's buffer is made */
        if (built)
            nreq += r;
    }
    if (L->failed) { /* the host reports it */
        bspram__pram_silent(P, lo, hi);
        bspram__combine_team_parts(t, P->C, P->parts, NULL);
        return;
    }
    L->rq = reserve_exact(L->rq, &L->caprq, nreq, sizeof *L->rq, b->call);
    L->nrq = 0;
    bspram_request *q = L->rq;
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t v0, v1;
        bspram__pram_vps(P, c, &v0, &v1);
        const uint64_t base = v0 * k, r = P->parts[c].n;
        bspram_batch_part *part = &P->parts[c];
        if (!part->requests) {
            /* The engine reads the caller's arrays as they are (the arrays
             * form, team_internal.h): slot j is VP v0 + j/k's, a NONE slot
             * a gap, and its answer goes to out[slot] (a gap's is left). */
            *part = (bspram_batch_part){.n = r,
                                        .gaps = (v1 - v0) * k - r,
                                        .results = b->out ? b->out + (base - off) : NULL,
                                        .cells = b->cells + (base - off),
                                        .values = b->values ? b->values + (base - off) : NULL,
                                        .label0 = (uint32_t)v0,
                                        .per = (uint32_t)k,
                                        .kind = b->kind};
            continue;
        }
        /* Under the last-write rule, a VP's last slot for a cell counts;
         * only writes come here (no answers). */
        part->requests = q;
        part->results = NULL;
        for (uint64_t v = v0; v < v1; v++) {
            bspram_request *mine = q;
            for (uint64_t s = v * k, e = s + k; s < e; s++)
                if (b->cells[s - off] != BSPRAM_PRAM_NONE)
                    *q++ = (bspram_request){b->cells[s - off], b->values[s - off], b->kind, (uint32_t)v};
            if (q - mine > 1)
                bspram__pram_last_write(L, mine, (size_t)(q - mine));
        }
    }
    bspram__combine_team_parts(t, P->C, P->parts, NULL);
}

/* A phase's answer slots: slot s is VP s/k's. */
typedef struct answer_slots {
    const bspram_pram *P;
    uint64_t k;
    const uint64_t *cells;
} answer_slots;

/* The component hosting slot s's VP (VP v lives on component v div
 * ceil(n/p)); a NONE slot holds the caller's value, alike on every rank. */
static uint64_t slot_owner(uint64_t s, const void *slots)
{
    const answer_slots *a = slots;
    return a->cells[s] == BSPRAM_PRAM_NONE ? BSPRAM__BSP_EVERY_RANK : s / a->k / a->P->per;
}

/* Over MPI a rank has the answers of its own components' VPs: the ranks
 * share them, so that `out` is whole everywhere. */
static void share_answers(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out)
{
    bspram__bsp_machine_share_owned(P->m, out, (size_t)(P->n * k), slot_owner, &(answer_slots){P, k, cells});
}

/* One bulk phase as one batch; `is_read`: the read phase of a new step;
 * `owned`: the arrays hold the rank's VPs only (bspram_pram_owned), and no
 * answers are shared. */
static void bulk(bspram_pram *P, const char *call, uint64_t k, const uint64_t *cells,
                 const uint64_t *values, uint64_t *out, uint8_t kind, bool is_read, bool owned)
{
    if (k == 0)
        bspram__base_fatal("%s(k=0): k must be at least 1 (cells per VP)", call);
    if (P->per > UINT32_MAX / k)
        bspram__base_fatal("%s(k=%" PRIu64 "): ceil(n/p)·k = %" PRIu64 "·%" PRIu64 " requests per component "
                     "exceed the engine's 2^32 - 1", call, k, P->per, k);
    if (!cells)
        bspram__base_fatal("%s(k=%" PRIu64 "): cells is NULL", call, k);
    if (!is_read && !values)
        bspram__base_fatal("%s(k=%" PRIu64 "): values is NULL", call, k);
    const bool answers = is_read || (kind >= bspram_kind_fetch(0) && kind < bspram_kind_combine_write(0));
    if (answers && !out)
        bspram__base_fatal("%s(k=%" PRIu64 "): out is NULL", call, k);

    bspram_pram_step_record *rec = bspram__pram_begin_phase(P, is_read ? PHASE_READ : PHASE_WRITE, false);
    bspram__pram_watch(P, is_read);
    size_t mark = bspram__pram_log_mark(P);
    uint64_t lo = 0, hi;
    if (owned)
        bspram_pram_owned(P, &lo, &hi);
    bulk_phase b = {P, call, k, cells, is_read ? NULL : values, answers ? out : NULL, lo * k, kind};
    bspram__bsp_machine_team_for(P->m, bulk_phase_lane, &b, call);
    bspram__pram_report_misuse(P);
    if (answers && !owned)
        share_answers(P, k, cells, out);
    uint64_t issued = bspram__pram_issued(P);
    uint64_t violations = bspram__pram_conflicts(P);
    bspram__pram_end_phase(P, rec, mark, is_read, answers, issued, violations);
    P->site.file = NULL; /* a later call without its macro has no site */
}

bspram_pram *bspram_pram_at(bspram_pram *P, const char *file, unsigned line)
{
    if (P) {
        P->site.file = file;
        P->site.line = line;
    }
    return P;
}

void (bspram_pram_gather)(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out)
{
    BSPRAM_NONNULL(P);
    bulk(P, "bspram_pram_gather", k, cells, NULL, out, BSPRAM_READ, true, false);
}

void (bspram_pram_scatter)(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values)
{
    BSPRAM_NONNULL(P);
    bulk(P, "bspram_pram_scatter", k, cells, values, NULL, bspram__pram_write_kind(P), false, false);
}

/* Reductions and fetch-and-op are operations of the combining model only. */
static void combining_only(const bspram_pram *P, const char *call, unsigned op)
{
    if (P->cfg.model != BSPRAM_CRCW_COMBINING)
        bspram__base_fatal("%s: the %s model has no combining operations; use CRCW-combining", call,
                     bspram_pram_model_name(P->cfg.model));
    bspram__pram_check_op(P, op, call);
}

void (bspram_pram_scatter_reduce)(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op)
{
    BSPRAM_NONNULL(P);
    combining_only(P, "bspram_pram_scatter_reduce", op);
    bulk(P, "bspram_pram_scatter_reduce", k, cells, values, NULL, bspram_kind_reduce(op), false, false);
}

void (bspram_pram_fetch_op)(bspram_pram *P, uint64_t k, const uint64_t *cells,
                          const uint64_t *values, unsigned op, uint64_t *out)
{
    BSPRAM_NONNULL(P);
    combining_only(P, "bspram_pram_fetch_op", op);
    bulk(P, "bspram_pram_fetch_op", k, cells, values, out, bspram_kind_fetch(op), false, false);
}

/* ---- the owned forms: the rank's VPs only (pram.h) ---- */

void bspram_pram_owned(const bspram_pram *P, uint64_t *lo, uint64_t *hi)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(lo);
    BSPRAM_NONNULL(hi);
    uint64_t first, end;
    bspram__bsp_machine_block(P->m, &first, &end); /* VP v lives on component v div per */
    *lo = first * P->per < P->n ? first * P->per : P->n;
    *hi = end * P->per < P->n ? end * P->per : P->n;
}

void (bspram_pram_gather_owned)(bspram_pram *P, uint64_t k, const uint64_t *cells, uint64_t *out)
{
    BSPRAM_NONNULL(P);
    bulk(P, "bspram_pram_gather_owned", k, cells, NULL, out, BSPRAM_READ, true, true);
}

void (bspram_pram_scatter_owned)(bspram_pram *P, uint64_t k, const uint64_t *cells, const uint64_t *values)
{
    BSPRAM_NONNULL(P);
    bulk(P, "bspram_pram_scatter_owned", k, cells, values, NULL, bspram__pram_write_kind(P), false, true);
}

void (bspram_pram_scatter_reduce_owned)(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                      const uint64_t *values, unsigned op)
{
    BSPRAM_NONNULL(P);
    combining_only(P, "bspram_pram_scatter_reduce_owned", op);
    bulk(P, "bspram_pram_scatter_reduce_owned", k, cells, values, NULL, bspram_kind_reduce(op), false, true);
}

void (bspram_pram_fetch_op_owned)(bspram_pram *P, uint64_t k, const uint64_t *cells,
                                const uint64_t *values, unsigned op, uint64_t *out)
{
    BSPRAM_NONNULL(P);
    combining_only(P, "bspram_pram_fetch_op_owned", op);
    bulk(P, "bspram_pram_fetch_op_owned", k, cells, values, out, bspram_kind_fetch(op), false, true);
}
