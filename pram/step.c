/* Per-VP steps (pram.h): "for all i in parallel do" written line by line.
 *
 * A step is two teams of the machine, one per phase. In the read team each
 * lane runs read(vp) for the VPs of its components in increasing order, the
 * VP's bspram_vp_read calls appending requests to the lane's own buffer, so
 * component c's requests are contiguous and in VP order (the engine's
 * PRIORITY order is the VPs'); then all lanes run one batch on those parts
 * (bspram__combine_team_parts), whose answers land in the lane's buffer, by
 * request. In the write team each lane runs write(vp) over the same VPs,
 * each seeing its own answers in issue order, and the writes make the
 * second batch. Between the teams the host reads the batch's conflicts and
 * costs. A lane's buffers are its own: no lane writes what another reads.
 *
 * A misuse in a callback (bspram_vp_read of a bad index, …) is not fatal
 * where it happens: lanes run concurrently, and the first to die would name
 * a VP that depends on the scheduling. The lane keeps its first misuse (its
 * least VP: its VPs run in increasing order) and leaves the callback with
 * longjmp, its components issue nothing, the batch runs as a collective
 * must, and the host reports the least lane's misuse: the same line for
 * any T (pram.h).
 *
 * Textbook steps (bspram_pram_for_all) run one body per VP twice: once to
 * learn its reads (bspram_vp_get answers 0 and the writes are dropped), then
 * after the read batch again, with each get answered in issue order and the
 * writes kept. The second run must ask for the same cells as the first —
 * in a PRAM step every read is issued before any value is seen (pram.h).
 *
 * A callback's handle (bspram_vp) is valid only while the callback runs
 * (pram.h). Its address names the VP — one byte per VP of the lane, never
 * read — and its state lives with the running callback (this thread's
 * `running`), so a handle kept past its callback is never dereferenced: it
 * differs from the running one, and is reported in one line naming the VP
 * it was given to (found among the live PRAMs' lanes) and the step. */
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

/* What a callback is given: its address is all there is to it. */
struct bspram_vp {
    unsigned char unused;
};

/* A running callback's VP. */
typedef struct vp_state {
    bspram_pram *P;
    pram_lane *L;
    uint64_t id;
    pram_phase phase;
    bool body;                /* a textbook step's body (bspram_pram_for_all) */
    uint64_t nreads;          /* read phase: reads issued so far */
    const uint64_t *values;   /* write phase: the answers of its reads */
    uint64_t nvalues;
    const bspram_request *asked; /* textbook write phase: the reads of the read phase */
    uint64_t nget;            /* textbook write phase: gets answered so far */
    pram_site site;           /* of the call being made (bspram_vp_at) */
} vp_state;

/* The callback running on this thread: its handle and its VP (both NULL
 * outside callbacks). */
static _Thread_local struct {
    const bspram_vp *handle;
    vp_state *vp;
} running;

typedef struct vp_phase {
    bspram_pram *P;
    bspram_vp_fn fn;
    void *arg;
    bool had_reads; /* write phase: the read phase ran */
    bool body;      /* a textbook step */
} vp_phase;

/* A misuse by a VP: kept by its lane, and out of the callback (top of file). */
static _Noreturn void vp_fail(const vp_state *vp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static _Noreturn void vp_fail(const vp_state *vp, const char *fmt, ...)
{
    pram_lane *L = vp->L;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->error, sizeof L->error, fmt, ap);
    va_end(ap);
    L->failed = true;
    longjmp(L->out, 1);
}

/* ---- handles kept past their callback ---- */

/* The live PRAMs, where a kept handle is looked for (never dereferenced:
 * its address is compared with the lanes' handle arrays). */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static bspram_pram **live;
static size_t nlive, caplive;

void bspram__pram_live_add(bspram_pram *P)
{
    pthread_mutex_lock(&live_lock);
    live = bspram__grow(live, &caplive, nlive + 1, sizeof *live, 8, "bspram_pram_create");
    live[nlive++] = P;
    pthread_mutex_unlock(&live_lock);
}

