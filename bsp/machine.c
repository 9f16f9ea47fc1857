/* The BSP machine: p components on T threads (bsp/threads.h: the
 * library's own, placed on cores as MPI places ranks, bsp/placement.h).
 * Thread l is the router's lane l and serves its block of components. */
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "bsp/machine.h"
#include "base/environment.h"
#include "bsp/trace.h"
#include "bsp/machine_internal.h"
#include "bsp/placement.h"
#include "bsp/threads.h"
#include "router/router.h"
#include "router/router_internal.h" /* the inline hot path of posting */

/* A lane's held inboxes (bspram__bsp_team_hold_inbox): written and read only by
 * the lane's thread while a team runs, by the host once it has ended. On a
 * cache line of its own: bspram_inbox reads `restored` at every call. */
typedef struct lane_hold {
    _Alignas(64) bool held;   /* the lane has held at least once */
    bool restored;            /* the copy is the block's inbox until the next exchange */
    uint64_t first;           /* the block's first component */
    uint64_t *off;            /* [block + 1]: component i's messages are msgs[off[i] .. off[i+1]) */
    size_t cap_off;
    bspram_message *msgs;     /* headers, data pointing into bytes */
    size_t cap_msgs;
    unsigned char *bytes;     /* the payloads, each at an 8-byte aligned offset */
    size_t cap_bytes;
} lane_hold;

struct bspram_machine {
    bspram_config config;
    lane_hold *hold;          /* [threads] */
    bspram_router *router;
    unsigned char *local;     /* p × local_bytes */
    bool local_whole;         /* every component's local state is here: one process, or
                                 gathered since the last run (bspram_machine_gather_local) */
    uint64_t supersteps;      /* supersteps run so far */
    unsigned id;              /* the machine's number in the trace */
    atomic_bool running;      /* a team is running (run_team) */
    bspram_placement place;   /* where this process's lanes run */
};

struct bspram_team {
    bspram_machine *m;
    unsigned lane;
    unsigned lead;            /* the process's first lane: it owns the label */
    uint64_t first, end;      /* the lane's block */
    uint64_t superstep;       /* exchanges so far */
};

struct bspram_component {
    bspram_machine *m;
    unsigned lane;
    uint64_t pid;
    uint64_t superstep;
    bspram_team *team;  /* SPMD: the component's lane, which may end supersteps;
                           NULL in a bulk step (it ends its superstep by returning) */
};

bspram_config bspram_config_default(uint64_t p)
{
    bspram_config c;
    memset(&c, 0, sizeof c);
    c.p = p;
    int t = omp_get_max_threads();
    t = t > BSPRAM_DEFAULT_MAX_THREADS ? BSPRAM_DEFAULT_MAX_THREADS : t;
    long all = (long)t * bspram_ranks(); /* over MPI: T on every rank */
    c.threads = all > BSPRAM_MAX_THREADS ? BSPRAM_MAX_THREADS : (int)all;
    /* Not the probe's figures: a default that reads no file gives the same
     * config in every process and test (params.h says how to load them). */
    c.g = 1;
    c.l = 1;
    return c;
}

/* Over MPI a bulk machine of fewer components than ranks would leave ranks
 * with nothing to hold, whose hosts could then not be given what the
 * components hold. Such a machine runs whole on every rank instead, on the
 * shared-memory transport with at most a thread per component: every rank
 * computes the same components, records and results (the run is
 * deterministic), and none waits for another. BSPlib's sections spread
 * their processes even then (bspram__bsp_machine_create_spread): a process's
 * effects (its output) must happen once. */
