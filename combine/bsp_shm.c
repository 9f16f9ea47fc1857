/* The bsp_shm extension (combine/bsp_shm.h): concurrent shared memory inside
 * BSPlib programs, on the one combining engine.
 *
 * State, in the slots BSPLIB_EXT_SHM of the process and of the section
 * (bsp/bsplib_internal.h). Each process keeps its own (shm_proc, made at its
 * first bsp_shm call): the requests of the current superstep in issue order,
 * where their answers go, and the collective calls it made in the superstep.
 * The section keeps one shm_world per process of the job (one
 * on a machine; one per MPI rank): the address space (each rank holds the
 * cells its processes own), the combiner, the table of allocations (entry
 * k−1 is the section's k-th bsp_shm_alloc), the user operations, and the
 * sync's gathered collective calls. Only process lo of the rank (pid 0 on a
 * machine) writes it, inside a bsp_sync between two barriers (apply, below);
 * the rank's processes read it during supersteps to check requests when they
 * are issued.
 *
 * The sync (bsp/bsplib_sync.c calls the hooks installed at the end of this
 * file; the bsp layer includes nothing of combine):
 *   batch  every process, when some process issued requests: its requests
 *          become parts[pid] of one bspram__combine_team_parts batch, run by
 *          the machine's team (each BSPlib process is one lane, and each
 *          lane reads only its own part); then it copies its answers to the
 *          callers' buffers. The batch's exchanges are supersteps of the
 *          sync, labelled by the engine (combine:forward:i /
 *          combine:reverse:j).
 *   gather every process, when some process made collective calls: the
 *          calls of every process reach process lo of each rank
 *          (bspram__bsp_bsplib_gather: through the router, on every transport alike).
 *   apply  process lo, right after, while the others wait: checks that every
 *          process made the same calls, then applies its own (its addresses
 *          of user operations) — frees and allocations touch the address
 *          space, which nobody else reads until the barrier that ends the step.
 * bsp_end frees the state through the destructors of its slots
 * (BSPLIB_EXT_SHM): process lo, before the machine (the combiner runs on it).
 *
 * Memory order (C11): a process writes its own state during the superstep
 * and reads it after; process lo reads the gathered calls after the gather's
 * barrier and writes the world between two barriers; the router's exchanges
 * and barriers are release/acquire points for every lane (router/barrier.c),
 * so each of these accesses happens before or after the others, never
 * concurrently with a write.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/grow.h"
#include "base/number.h"
#include "bsp/bsplib_internal.h"
#include "combine/bsp_shm.h"
#include "combine/bsp_shm_internal.h"
#include "combine/combine.h"
#include "hash/address_space.h"
#include "hash/basis.h"
#include "hash/hash_internal.h"
#include "bsp/machine_internal.h"
#include "combine/team_internal.h"

#define MAX_USER_OPS (BSPRAM_MAX_OPS - BSPRAM_BUILTIN_OPS)
#define HANDLE_SHIFT 32

enum { SEG_LIVE = 1, SEG_FREED = 2 };

/* Allocation k of the section (entry k − 1 of the world's table). */
typedef struct seg_entry {
    uint64_t cells;
    uint64_t freed_in; /* the superstep of its bsp_shm_free */
    uint32_t seg;      /* its number in the address space */
    uint8_t width, layout, state;
} seg_entry;

typedef enum { CALL_ALLOC, CALL_FREE, CALL_ADD_OP, CALL_SET_BASIS } call_kind;

/* A collective call, pending until the sync. */
typedef struct shm_call {
    call_kind kind;
    bsp_shm_t handle; /* ALLOC: the handle returned; FREE: the argument */
    uint64_t cells, width;
    int layout;
    unsigned op; /* ADD_OP: the id returned */
    bspram_user_op_fn fn;
    void *ctx;
    uint64_t identity;
    char name[32];
    bspram_strategy strategy; /* SET_BASIS */
    uint64_t degree_hint;
    bspram_basis basis;
    char text[BSPRAM_BASIS_TEXT_MAX + 8]; /* canonical: auto, auto:D, adaptive, 8x8 */
} shm_call;

typedef struct shm_proc {
    uint32_t nalloc; /* bsp_shm_alloc calls of this process in the section */
    unsigned nops;   /* bsp_shm_add_op calls */
    shm_call *calls; /* this superstep's collective calls, in call order */
    size_t ncalls, calls_cap;
    /* this superstep's requests; res[j] and dst[j] answer req[j] */
    bspram_request *req;
    void **dst;
    uint8_t *width;
    uint64_t *res;
    size_t n, cap;
} shm_proc;

