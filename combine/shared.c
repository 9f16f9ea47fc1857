/* Shared memory from inside bulk-style steps (shared.h): a team whose
 * supersteps are the program's steps, each followed — when some component
 * issued requests — by one combining batch of the engine
 * (bspram__combine_team_parts), between holding and restoring the lane's
 * inboxes (machine.h).
 *
 * State and who touches it. Component c's queue and answers (sh->cs[c]) and
 * its batch part (sh->parts[c]) are written only by the lane that serves c:
 * during c's step (issuing) and between the exchange and the next step
 * (building the part, the batch writing the answers). The lanes agree on
 * whether a batch runs through the exchange's tag (the router ORs the
 * tags), so no lane reads another's state; the exchanges and the batch's
 * own supersteps order everything else. The host reads the answers after
 * the team has ended.
 *
 * Which step is running on a thread is kept in a thread-local record, set
 * around each call of the user's step: the issuing calls check it (a call
 * from outside a step of this object's run is an error naming the call),
 * and so does bspram_shared_run (a run started from inside a step). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "combine/engine_internal.h"
#include "combine/shared.h"
#include "hash/hash_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

/* Exchange tag bits of the program's supersteps. */
enum { TAG_CONTINUE = 1u, TAG_REQUESTS = 2u };

/* A component's queue of this superstep and the answers of its last. */
typedef struct shared_comp {
    bspram_request *req;
    size_t nreq, capreq;
    uint64_t *ans;
    size_t nans, capans;
} shared_comp;

/* One lane's flags, on a cache line of its own. */
typedef struct shared_lane {
    _Alignas(64) bool requests; /* a component of the block issued in this superstep */
} shared_lane;

struct bspram_shared {
    bspram_machine *m;
    bspram_space *s;
    bspram_combiner *C;
    uint64_t p;
    shared_comp *cs;          /* [p] */
    bspram_batch_part *parts; /* [p]: each lane fills its block's */
    shared_lane *lanes;       /* [T] */
    atomic_bool running;
    /* the run in progress (read-only while it runs) */
    bspram_step_fn step;
    void *arg;
    uint64_t max_supersteps;
    uint64_t steps;           /* written by lane 0 at the end of a run */
};

/* The step running on this thread: set around each call of the user's step. */
static _Thread_local struct {
    const bspram_shared *sh;
    uint64_t pid, superstep;
} current;

bspram_shared *bspram_shared_create(bspram_machine *m, bspram_space *s, const bspram_combine_options *o)
{
    BSPRAM_NONNULL(m);
    BSPRAM_NONNULL(s);
    if (bspram_machine_p(m) != bspram_space_p(s))
        bspram__base_fatal("bspram_shared_create: the machine has p = %" PRIu64 " components but the "
                     "address space has p = %" PRIu64, bspram_machine_p(m), bspram_space_p(s));
    bspram_combine_options d;
    if (!o) {
        d = bspram_combine_defaults(bspram_machine_p(m));
        d.strategy = BSPRAM_STRATEGY_AUTO;
        d.seed = bspram_machine_seed(m);
        o = &d;
    }
    bspram_combiner *C = bspram_combiner_create(m, s, o); /* checks p */
    bspram_shared *sh = bspram__base_calloc(1, sizeof *sh, "bspram_shared_create");
    sh->m = m;
    sh->s = s;
    sh->C = C;
    sh->p = bspram_machine_p(m);
    sh->cs = bspram__base_calloc(sh->p, sizeof *sh->cs, "bspram_shared_create");
    sh->parts = bspram__base_calloc(sh->p, sizeof *sh->parts, "bspram_shared_create");
    size_t lanes = (size_t)bspram_machine_threads(m);
    sh->lanes = aligned_alloc(64, lanes * sizeof *sh->lanes);
    if (!sh->lanes)
        bspram__base_fatal("bspram_shared_create: out of memory");
    memset(sh->lanes, 0, lanes * sizeof *sh->lanes);
    atomic_init(&sh->running, false);
    return sh;
}

void bspram_shared_destroy(bspram_shared *sh)
{
    if (!sh)
        return;
    for (uint64_t c = 0; c < sh->p; c++) {
        free(sh->cs[c].req);
        free(sh->cs[c].ans);
    }
    free(sh->cs);
    free(sh->parts);
    free(sh->lanes);
    bspram_combiner_destroy(sh->C);
    free(sh);
}

