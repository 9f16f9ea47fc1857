/* The PRAM object: its configuration, the BSP machine and combiner under it,
 * the shared memory's arrays and the host's access to them.
 *
 * Valiant (1990, §3): a PRAM of n processors is emulated on p components
 * whose memory is spread by a random hash function; each component simulates
 * s = n/p virtual processors ("slack"), and once s ≥ log p the router's
 * h-relations of s requests per component cost O(s) w.h.p. Here the hash is
 * the address space's H (hash/address_space.h), the components are the
 * machine's, and VP i lives on component i div ceil(n/p). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "hash/address_space.h"
#include "hash/hash_internal.h"
#include "hash/random.h"
#include "pram/pram_internal.h"
#include "bsp/machine_internal.h"
#include "bsp/threads.h"

/* The space's hash is keyed apart from the engine's spreading and arbitrary
 * winners (which use config.seed itself, as combine.h documents), so that
 * the two streams are independent. */
#define HASH_STREAM UINT64_C(0x7072616d68617368) /* "pramhash" */

bspram_pram_config bspram_pram_config_default(uint64_t n, bspram_pram_model model)
{
    bspram_pram_config c;
    memset(&c, 0, sizeof c);
    c.n = n;
    c.p = n < 4096 ? n : 4096;
    c.threads = bspram_config_default(c.p).threads; /* over MPI: on every rank */
    c.model = model;
    c.op = bspram_op_builtin(BSPRAM_OP_SUM, BSPRAM_TYPE_I64);
    c.registers = 4;
    c.report = false;
    c.seed = 0;
    c.combine = bspram_combine_defaults(1);
    c.combine.strategy = BSPRAM_STRATEGY_AUTO;
    c.combine.basis.m = 0; /* AUTO: the basis is chosen from p */
    return c;
}

/* The registers' limit: n·registers words must be addressable. */
#define MAX_REGISTERS 65536u

bspram_pram *bspram_pram_create(const bspram_pram_config *config)
{
    BSPRAM_NONNULL(config);
    const bspram_pram_config *c = config;
    if (c->n < 1 || c->n > BSPRAM_PRAM_MAX_VPS)
        bspram__base_fatal("bspram_pram_create(n=%" PRIu64 ", p=%" PRIu64 "): n must be in [1, %" PRIu64 "]",
                     c->n, c->p, (uint64_t)BSPRAM_PRAM_MAX_VPS);
    if (c->p < 1 || c->p > (UINT64_C(1) << 31))
        bspram__base_fatal("bspram_pram_create(n=%" PRIu64 ", p=%" PRIu64 "): p must be in [1, 2147483648]",
                     c->n, c->p);
    if (!bspram_pram_model_name(c->model))
        bspram__base_fatal("bspram_pram_create(model=%d): unknown model; valid: 0 EREW, 1 CREW, "
                     "2 CRCW-common, 3 CRCW-arbitrary, 4 CRCW-priority, 5 CRCW-combining",
                     (int)c->model);
    if (c->op >= BSPRAM_BUILTIN_OPS)
        bspram__base_fatal("bspram_pram_create(op=%u): unknown operation; valid: 0..%d (built-in; a user "
                     "operation is registered on bspram_pram_combiner and chosen with "
                     "bspram_pram_set_op)", c->op, BSPRAM_BUILTIN_OPS - 1);
    if (c->registers > MAX_REGISTERS)
        bspram__base_fatal("bspram_pram_create(registers=%u): registers must be in [0, %u]", c->registers,
                     MAX_REGISTERS);

    bspram_pram *P = bspram__base_calloc(1, sizeof *P, "bspram_pram_create");
    P->cfg = *c;
    P->n = c->n;
    P->p = c->p;
    P->per = (c->n + c->p - 1) / c->p;
    P->op = c->op;

    bspram_config mc = bspram_config_default(c->p);
    mc.threads = c->threads;
    mc.seed = c->seed;
    P->m = bspram_machine_create(&mc); /* checks threads */
    P->s = bspram_space_create(c->p, BSPRAM_HASH_XXH3, bspram_random2(c->seed, HASH_STREAM, 0));
    bspram_combine_options o = c->combine;
    o.seed = c->seed; /* the arbitrary winners' seed is the PRAM's (pram.h) */
    P->C = bspram_combiner_create(P->m, P->s, &o);

    /* calloc: the pages of registers no VP touches are never mapped */
    if (c->registers)
        P->regs = bspram__base_calloc(c->n * c->registers, sizeof *P->regs, "bspram_pram_create (registers)");
    P->parts = bspram__base_calloc(c->p, sizeof *P->parts, "bspram_pram_create");
    P->start = bspram__base_calloc(c->p + 1, sizeof *P->start, "bspram_pram_create");
    P->nlanes = (unsigned)bspram_machine_threads(P->m); /* over MPI: maybe raised to the ranks */
    size_t bytes = ((size_t)P->nlanes * sizeof *P->lanes + 63) / 64 * 64;
    P->lanes = aligned_alloc(64, bytes);
    if (!P->lanes)
        bspram__base_fatal("bspram_pram_create: out of memory");
    memset(P->lanes, 0, bytes);
    P->narrays = 1; /* segment numbers start at 1 */
    P->arrays = bspram__grow(NULL, &P->caparrays, 8, sizeof *P->arrays, 8, "bspram_pram_create");
    memset(P->arrays, 0, P->caparrays * sizeof *P->arrays);
    bspram__pram_report_open(P); /* BSPRAM_PRAM_REPORT, BSPRAM_PRAM_HTML */
    bspram__pram_live_add(P);
    return P;
}