typedef struct user_op {
    bspram_user_op_fn fn;
    void *ctx;
    uint64_t identity;
    char name[32];
} user_op;

typedef struct shm_world {
    bspram_space *space;  /* made with the first segment */
    bspram_combiner *C;
    bspram_combine_options opts;
    seg_entry *segs;      /* [k − 1]: allocation k */
    size_t nsegs, segs_cap, live;
    user_op ops[MAX_USER_OPS]; /* id BSPRAM_BUILTIN_OPS + i */
    unsigned nops;
    bspram_batch_part *parts; /* [pid]: written by process pid only */
    /* The sync's collective calls of every process, gathered (shm_gather):
     * process q's at calls[q · stride …], ncalls[q] of them. */
    shm_call *calls;
    uint64_t *ncalls;
    size_t stride, calls_cap;
} shm_world;

/* The state in the slots (bsp/bsplib_internal.h, "The extensions' state"):
 * NULL until made (proc_state, world_state). */
static inline shm_proc *shm_of(const bsplib_proc *me) { return bsplib_ext(me, BSPLIB_EXT_SHM); }
static inline shm_world *shm_world_of(const bsplib_world *w)
{
    return bsplib_world_ext(w, BSPLIB_EXT_SHM);
}

/* ---- names for error lines ---- */

static const char *layout_name(int layout)
{
    switch (layout) {
    case BSPRAM_LAYOUT_HASHED: return "hashed";
    case BSPRAM_LAYOUT_BLOCK: return "block";
    case BSPRAM_LAYOUT_CYCLIC: return "cyclic";
    default: return "unknown";
    }
}

static const char *op_text(const bsplib_world *w, unsigned op, char *buf, size_t len)
{
    if (op < BSPRAM_BUILTIN_OPS)
        return bspram_op_name(op);
    const shm_world *ws = w ? shm_world_of(w) : NULL;
    if (ws && op - BSPRAM_BUILTIN_OPS < ws->nops)
        snprintf(buf, len, "%s#%u", ws->ops[op - BSPRAM_BUILTIN_OPS].name, op);
    else
        snprintf(buf, len, "%u", op);
    return buf;
}

static void call_text(const shm_call *c, char *buf, size_t len)
{
    switch (c->kind) {
    case CALL_ALLOC:
        snprintf(buf, len, "bsp_shm_alloc(cells=%" PRIu64 ", width=%" PRIu64 ", layout=%s)", c->cells,
                 c->width, layout_name(c->layout));
        break;
    case CALL_FREE:
        snprintf(buf, len, "bsp_shm_free(seg=%#" PRIx64 ")", c->handle);
        break;
    case CALL_ADD_OP:
        snprintf(buf, len, "bsp_shm_add_op(name=%s, fn=%p, ctx=%p, identity=%" PRIu64 ")", c->name,
                 (void *)(uintptr_t)c->fn, c->ctx, c->identity);
        break;
    case CALL_SET_BASIS:
        snprintf(buf, len, "bsp_shm_set_basis(basis=\"%s\")", c->text);
        break;
    }
}

static const char *call_name(call_kind k)
{
    static const char *const names[] = {"bsp_shm_alloc", "bsp_shm_free", "bsp_shm_add_op",
                                        "bsp_shm_set_basis"};
    return names[k];
}

/* ---- requests ---- */

enum { R_READ, R_WRITE, R_REDUCE, R_FETCH, R_COMBINE };

/* A request as called, for its error line (formatted only on error). */
typedef struct req_call {
    unsigned what;
    bsp_shm_t seg;
    uint64_t index;
    unsigned arg; /* policy or op */
    const void *value;
    const void *dst;
} req_call;