void bspram__pram_live_remove(bspram_pram *P)
{
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < nlive; i++)
        if (live[i] == P) {
            live[i] = live[--nlive];
            break;
        }
    pthread_mutex_unlock(&live_lock);
}

/* The VP whose handle h is among P's lanes' (*vp), or false. Addresses are
 * compared as integers: h may point into no array of P. */
static bool handle_of(const bspram_pram *P, const bspram_vp *h, uint64_t *vp)
{
    const uintptr_t a = (uintptr_t)h;
    for (unsigned l = 0; l < P->nlanes; l++) {
        const pram_lane *L = &P->lanes[l];
        const uintptr_t lo = (uintptr_t)L->handles;
        if (L->handles && a >= lo && a < lo + L->caphandles) {
            *vp = L->handles_v0 + (a - lo);
            return true;
        }
    }
    return false;
}

/* A handle that is not the running callback's: kept past its callback (or
 * no handle at all). In a callback the misuse is that VP's, reported as
 * any misuse in a callback; outside callbacks (the host) at once. */
static _Noreturn void stale(const bspram_vp *h, const char *call)
{
    const char *valid = "a bspram_vp is valid only inside the callback it was given to";
    vp_state *me = running.vp;
    uint64_t was;
    if (me) {
        if (handle_of(me->P, h, &was))
            vp_fail(me, "%s: VP %" PRIu64 " (step %" PRIu64 ") used the bspram_vp of VP %" PRIu64
                    ", kept from an earlier callback; %s", call, me->id, me->P->step, was, valid);
        vp_fail(me, "%s: VP %" PRIu64 " (step %" PRIu64 ") used a bspram_vp that is not its own; %s",
                call, me->id, me->P->step, valid);
    }
    pthread_mutex_lock(&live_lock);
    for (size_t i = 0; i < nlive; i++)
        if (handle_of(live[i], h, &was)) {
            uint64_t step = live[i]->step;
            pthread_mutex_unlock(&live_lock);
            bspram__base_fatal("%s: the bspram_vp of VP %" PRIu64 " used after its callback returned "
                               "(after step %" PRIu64 "); %s", call, was, step, valid);
        }
    pthread_mutex_unlock(&live_lock);
    bspram__base_fatal("%s: vp is the handle of no VP of a live PRAM (kept after "
                       "bspram_pram_destroy, or not a bspram_vp); %s", call, valid);
}

/* The running callback's VP if h is its handle; else the misuse. */
static inline vp_state *state_of(const bspram_vp *h, const char *call)
{
    if (__builtin_expect(h == running.handle && h != NULL, 1))
        return running.vp;
    BSPRAM_NONNULL_AS(call, "vp", h);
    stale(h, call);
}

bspram_vp *bspram_vp_at(bspram_vp *h, const char *file, unsigned line)
{
    if (h && h == running.handle) { /* any other is reported by the call it is passed to */
        running.vp->site.file = file;
        running.vp->site.line = line;
    }
    return h;
}

uint64_t bspram_vp_id(const bspram_vp *h) { return state_of(h, "bspram_vp_id")->id; }

uint64_t bspram_vp_n(const bspram_vp *h) { return state_of(h, "bspram_vp_n")->P->n; }

uint64_t *bspram_vp_registers(bspram_vp *h)
{
    const vp_state *vp = state_of(h, "bspram_vp_registers");
    const unsigned r = vp->P->cfg.registers;
    return r ? vp->P->regs + vp->id * r : NULL;
}

static const char *phase_name(pram_phase ph) { return ph == PHASE_READ ? "read" : "write"; }

/* An array as messages name it: its name if it is live and has one
 * ("A"), else its number ("7"). */
static const char *array_name(const bspram_pram *P, bspram_pram_array a, char *buf, size_t len)
{
    if (a != 0 && a < P->narrays && P->arrays[a].live && P->arrays[a].name[0])
        return P->arrays[a].name;
    snprintf(buf, len, "%" PRIu32, a);
    return buf;
}

