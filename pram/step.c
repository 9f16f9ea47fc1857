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
 * costs. A lane's buffers are its own: no lane writes what another reads. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

struct bspram_vp {
    bspram_pram *P;
    pram_lane *L;
    uint64_t id;
    pram_phase phase;
    uint64_t nreads;          /* read phase: reads issued so far */
    const uint64_t *values;   /* write phase: the answers of its reads */
    uint64_t nvalues;
};

typedef struct vp_phase {
    bspram_pram *P;
    bspram_vp_fn fn;
    void *arg;
    bool had_reads; /* write phase: the read phase ran */
} vp_phase;

uint64_t bspram_vp_id(const bspram_vp *vp)
{
    BSPRAM_NONNULL(vp);
    return vp->id;
}

uint64_t bspram_vp_n(const bspram_vp *vp)
{
    BSPRAM_NONNULL(vp);
    return vp->P->n;
}

uint64_t *bspram_vp_registers(bspram_vp *vp)
{
    BSPRAM_NONNULL(vp);
    const unsigned r = vp->P->cfg.registers;
    return r ? vp->P->regs + vp->id * r : NULL;
}

static const char *phase_name(pram_phase ph) { return ph == PHASE_READ ? "read" : "write"; }

/* The cell of (a, index) for a call of VP vp, or a fatal line. */
static uint64_t vp_cell(const bspram_vp *vp, bspram_pram_array a, uint64_t index, const char *call)
{
    const bspram_pram *P = vp->P;
    if (a == 0 || a >= P->narrays || !P->arrays[a].live)
        bspram__base_fatal("%s(array=%" PRIu32 ", index=%" PRIu64 "): no such array (VP %" PRIu64
                     ", step %" PRIu64 ")", call, a, index, vp->id, P->step);
    if (index >= P->arrays[a].cells) {
        char buf[BSPRAM__PRAM_CELL_TEXT];
        bspram__pram_cell_text(P, (uint64_t)a << BSPRAM_SEGMENT_SHIFT, buf, sizeof buf);
        buf[strcspn(buf, "[")] = 0; /* the array's name alone */
        bspram__base_fatal("%s(array=%s, index=%" PRIu64 "): index out of range [0, %" PRIu64 ") (VP %" PRIu64
                     ", step %" PRIu64 ")", call, buf, index, P->arrays[a].cells, vp->id, P->step);
    }
    return ((uint64_t)a << BSPRAM_SEGMENT_SHIFT) | index;
}

static void wrong_phase(const bspram_vp *vp, const char *call, const char *args, const char *hint)
{
    bspram__base_fatal("%s(%s): called in the %s callback (VP %" PRIu64 ", step %" PRIu64 "); %s", call, args,
                 phase_name(vp->phase), vp->id, vp->P->step, hint);
}

static void push(bspram_vp *vp, uint64_t cell, uint64_t value, uint8_t kind)
{
    pram_lane *L = vp->L;
    L->rq = bspram__grow(L->rq, &L->caprq, L->nrq + 1, sizeof *L->rq, 256, "bspram_pram_step");
    bspram_request *q = &L->rq[L->nrq++];
    q->address = cell;
    q->value = value;
    q->kind = kind;
    q->label = (uint32_t)vp->id;
}

uint64_t bspram_vp_read(bspram_vp *vp, bspram_pram_array a, uint64_t index)
{
    BSPRAM_NONNULL(vp);
    if (vp->phase != PHASE_READ) {
        char args[64];
        snprintf(args, sizeof args, "array=%" PRIu32 ", index=%" PRIu64, a, index);
        wrong_phase(vp, "bspram_vp_read", args, "reads are issued in the read callback");
    }
    push(vp, vp_cell(vp, a, index, "bspram_vp_read"), 0, BSPRAM_READ);
    return vp->nreads++;
}

uint64_t bspram_vp_value(const bspram_vp *vp, uint64_t k)
{
    BSPRAM_NONNULL(vp);
    if (vp->phase != PHASE_WRITE) {
        char args[32];
        snprintf(args, sizeof args, "k=%" PRIu64, k);
        wrong_phase(vp, "bspram_vp_value", args, "values are seen in the write callback");
    }
    if (k >= vp->nvalues) {
        if (vp->nvalues == 0)
            bspram__base_fatal("bspram_vp_value(k=%" PRIu64 "): VP %" PRIu64 " issued no reads in step %" PRIu64,
                         k, vp->id, vp->P->step);
        bspram__base_fatal("bspram_vp_value(k=%" PRIu64 "): out of range; VP %" PRIu64 " issued %" PRIu64
                     " reads in step %" PRIu64 ", valid: 0..%" PRIu64,
                     k, vp->id, vp->nvalues, vp->P->step, vp->nvalues - 1);
    }
    return vp->values[k];
}

void bspram_vp_write(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value)
{
    BSPRAM_NONNULL(vp);
    if (vp->phase != PHASE_WRITE) {
        char args[96];
        snprintf(args, sizeof args, "array=%" PRIu32 ", index=%" PRIu64 ", value=%" PRIu64, a, index, value);
        wrong_phase(vp, "bspram_vp_write", args, "writes are issued in the write callback");
    }
    push(vp, vp_cell(vp, a, index, "bspram_vp_write"), value, bspram__pram_write_kind(vp->P));
}