bspram_combiner *bspram_shared_combiner(bspram_shared *sh)
{
    BSPRAM_NONNULL(sh);
    return sh->C;
}

/* ---- the run ---- */

static bool step_wrapper(bspram_component *self, void *arg)
{
    bspram_shared *sh = arg;
    uint64_t c = bspram_pid(self);
    shared_comp *q = &sh->cs[c];
    q->nreq = 0; /* the last superstep's requests have been combined */
    current.sh = sh;
    current.pid = c;
    current.superstep = bspram_superstep(self);
    bool more = sh->step(self, sh->arg);
    current.sh = NULL;
    if (q->nreq)
        sh->lanes[bspram__bsp_lane(self)].requests = true;
    return more;
}

/* After the exchange: hand the block's queues to the engine (answers of
 * requests without one are 0), run the batch, bring the inbox back. */
static void combine_block(bspram_team *t, bspram_shared *sh)
{
    for (uint64_t c = bspram__bsp_team_first(t); c < bspram__bsp_team_end(t); c++) {
        shared_comp *q = &sh->cs[c];
        if (q->nreq) {
            q->ans = bspram__grow(q->ans, &q->capans, q->nreq, sizeof *q->ans, 16, "bspram_shared_run");
            memset(q->ans, 0, q->nreq * sizeof *q->ans);
            sh->parts[c] = (bspram_batch_part){.requests = q->req, .n = q->nreq, .results = q->ans};
        } else {
            sh->parts[c] = (bspram_batch_part){.n = 0};
        }
        q->nans = q->nreq;
    }
    bspram__bsp_team_hold_inbox(t);
    bspram__combine_team_parts(t, sh->C, sh->parts, NULL);
    bspram__bsp_team_restore_inbox(t);
}

static void run_lane(bspram_team *t, void *arg)
{
    bspram_shared *sh = arg;
    shared_lane *L = &sh->lanes[bspram__bsp_team_lane(t)];
    for (uint64_t s = 1;; s++) {
        L->requests = false;
        unsigned tag = bspram__bsp_team_each(t, step_wrapper, sh) ? TAG_CONTINUE : 0;
        if (L->requests)
            tag |= TAG_REQUESTS;
        unsigned all = bspram__bsp_team_exchange(t, tag);
        if (all & TAG_REQUESTS) {
            combine_block(t, sh);
        } else { /* nobody issued: no batch, no answers */
            for (uint64_t c = bspram__bsp_team_first(t); c < bspram__bsp_team_end(t); c++)
                sh->cs[c].nans = 0;
        }
        if (!(all & TAG_CONTINUE) || (sh->max_supersteps && s >= sh->max_supersteps)) {
            if (bspram__bsp_team_leads(t)) /* every rank's copy (over MPI) */
                sh->steps = s;
            break;
        }
    }
}

uint64_t bspram_shared_run(bspram_shared *sh, bspram_step_fn step, void *arg, uint64_t max_supersteps)
{
    BSPRAM_NONNULL(sh);
    if (current.sh)
        bspram__base_fatal("bspram_shared_run(max_supersteps=%" PRIu64 "): called from inside a step "
                     "(superstep %" PRIu64 ", component %" PRIu64 "); a step issues requests and "
                     "returns", max_supersteps, current.superstep, current.pid);
    if (!step)
        bspram__base_fatal("bspram_shared_run(max_supersteps=%" PRIu64 "): step is NULL", max_supersteps);
    if (atomic_exchange(&sh->running, true))
        bspram__base_fatal("bspram_shared_run(max_supersteps=%" PRIu64 "): a run of this object is "
                     "already in progress (a call from another thread); one run at a time",
                     max_supersteps);
    sh->step = step;
    sh->arg = arg;
    sh->max_supersteps = max_supersteps;
    sh->steps = 0;
    bspram__bsp_machine_team_for(sh->m, run_lane, sh, "bspram_shared_run");
    atomic_store(&sh->running, false);
    return sh->steps;
}

/* ---- issuing ---- */

/* A call and its arguments, formatted only when it fails. */
typedef enum { ARGS_REQUEST, ARGS_NULL, ARGS_ADDRESS, ARGS_WRITE, ARGS_OP, ARGS_NONE } args_form;
typedef struct call_info {
    const char *name;
    args_form form;
    uint64_t address, value;
    unsigned x; /* kind, policy or op */
} call_info;