/* The cell of (a, index) for a call of VP vp, or the VP's misuse. In a
 * textbook body's first run, where bspram_vp_get answered 0, a bad cell
 * after a get may come from that 0: the line says so. */
static uint64_t vp_cell(const vp_state *vp, bspram_pram_array a, uint64_t index, const char *call)
{
    const bspram_pram *P = vp->P;
    const char *why = vp->body && vp->phase == PHASE_READ && vp->nreads > 0
                          ? "; in the body's first run every bspram_vp_get answers 0: a cell computed from a "
                            "value read in this step is read in the next step"
                          : "";
    if (a == 0 || a >= P->narrays || !P->arrays[a].live)
        vp_fail(vp, "%s(array=%" PRIu32 ", index=%" PRIu64 "): no such array (VP %" PRIu64 ", step %" PRIu64
                ")%s", call, a, index, vp->id, P->step, why);
    if (index >= P->arrays[a].cells) {
        char buf[16];
        vp_fail(vp, "%s(array=%s, index=%" PRIu64 "): index out of range [0, %" PRIu64 ") (VP %" PRIu64
                ", step %" PRIu64 ")%s", call, array_name(P, a, buf, sizeof buf), index, P->arrays[a].cells,
                vp->id, P->step, why);
    }
    return ((uint64_t)a << BSPRAM_SEGMENT_SHIFT) | index;
}

static _Noreturn void wrong_phase(const vp_state *vp, const char *call, const char *args, const char *hint)
{
    vp_fail(vp, "%s(%s): called in the %s callback (VP %" PRIu64 ", step %" PRIu64 "); %s", call, args,
            phase_name(vp->phase), vp->id, vp->P->step, hint);
}

static void push(vp_state *vp, uint64_t cell, uint64_t value, uint8_t kind)
{
    pram_lane *L = vp->L;
    if (L->nrq == L->caprq)
        L->rq = bspram__grow(L->rq, &L->caprq, L->nrq + 1, sizeof *L->rq, 256, "bspram_pram_step");
    if (L->nrq == L->capsite)
        L->site = bspram__grow(L->site, &L->capsite, L->nrq + 1, sizeof *L->site, 256, "bspram_pram_step");
    L->site[L->nrq] = vp->site;
    vp->site.file = NULL; /* a later call without its macro has no site */
    bspram_request *q = &L->rq[L->nrq++];
    q->address = cell;
    q->value = value;
    q->kind = kind;
    q->label = (uint32_t)vp->id;
}

/* A textbook step's body called a two-callback function, or the reverse. */
static void check_style(const vp_state *vp, bool body, const char *call)
{
    if (vp->body != body)
        vp_fail(vp, "%s: called in %s (VP %" PRIu64 ", step %" PRIu64 "); %s", call,
                vp->body ? "the body of bspram_pram_for_all" : "a callback of bspram_pram_step", vp->id,
                vp->P->step,
                vp->body ? "a body reads with bspram_vp_get" : "callbacks read with bspram_vp_read");
}

uint64_t (bspram_vp_read)(bspram_vp *h, bspram_pram_array a, uint64_t index)
{
    vp_state *vp = state_of(h, "bspram_vp_read");
    check_style(vp, false, "bspram_vp_read");
    if (vp->phase != PHASE_READ) {
        char args[64], buf[16];
        snprintf(args, sizeof args, "array=%s, index=%" PRIu64, array_name(vp->P, a, buf, sizeof buf), index);
        wrong_phase(vp, "bspram_vp_read", args, "reads are issued in the read callback");
    }
    push(vp, vp_cell(vp, a, index, "bspram_vp_read"), 0, BSPRAM_READ);
    return vp->nreads++;
}