static bspram_machine *create(const bspram_config *config, bool replicate)
{
    if (config->p < 1 || config->p > BSPRAM_MAX_COMPONENTS)
        bspram__base_fatal("bspram_machine_create(p=%llu, threads=%d): p must be in [1, %llu]",
                     (unsigned long long)config->p, config->threads,
                     (unsigned long long)BSPRAM_MAX_COMPONENTS);
    if (config->threads < 1 || config->threads > BSPRAM_MAX_THREADS)
        bspram__base_fatal("bspram_machine_create(p=%llu, threads=%d): threads must be in [1, %d]",
                     (unsigned long long)config->p, config->threads, BSPRAM_MAX_THREADS);
    /* g and l price every superstep (bspram_machine_predicted_cost): a NaN
     * or a negative one would make every prediction meaningless, silently. */
    if (!(isfinite(config->g) && config->g >= 0 && isfinite(config->l) && config->l >= 0))
        bspram__base_fatal("bspram_machine_create(p=%llu, threads=%d, g=%g, l=%g): g and l must be finite "
                     "and >= 0", (unsigned long long)config->p, config->threads, config->g, config->l);
    bspram_machine *m = bspram__base_calloc(1, sizeof *m, "bspram_machine_create");
    m->config = *config;
    /* Over MPI a machine with a component per rank has a lane on every rank
     * (the records do not depend on the lanes): every rank then takes part in
     * the host's collectives with what its components hold. */
    unsigned ranks = bspram_ranks();
    const bool whole = replicate && ranks > 1 && config->p < ranks;
    if (whole && (uint64_t)config->threads > config->p)
        m->config.threads = (int)config->p; /* p < ranks: a thread per component */
    else if (ranks > 1 && (unsigned)config->threads < ranks && config->p >= ranks)
        m->config.threads = (int)ranks;
    config = &m->config;
    m->router = whole ? bspram__router_create_on(config->p, (unsigned)config->threads, "shm")
                      : bspram__router_create(config->p, (unsigned)config->threads);
    if (config->local_bytes)
        m->local = bspram__base_calloc(config->p, config->local_bytes, "bspram_machine_create (local state)");
    m->local_whole = true; /* all zero, alike everywhere, until a run */
    m->hold = aligned_alloc(64, (size_t)config->threads * sizeof *m->hold);
    if (!m->hold)
        bspram__base_fatal("bspram_machine_create(p=%llu, threads=%d): out of memory",
                     (unsigned long long)config->p, config->threads);
    memset(m->hold, 0, (size_t)config->threads * sizeof *m->hold);
    atomic_init(&m->running, false);
    m->id = bspram__bsp_trace_next_id();
    if (bspram__base_environment_read().pattern)
        bspram__router_keep_pattern(m->router, true);
    unsigned lo, hi;
    bspram__router_local_lanes(m->router, &lo, &hi);
    bspram__bsp_placement_make(&m->place, hi - lo, bspram__router_spread(m->router));
    return m;
}

bspram_machine *bspram_machine_create(const bspram_config *config)
{
    BSPRAM_NONNULL(config);
    return create(config, true);
}

bspram_machine *bspram__bsp_machine_create_spread(const bspram_config *config)
{
    return create(config, false);
}

/* Whether this process writes the machine's records to BSPRAM_TRACE: over
 * MPI every rank has them, and the one that runs lane 0 writes them (rank 0
 * for a machine that runs whole on every rank). */
static bool writes_trace(const bspram_machine *m)
{
    unsigned lo, hi;
    bspram__router_local_lanes(m->router, &lo, &hi);
    return lo == 0 && hi > 0 && (bspram__router_spread(m->router) || bspram_rank() == 0);
}

/* The log as the trace writers see it (completed first; over MPI with the
 * processes' patterns put together: every rank with lanes takes part). */
static bspram_log_view log_view(bspram_machine *m)
{
    bspram__router_flush(m->router);
    bspram__router_pattern_gather(m->router);
    const bspram_log *log = bspram__router_log(m->router);
    return (bspram_log_view){.machine = m->id, .p = m->config.p, .records = log->records,
                             .n = log->n, .pattern = bspram__router_pattern(m->router)};
}