static void format_args(const call_info *ci, char *args, size_t len)
{
    args[0] = 0;
    switch (ci->form) {
    case ARGS_REQUEST:
        snprintf(args, len, "address=0x%" PRIx64 ", value=%" PRIu64 ", kind=%u", ci->address,
                 ci->value, ci->x);
        break;
    case ARGS_NULL: snprintf(args, len, "r=NULL"); break;
    case ARGS_ADDRESS: snprintf(args, len, "address=0x%" PRIx64, ci->address); break;
    case ARGS_WRITE:
        snprintf(args, len, "address=0x%" PRIx64 ", value=%" PRIu64 ", policy=%u", ci->address,
                 ci->value, ci->x);
        break;
    case ARGS_OP:
        snprintf(args, len, "address=0x%" PRIx64 ", op=%u, value=%" PRIu64, ci->address, ci->x,
                 ci->value);
        break;
    case ARGS_NONE: break;
    }
}

/* "name(arguments): <what> (superstep S, component C)", then exit. */
BSPRAM_NORETURN __attribute__((format(printf, 4, 5)))
static void die(const call_info *ci, uint64_t superstep, uint64_t c, const char *fmt, ...)
{
    char args[128], what[400];
    format_args(ci, args, sizeof args);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    bspram__base_fatal("%s(%s): %s (superstep %" PRIu64 ", component %" PRIu64 ")", ci->name, args, what,
                 superstep, c);
}

/* The component of a call made inside its own step of this object's run. */
static uint64_t caller(const bspram_shared *sh, const bspram_component *self, const call_info *ci)
{
    if (!sh) {
        if (current.sh) /* inside a step: name it */
            die(ci, current.superstep, current.pid, "sh is NULL; pass the object of the run");
        char args[128];
        format_args(ci, args, sizeof args);
        bspram__base_fatal("%s(%s): sh is NULL; pass the object of the run", ci->name, args);
    }
    if (!self) {
        if (current.sh) /* inside a step: name it */
            die(ci, current.superstep, current.pid, "self is NULL; pass the handle the step was given");
        char args[128];
        format_args(ci, args, sizeof args);
        bspram__base_fatal("%s(%s): self is NULL; pass the handle the step was given", ci->name, args);
    }
    uint64_t pid = bspram_pid(self);
    if (bspram__bsp_component_machine(self) != sh->m)
        die(ci, bspram_superstep(self), pid, "the component belongs to another machine than the "
            "shared memory's");
    if (current.sh != sh || current.pid != pid)
        die(ci, bspram_superstep(self), pid, "called outside the steps of bspram_shared_run on "
            "this object; a component issues requests and reads answers in its own step of the run");
    return pid;
}

/* Check r and queue it for component c. */
static size_t enqueue(bspram_shared *sh, uint64_t c, const bspram_request *r, const call_info *ci)
{
    char err[200];
    if (bspram__hash_address_check(sh->s, r->address, err, sizeof err))
        die(ci, current.superstep, c, "%s", err);
    unsigned kind = r->kind;
    if (!bspram__kind_valid(kind, sh->C->nops))
        die(ci, current.superstep, c, "unknown species or operation (kind %u); valid: 0 read, 1-3 "
            "write, 32+op reduce, 64+op fetch, 96+op combining write, with op < %u", kind,
            sh->C->nops);
    if (bspram__is_op(kind)) {
        uint32_t seg = (uint32_t)(r->address >> BSPRAM_SEGMENT_SHIFT);
        unsigned w = bspram_segment_width(sh->s, seg);
        if (w != 8)
            die(ci, current.superstep, c, "%s needs cells of 8 bytes; segment %" PRIu32 " has cells "
                "of %u bytes", bspram__is_reduce(kind) ? "reduce" : bspram__is_fetch(kind) ? "fetch"
                : "a combining write", seg, w);
    }
    shared_comp *q = &sh->cs[c];
    if (q->nreq >= UINT32_MAX) /* the engine names a request by a 32-bit index */
        die(ci, current.superstep, c, "%zu requests in this superstep already; at most %" PRIu32
            " per component and superstep", q->nreq, UINT32_MAX);
    if (q->nreq == q->capreq)
        q->req = bspram__grow(q->req, &q->capreq, q->nreq + 1, sizeof *q->req, 16, "bspram_shared_issue");
    q->req[q->nreq] = *r;
    return q->nreq++;
}