static void req_text(const bsplib_world *w, const req_call *r, char *buf, size_t len)
{
    char ob[48];
    static const char *const policies[] = {"?", "arbitrary", "priority", "common"};
    switch (r->what) {
    case R_READ:
        snprintf(buf, len, "bsp_shm_read(seg=%#" PRIx64 ", index=%" PRIu64 ", dst=%p)", r->seg,
                 r->index, r->dst);
        break;
    case R_WRITE:
        if (r->arg >= BSP_SHM_ARBITRARY && r->arg <= BSP_SHM_COMMON)
            snprintf(ob, sizeof ob, "%s", policies[r->arg]);
        else
            snprintf(ob, sizeof ob, "%d", (int)r->arg);
        snprintf(buf, len, "bsp_shm_write(seg=%#" PRIx64 ", index=%" PRIu64 ", policy=%s, src=%p)",
                 r->seg, r->index, ob, r->value);
        break;
    case R_FETCH:
        snprintf(buf, len,
                 "bsp_shm_fetch_op(seg=%#" PRIx64 ", index=%" PRIu64 ", op=%s, value=%p, dst=%p)",
                 r->seg, r->index, op_text(w, r->arg, ob, sizeof ob), r->value, r->dst);
        break;
    default:
        snprintf(buf, len, "%s(seg=%#" PRIx64 ", index=%" PRIu64 ", op=%s, value=%p)",
                 r->what == R_REDUCE ? "bsp_shm_reduce" : "bsp_shm_combine_write", r->seg, r->index,
                 op_text(w, r->arg, ob, sizeof ob), r->value);
        break;
    }
}

static _Noreturn __attribute__((format(printf, 3, 4))) void
req_fail(const bsplib_proc *me, const req_call *r, const char *fmt, ...)
{
    char call[320], why[512];
    req_text(me ? me->world : NULL, r, call, sizeof call);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    if (!me)
        bspram__bsp_bsplib_fatal(NULL, "%s: called outside a bsp_begin/bsp_end section", call);
    bspram__bsp_bsplib_fatal(me, "%s: %s", call, why);
}

/* Why handle h names no live segment of this process's section now (into
 * why), or NULL with *out set. */
static const char *seg_problem(const bsplib_proc *me, bsp_shm_t h, char *why, size_t len,
                               const seg_entry **out)
{
    const bsplib_world *w = me->world;
    const shm_proc *sp = shm_of(me);
    const shm_world *ws = shm_world_of(w);
    uint64_t section = h >> HANDLE_SHIFT, k = h & UINT32_MAX;
    uint32_t nalloc = sp ? sp->nalloc : 0;
    if (section == w->section && k >= 1 && k <= nalloc) {
        if (!ws || k > ws->nsegs) {
            snprintf(why, len, "the segment is allocated by a bsp_shm_alloc of this superstep; it "
                     "exists from the next bsp_sync on");
            return why;
        }
        const seg_entry *e = &ws->segs[k - 1];
        if (e->state == SEG_FREED) {
            snprintf(why, len, "the segment was freed (bsp_shm_free in superstep %" PRIu64 ")",
                     e->freed_in);
            return why;
        }
        *out = e;
        return NULL;
    }
    if (section >= 1 && section < w->section && k >= 1)
        snprintf(why, len, "the handle is from BSP section %" PRIu64 " (this is section %" PRIu64
                 "); segments end with their section", section, w->section);
    else if (nalloc == 0)
        snprintf(why, len, "not a segment: no bsp_shm_alloc has been called in this section");
    else
        snprintf(why, len, "not a segment: this section's bsp_shm_alloc calls have returned %#" PRIx64
                 " to %#" PRIx64, (uint64_t)w->section << HANDLE_SHIFT | 1,
                 (uint64_t)w->section << HANDLE_SHIFT | nalloc);
    return why;
}

/* The calling process, with a live segment and an index inside it. */
static bsplib_proc *check_request(const req_call *r, const seg_entry **e)
{
    bsplib_proc *me = bspram__bsp_bsplib_current;
    if (__builtin_expect(me == NULL, 0))
        req_fail(NULL, r, "outside");
    char why[256];
    if (seg_problem(me, r->seg, why, sizeof why, e))
        req_fail(me, r, "%s", why);
    if (r->index >= (*e)->cells)
        req_fail(me, r, "index outside [0, %" PRIu64 ")", (*e)->cells);
    return me;
}

/* An operation usable in this superstep, on cells of 8 bytes. */
static void check_op(const bsplib_proc *me, const req_call *r, const seg_entry *e)
{
    const shm_world *ws = shm_world_of(me->world);
    unsigned op = r->arg, nops = ws ? ws->nops : 0;
    if (op >= BSPRAM_BUILTIN_OPS + nops) {
        const shm_proc *sp = shm_of(me);
        if (op < BSPRAM_BUILTIN_OPS + sp->nops)
            req_fail(me, r, "operation %u is registered by a bsp_shm_add_op of this superstep; it "
                     "is usable from the next bsp_sync on", op);
        if (nops)
            req_fail(me, r, "unknown operation; valid: 0..%u (built in: bspram_op_builtin) and "
                     "%u..%u (bsp_shm_add_op)", BSPRAM_BUILTIN_OPS - 1, BSPRAM_BUILTIN_OPS,
                     BSPRAM_BUILTIN_OPS + nops - 1);
        req_fail(me, r, "unknown operation; valid: 0..%u (built in: bspram_op_builtin); no "
                 "operation was registered with bsp_shm_add_op", BSPRAM_BUILTIN_OPS - 1);
    }
    if (e->width != 8)
        req_fail(me, r, "reduce, fetch-and-op and combining write need cells of 8 bytes; the "
                 "segment's cells have %u", (unsigned)e->width);
    if (!r->value)
        req_fail(me, r, "value is NULL");
}