void bspram_machine_destroy(bspram_machine *m)
{
    if (!m)
        return;
    bspram_log_view log = log_view(m);
    if (writes_trace(m))
        bspram__bsp_trace_add(&log);
    bspram__router_destroy(m->router);
    for (int l = 0; l < m->config.threads; l++) {
        free(m->hold[l].off);
        free(m->hold[l].msgs);
        free(m->hold[l].bytes);
    }
    free(m->hold);
    free(m->local);
    bspram__bsp_placement_free(&m->place);
    free(m);
}

uint64_t bspram_machine_p(const bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    return m->config.p;
}

int bspram_machine_threads(const bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    return m->config.threads;
}

uint64_t bspram_machine_seed(const bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    return m->config.seed;
}

bspram_router *bspram__bsp_machine_router(bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    return m->router;
}

bool bspram__bsp_machine_spread(const bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    return bspram__router_spread(m->router);
}

void bspram__bsp_machine_lanes(const bspram_machine *m, unsigned *lo, unsigned *hi)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(lo);
    BSPRAM_NONNULL(hi);
    bspram__router_local_lanes(m->router, lo, hi);
}

/* The rank's lanes are a block, and so are their components (router.h). */
void bspram__bsp_machine_block(const bspram_machine *m, uint64_t *first, uint64_t *end)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(first);
    BSPRAM_NONNULL(end);
    unsigned lo, hi;
    bspram__router_local_lanes(m->router, &lo, &hi);
    *first = bspram__router_lane_first(m->router, lo);
    *end = bspram__router_lane_first(m->router, hi);
}

/* Over MPI a rank's components change only the rank's copy of the local
 * state; the others' copies are stale until the host gathers them. */
void bspram_machine_gather_local(bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    if (m->local)
        bspram__bsp_machine_share_parts(m, m->local, m->config.local_bytes, NULL, NULL, NULL);
    m->local_whole = true;
}

void bspram_machine_owned(const bspram_machine *m, uint64_t *first, uint64_t *end)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(first);
    BSPRAM_NONNULL(end);
    bspram__bsp_machine_block(m, first, end);
}

const cpu_set_t *bspram__bsp_machine_place(const bspram_machine *m, unsigned i)
{
    BSPRAM_NONNULL(m);
    return bspram__bsp_placement_of(&m->place, i);
}

/* What each thread of a team runs. */
typedef struct team_run {
    bspram_machine *m;
    void (*fn)(bspram_team *, void *);
    void *arg;
    unsigned lo;
    uint64_t done;
} team_run;

static void team_lane(unsigned index, void *arg)
{
    team_run *run = arg;
    bspram_machine *m = run->m;
    bspram_router *r = m->router;
    unsigned lane = run->lo + index;
    bspram_team t = {m, lane, run->lo, bspram__router_lane_first(r, lane),
                     bspram__router_lane_first(r, lane + 1), m->supersteps};
    run->fn(&t, run->arg);
    /* Meet the others one last time: a lane still exchanging learns that
     * this one has left instead of waiting for it; the leave also completes
     * the last record. */
    bspram__router_leave(r, lane);
    if (lane == run->lo)
        run->done = t.superstep - m->supersteps;
}

/* The team of T threads; `call` names the API function in errors. */
static void run_team(bspram_machine *m, void (*fn)(bspram_team *, void *), void *arg,
                     const char *call)
{
    bspram_router *r = m->router;
    /* One team at a time: a run started from inside one of the machine's own
     * steps would, with T = 1, run to completion in the middle of the outer
     * superstep and interleave its records and superstep count with it. The
     * flag is atomic because a second run may also come from another
     * thread, outside the team, where nothing orders it with this one. */
    if (atomic_exchange(&m->running, true))
        bspram__base_fatal("%s: the machine's team is already running (a call from inside one of its "
                     "steps or programs, or from another thread); a machine runs one team at a time",
                     call);
    bspram__router_start_clock(r);
    /* This process's lanes: all of them, or a rank's block over MPI. */
    unsigned lo, hi;
    bspram__router_local_lanes(r, &lo, &hi);
    team_run run = {m, fn, arg, lo, 0};
    if (hi > lo)
        bspram__bsp_threads_run(hi - lo, team_lane, &run, &m->place, call);
    m->supersteps += run.done;
    m->local_whole = !bspram__bsp_machine_spread(m); /* over MPI: each rank its own */
    atomic_store(&m->running, false);
}