size_t bspram_shared_issue(bspram_shared *sh, bspram_component *self, const bspram_request *r)
{
    call_info ci = {"bspram_shared_issue", ARGS_NULL, 0, 0, 0};
    if (r)
        ci = (call_info){"bspram_shared_issue", ARGS_REQUEST, r->address, r->value, r->kind};
    uint64_t c = caller(sh, self, &ci);
    if (!r)
        die(&ci, current.superstep, c, "no request");
    return enqueue(sh, c, r, &ci);
}

size_t bspram_shared_read(bspram_shared *sh, bspram_component *self, uint64_t address)
{
    const call_info ci = {"bspram_shared_read", ARGS_ADDRESS, address, 0, 0};
    uint64_t c = caller(sh, self, &ci);
    bspram_request r = {address, 0, BSPRAM_READ, (uint32_t)c};
    return enqueue(sh, c, &r, &ci);
}

size_t bspram_shared_write(bspram_shared *sh, bspram_component *self, uint64_t address,
                           uint64_t value, unsigned policy)
{
    const call_info ci = {"bspram_shared_write", ARGS_WRITE, address, value, policy};
    uint64_t c = caller(sh, self, &ci);
    if (policy < BSPRAM_WRITE_ARBITRARY || policy > BSPRAM_WRITE_COMMON)
        die(&ci, current.superstep, c, "unknown policy; valid: 1 arbitrary, 2 priority, 3 common");
    bspram_request r = {address, value, (uint8_t)policy, (uint32_t)c};
    return enqueue(sh, c, &r, &ci);
}

/* REDUCE or FETCH with operation op. */
static size_t issue_op(bspram_shared *sh, bspram_component *self, uint64_t address, unsigned op,
                       uint64_t value, bool fetch)
{
    const call_info ci = {fetch ? "bspram_shared_fetch" : "bspram_shared_reduce", ARGS_OP, address,
                          value, op};
    uint64_t c = caller(sh, self, &ci);
    if (op >= sh->C->nops)
        die(&ci, current.superstep, c, "unknown operation; valid: 0..%u (%d built in, then the "
            "combiner's user operations)", sh->C->nops - 1, BSPRAM_BUILTIN_OPS);
    bspram_request r = {address, value, fetch ? bspram_kind_fetch(op) : bspram_kind_reduce(op),
                        (uint32_t)c};
    return enqueue(sh, c, &r, &ci);
}

size_t bspram_shared_reduce(bspram_shared *sh, bspram_component *self, uint64_t address,
                            unsigned op, uint64_t value)
{
    return issue_op(sh, self, address, op, value, false);
}

size_t bspram_shared_fetch(bspram_shared *sh, bspram_component *self, uint64_t address,
                           unsigned op, uint64_t value)
{
    return issue_op(sh, self, address, op, value, true);
}

/* ---- answers ---- */

size_t bspram_shared_answers(bspram_shared *sh, const bspram_component *self, const uint64_t **answers)
{
    const call_info ci = {"bspram_shared_answers", ARGS_NONE, 0, 0, 0};
    uint64_t c = caller(sh, self, &ci);
    if (!answers)
        die(&ci, current.superstep, c, "answers is NULL; pass where the pointer to them goes");
    const shared_comp *q = &sh->cs[c];
    *answers = q->nans ? q->ans : NULL;
    return q->nans;
}

size_t bspram_shared_answers_of(const bspram_shared *sh, uint64_t pid, const uint64_t **answers)
{
    BSPRAM_NONNULL(sh);
    BSPRAM_NONNULL(answers);
    if (pid >= sh->p)
        bspram__base_fatal("bspram_shared_answers_of(pid=%" PRIu64 "): component outside [0, %" PRIu64 ")",
                     pid, sh->p);
    if (atomic_load(&sh->running))
        bspram__base_fatal("bspram_shared_answers_of(pid=%" PRIu64 "): a run is in progress; call it "
                     "between runs (a step reads its answers with bspram_shared_answers)", pid);
    const shared_comp *q = &sh->cs[pid];
    *answers = q->nans ? q->ans : NULL;
    return q->nans;
}