void bspram_vp_reduce(bspram_vp *vp, bspram_pram_array a, uint64_t index, uint64_t value, unsigned op)
{
    BSPRAM_NONNULL(vp);
    const bspram_pram *P = vp->P;
    if (P->cfg.model != BSPRAM_CRCW_COMBINING)
        bspram__base_fatal("bspram_vp_reduce: the %s model has no combining operations; use CRCW-combining",
                     bspram_pram_model_name(P->cfg.model));
    if (vp->phase != PHASE_WRITE) {
        char args[112];
        snprintf(args, sizeof args, "array=%" PRIu32 ", index=%" PRIu64 ", value=%" PRIu64 ", op=%u", a,
                 index, value, op);
        wrong_phase(vp, "bspram_vp_reduce", args, "writes are issued in the write callback");
    }
    bspram__pram_check_op(P, op, "bspram_vp_reduce");
    push(vp, vp_cell(vp, a, index, "bspram_vp_reduce"), value, bspram_kind_reduce(op));
}

/* The lane's VPs: those of its components [first, end), i.e. from the
 * first VP of `first` to the first VP of `end`. */
static void lane_vps(const bspram_pram *P, const bspram_team *t, uint64_t *v0, uint64_t *v1)
{
    uint64_t unused;
    bspram__pram_vps(P, bspram__bsp_team_first(t), v0, &unused);
    bspram__pram_vps(P, bspram__bsp_team_end(t), v1, &unused);
}

static void read_lane(bspram_team *t, void *arg)
{
    const vp_phase *x = arg;
    bspram_pram *P = x->P;
    pram_lane *L = &P->lanes[bspram__bsp_team_lane(t)];
    const uint64_t lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t);
    uint64_t lv0, lv1;
    lane_vps(P, t, &lv0, &lv1);
    L->nreads = bspram__grow(L->nreads, &L->capnreads, lv1 - lv0, sizeof *L->nreads, 256, "bspram_pram_step");
    L->nrq = 0;
    bspram_vp vp = {P, L, 0, PHASE_READ, 0, NULL, 0};
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t v0, v1;
        bspram__pram_vps(P, c, &v0, &v1);
        P->start[c] = L->nrq;
        for (uint64_t v = v0; v < v1; v++) {
            vp.id = v;
            vp.nreads = 0;
            x->fn(&vp, x->arg);
            if (vp.nreads > UINT32_MAX)
                bspram__base_fatal("bspram_vp_read: VP %" PRIu64 " issued more than 2^32 - 1 reads in step %" PRIu64,
                             v, P->step);
            L->nreads[v - lv0] = (uint32_t)vp.nreads;
        }
    }
    L->res = bspram__grow(L->res, &L->capres, L->nrq, sizeof *L->res, 256, "bspram_pram_step");
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t end = c + 1 < hi ? P->start[c + 1] : L->nrq;
        P->parts[c].requests = L->rq + P->start[c];
        P->parts[c].n = end - P->start[c];
        P->parts[c].results = L->res + P->start[c];
    }
    bspram__combine_team_parts(t, P->C, P->parts, NULL);
}

static void write_lane(bspram_team *t, void *arg)
{
    const vp_phase *x = arg;
    bspram_pram *P = x->P;
    pram_lane *L = &P->lanes[bspram__bsp_team_lane(t)];
    const uint64_t lo = bspram__bsp_team_first(t), hi = bspram__bsp_team_end(t);
    uint64_t lv0, lv1;
    lane_vps(P, t, &lv0, &lv1);
    L->nrq = 0; /* the read requests are done with; their answers stay in L->res */
    uint64_t off = 0;
    bspram_vp vp = {P, L, 0, PHASE_WRITE, 0, NULL, 0};
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t v0, v1;
        bspram__pram_vps(P, c, &v0, &v1);
        P->start[c] = L->nrq;
        for (uint64_t v = v0; v < v1; v++) {
            vp.id = v;
            vp.nvalues = x->had_reads ? L->nreads[v - lv0] : 0;
            vp.values = x->had_reads ? L->res + off : NULL;
            off += vp.nvalues;
            x->fn(&vp, x->arg);
        }
    }
    for (uint64_t c = lo; c < hi; c++) {
        uint64_t end = c + 1 < hi ? P->start[c + 1] : L->nrq;
        P->parts[c].requests = L->rq + P->start[c];
        P->parts[c].n = end - P->start[c];
        P->parts[c].results = NULL;
    }
    bspram__combine_team_parts(t, P->C, P->parts, NULL);
}

/* One phase of a per-VP step: a team, then its conflicts and costs. */
static void vp_phase_run(bspram_pram *P, pram_phase phase, bspram_vp_fn fn, void *arg, bool had_reads,
                         bool fresh)
{
    const bool is_read = phase == PHASE_READ;
    bspram_pram_step_record *rec = bspram__pram_begin_phase(P, phase, fresh);
    bspram__pram_watch(P, is_read);
    size_t mark = bspram__pram_log_mark(P);
    vp_phase x = {P, fn, arg, had_reads};
    bspram__bsp_machine_team_for(P->m, is_read ? read_lane : write_lane, &x, "bspram_pram_step");
    uint64_t issued = bspram__pram_issued(P);
    uint64_t violations = bspram__pram_conflicts(P);
    bspram__pram_end_phase(P, rec, mark, is_read, issued, violations);
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