void bspram__bsp_machine_team(bspram_machine *m, void (*fn)(bspram_team *, void *), void *arg)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(fn);
    run_team(m, fn, arg, "a team run of the machine");
}

void bspram__bsp_machine_team_for(bspram_machine *m, void (*fn)(bspram_team *, void *), void *arg,
                                  const char *call)
{
    BSPRAM_NONNULL_AS(call, "m", m);
    BSPRAM_NONNULL_AS(call, "fn", fn);
    run_team(m, fn, arg, call);
}

unsigned bspram__bsp_team_lane(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->lane;
}

bool bspram__bsp_team_leads(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->lane == t->lead;
}

unsigned bspram_rank(void) { return bspram__router_process_rank(); }
unsigned bspram_ranks(void) { return bspram__router_process_ranks(); }
uint64_t bspram__bsp_team_first(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->first;
}

uint64_t bspram__bsp_team_end(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->end;
}

uint64_t bspram__bsp_team_superstep(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->superstep;
}

bspram_machine *bspram__bsp_team_machine(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return t->m;
}

bool bspram__bsp_team_each(bspram_team *t, bspram_step_fn step, void *arg)
{
    BSPRAM_NONNULL(t);
    BSPRAM_NONNULL(step);
    bspram_component c = {t->m, t->lane, 0, t->superstep, NULL};
    bool more = false;
    for (c.pid = t->first; c.pid < t->end; c.pid++)
        more |= step(&c, arg);
    return more;
}

bool bspram__bsp_team_each_consuming(bspram_team *t, bspram_step_fn step, void *arg)
{
    BSPRAM_NONNULL(t);
    BSPRAM_NONNULL(step);
    if (t->m->hold[t->lane].restored) /* the held copy is the inbox, not the router's */
        return bspram__bsp_team_each(t, step, arg);
    bspram_component c = {t->m, t->lane, 0, t->superstep, NULL};
    bool more = false;
    for (c.pid = t->first; c.pid < t->end; c.pid++) {
        more |= step(&c, arg);
        bspram__router_inbox_release(t->m->router, t->lane, c.pid);
    }
    return more;
}

void bspram__bsp_team_release_inbox(bspram_team *t, uint64_t pid)
{
    BSPRAM_NONNULL(t);
    if (!t->m->hold[t->lane].restored)
        bspram__router_inbox_release(t->m->router, t->lane, pid);
}

unsigned bspram__bsp_team_exchange(bspram_team *t, unsigned tag)
{
    BSPRAM_NONNULL(t);
    t->m->hold[t->lane].restored = false; /* the exchange delivers a new inbox */
    unsigned all = bspram__router_exchange(t->m->router, t->lane, tag);
    if (all & BSPRAM_TAG_LEAVE)
        bspram__base_fatal("internal error: lane %u is in superstep %llu's exchange, but another "
                     "lane's function has ended; every lane must exchange equally often",
                     t->lane, (unsigned long long)t->superstep);
    t->superstep++;
    return all;
}

void bspram__bsp_team_barrier(bspram_team *t)
{
    BSPRAM_NONNULL(t);
    bspram__router_barrier(t->m->router, t->lane, 0);
}

void bspram__bsp_team_gather(bspram_team *t, const void *mine, size_t n, void *all)
{
    BSPRAM_NONNULL(t);
    bspram__router_gather(t->m->router, t->lane, mine, n, all);
}

