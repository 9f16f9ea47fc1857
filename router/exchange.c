/* The exchange: the protocol around the transport, the collectives without an
 * exchange, and the records every superstep leaves.
 *
 * One exchange (thread of lane l), every step between lanes through the
 * transport (transport.h):
 *   1. close the lane's send statistics; the transport's allreduce ORs the
 *      tags — telling every lane whether anything was posted at all — and
 *      reduces the lanes' statistics to lane 0: this superstep's send side
 *      and the previous superstep's receive side;
 *   2. lane 0 completes the previous record (r and h) and appends this one
 *      with its send side (q, messages, bytes, …);
 *   3. if anything was posted, the transport builds the inboxes of the lane's
 *      own block and computes their r and h, which reach lane 0 with the
 *      next exchange's reduction (or at bspram__router_flush);
 *   4. the lane resets the storage of the other parity for the superstep to come.
 * So an exchange costs one allreduce (one barrier on shared memory), empty or not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/error.h"
#include "router/router_internal.h"
#include "router/router.h"

#define ROUTER_BIT BSPRAM__TAG_POSTED /* some lane posted a message */
/* A lane posts through its windows for WINDOWS_KEEP supersteps after one in
 * which it posted more than its share of the last-level cache (both parities
 * of every lane's storage no longer fit: the lines would go to memory anyway;
 * below, receivers find them in cache, and copying them out of the windows
 * with non-temporal stores would only send them away). Programs alternate
 * heavy and light supersteps (a combining batch's phases and their replies),
 * hence the supersteps of grace. */
#define WINDOWS_KEEP 8u

/* This lane's part of the exchange's statistics: what it sent in this
 * superstep (parity par; if with_sent) and, if the previous exchange delivered, the most
 * its components received then (the previous record's receive side). Returns
 * BSPRAM__TAG_STATS if any is non-zero. */
static unsigned lane_stats(const bspram__lane *ln, unsigned par, int with_sent, bspram__stats *st)
{
    const bspram__lane_sent *s = &ln->sent[par];
    memset(st, 0, sizeof *st);
    if (with_sent)
        *st = (bspram__stats){s->messages, s->bytes, s->q, s->h_out, s->max_message, s->work, 0, 0};
    if (ln->delivered) {
        st->r = ln->r[par ^ 1u];
        st->h_in = ln->h_in[par ^ 1u];
    }
    return st->messages | st->work | st->r | st->h_in ? BSPRAM__TAG_STATS : 0;
}

/* Lane 0: complete the last record with its receive side (r and h), from the
 * reduction of the lanes' statistics. */
static void complete_pending(bspram_router *r, const bspram__stats *st)
{
    if (!r->pending)
        return;
    bspram_record *rec = &r->log.records[r->log.n - 1];
    rec->r = st->r;
    if (st->h_in > rec->h_bytes)
        rec->h_bytes = st->h_in;
    rec->charge = rec->q > rec->r ? rec->q : rec->r;
    r->pending = 0;
}

void bspram__router_waiting(void *router)
{
    bspram_router *r = router;
    if (r->waiting & BSPRAM__WAIT_CLOCK)
        r->t_enter = bspram__clock();
    if (r->waiting & BSPRAM__WAIT_LOG)
        bspram__router_log_ready(&r->log);
}

/* Lane 0: the record of this exchange from the reduced send statistics. */
static void append_record(bspram_router *r, const bspram__stats *st, int delivered)
{
    double t_end = bspram__clock();
    bspram_record rec;
    memset(&rec, 0, sizeof rec);
    rec.superstep = r->lane[r->lane_lo].step;
    memcpy(rec.label, r->label, sizeof rec.label);
    rec.messages = st->messages;
    rec.bytes = st->bytes;
    rec.q = st->q;
    rec.h_bytes = st->h_out;
    rec.max_message = st->max_message;
    rec.work = st->work;
    rec.charge = rec.q;
    rec.seconds = t_end - r->clock;
    rec.exchange_seconds = t_end - r->t_enter;
    r->clock = t_end;
    bspram_log_append(&r->log, &rec);
    r->pending = delivered;
}