uint64_t (bspram_vp_get)(bspram_vp *h, bspram_pram_array a, uint64_t index)
{
    vp_state *vp = state_of(h, "bspram_vp_get");
    check_style(vp, true, "bspram_vp_get");
    const uint64_t cell = vp_cell(vp, a, index, "bspram_vp_get");
    if (vp->phase == PHASE_READ) { /* learning the reads: no value yet */
        push(vp, cell, 0, BSPRAM_READ);
        vp->nreads++;
        return 0;
    }
    const uint64_t k = vp->nget++;
    if (k >= vp->nvalues || vp->asked[k].address != cell) {
        char buf[16], was[BSPRAM__PRAM_CELL_TEXT], what[96];
        if (k < vp->nvalues)
            snprintf(what, sizeof what, "'s read number %" PRIu64 " in step %" PRIu64 " was %s", k,
                     vp->P->step, bspram__pram_cell_text(vp->P, vp->asked[k].address, was, sizeof was));
        else
            snprintf(what, sizeof what, " read %" PRIu64 " cells in step %" PRIu64, vp->nvalues, vp->P->step);
        vp_fail(vp, "bspram_vp_get(array=%s, index=%" PRIu64 "): VP %" PRIu64 "%s before its values were "
                "known; the cells a VP reads in a step may not depend on what it reads in that step (read it "
                "in the next step)", array_name(vp->P, a, buf, sizeof buf), index, vp->id, what);
    }
    vp->site.file = NULL;
    return vp->values[k];
}

uint64_t bspram_vp_value(const bspram_vp *h, uint64_t k)
{
    const vp_state *vp = state_of(h, "bspram_vp_value");
    check_style(vp, false, "bspram_vp_value");
    if (vp->phase != PHASE_WRITE) {
        char args[32];
        snprintf(args, sizeof args, "k=%" PRIu64, k);
        wrong_phase(vp, "bspram_vp_value", args, "values are seen in the write callback");
    }
    if (k >= vp->nvalues) {
        if (vp->nvalues == 0)
            vp_fail(vp, "bspram_vp_value(k=%" PRIu64 "): VP %" PRIu64 " issued no reads in step %" PRIu64, k,
                    vp->id, vp->P->step);
        vp_fail(vp, "bspram_vp_value(k=%" PRIu64 "): out of range; VP %" PRIu64 " issued %" PRIu64
                " reads in step %" PRIu64 ", valid: 0..%" PRIu64, k, vp->id, vp->nvalues, vp->P->step,
                vp->nvalues - 1);
    }
    return vp->values[k];
}

void (bspram_vp_write)(bspram_vp *h, bspram_pram_array a, uint64_t index, uint64_t value)
{
    vp_state *vp = state_of(h, "bspram_vp_write");
    if (vp->phase != PHASE_WRITE && !vp->body) {
        char args[96], buf[16];
        snprintf(args, sizeof args, "array=%s, index=%" PRIu64 ", value=%" PRIu64,
                 array_name(vp->P, a, buf, sizeof buf), index, value);
        wrong_phase(vp, "bspram_vp_write", args, "writes are issued in the write callback");
    }
    const uint64_t cell = vp_cell(vp, a, index, "bspram_vp_write");
    if (vp->phase == PHASE_READ) { /* a body learning its reads: the write comes in the second run */
        vp->site.file = NULL;
        return;
    }
    push(vp, cell, value, bspram__pram_write_kind(vp->P));
}