bool bspram__bsp_team_posted(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return bspram__router_lane_posted(t->m->router, t->lane);
}

size_t bspram__bsp_team_records(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return bspram__router_log(t->m->router)->n;
}

void bspram__bsp_team_flush(bspram_team *t)
{
    BSPRAM_NONNULL(t);
    bspram__router_complete(t->m->router, t->lane);
}

void bspram__bsp_team_set_label(bspram_team *t, const char *label)
{
    BSPRAM_NONNULL(t);
    /* Lane 0 appends the records, so lane 0 may relabel right before an
     * exchange (router.h, bspram__router_set_label). */
    if (t->lane == t->lead)
        bspram__router_set_label(t->m->router, label);
}

const char *bspram__bsp_team_label(const bspram_team *t)
{
    BSPRAM_NONNULL(t);
    return bspram__router_label(t->m->router);
}

/* Component pid's held messages (the lane has restored its copy). */
static size_t held_inbox(const lane_hold *h, uint64_t pid, const bspram_message **msgs)
{
    uint64_t i = pid - h->first;
    size_t n = (size_t)(h->off[i + 1] - h->off[i]);
    *msgs = n ? h->msgs + h->off[i] : NULL;
    return n;
}

size_t bspram__bsp_team_inbox(const bspram_team *t, uint64_t pid, const bspram_message **msgs)
{
    BSPRAM_NONNULL(t);
    BSPRAM_NONNULL(msgs);
    const lane_hold *h = &t->m->hold[t->lane];
    if (h->restored && pid >= t->first && pid < t->end)
        return held_inbox(h, pid, msgs);
    return bspram__router_inbox(t->m->router, t->lane, pid, msgs); /* fatal outside the block */
}

size_t bspram__bsp_team_inbox_runs(const bspram_team *t, uint64_t pid, const bspram__run **runs)
{
    const lane_hold *h = &t->m->hold[t->lane];
    if (h->restored && pid >= t->first && pid < t->end) {
        const bspram_message *msgs;
        size_t k = held_inbox(h, pid, &msgs);
        return bspram__router_runs_of(t->m->router, t->lane, msgs, k, runs);
    }
    return bspram__router_inbox_runs(t->m->router, t->lane, pid, runs); /* fatal outside the block */
}

void bspram__bsp_team_hold_inbox(bspram_team *t)
{
    BSPRAM_NONNULL(t);
    lane_hold *h = &t->m->hold[t->lane];
    if (h->restored) /* the held copy is the inbox: keep it */
        return;
    const uint64_t nb = t->end - t->first;
    size_t count = 0, bytes = 0;
    for (uint64_t pid = t->first; pid < t->end; pid++) {
        const bspram_message *in;
        size_t k = bspram__router_inbox(t->m->router, t->lane, pid, &in);
        count += k;
        for (size_t i = 0; i < k; i++)
            bytes += (size_t)bspram__round8(in[i].len);
    }
    h->off = bspram__grow(h->off, &h->cap_off, (size_t)nb + 1, sizeof *h->off, 64,
                          "holding a lane's inbox");
    h->msgs = bspram__grow(h->msgs, &h->cap_msgs, count, sizeof *h->msgs, 64,
                           "holding a lane's inbox");
    if (bytes > h->cap_bytes || !h->bytes) { /* replaced, not grown: the old copy is dead */
        free(h->bytes);
        h->cap_bytes = bspram__capacity(h->cap_bytes, bytes, 4096);
        h->bytes = bspram__base_malloc(h->cap_bytes, "holding a lane's inbox");
    }
    size_t n = 0, at = 0;
    for (uint64_t pid = t->first; pid < t->end; pid++) {
        h->off[pid - t->first] = n;
        const bspram_message *in;
        size_t k = bspram__router_inbox(t->m->router, t->lane, pid, &in);
        for (size_t i = 0; i < k; i++, n++) {
            h->msgs[n] = in[i];
            h->msgs[n].data = h->bytes + at;
            if (in[i].len)
                memcpy(h->bytes + at, in[i].data, (size_t)in[i].len);
            at += (size_t)bspram__round8(in[i].len);
        }
    }
    h->off[nb] = n;
    h->first = t->first;
    h->held = true;
}