void bspram_pram_destroy(bspram_pram *P)
{
    if (!P)
        return;
    bspram__pram_live_remove(P);
    bspram__pram_report_close(P, "destroy"); /* the checker's line and the page, if asked */
    free(P->report_path);
    free(P->html_path);
    bspram_combiner_destroy(P->C);
    bspram_space_destroy(P->s);
    bspram_machine_destroy(P->m); /* its records go to BSPRAM_TRACE */
    for (unsigned l = 0; l < P->nlanes; l++) {
        free(P->lanes[l].rq);
        free(P->lanes[l].site);
        free(P->lanes[l].rq_reads);
        free(P->lanes[l].saved);
        free(P->lanes[l].res);
        free(P->lanes[l].nreads);
        free(P->lanes[l].handles);
        free(P->lanes[l].own);
    }
    free(P->lanes);
    free(P->regs);
    free(P->arrays);
    free(P->parts);
    free(P->start);
    free(P->trace);
    free(P->conf);
    bspram__pram_record_free(P);
    free(P);
}

uint64_t bspram_pram_n(const bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->n;
}

uint64_t bspram_pram_p(const bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->p;
}

bspram_pram_model bspram_pram_model_of(const bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->cfg.model;
}

bspram_machine *bspram_pram_machine(bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->m;
}

bspram_combiner *bspram_pram_combiner(bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->C;
}

uint64_t bspram_pram_host(const bspram_pram *P, uint64_t vp)
{
    BSPRAM_NONNULL(P);
    if (vp >= P->n)
        bspram__base_fatal("bspram_pram_host(vp=%" PRIu64 "): no such VP; valid: [0, %" PRIu64 ")", vp, P->n);
    return vp / P->per;
}

void bspram__pram_check_op(const bspram_pram *P, unsigned op, const char *call)
{
    unsigned count = bspram_combiner_op_count(P->C);
    if (op >= count)
        bspram__base_fatal("%s(op=%u): no such operation; valid: 0..%u (user operations are registered "
                     "on bspram_pram_combiner)", call, op, count - 1);
}