void (bspram_vp_reduce)(bspram_vp *h, bspram_pram_array a, uint64_t index, uint64_t value, unsigned op)
{
    vp_state *vp = state_of(h, "bspram_vp_reduce");
    const bspram_pram *P = vp->P;
    if (P->cfg.model != BSPRAM_CRCW_COMBINING)
        vp_fail(vp, "bspram_vp_reduce: the %s model has no combining operations; use CRCW-combining",
                bspram_pram_model_name(P->cfg.model));
    if (vp->phase != PHASE_WRITE && !vp->body) {
        char args[112], buf[16];
        snprintf(args, sizeof args, "array=%s, index=%" PRIu64 ", value=%" PRIu64 ", op=%u",
                 array_name(P, a, buf, sizeof buf), index, value, op);
        wrong_phase(vp, "bspram_vp_reduce", args, "writes are issued in the write callback");
    }
    const unsigned count = bspram_combiner_op_count(P->C);
    if (op >= count)
        vp_fail(vp, "bspram_vp_reduce(op=%u): no such operation; valid: 0..%u (user operations are registered "
                "on bspram_pram_combiner)", op, count - 1);
    const uint64_t cell = vp_cell(vp, a, index, "bspram_vp_reduce");
    if (vp->phase == PHASE_READ) { /* a body learning its reads */
        vp->site.file = NULL;
        return;
    }
    push(vp, cell, value, bspram_kind_reduce(op));
}

/* The lane's VPs: those of its components [first, end), i.e. from the
 * first VP of `first` to the first VP of `end`. */
static void lane_vps(const bspram_pram *P, const bspram_team *t, uint64_t *v0, uint64_t *v1)
{
    uint64_t unused;
    bspram__pram_vps(P, bspram__bsp_team_first(t), v0, &unused);
    bspram__pram_vps(P, bspram__bsp_team_end(t), v1, &unused);
}

/* Component c's requests are the lane's from P->start[c] (run_vps). */
static void lane_parts(bspram_pram *P, pram_lane *L, uint64_t lo, uint64_t hi, bool answers)
{
    if (answers)
        L->res = bspram__grow(L->res, &L->capres, L->nrq, sizeof *L->res, 256, "bspram_pram_step");
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t end = c + 1 < hi ? P->start[c + 1] : L->nrq;
        P->parts[c] = (bspram_batch_part){.requests = L->rq + P->start[c],
                                          .n = end - P->start[c],
                                          .results = answers ? L->res + P->start[c] : NULL};
    }
}

/* Run fn for the lane's VPs in increasing order, their requests appended
 * to L->rq (component c's from P->start[c]). Read phase: each VP's reads
 * are counted in L->nreads; a textbook body's first run keeps no change to
 * the VP's registers. Write phase: each VP sees its answers in issue order. */
static void run_vps(const vp_phase *x, pram_lane *L, pram_phase phase, uint64_t lo, uint64_t hi, uint64_t lv0)
{
    bspram_pram *P = x->P;
    const unsigned nregs = P->cfg.registers;
    uint64_t off = 0;
    const bool last_counts = phase == PHASE_WRITE && bspram__pram_last_write_counts(P);
    vp_state vp = {.P = P, .L = L, .phase = phase, .body = x->body};
    running.vp = &vp;
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t v0, v1;
        bspram__pram_vps(P, c, &v0, &v1);
        P->start[c] = L->nrq;
        for (uint64_t v = v0; v < v1; v++) {
            vp.id = v;
            if (phase == PHASE_READ) {
                vp.nreads = 0;
                uint64_t *regs = x->body && nregs ? P->regs + v * nregs : NULL;
                if (regs)
                    memcpy(L->saved, regs, nregs * sizeof *regs);
                running.handle = &L->handles[v - lv0];
                x->fn(&L->handles[v - lv0], x->arg);
                running.handle = NULL;
                if (regs)
                    memcpy(regs, L->saved, nregs * sizeof *regs);
                if (vp.nreads > UINT32_MAX)
                    vp_fail(&vp, "bspram_vp_read: VP %" PRIu64 " issued more than 2^32 - 1 reads in step %" PRIu64,
                            v, P->step);
                L->nreads[v - lv0] = (uint32_t)vp.nreads;
                continue;
            }
            vp.nvalues = x->had_reads ? L->nreads[v - lv0] : 0;
            vp.values = x->had_reads ? L->res + off : NULL;
            vp.asked = x->had_reads ? L->rq_reads + off : NULL;
            vp.nget = 0;
            off += vp.nvalues;
            const size_t first = L->nrq;
            running.handle = &L->handles[v - lv0];
            x->fn(&L->handles[v - lv0], x->arg);
            running.handle = NULL;
            if (last_counts && L->nrq - first > 1)
                bspram__pram_last_write(L, L->rq + first, L->nrq - first);
            if (x->body && vp.nget != vp.nvalues)
                vp_fail(&vp, "bspram_vp_get: VP %" PRIu64 " read %" PRIu64 " cells in step %" PRIu64
                        " once its values were known, %" PRIu64 " before; the cells a VP reads in a step may "
                        "not depend on what it reads in that step (read it in the next step)",
                        v, vp.nget, P->step, vp.nvalues);
        }
    }
}