void bspram__bsp_team_restore_inbox(bspram_team *t)
{
    BSPRAM_NONNULL(t);
    lane_hold *h = &t->m->hold[t->lane];
    if (!h->held)
        bspram__base_fatal("internal error: lane %u restores an inbox it never held (superstep %llu)", t->lane, (unsigned long long)t->superstep);
    h->restored = true;
}

/* Bit of the bulk style's exchange tag: "this lane wants another superstep". */
#define TAG_CONTINUE 1u

typedef struct bulk_run {
    bspram_step_fn step;
    void *arg;
    uint64_t max_supersteps;
} bulk_run;

static void bulk_lane(bspram_team *t, void *arg)
{
    const bulk_run *b = arg;
    for (uint64_t s = 1;; s++) {
        unsigned more = bspram__bsp_team_each(t, b->step, b->arg) ? TAG_CONTINUE : 0;
        unsigned all = bspram__bsp_team_exchange(t, more);
        if (!(all & TAG_CONTINUE) || (b->max_supersteps && s >= b->max_supersteps))
            break;
    }
}

uint64_t bspram_machine_run(bspram_machine *m, bspram_step_fn step, void *arg, uint64_t max_supersteps)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(step);
    uint64_t before = m->supersteps;
    bulk_run b = {step, arg, max_supersteps};
    run_team(m, bulk_lane, &b, "bspram_machine_run");
    return m->supersteps - before;
}

void bspram_machine_superstep(bspram_machine *m, bspram_step_fn step, void *arg)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(step);
    bspram_machine_run(m, step, arg, 1);
}

size_t bspram_machine_inbox(const bspram_machine *m, uint64_t pid, const bspram_message **msgs)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(msgs);
    if (pid >= m->config.p)
        bspram__base_fatal("bspram_machine_inbox(pid=%llu): component outside [0, %llu)",
                     (unsigned long long)pid, (unsigned long long)m->config.p);
    unsigned lane = bspram__router_lane_of(m->router, pid);
    if (m->hold[lane].restored)
        return held_inbox(&m->hold[lane], pid, msgs);
    return bspram__router_inbox(m->router, lane, pid, msgs);
}

typedef struct spmd_run {
    void (*program)(bspram_component *, void *);
    void *arg;
} spmd_run;

static void spmd_lane(bspram_team *t, void *arg)
{
    const spmd_run *run = arg;
    bspram_component c = {t->m, t->lane, t->lane, t->superstep, t};
    run->program(&c, run->arg);
}

void bspram__bsp_machine_spmd(bspram_machine *m, void (*program)(bspram_component *, void *), void *arg)
{
    bspram__bsp_machine_spmd_as(m, program, arg, "a BSPlib section");
}

void bspram__bsp_machine_spmd_as(bspram_machine *m, void (*program)(bspram_component *, void *), void *arg,
                                 const char *call)
{
    /* Named as the first, which tests and the layers above call. */
    BSPRAM_NONNULL_AS("bspram__bsp_machine_spmd", "m", m);
    if (m->config.p != (uint64_t)m->config.threads)
        bspram__base_fatal("internal error: an SPMD run with p = %llu components on %d threads; the SPMD style needs p == threads",
                     (unsigned long long)m->config.p, m->config.threads);
    BSPRAM_NONNULL_AS("bspram__bsp_machine_spmd", "program", program);
    spmd_run run = {program, arg};
    run_team(m, spmd_lane, &run, call);
}