unsigned bspram__router_exchange(bspram_router *r, unsigned lane, unsigned tag)
{
    BSPRAM_NONNULL(r);
    bspram__lane *ln = &r->lane[lane];
    if (tag & BSPRAM_TAG_ROUTER_MASK)
        bspram__base_fatal("internal error: an exchange with tag %#x; bits %#x are reserved by the router",
                     tag, BSPRAM_TAG_ROUTER_MASK);
    const unsigned par = (unsigned)(ln->step & 1);
    if (lane == r->lane_lo) {
        /* The exchange begins now; closing the outboxes (the windows' last
         * lines) and keeping the pattern are part of it. With neither to do,
         * the clock is read while lane 0 waits in the barrier. */
        r->waiting = BSPRAM__WAIT_LOG;
        if (ln->n_touched[par] || r->keep_pattern)
            r->t_enter = bspram__clock();
        else
            r->waiting |= BSPRAM__WAIT_CLOCK;
    }
    bspram__router_close_src(&ln->sent[par]);
    bspram__router_outboxes_close(ln, par);
    if (r->mail && ln->n_touched[par])
        r->transport->seal(r, lane, par);
    /* Windows pay off once a superstep's messages no longer fit the caches
     * (the lines go to memory anyway); below, receivers find them in cache. */
    if (ln->sent[par].bytes + sizeof(bspram__entry) * ln->sent[par].messages >= r->windows_from)
        ln->heavy = WINDOWS_KEEP;
    else if (ln->heavy)
        ln->heavy--;
    ln->windows = r->p <= BSPRAM__WINDOW_MAX_P && ln->heavy;
    if (ln->windows && !ln->window) /* made when first needed; without, posts go to the chunks */
        ln->windows = (ln->window = aligned_alloc(BSPRAM__LINE, (size_t)r->p * BSPRAM__WINDOW)) != NULL;
    if (r->keep_pattern) {
        bspram__router_pattern_lane(ln, par);
        bspram__router_pattern_enter(ln, par);
    }
    bspram__stats st;
    tag |= lane_stats(ln, par, 1, &st) | (ln->n_touched[par] ? ROUTER_BIT : 0);
    unsigned all = r->transport->allreduce(r, lane, tag, &st) & ~BSPRAM__TAG_STATS;
    if (all & BSPRAM_TAG_LEAVE) /* a lane has left: deliver nothing, wait for nobody */
        return all & ~ROUTER_BIT;
    ln->delivered = (all & ROUTER_BIT) != 0;
    if (lane == r->lane_lo) {
        complete_pending(r, &st);
        append_record(r, &st, ln->delivered);
        if (r->keep_pattern)
            bspram__router_pattern_record(r, par, r->log.n - 1, ln->delivered);
    }
    if (ln->delivered) {
        r->transport->deliver(r, lane);
        /* Senders write this parity's list again two supersteps on, after
         * the next exchange's barrier, which this lane reaches only after
         * emptying it here. */
        atomic_store_explicit(&ln->n_senders[par], 0, memory_order_relaxed);
    }
    ln->step++;
    bspram__router_reset_parity(ln, par ^ 1u);
    if (r->keep_pattern)
        ln->left = bspram__clock(); /* the next superstep's computation starts */
    return all & ~ROUTER_BIT;
}

/* A collective without an exchange: the allreduce with the receive side of
 * the last exchange (so lane 0 completes the record), the router's bits
 * cleared from the result. A lane that left is fatal unless the caller is
 * leaving too (`call` NULL). */