/* One phase's callbacks on one lane, then (with `batch`) its batch. */
static void phase_lane(bspram_team *t, void *arg, pram_phase phase, bool batch)
{
    const vp_phase *x = arg;
    bspram_pram *P = x->P;
    pram_lane *L = &P->lanes[bspram__bsp_team_lane(t)];
    const uint64_t lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t);
    uint64_t lv0, lv1;
    lane_vps(P, t, &lv0, &lv1);
    if (L->caphandles < lv1 - lv0 || L->handles_v0 != lv0) { /* the first phase: a lane's block is fixed */
        free(L->handles);
        L->caphandles = lv1 - lv0 ? lv1 - lv0 : 1;
        L->handles = bspram__base_malloc(L->caphandles, "bspram_pram_step");
        L->handles_v0 = lv0;
    }
    if (phase == PHASE_READ) {
        L->nreads = bspram__grow(L->nreads, &L->capnreads, lv1 - lv0, sizeof *L->nreads, 256,
                                 "bspram_pram_step");
        if (x->body && P->cfg.registers)
            L->saved = bspram__grow(L->saved, &L->capsaved, P->cfg.registers, sizeof *L->saved, 4,
                                    "bspram_pram_for_all");
    } else if (x->body) { /* the reads stay, to be replayed; the writes go to the other buffer */
        bspram_request *rq = L->rq;
        size_t cap = L->caprq;
        L->rq = L->rq_reads, L->caprq = L->caprq_reads;
        L->rq_reads = rq, L->caprq_reads = cap;
        L->nrq_reads = L->nrq;
    }
    L->nrq = 0; /* in the write phase the answers of the reads stay in L->res */
    L->failed = false;
    if (setjmp(L->out) == 0) {
        run_vps(x, L, phase, lo, hi, lv0);
        if (batch)
            lane_parts(P, L, lo, hi, phase == PHASE_READ);
    } else if (batch) {
        bspram__pram_silent(P, lo, hi);
    }
    running.vp = NULL, running.handle = NULL; /* also after a misuse's longjmp */
    if (batch)
        bspram__combine_team_parts(t, P->C, P->parts, NULL);
}

static void read_lane(bspram_team *t, void *arg) { phase_lane(t, arg, PHASE_READ, true); }
static void write_lane(bspram_team *t, void *arg) { phase_lane(t, arg, PHASE_WRITE, true); }
static void learn_lane(bspram_team *t, void *arg) { phase_lane(t, arg, PHASE_READ, false); }
static void replay_lane(bspram_team *t, void *arg) { phase_lane(t, arg, PHASE_WRITE, false); }

/* The batch of the requests a callbacks-only team left in the lanes. */
static void submit(bspram_team *t, void *arg, bool answers)
{
    const vp_phase *x = arg;
    bspram_pram *P = x->P;
    pram_lane *L = &P->lanes[bspram__bsp_team_lane(t)];
    lane_parts(P, L, bspram__bsp_team_first(t), bspram__bsp_team_end(t), answers);
    bspram__combine_team_parts(t, P->C, P->parts, NULL);
}

static void submit_reads(bspram_team *t, void *arg) { submit(t, arg, true); }
static void submit_writes(bspram_team *t, void *arg) { submit(t, arg, false); }