unsigned bspram__bsp_sync(bspram_component *self, unsigned tag)
{
    BSPRAM_NONNULL(self);
    if (!self->team) /* an extra exchange on one lane would hang the others */
        bspram__base_fatal("internal error: a sync called from a bulk-style step (component %llu, superstep "
                     "%llu); a bulk step ends its superstep by returning",
                     (unsigned long long)self->pid, (unsigned long long)bspram_superstep(self));
    self->m->hold[self->lane].restored = false; /* the exchange delivers a new inbox */
    unsigned all = bspram__router_exchange(self->m->router, self->lane, tag);
    if (all & BSPRAM_TAG_LEAVE)
        bspram__base_fatal("a superstep's sync: component %llu is in superstep %llu's sync, but another "
                     "component's program has ended; every component must sync equally often",
                     (unsigned long long)self->pid, (unsigned long long)bspram_superstep(self));
    self->team->superstep++;
    return all;
}

bspram_team *bspram__bsp_component_team(bspram_component *self)
{
    BSPRAM_NONNULL(self);
    if (!self->team)
        bspram__base_fatal("internal error: a team call from a bulk-style step (component %llu, "
                     "superstep %llu); only an SPMD component is a lane of its own",
                     (unsigned long long)self->pid, (unsigned long long)self->superstep);
    return self->team;
}

uint64_t bspram_pid(const bspram_component *self)
{
    BSPRAM_NONNULL(self);
    return self->pid;
}

uint64_t bspram_nprocs(const bspram_component *self)
{
    BSPRAM_NONNULL(self);
    return self->m->config.p;
}

uint64_t bspram_superstep(const bspram_component *self)
{
    BSPRAM_NONNULL(self);
    return self->team ? self->team->superstep : self->superstep;
}

unsigned bspram__bsp_lane(const bspram_component *self)
{
    BSPRAM_NONNULL(self);
    return self->lane;
}

bspram_machine *bspram__bsp_component_machine(const bspram_component *self)
{
    BSPRAM_NONNULL(self);
    return self->m;
}

size_t bspram_inbox(const bspram_component *self, const bspram_message **msgs)
{
    BSPRAM_NONNULL(self);
    BSPRAM_NONNULL(msgs);
    const lane_hold *h = &self->m->hold[self->lane];
    if (h->restored)
        return held_inbox(h, self->pid, msgs);
    return bspram__router_inbox(self->m->router, self->lane, self->pid, msgs);
}

void bspram_send(bspram_component *self, uint64_t dst, const void *data, uint64_t len)
{
    BSPRAM_NONNULL(self);
    bspram__router_send_from(self->m->router, self->lane, self->pid, dst, data, len, "bspram_send");
}

void *bspram_send_buffer(bspram_component *self, uint64_t dst, uint64_t len)
{
    BSPRAM_NONNULL(self);
    return bspram__post(self->m->router, self->lane, self->pid, dst, len, "bspram_send_buffer");
}

void *bspram__bsp_reserve(bspram_component *self, uint64_t dst, uint32_t size, uint64_t count)
{
    return bspram__reserve(self->m->router, self->lane, self->pid, dst, size, count, "a reservation of messages");
}

void bspram__bsp_reserve_runs(bspram_component *self, uint32_t size, size_t n, const uint32_t *dst,
                              uint32_t *count, char **cursor)
{
    bspram__reserve_runs(self->m->router, self->lane, self->pid, size, n, dst, count, cursor,
                         "a reservation of runs of messages");
}

bool bspram__bsp_lane_runs(const bspram_machine *m) { return bspram__router_lane_runs(m->router); }

void bspram__bsp_account(bspram_component *self, uint64_t count, uint32_t size)
{
    bspram__router_account(self->m->router, self->lane, self->pid, count, size, "a reservation of runs of messages");
}

void bspram__bsp_reserve_lane(bspram_machine *m, unsigned lane, uint32_t size, size_t n, const uint32_t *dst,
                              uint32_t *count, char **cursor)
{
    bspram__router_reserve_lane(m->router, lane, size, n, dst, count, cursor, "a reservation of runs of messages");
}