void bspram_pram_set_op(bspram_pram *P, unsigned op)
{
    BSPRAM_NONNULL(P);
    if (P->cfg.model != BSPRAM_CRCW_COMBINING)
        bspram__base_fatal("bspram_pram_set_op(op=%u): the %s model has no combining write; use "
                     "CRCW-combining", op, bspram_pram_model_name(P->cfg.model));
    bspram__pram_check_op(P, op, "bspram_pram_set_op");
    P->op = op;
}

unsigned bspram_pram_op(const bspram_pram *P)
{
    BSPRAM_NONNULL(P);
    return P->op;
}

uint8_t bspram__pram_write_kind(const bspram_pram *P)
{
    switch (P->cfg.model) {
    case BSPRAM_CRCW_PRIORITY: return BSPRAM_WRITE_PRIORITY;
    case BSPRAM_CRCW_COMBINING: return bspram_kind_combine_write(P->op);
    /* EREW, CREW and common: their conflicts are watched (violation.c); in
     * report mode the run goes on under the arbitrary rule. */
    default: return BSPRAM_WRITE_ARBITRARY;
    }
}

bool bspram__pram_last_write_counts(const bspram_pram *P)
{
    return P->cfg.model == BSPRAM_EREW || P->cfg.model == BSPRAM_CREW;
}

/* The pairs of a long list: (cell, position), sorted. */
typedef struct own_write {
    uint64_t address;
    size_t at;
} own_write;