static unsigned collective(bspram_router *r, unsigned lane, unsigned tag, const char *call)
{
    if (call && (tag & BSPRAM_TAG_ROUTER_MASK))
        bspram__base_fatal("%s(tag=%#x): bits %#x are reserved by the router", call, tag,
                     BSPRAM_TAG_ROUTER_MASK);
    bspram__lane *ln = &r->lane[lane];
    bspram__stats st;
    tag |= lane_stats(ln, (unsigned)(ln->step & 1), 0, &st);
    if (lane == r->lane_lo)
        r->waiting = 0; /* no record follows */
    unsigned all = r->transport->allreduce(r, lane, tag, &st);
    if (call && (all & BSPRAM_TAG_LEAVE))
        bspram__base_fatal("%s: lane %u is in a barrier (superstep %llu) while another lane's program "
                     "has ended; every lane must make the same collective calls", call, lane,
                     (unsigned long long)ln->step);
    if (lane == r->lane_lo)
        complete_pending(r, &st);
    return all & ~(ROUTER_BIT | BSPRAM__TAG_STATS);
}

unsigned bspram__router_barrier(bspram_router *r, unsigned lane, unsigned tag)
{
    BSPRAM_NONNULL(r);
    return collective(r, lane, tag, "a barrier");
}

unsigned bspram__router_leave(bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    /* The last exchange's receive side travels with the leave, so the log is
     * complete when the team ends, without reading any lane's state. */
    return collective(r, lane, BSPRAM_TAG_LEAVE, NULL);
}

void bspram__router_complete(bspram_router *r, unsigned lane)
{
    BSPRAM_NONNULL(r);
    collective(r, lane, 0, "completing the records");
}

void bspram__router_gather(bspram_router *r, unsigned lane, const void *mine, size_t n, void *all)
{
    BSPRAM_NONNULL(r);
    if (n > 0) { /* every lane brings n bytes; the process's first lane receives them all */
        BSPRAM_NONNULL(mine);
        if (lane == r->lane_lo)
            BSPRAM_NONNULL(all);
    }
    if ((uint64_t)n * r->lanes >= (UINT64_C(1) << 31))
        bspram__base_fatal("gathering what the processes agree on (%zu bytes each): %u lanes × the bytes must stay below 2^31", n, r->lanes);
    r->gather[lane] = mine;
    collective(r, lane, 0, "gathering what the processes agree on");
    if (lane == r->lane_lo) {
        for (unsigned l = r->lane_lo; l < r->lane_hi; l++)
            if (n)
                memcpy((char *)all + (size_t)l * n, r->gather[l], n);
        if (r->transport->gather)
            r->transport->gather(r->tstate, all, n);
    }
    collective(r, lane, 0, "gathering what the processes agree on"); /* the lanes' parts are read */
}

void bspram__router_set_label(bspram_router *r, const char *label)
{
    BSPRAM_NONNULL(r);
    snprintf(r->label, sizeof r->label, "%s", label ? label : "");
}

const char *bspram__router_label(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return r->label;
}

void bspram__router_start_clock(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    r->clock = bspram__clock();
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++)
        r->lane[l].left = r->clock;
}

/* The receive side of the last exchange, folded from this process's lanes
 * (the team has stopped, so their state is quiet): for teams that ended
 * without bspram__router_leave. */
static void complete_from_lanes(bspram_router *r)
{
    if (!r->pending)
        return;
    bspram__stats st;
    memset(&st, 0, sizeof st);
    unsigned par = (unsigned)(r->log.records[r->log.n - 1].superstep & 1);
    for (unsigned l = r->lane_lo; l < r->lane_hi; l++) {
        bspram__stats x = {0, 0, 0, 0, 0, 0, r->lane[l].r[par], r->lane[l].h_in[par]};
        bspram__stats_fold(&st, &x);
    }
    if (r->transport->fold) /* and from the other processes' lanes */
        r->transport->fold(r->tstate, &st);
    complete_pending(r, &st);
}

void bspram__router_flush(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    complete_from_lanes(r);
}

const bspram_log *bspram__router_log(const bspram_router *r)
{
    BSPRAM_NONNULL(r);
    return &r->log;
}

void bspram__router_clear_log(bspram_router *r)
{
    BSPRAM_NONNULL(r);
    complete_from_lanes(r);
    bspram__router_log_clear(&r->log);
    bspram__router_pattern_clear(&r->pattern);
    r->pattern_whole = r->whole_flows = r->whole_loads = 0;
}