/* The requests the lanes hold now, over MPI summed over the ranks. */
static uint64_t lanes_requests(bspram_pram *P)
{
    uint64_t n = 0;
    unsigned lo, hi;
    bspram__bsp_machine_lanes(P->m, &lo, &hi);
    for (unsigned l = lo; l < hi; l++)
        n += P->lanes[l].nrq;
    bspram__bsp_machine_sum(P->m, &n, 1);
    return n;
}

/* Run `lane` as the team of one phase, then its conflicts and costs. */
static void phase_batch(bspram_pram *P, bspram_pram_step_record *rec, bool is_read,
                        void (*lane)(bspram_team *, void *), vp_phase *x)
{
    bspram__pram_watch(P, is_read);
    size_t mark = bspram__pram_log_mark(P);
    P->per_vp = true;
    bspram__bsp_machine_team_for(P->m, lane, x, x->body ? "bspram_pram_for_all" : "bspram_pram_step");
    bspram__pram_report_misuse(P);
    uint64_t issued = bspram__pram_issued(P);
    uint64_t violations = bspram__pram_conflicts(P);
    bspram__pram_end_phase(P, rec, mark, is_read, is_read, issued, violations);
    P->per_vp = false;
}

/* One phase of a per-VP step: a team, then its conflicts and costs. */
static void vp_phase_run(bspram_pram *P, pram_phase phase, bspram_vp_fn fn, void *arg, bool had_reads,
                         bool fresh)
{
    const bool is_read = phase == PHASE_READ;
    bspram_pram_step_record *rec = bspram__pram_begin_phase(P, phase, fresh);
    vp_phase x = {P, fn, arg, had_reads, false};
    phase_batch(P, rec, is_read, is_read ? read_lane : write_lane, &x);
}

void bspram_pram_step(bspram_pram *P, bspram_vp_fn read, bspram_vp_fn write, void *arg)
{
    BSPRAM_NONNULL(P);
    if (read)
        vp_phase_run(P, PHASE_READ, read, arg, false, true);
    if (write)
        vp_phase_run(P, PHASE_WRITE, write, arg, read != NULL, read == NULL);
    if (!read && !write) /* a step that does nothing still takes a unit of PRAM time */
        bspram__pram_begin_phase(P, PHASE_WRITE, true);
    bspram__pram_close_step(P);
}

/* A textbook step: the body's first run learns the reads (a team without a
 * batch), their batch if there are any, the second run makes the writes,
 * and their batch if there are any. A phase without requests costs no
 * superstep, as a bulk step without a gather or a write phase. */
void bspram_pram_for_all(bspram_pram *P, bspram_vp_fn body, void *arg)
{
    BSPRAM_NONNULL(P);
    BSPRAM_NONNULL(body);
    bspram_pram_step_record *rec = bspram__pram_begin_phase(P, PHASE_READ, true);
    vp_phase x = {P, body, arg, false, true};
    bspram__bsp_machine_team_for(P->m, learn_lane, &x, "bspram_pram_for_all");
    bspram__pram_report_misuse(P);
    x.had_reads = lanes_requests(P) > 0;
    /* A violation of the read batch is the step's only once the second run
     * asked for the same cells: a read that depends on a value read in the
     * step was asked for as if that value were 0, and under EREW the VPs'
     * reads of that one cell met — the second run names the real error. */
    P->fatal_later = true;
    if (x.had_reads)
        phase_batch(P, rec, true, submit_reads, &x);
    bspram__bsp_machine_team_for(P->m, replay_lane, &x, "bspram_pram_for_all");
    bspram__pram_report_misuse(P);
    P->fatal_later = false;
    if (P->fatal_pending)
        bspram__pram_fatal_end(P);
    if (lanes_requests(P) > 0) {
        rec = bspram__pram_begin_phase(P, PHASE_WRITE, false);
        phase_batch(P, rec, false, submit_writes, &x);
    }
    bspram__pram_close_step(P);
}