/* A cell's w bytes as a word and back: the bytes round-trip exactly; an
 * 8-byte cell holds the word itself (an int64, uint64 or double). */
static uint64_t bytes_in(const void *src, unsigned w)
{
    uint64_t v = 0;
    if (w == 8) {
        memcpy(&v, src, 8);
        return v;
    }
    const unsigned char *b = src;
    for (unsigned i = 0; i < w; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void bytes_out(void *dst, uint64_t v, unsigned w)
{
    if (w == 8) {
        memcpy(dst, &v, 8);
        return;
    }
    unsigned char *b = dst;
    for (unsigned i = 0; i < w; i++)
        b[i] = (unsigned char)(v >> (8 * i));
}

static void proc_state_free(void *state)
{
    shm_proc *sp = state;
    free(sp->calls);
    free(sp->req);
    free(sp->dst);
    free(sp->width);
    free(sp->res);
    free(sp);
}

static shm_proc *proc_state(bsplib_proc *me)
{
    shm_proc *sp = shm_of(me);
    if (!sp) {
        sp = bspram__base_calloc(1, sizeof *sp, "bsp_shm");
        bsplib_ext_set(me, BSPLIB_EXT_SHM, sp, proc_state_free);
    }
    return sp;
}

static void push_request(bsplib_proc *me, const seg_entry *e, uint64_t index, uint8_t kind,
                         uint64_t value, void *dst)
{
    shm_proc *sp = shm_of(me); /* exists: the process allocated e */
    if (sp->n == sp->cap) {
        size_t cap = bspram__capacity(sp->cap, sp->n + 1, 64);
        sp->req = bspram__base_realloc(sp->req, cap * sizeof *sp->req, "bsp_shm: requests");
        sp->dst = bspram__base_realloc(sp->dst, cap * sizeof *sp->dst, "bsp_shm: requests");
        sp->width = bspram__base_realloc(sp->width, cap * sizeof *sp->width, "bsp_shm: requests");
        sp->res = bspram__base_realloc(sp->res, cap * sizeof *sp->res, "bsp_shm: requests");
        sp->cap = cap;
    }
    size_t j = sp->n++;
    sp->req[j] = (bspram_request){(uint64_t)e->seg << BSPRAM_SEGMENT_SHIFT | index, value, kind,
                                  me->pid};
    sp->dst[j] = dst;
    sp->width[j] = e->width;
    me->shm_tag |= BSPLIB_TAG_SHM;
}

void bsp_shm_read(bsp_shm_t seg, bsp_size_t index, void *dst)
{
    req_call r = {R_READ, seg, index, 0, NULL, dst};
    const seg_entry *e;
    bsplib_proc *me = check_request(&r, &e);
    if (!dst)
        req_fail(me, &r, "dst is NULL");
    push_request(me, e, index, BSPRAM_READ, 0, dst);
}

void bsp_shm_write(bsp_shm_t seg, bsp_size_t index, bsp_shm_policy policy, const void *src)
{
    req_call r = {R_WRITE, seg, index, (unsigned)policy, src, NULL};
    const seg_entry *e;
    bsplib_proc *me = check_request(&r, &e);
    if (!src)
        req_fail(me, &r, "src is NULL");
    if (policy != BSP_SHM_ARBITRARY && policy != BSP_SHM_PRIORITY && policy != BSP_SHM_COMMON)
        req_fail(me, &r, "unknown policy; valid: 1 BSP_SHM_ARBITRARY, 2 BSP_SHM_PRIORITY, "
                 "3 BSP_SHM_COMMON");
    push_request(me, e, index, (uint8_t)policy, bytes_in(src, e->width), NULL);
}

void bsp_shm_reduce(bsp_shm_t seg, bsp_size_t index, unsigned op, const void *value)
{
    req_call r = {R_REDUCE, seg, index, op, value, NULL};
    const seg_entry *e;
    bsplib_proc *me = check_request(&r, &e);
    check_op(me, &r, e);
    push_request(me, e, index, bspram_kind_reduce(op), bytes_in(value, 8), NULL);
}

void bsp_shm_fetch_op(bsp_shm_t seg, bsp_size_t index, unsigned op, const void *value, void *dst)
{
    req_call r = {R_FETCH, seg, index, op, value, dst};
    const seg_entry *e;
    bsplib_proc *me = check_request(&r, &e);
    check_op(me, &r, e);
    if (!dst)
        req_fail(me, &r, "dst is NULL");
    push_request(me, e, index, bspram_kind_fetch(op), bytes_in(value, 8), dst);
}

void bsp_shm_combine_write(bsp_shm_t seg, bsp_size_t index, unsigned op, const void *value)
{
    req_call r = {R_COMBINE, seg, index, op, value, NULL};
    const seg_entry *e;
    bsplib_proc *me = check_request(&r, &e);
    check_op(me, &r, e);
    push_request(me, e, index, bspram_kind_combine_write(op), bytes_in(value, 8), NULL);
}

/* ---- collective calls ---- */

static bsplib_proc *coll_me(const shm_call *c)
{
    bsplib_proc *me = bspram__bsp_bsplib_current;
    if (__builtin_expect(me == NULL, 0)) {
        char call[320];
        call_text(c, call, sizeof call);
        bspram__bsp_bsplib_fatal(NULL, "%s: called outside a bsp_begin/bsp_end section", call);
    }
    return me;
}

static _Noreturn __attribute__((format(printf, 3, 4))) void
shm_collective_fail(const bsplib_proc *me, const shm_call *c, const char *fmt, ...)
{
    char call[320], why[512];
    call_text(c, call, sizeof call);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    bspram__bsp_bsplib_fatal(me, "%s: %s", call, why);
}

static void add_call(bsplib_proc *me, const shm_call *c)
{
    shm_proc *sp = proc_state(me);
    sp->calls = bspram__grow(sp->calls, &sp->calls_cap, sp->ncalls + 1, sizeof *sp->calls, 4,
                             "bsp_shm");
    sp->calls[sp->ncalls++] = *c;
    me->shm_tag |= BSPLIB_TAG_SHM_CALLS;
}

bsp_shm_t bsp_shm_alloc(bsp_size_t cells, bsp_size_t width, bspram_layout layout)
{
    shm_call c = {.kind = CALL_ALLOC, .cells = cells, .width = width, .layout = (int)layout};
    bsplib_proc *me = coll_me(&c);
    if (cells == 0 || cells > BSPRAM_SEGMENT_MAX_CELLS)
        shm_collective_fail(me, &c, "cells outside [1, 2^40]");
    if (width < 1 || width > 8)
        shm_collective_fail(me, &c, "width outside [1, 8] bytes");
    if (layout != BSPRAM_LAYOUT_HASHED && layout != BSPRAM_LAYOUT_BLOCK &&
        layout != BSPRAM_LAYOUT_CYCLIC)
        shm_collective_fail(me, &c, "unknown layout %d; valid: 0 BSP_SHM_HASHED, 1 BSP_SHM_BLOCK, "
                  "2 BSP_SHM_CYCLIC", (int)layout);
    shm_proc *sp = proc_state(me);
    if (sp->nalloc == UINT32_MAX)
        shm_collective_fail(me, &c, "more than %u allocations in one section", UINT32_MAX);
    c.handle = me->world->section << HANDLE_SHIFT | ++sp->nalloc;
    add_call(me, &c);
    return c.handle;
}

void bsp_shm_free(bsp_shm_t seg)
{
    shm_call c = {.kind = CALL_FREE, .handle = seg};
    bsplib_proc *me = coll_me(&c);
    char why[256];
    const seg_entry *e;
    if (seg_problem(me, seg, why, sizeof why, &e))
        shm_collective_fail(me, &c, "%s", why);
    const shm_proc *sp = shm_of(me);
    for (size_t i = 0; i < sp->ncalls; i++)
        if (sp->calls[i].kind == CALL_FREE && sp->calls[i].handle == seg)
            shm_collective_fail(me, &c, "the segment is freed twice in this superstep");
    add_call(me, &c);
}

unsigned bsp_shm_add_op(const char *name, bspram_user_op_fn fn, void *ctx, uint64_t identity)
{
    shm_call c = {.kind = CALL_ADD_OP, .fn = fn, .ctx = ctx, .identity = identity};
    snprintf(c.name, sizeof c.name, "%s", name ? name : "user");
    bsplib_proc *me = coll_me(&c);
    if (!fn)
        shm_collective_fail(me, &c, "fn is NULL");
    shm_proc *sp = proc_state(me);
    if (sp->nops >= MAX_USER_OPS)
        shm_collective_fail(me, &c, "more than %d user operations in one section", MAX_USER_OPS);
    c.op = BSPRAM_BUILTIN_OPS + sp->nops++;
    add_call(me, &c);
    return c.op;
}

/* "auto", "auto:D", "adaptive" or a basis of product p, into c. */
static int parse_basis(uint64_t p, const char *text, shm_call *c, char *err, size_t len)
{
    c->basis = (bspram_basis){0};
    c->degree_hint = 0;
    if (!strcmp(text, "auto") || !strcmp(text, "adaptive")) {
        c->strategy = text[1] == 'u' ? BSPRAM_STRATEGY_AUTO : BSPRAM_STRATEGY_ADAPTIVE;
        snprintf(c->text, sizeof c->text, "%s", text);
        return 0;
    }
    if (!strncmp(text, "auto:", 5)) {
        if (bspram__base_parse_u64(text + 5, 0, p, &c->degree_hint)) {
            snprintf(err, len, "cannot read the degree hint; write auto:D with D in [0, %" PRIu64 "]",
                     p);
            return -1;
        }
        c->strategy = BSPRAM_STRATEGY_AUTO;
        snprintf(c->text, sizeof c->text, "auto:%" PRIu64, c->degree_hint);
        return 0;
    }
    char why[200];
    if (bspram_basis_parse(&c->basis, p, text, why, sizeof why)) {
        snprintf(err, len, "%s; write auto, auto:D, adaptive or a basis such as 4x2 with product "
                 "P = %" PRIu64, why, p);
        return -1;
    }
    c->strategy = BSPRAM_STRATEGY_FIXED;
    bspram_basis_format(&c->basis, c->text, sizeof c->text);
    return 0;
}

void bsp_shm_set_basis(const char *basis)
{
    shm_call c = {.kind = CALL_SET_BASIS};
    snprintf(c.text, sizeof c.text, "%.*s", 60, basis ? basis : "(null)");
    bsplib_proc *me = coll_me(&c);
    if (!basis)
        bspram__bsp_bsplib_fatal(me, "bsp_shm_set_basis(basis=NULL): basis is NULL");
    char err[320];
    shm_call parsed = c;
    if (parse_basis(me->p, basis, &parsed, err, sizeof err))
        shm_collective_fail(me, &c, "%s", err);
    add_call(me, &parsed);
}

/* ---- the sync (hooks) ---- */

/* Whether a and b are the same call. A user operation's function and
 * context are compared when the section runs in one address space (`here`);
 * over MPI ranks their addresses differ by process, and the operation's name
 * and identity stand for them (on every rank alike, so that every rank's
 * verdict is the same). */
static int same_call(const shm_call *a, const shm_call *b, int here)
{
    if (a->kind != b->kind)
        return 0;
    switch (a->kind) {
    case CALL_ALLOC:
        return a->handle == b->handle && a->cells == b->cells && a->width == b->width &&
               a->layout == b->layout;
    case CALL_FREE: return a->handle == b->handle;
    case CALL_ADD_OP:
        return a->identity == b->identity &&
               (here ? a->fn == b->fn && a->ctx == b->ctx : !strcmp(a->name, b->name));
    case CALL_SET_BASIS: return !strcmp(a->text, b->text);
    }
    return 0;
}

/* Process lo: every process made the same collective calls (as pid 0). */
static void check_collective(const bsplib_world *w, const shm_world *ws, uint64_t ss)
{
    const shm_call *a = ws->calls;
    size_t na = (size_t)ws->ncalls[0];
    char t1[320], t2[320];
    for (unsigned q = 1; q < w->p; q++) {
        const shm_call *b = ws->calls + q * ws->stride;
        size_t nb = (size_t)ws->ncalls[q], n = na < nb ? na : nb;
        /* Alike on every rank: pointers only when one process holds them all. */
        int here = !bsplib_world_spread(w);
        for (size_t i = 0; i < n; i++) {
            if (same_call(&a[i], &b[i], here))
                continue;
            call_text(&a[i], t1, sizeof t1);
            call_text(&b[i], t2, sizeof t2);
            bspram__bsp_bsplib_fatal_agreed(w, "%s: processes disagree in superstep %" PRIu64 ": pid 0 calls %s, "
                                "pid %u calls %s (their collective call %zu of the superstep); all "
                                "processes must make the same calls in the same order",
                                call_name(a[i].kind), ss, t1, q, t2, i + 1);
        }
        if (na != nb) {
            const shm_call *c = na > nb ? &a[n] : &b[n];
            call_text(c, t1, sizeof t1);
            bspram__bsp_bsplib_fatal_agreed(w, "%s: called by pid %u but not by pid %u in superstep %" PRIu64
                                "; all processes must call it in the same superstep",
                                t1, na > nb ? 0 : q, na > nb ? q : 0, ss);
        }
    }
}

/* The section's state on this rank, freed at bsp_end (before the machine:
 * the combiner runs on it). */
static void world_state_free(void *state)
{
    shm_world *ws = state;
    bspram_combiner_destroy(ws->C);
    if (ws->space)
        bspram_space_destroy(ws->space);
    free(ws->segs);
    free(ws->parts);
    free(ws->calls);
    free(ws->ncalls);
    free(ws);
}

static shm_world *world_state(bsplib_world *w)
{
    shm_world *ws = shm_world_of(w);
    if (!ws) {
        ws = bspram__base_calloc(1, sizeof *ws, "bsp_shm");
        ws->opts = bspram_combine_defaults(w->p);
        ws->opts.strategy = BSPRAM_STRATEGY_AUTO;
        ws->opts.seed = bspram_machine_seed(w->m);
        ws->parts = bspram__base_calloc(w->p, sizeof *ws->parts, "bsp_shm");
        bsplib_world_ext_set(w, BSPLIB_EXT_SHM, ws, world_state_free);
    }
    return ws;
}

/* The address space and the combiner, at the first allocation. */
static void make_space(bsplib_world *w, shm_world *ws)
{
    if (ws->space)
        return;
    ws->space = bspram_space_create(w->p, BSPRAM_HASH_XXH3, bspram_machine_seed(w->m));
    ws->C = bspram_combiner_create(w->m, ws->space, &ws->opts);
    for (unsigned i = 0; i < ws->nops; i++)
        bspram_combiner_add_op(ws->C, ws->ops[i].name, ws->ops[i].fn, ws->ops[i].ctx,
                               ws->ops[i].identity);
}

static void apply_call(bsplib_world *w, shm_world *ws, const shm_call *c, uint64_t ss)
{
    char t[320];
    switch (c->kind) {
    case CALL_ALLOC:
        make_space(w, ws);
        if (ws->live >= BSPRAM_MAX_SEGMENTS) {
            call_text(c, t, sizeof t);
            bspram__bsp_bsplib_fatal(NULL, "%s: more than %u segments would be live in superstep %" PRIu64
                         " (free some with bsp_shm_free)", t, BSPRAM_MAX_SEGMENTS, ss);
        }
        char why[320];
        if (bspram__hash_segment_problem(ws->space, c->cells, (unsigned)c->width, (bspram_layout)c->layout, why,
                                         sizeof why)) {
            call_text(c, t, sizeof t);
            bspram__bsp_bsplib_fatal(NULL, "%s: %s (superstep %" PRIu64 ")", t, why, ss);
        }
        ws->segs = bspram__grow(ws->segs, &ws->segs_cap, ws->nsegs + 1, sizeof *ws->segs, 8,
                                "bsp_shm");
        ws->segs[ws->nsegs++] = (seg_entry){
            .cells = c->cells,
            .seg = bspram_segment_alloc(ws->space, c->cells, (unsigned)c->width,
                                        (bspram_layout)c->layout),
            .width = (uint8_t)c->width,
            .layout = (uint8_t)c->layout,
            .state = SEG_LIVE};
        ws->live++;
        break;
    case CALL_FREE: {
        seg_entry *e = &ws->segs[(c->handle & UINT32_MAX) - 1];
        bspram_segment_free(ws->space, e->seg);
        e->state = SEG_FREED;
        e->freed_in = ss;
        ws->live--;
        break;
    }
    case CALL_ADD_OP:
        ws->ops[ws->nops] = (user_op){c->fn, c->ctx, c->identity, ""};
        memcpy(ws->ops[ws->nops].name, c->name, sizeof c->name);
        ws->nops++;
        if (ws->C)
            bspram_combiner_add_op(ws->C, c->name, c->fn, c->ctx, c->identity);
        break;
    case CALL_SET_BASIS:
        ws->opts.strategy = c->strategy;
        ws->opts.degree_hint = c->degree_hint;
        if (c->strategy == BSPRAM_STRATEGY_FIXED)
            ws->opts.basis = c->basis;
        if (ws->C)
            bspram_combiner_set_options(ws->C, &ws->opts);
        break;
    }
}

/* Every process: its collective calls to process lo of each rank — first
 * their counts, then the calls padded to the most any process made. */
static void shm_gather(bsplib_proc *me)
{
    bsplib_world *w = me->world;
    const bool lead = me->pid == w->lo;
    shm_world *ws = lead ? world_state(w) : NULL;
    shm_proc *sp = shm_of(me);
    uint64_t n = sp ? sp->ncalls : 0;
    const uint64_t *counts = bspram__bsp_bsplib_gather(me, &n, sizeof n);
    if (lead) {
        ws->ncalls = bspram__base_realloc(ws->ncalls, w->p * sizeof *ws->ncalls, "bsp_shm");
        ws->stride = 0;
        for (unsigned q = 0; q < w->p; q++) {
            ws->ncalls[q] = counts[q];
            if (counts[q] > ws->stride)
                ws->stride = (size_t)counts[q];
        }
    }
    bspram__bsp_bsplib_barrier(me, 0); /* the stride is published on this rank */
    const size_t stride = shm_world_of(w)->stride;
    if (!stride)
        return;
    sp = proc_state(me);
    sp->calls = bspram__grow(sp->calls, &sp->calls_cap, stride, sizeof *sp->calls, 4, "bsp_shm");
    memset(sp->calls + sp->ncalls, 0, (stride - sp->ncalls) * sizeof *sp->calls);
    const shm_call *all = bspram__bsp_bsplib_gather(me, sp->calls, stride * sizeof *sp->calls);
    if (lead) {
        ws->calls = bspram__grow(ws->calls, &ws->calls_cap, (size_t)w->p * stride, sizeof *ws->calls, 4,
                                 "bsp_shm");
        memcpy(ws->calls, all, (size_t)w->p * stride * sizeof *ws->calls);
    }
}

/* Process lo: check the gathered calls, then apply its own (the same calls,
 * with this process's addresses of user operations) to its rank's state. */
static void shm_apply(bsplib_world *w, uint64_t ss)
{
    shm_world *ws = world_state(w);
    check_collective(w, ws, ss);
    const shm_call *mine = ws->calls + (size_t)w->lo * ws->stride;
    for (size_t i = 0; i < ws->ncalls[w->lo]; i++)
        apply_call(w, ws, &mine[i], ss);
    /* The owners go on after the barrier that ends this step. */
    for (unsigned q = w->lo; q < w->hi; q++)
        if (shm_of(&w->procs[q]))
            shm_of(&w->procs[q])->ncalls = 0;
}

static void shm_batch(bsplib_proc *me)
{
    shm_world *ws = shm_world_of(me->world);
    shm_proc *sp = shm_of(me);
    if (!ws || !ws->C) /* requests need a live segment, hence a space */
        bspram__bsp_bsplib_fatal(me, "bsp_sync(): bsp_shm requests without an address space (internal error)");
    ws->parts[me->pid] = sp ? (bspram_batch_part){.requests = sp->req, .n = sp->n, .results = sp->res}
                            : (bspram_batch_part){.n = 0};
    bspram__combine_team_parts(bspram__bsp_component_team(me->self), ws->C, ws->parts, NULL);
    if (!sp)
        return;
    for (size_t j = 0; j < sp->n; j++)
        if (sp->dst[j])
            bytes_out(sp->dst[j], sp->res[j], sp->width[j]);
    sp->n = 0;
}

/* Installed before main runs, so before any section begins; never changed. */
__attribute__((constructor)) static void bsp_shm_install(void)
{
    bspram__bsp_bsplib_shm.batch = shm_batch;
    bspram__bsp_bsplib_shm.gather = shm_gather;
    bspram__bsp_bsplib_shm.apply = shm_apply;
}

int bspram__combine_bsplib_shm_user_op(const bsplib_world *w, unsigned op, bspram_user_op_fn *fn, void **ctx,
                       uint64_t *identity)
{
    const shm_world *ws = shm_world_of(w);
    if (op < BSPRAM_BUILTIN_OPS || !ws || op - BSPRAM_BUILTIN_OPS >= ws->nops)
        return -1;
    const user_op *u = &ws->ops[op - BSPRAM_BUILTIN_OPS];
    *fn = u->fn;
    *ctx = u->ctx;
    *identity = u->identity;
    return 0;
}