static int own_write_order(const void *pa, const void *pb)
{
    const own_write *a = pa, *b = pb;
    if (a->address != b->address)
        return a->address < b->address ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

void bspram__pram_last_write(pram_lane *L, bspram_request *q, size_t n)
{
    if (n < 2)
        return;
    if (n <= 16) { /* the usual few writes: no sort, at most 120 comparisons */
        for (size_t i = 0; i + 1 < n; i++)
            for (size_t j = n - 1; j > i; j--)
                if (q[j].address == q[i].address) {
                    q[i].value = q[j].value;
                    break;
                }
        return;
    }
    L->own = bspram__grow(L->own, &L->capown, n, sizeof *L->own, 64, "bspram_pram_step");
    own_write *w = L->own;
    for (size_t i = 0; i < n; i++)
        w[i] = (own_write){q[i].address, i};
    qsort(w, n, sizeof *w, own_write_order);
    for (size_t g = 0, e; g < n; g = e) {
        for (e = g + 1; e < n && w[e].address == w[g].address;)
            e++;
        for (size_t i = g; i + 1 < e; i++) /* the group's last is its last in program order */
            q[w[i].at].value = q[w[e - 1].at].value;
    }
}

/* ---- arrays ---- */

bspram_pram_array bspram_pram_alloc(bspram_pram *P, const char *name, uint64_t cells)
{
    BSPRAM_NONNULL(P);
    if (cells == 0 || cells > BSPRAM_SEGMENT_MAX_CELLS)
        bspram__base_fatal("bspram_pram_alloc(name=%s, cells=%" PRIu64 "): cells must be in [1, 2^40]",
                     name ? name : "(null)", cells);
    /* Refuse before the address space would fail in its own words. */
    if (P->live_arrays >= BSPRAM_MAX_SEGMENTS)
        bspram__base_fatal("bspram_pram_alloc(name=%s, cells=%" PRIu64 "): too many arrays; at most %u live",
                     name ? name : "(null)", cells, BSPRAM_MAX_SEGMENTS);
    char why[320];
    if (bspram__hash_segment_problem(P->s, cells, BSPRAM__PRAM_CELL_BYTES, BSPRAM_LAYOUT_HASHED, why, sizeof why))
        bspram__base_fatal("bspram_pram_alloc(name=%s, cells=%" PRIu64 "): %s", name ? name : "(null)", cells, why);
    uint32_t seg = bspram_segment_alloc(P->s, cells, BSPRAM__PRAM_CELL_BYTES, BSPRAM_LAYOUT_HASHED);
    if (seg >= P->narrays) {
        size_t old = P->caparrays;
        P->arrays = bspram__grow(P->arrays, &P->caparrays, (size_t)seg + 1, sizeof *P->arrays, 8,
                                 "bspram_pram_alloc");
        memset(P->arrays + old, 0, (P->caparrays - old) * sizeof *P->arrays);
        P->narrays = (size_t)seg + 1;
    }
    pram_array *A = &P->arrays[seg];
    A->live = true;
    A->cells = cells;
    P->live_arrays++;
    snprintf(A->name, sizeof A->name, "%s", name ? name : "");
    return seg;
}

const pram_array *bspram__pram_array(const bspram_pram *P, bspram_pram_array a, const char *call)
{
    if (a == 0 || a >= P->narrays || !P->arrays[a].live)
        bspram__base_fatal("%s(array=%" PRIu32 "): no such array", call, a);
    return &P->arrays[a];
}

void bspram_pram_free(bspram_pram *P, bspram_pram_array a)
{
    BSPRAM_NONNULL(P);
    bspram__pram_array(P, a, "bspram_pram_free");
    bspram_segment_free(P->s, a);
    P->arrays[a].live = false;
    P->live_arrays--;
}

uint64_t bspram_pram_cells(const bspram_pram *P, bspram_pram_array a)
{
    BSPRAM_NONNULL(P);
    return bspram__pram_array(P, a, "bspram_pram_cells")->cells;
}

/* The array's name as messages print it. */
static const char *array_text(const pram_array *A, bspram_pram_array a, char *buf, size_t len)
{
    if (A->name[0])
        return A->name;
    snprintf(buf, len, "#%" PRIu32, a);
    return buf;
}

uint64_t bspram_pram_cell(const bspram_pram *P, bspram_pram_array a, uint64_t index)
{
    BSPRAM_NONNULL(P);
    const pram_array *A = bspram__pram_array(P, a, "bspram_pram_cell");
    if (index >= A->cells) {
        char buf[16];
        bspram__base_fatal("bspram_pram_cell(array=%s, index=%" PRIu64 "): index out of range [0, %" PRIu64 ")",
                     array_text(A, a, buf, sizeof buf), index, A->cells);
    }
    return ((uint64_t)a << BSPRAM_SEGMENT_SHIFT) | index;
}

const char *bspram__pram_cell_text(const bspram_pram *P, uint64_t cell, char *buf, size_t len)
{
    uint64_t seg = cell >> BSPRAM_SEGMENT_SHIFT, index = cell & (BSPRAM_SEGMENT_MAX_CELLS - 1);
    char nb[16];
    if (seg < P->narrays && P->arrays[seg].live)
        snprintf(buf, len, "%s[%" PRIu64 "]", array_text(&P->arrays[seg], (uint32_t)seg, nb, sizeof nb), index);
    else
        snprintf(buf, len, "0x%" PRIx64, cell);
    return buf;
}

/* ---- host access (not steps: no records, no costs) ---- */

static void host_check(const bspram_pram *P, bspram_pram_array a, const void *values, uint64_t count,
                       const char *call)
{
    const pram_array *A = bspram__pram_array(P, a, call);
    char buf[16];
    if (count > A->cells)
        bspram__base_fatal("%s(array=%s, count=%" PRIu64 "): count above the array's %" PRIu64 " cells",
                     call, array_text(A, a, buf, sizeof buf), count, A->cells);
    if (!values && count)
        bspram__base_fatal("%s(array=%s, count=%" PRIu64 "): values is NULL", call,
                     array_text(A, a, buf, sizeof buf), count);
}

/* A copy between the user's array and the cells, in blocks, one per
 * thread of the machine's count (bsp/threads.h) when it is long. */
typedef struct cell_copy {
    bspram_space *s;
    uint64_t base, count;
    uint64_t *values;
    unsigned n;
    bool load; /* values → cells (else cells → values) */
} cell_copy;

static void copy_block(unsigned lane, void *arg)
{
    const cell_copy *c = arg;
    const uint64_t lo = c->count * lane / c->n, hi = c->count * (lane + 1) / c->n;
    for (uint64_t i = lo; i < hi; i++)
        if (bspram_holds(c->s, c->base + i)) { /* over MPI: the rank's own cells only */
            if (c->load)
                memcpy(bspram_cell(c->s, c->base + i), &c->values[i], sizeof c->values[i]);
            else
                memcpy(&c->values[i], bspram_cell(c->s, c->base + i), sizeof c->values[i]);
        }
}

static void copy_cells(cell_copy *c, const char *call)
{
    c->n = c->count >= 65536 && c->n > 1 ? c->n : 1;
    bspram__bsp_threads_run(c->n, copy_block, c, NULL, call);
}

/* The cells are in their owners' hash tables; distinct cells may be touched
 * concurrently (address_space.h), so the copy runs on the machine's threads. */
void bspram_pram_load(bspram_pram *P, bspram_pram_array a, const uint64_t *values, uint64_t count)
{
    BSPRAM_NONNULL(P);
    host_check(P, a, values, count, "bspram_pram_load");
    cell_copy c = {P->s, (uint64_t)a << BSPRAM_SEGMENT_SHIFT, count, (uint64_t *)(uintptr_t)values,
                   P->nlanes, true};
    copy_cells(&c, "bspram_pram_load");
}

/* The held cells one by one in increasing index: over MPI the rank's share
 * (bspram_holds), with no n-word buffer on either side. */
void bspram_pram_fill(bspram_pram *P, bspram_pram_array a, bspram_pram_fill_fn fn, void *arg)
{
    BSPRAM_NONNULL(P);
    const pram_array *A = bspram__pram_array(P, a, "bspram_pram_fill");
    char buf[16];
    if (!fn)
        bspram__base_fatal("bspram_pram_fill(array=%s): fn is NULL", array_text(A, a, buf, sizeof buf));
    const uint64_t base = (uint64_t)a << BSPRAM_SEGMENT_SHIFT;
    for (uint64_t i = 0; i < A->cells; i++)
        if (bspram_holds(P->s, base + i)) {
            uint64_t v = fn(i, arg);
            memcpy(bspram_cell(P->s, base + i), &v, sizeof v);
        }
}

void bspram_pram_visit(const bspram_pram *P, bspram_pram_array a, bspram_pram_visit_fn fn, void *arg)
{
    BSPRAM_NONNULL(P);
    const pram_array *A = bspram__pram_array(P, a, "bspram_pram_visit");
    char buf[16];
    if (!fn)
        bspram__base_fatal("bspram_pram_visit(array=%s): fn is NULL", array_text(A, a, buf, sizeof buf));
    const uint64_t base = (uint64_t)a << BSPRAM_SEGMENT_SHIFT;
    for (uint64_t i = 0; i < A->cells; i++)
        if (bspram_holds(P->s, base + i)) {
            uint64_t v;
            memcpy(&v, bspram_cell(P->s, base + i), sizeof v);
            fn(i, v, arg);
        }
}

void bspram_pram_store(const bspram_pram *P, bspram_pram_array a, uint64_t *values, uint64_t count)
{
    BSPRAM_NONNULL(P);
    host_check(P, a, values, count, "bspram_pram_store");
    const uint64_t base = (uint64_t)a << BSPRAM_SEGMENT_SHIFT;
    bspram_space *s = P->s;
    cell_copy c = {s, base, count, values, P->nlanes, false};
    copy_cells(&c, "bspram_pram_store");
    /* Over MPI a rank holds the cells its components own: the ranks share
     * them, the explicit gather this call is (pram.h). */
    bspram__combine_share_range(P->m, s, base, values, (size_t)count);
}