size_t bspram__bsp_inbox_runs(const bspram_component *self, const bspram__run **runs)
{
    const lane_hold *h = &self->m->hold[self->lane];
    if (h->restored) {
        const bspram_message *msgs;
        size_t k = held_inbox(h, self->pid, &msgs);
        return bspram__router_runs_of(self->m->router, self->lane, msgs, k, runs);
    }
    return bspram__router_inbox_runs(self->m->router, self->lane, self->pid, runs);
}

void *bspram__bsp_send_buffer_counted(bspram_component *self, uint64_t dst, uint64_t len,
                                 uint64_t counted)
{
    BSPRAM_NONNULL(self);
    return bspram__router_post_counted(self->m->router, self->lane, self->pid, dst, len, counted,
                                      "a message by reference");
}

void bspram_work(bspram_component *self, uint64_t w)
{
    BSPRAM_NONNULL(self);
    bspram__router_work(self->m->router, self->lane, self->pid, w);
}

void *bspram_local(bspram_component *self)
{
    BSPRAM_NONNULL(self);
    if (!self->m->local)
        return NULL;
    return self->m->local + self->pid * self->m->config.local_bytes;
}

void *bspram_machine_local(bspram_machine *m, uint64_t pid)
{
    BSPRAM_NONNULL(m);
    if (pid >= m->config.p)
        bspram__base_fatal("bspram_machine_local(pid=%llu): component outside [0, %llu)",
                     (unsigned long long)pid, (unsigned long long)m->config.p);
    uint64_t first, end;
    bspram__bsp_machine_block(m, &first, &end);
    if (!m->local_whole && (pid < first || pid >= end))
        bspram__base_fatal("bspram_machine_local(pid=%llu): component %llu is another MPI rank's (this rank "
                           "holds [%llu, %llu)); call bspram_machine_gather_local after the run to read every "
                           "component's", (unsigned long long)pid, (unsigned long long)pid,
                           (unsigned long long)first, (unsigned long long)end);
    return m->local ? m->local + pid * m->config.local_bytes : NULL;
}

void bspram_machine_set_label(bspram_machine *m, const char *label)
{
    BSPRAM_NONNULL(m);
    bspram__router_set_label(m->router, label);
}

const bspram_record *bspram_machine_records(bspram_machine *m, size_t *n)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(n);
    bspram__router_flush(m->router);
    const bspram_log *log = bspram__router_log(m->router);
    *n = log->n;
    return log->records;
}

void bspram_machine_clear_records(bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    /* The records leave the log, not the trace: they go to BSPRAM_TRACE (if
     * set) now, or the trace would hold only what is left at destroy. A
     * program that clears after every run (bspram table: 500 runs) thus
     * keeps one run's records in memory, at one open of the file per clear. */
    bspram_log_view log = log_view(m);
    if (log.n && writes_trace(m))
        bspram__bsp_trace_add(&log);
    bspram__router_clear_log(m->router);
}

double bspram_machine_predicted_cost(bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    size_t n;
    const bspram_record *rec = bspram_machine_records(m, &n);
    double cost = 0;
    for (size_t i = 0; i < n; i++)
        cost += (double)rec[i].work + m->config.g * (double)rec[i].h_bytes + m->config.l;
    return cost;
}

int bspram_machine_write_records(bspram_machine *m, const char *path)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(path);
    bspram_log_view log = log_view(m);
    return bspram__bsp_trace_write_file(path, &log);
}

void bspram_machine_keep_pattern(bspram_machine *m, bool on)
{
    BSPRAM_NONNULL(m);
    bspram__router_keep_pattern(m->router, on);
}

const bspram_pattern *bspram_machine_pattern(bspram_machine *m)
{
    BSPRAM_NONNULL(m);
    bspram__router_flush(m->router);
    bspram__router_pattern_gather(m->router);
    return bspram__router_pattern(m->router);
}
