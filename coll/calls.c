/* The collective calls (bsp_coll.h): check the arguments, resolve in-place
 * buffers and defaults, pick the algorithm (select.c) and run it in the
 * frame (frame.c). The table of which operation has which algorithm is
 * here; the algorithms are one file each. */
#include <stdio.h>

#include "coll/coll_internal.h"

const unsigned char bsp_coll_in_place_[1];

#define E(fn, r, k) {bspram__coll_##fn, bspram__coll_predict_##fn, r, k}
#define NONE COLL_RADIX_NONE
const coll_entry bspram__coll_table[COLL_OPS][COLL_ALGORITHMS] = {
    [BSP_COLL_BROADCAST] = {[BSP_COLL_BINOMIAL] = E(broadcast_binomial, NONE, 1),
                            [BSP_COLL_SCATTER_ALLGATHER] = E(broadcast_scatter_allgather, NONE, 1),
                            [BSP_COLL_DIRECT] = E(broadcast_direct, NONE, 1)},
    [BSP_COLL_SCATTER] = {[BSP_COLL_BINOMIAL] = E(scatter_binomial, NONE, 0),
                          [BSP_COLL_DIRECT] = E(scatter_direct, NONE, 1)},
    [BSP_COLL_GATHER] = {[BSP_COLL_BINOMIAL] = E(gather_binomial, NONE, 0),
                         [BSP_COLL_DIRECT] = E(gather_direct, NONE, 1)},
    [BSP_COLL_ALLGATHER] = {[BSP_COLL_BRUCK] = E(allgather_bruck, NONE, 1),
                            [BSP_COLL_RING] = E(allgather_ring, NONE, 0),
                            [BSP_COLL_DIRECT] = E(allgather_direct, NONE, 1)},
    [BSP_COLL_ALLTOALL] = {[BSP_COLL_BRUCK] = E(alltoall_bruck, COLL_RADIX_CHOSEN, 1),
                           /* Bruck's index with r = n (the same rounds and messages),
                            * without its rotations: its formula, its own run */
                           [BSP_COLL_DIRECT] = {bspram__coll_alltoall_direct, bspram__coll_predict_alltoall_bruck,
                                                COLL_RADIX_N, 1},
                           [BSP_COLL_EXCHANGE] = E(alltoall_exchange, NONE, 0)},
    [BSP_COLL_REDUCE] = {[BSP_COLL_BINOMIAL] = E(reduce_binomial, NONE, 0),
                         [BSP_COLL_DIRECT] = E(reduce_direct, NONE, 1),
                         [BSP_COLL_RABENSEIFNER] = E(reduce_rabenseifner, NONE, 0)},
    [BSP_COLL_ALLREDUCE] = {[BSP_COLL_DOUBLING] = E(allreduce_doubling, NONE, 0),
                            [BSP_COLL_DISSEMINATION] = E(allreduce_dissemination, NONE, 1),
                            [BSP_COLL_RABENSEIFNER] = E(allreduce_rabenseifner, NONE, 0)},
    [BSP_COLL_SCAN] = {[BSP_COLL_DISSEMINATION] = E(scan_dissemination, NONE, 0),
                       [BSP_COLL_BINOMIAL] = E(scan_binomial, NONE, 0),
                       [BSP_COLL_DIRECT] = E(scan_direct, NONE, 1)},
};
#undef E
#undef NONE

void bspram__coll_default_ports(bsp_coll_algorithm alg, unsigned n, unsigned *ports)
{
    if (*ports == 0)
        *ports = alg == BSP_COLL_DIRECT && n > 2 ? n - 1 : 1;
}

static const char *ptr_text(const void *p, char *buf, size_t len)
{
    if (p == BSP_COLL_IN_PLACE)
        return "BSP_COLL_IN_PLACE";
    snprintf(buf, len, "%p", p);
    return buf;
}

void bspram__coll_describe(const coll_call *c, char *buf, size_t len, int buffers)
{
    const coll_desc *d = c->desc;
    if (!d) {
        buf[0] = '\0';
        return;
    }
    if (d->text) {
        snprintf(buf, len, "%s", d->text);
        return;
    }
    char s[32], r[32], root[32] = "", op[32] = "", alg[64] = "";
    if (d->root >= 0)
        snprintf(root, sizeof root, ", root=%ld", d->root);
    if (d->op >= 0)
        snprintf(op, sizeof op, ", op=%ld", d->op);
    if (d->opt && (d->opt->algorithm || d->opt->radix || d->opt->ports || d->opt->tradeoff))
        snprintf(alg, sizeof alg, ", algorithm=%s, radix=%u, ports=%u%s",
                 bsp_coll_algorithm_name(d->opt->algorithm), d->opt->radix, d->opt->ports,
                 d->opt->tradeoff ? ", optimal C2" : "");
    const char *send = ptr_text(d->send, s, sizeof s), *recv = ptr_text(d->recv, r, sizeof r);
    if (!buffers)
        snprintf(buf, len, "%s=%zu%s%s%s", d->size_name, d->size, root, op, alg);
    else if (d->send == d->recv && strcmp(d->size_name, "size") == 0) /* broadcast: one buffer */
        snprintf(buf, len, "g=%p, buf=%s, size=%zu%s%s", (const void *)d->g, send, d->size, root,
                 alg);
    else
        snprintf(buf, len, "g=%p, send=%s, recv=%s, %s=%zu%s%s%s", (const void *)d->g, send, recv,
                 d->size_name, d->size, root, op, alg);
}

/* ---- the operations, one descriptor each ----
 * What a call needs to know of its operation, as MPICH keeps a table per
 * collective: one path (call, below) reads the row, never the operation's
 * name. Where a buffer must be given and where it may be in place: */
enum { NOWHERE, AT_ROOT, EVERYWHERE };
/* Where an in-place send's data is in recv: */
enum { IN_RECV, IN_RECV_AT_RANK, IN_RECV_AT_ROOT };

typedef struct coll_kind {
    const char *call;              /* the records' label and the errors' call */
    bsp_coll_op op;                /* whose algorithms run it (bspram__coll_table) */
    unsigned code;                 /* the signature's code (frame.c) */
    int exclusive;                 /* an exclusive scan */
    const char *size_name;         /* what the size counts: size, block or count */
    const char *const *names;      /* the signature's words, named for errors */
    unsigned char rooted;          /* takes a root */
    unsigned char reduces;         /* count words of 8 bytes and an operation */
    unsigned char blocks;          /* n blocks somewhere (else one) */
    unsigned char one_buffer;      /* broadcast: buf is send and recv */
    unsigned char send_needed;     /* where send must not be NULL */
    unsigned char recv_needed;     /* where recv must not be NULL */
    unsigned char send_in_place;   /* where send may be BSP_COLL_IN_PLACE */
    unsigned char recv_in_place;   /* where recv may be BSP_COLL_IN_PLACE (the
                                      scatter's root keeps its block in send) */
    unsigned char in_place_from;   /* where an in-place send's data is */
} coll_kind;

static const char *const REDUCTIONS[] = {"count", "root", "op", "algorithm", "radix", "ports", "tradeoff"};
static const char *const BLOCKS[] = {"block", "root", "op", "algorithm", "radix", "ports", "tradeoff"};
static const char *const ONE_BUFFER[] = {"size", "root", "op", "algorithm", "radix", "ports", "tradeoff"};

enum { EXSCAN = COLL_OPS, KINDS };
static const coll_kind KIND[KINDS] = {
    [BSP_COLL_BROADCAST] = {"bsp_coll_broadcast", BSP_COLL_BROADCAST, BSP_COLL_BROADCAST, 0, "size",
                            ONE_BUFFER, 1, 0, 0, 1, NOWHERE, EVERYWHERE, NOWHERE, NOWHERE, IN_RECV},
    [BSP_COLL_SCATTER] = {"bsp_coll_scatter", BSP_COLL_SCATTER, BSP_COLL_SCATTER, 0, "block", BLOCKS,
                          1, 0, 1, 0, AT_ROOT, EVERYWHERE, NOWHERE, AT_ROOT, IN_RECV},
    [BSP_COLL_GATHER] = {"bsp_coll_gather", BSP_COLL_GATHER, BSP_COLL_GATHER, 0, "block", BLOCKS, 1, 0,
                         1, 0, EVERYWHERE, AT_ROOT, AT_ROOT, NOWHERE, IN_RECV_AT_ROOT},
    [BSP_COLL_ALLGATHER] = {"bsp_coll_allgather", BSP_COLL_ALLGATHER, BSP_COLL_ALLGATHER, 0, "block",
                            BLOCKS, 0, 0, 1, 0, EVERYWHERE, EVERYWHERE, EVERYWHERE, NOWHERE,
                            IN_RECV_AT_RANK},
    [BSP_COLL_ALLTOALL] = {"bsp_coll_alltoall", BSP_COLL_ALLTOALL, BSP_COLL_ALLTOALL, 0, "block",
                           BLOCKS, 0, 0, 1, 0, EVERYWHERE, EVERYWHERE, EVERYWHERE, NOWHERE, IN_RECV},
    [BSP_COLL_REDUCE] = {"bsp_coll_reduce", BSP_COLL_REDUCE, BSP_COLL_REDUCE, 0, "count", REDUCTIONS,
                         1, 1, 0, 0, EVERYWHERE, AT_ROOT, AT_ROOT, NOWHERE, IN_RECV},
    [BSP_COLL_ALLREDUCE] = {"bsp_coll_allreduce", BSP_COLL_ALLREDUCE, BSP_COLL_ALLREDUCE, 0, "count",
                            REDUCTIONS, 0, 1, 0, 0, EVERYWHERE, EVERYWHERE, EVERYWHERE, NOWHERE,
                            IN_RECV},
    [BSP_COLL_SCAN] = {"bsp_coll_scan", BSP_COLL_SCAN, BSP_COLL_SCAN, 0, "count", REDUCTIONS, 0, 1, 0,
                       0, EVERYWHERE, EVERYWHERE, EVERYWHERE, NOWHERE, IN_RECV},
    [EXSCAN] = {"bsp_coll_exscan", BSP_COLL_SCAN, COLL_CODE_EXSCAN, 1, "count", REDUCTIONS, 0, 1, 0, 0,
                EVERYWHERE, EVERYWHERE, EVERYWHERE, NOWHERE, IN_RECV},
};

static int here(unsigned where, int at_root) { return where == EVERYWHERE || (where == AT_ROOT && at_root); }

/* The options as given, checked and resolved for n members: the algorithm
 * (selected for AUTO), its entry, radix and ports. Fatal on a bad option. */
static const coll_entry *resolve(const coll_call *c, const coll_kind *k, coll_state *cs, unsigned n,
                                 size_t b, bsp_coll_options *o)
{
    const bsp_coll_options given = *o;
    if ((unsigned)o->algorithm >= COLL_ALGORITHMS)
        bspram__coll_fail(c, "unknown algorithm %d", (int)o->algorithm);
    if ((unsigned)o->tradeoff > BSP_COLL_OPTIMAL_C2)
        bspram__coll_fail(c, "unknown tradeoff %d", (int)o->tradeoff);
    if (o->algorithm == BSP_COLL_AUTO) {
        if (o->radix)
            bspram__coll_fail(c, "a radix needs an algorithm that takes one (bruck, for alltoall)");
        if (n > 0) {
            bsp_coll_choice ch = bspram__coll_select(cs, k->op, n, b, o->ports);
            o->algorithm = ch.algorithm;
            o->radix = ch.radix;
            o->ports = ch.ports;
        }
    }
    const coll_entry *e = &bspram__coll_table[k->op][o->algorithm];
    if (!e->run)
        bspram__coll_fail(c, "%s has no algorithm %s", bsp_coll_op_name(k->op),
                          bsp_coll_algorithm_name(o->algorithm));
    if (given.radix && e->radix != COLL_RADIX_CHOSEN)
        bspram__coll_fail(c, "algorithm %s takes no radix", bsp_coll_algorithm_name(o->algorithm));
    if (o->ports > 1 && !e->ports)
        bspram__coll_fail(c, "algorithm %s of %s has one port", bsp_coll_algorithm_name(o->algorithm),
                          bsp_coll_op_name(k->op));
    if (o->algorithm == BSP_COLL_EXCHANGE && (n & (n - 1)))
        bspram__coll_fail(c, "algorithm exchange needs n a power of two, not %u", n);
    o->radix = coll_radix(e, n, o->radix);
    bspram__coll_default_ports(o->algorithm, n, &o->ports);
    if (e->radix == COLL_RADIX_CHOSEN && n >= 2 && o->radix > n)
        bspram__coll_fail(c, "radix %u is outside [2, n = %u]", o->radix, n);
    if (e->radix == COLL_RADIX_CHOSEN && o->radix < 2)
        bspram__coll_fail(c, "radix %u is below 2", o->radix);
    return e;
}

/* The last call of a kind again, on the whole machine: the same buffers,
 * size, root and op and the same options. A loop repeats one call (a
 * solver's allreduce); its checks, the selection and the signature then
 * cost nothing more than this comparison (g and l are fixed for the section
 * once resolved, n and the rank for the process), where they were a fifth
 * of an 8-byte broadcast's instructions on 2 processes. The options compare
 * as one block (four 32-bit fields, no padding). */
_Static_assert(sizeof(bsp_coll_options) == 16, "bsp_coll_options: four 32-bit fields");
static inline int same_call(const struct coll_last_call *last, const void *send, const void *recv, size_t size,
                            unsigned root, unsigned op, const bsp_coll_options *given)
{
    return last->valid && last->send == send && last->recv == recv && last->size == size &&
           last->root == root && last->op == op && memcmp(&last->given, given, sizeof *given) == 0;
}

/* One call of any operation (KIND[kind]) as new: checked, resolved and
 * kept for its repetition. Out of line, so that a repeated call (below)
 * pays none of its stack. */
static __attribute__((noinline)) void call_anew(unsigned kind, const bsp_coll_group *g, const void *send,
                                                void *recv, size_t size, unsigned root, unsigned op,
                                                const bsp_coll_options *opt)
{
    const coll_kind *k = &KIND[kind];
    bsplib_proc *me = bsplib_me(k->call);
    const bsp_coll_options given = opt ? *opt : (bsp_coll_options){0};
    coll_state *cs = coll_state_of(me);
    struct coll_last_call *last = g ? NULL : &cs->last_call[kind];
    coll_desc desc = {g, send, recv, size, k->size_name, k->rooted ? (long)root : -1,
                      k->reduces ? (long)op : -1, opt, NULL, k->names};
    const unsigned n = g ? g->n : me->p, rank = g ? g->rank : me->pid;
    coll_call c = {.me = me, .name = k->call, .n = n, .rank = rank, .members = g ? g->members : NULL,
                   .group = g, .grouped = g != NULL, .desc = &desc};
    if (k->reduces && size > SIZE_MAX / 8)
        bspram__coll_fail(&c, "count is too large");
    const size_t b = k->reduces ? size * 8 : size;

    /* g and l, at the first call of the section that may select: one that
     * selects, or any group call (groups may differ in their options, and
     * a probe needs every process). */
    bsp_coll_options o = given;
    if ((o.algorithm == BSP_COLL_AUTO || g) && !cs->gl_ready)
        bspram__coll_gl_resolve(me, cs);
    const coll_entry *e = resolve(&c, k, cs, n, b, &o);

    /* Buffers, by the row's rules. */
    if (k->rooted && n > 0 && root >= n)
        bspram__coll_fail(&c, "root %u is outside the group's ranks [0, %u)", root, n);
    const int at_root = k->rooted && rank == root;
    if (k->blocks && n > 0 && b > SIZE_MAX / n)
        bspram__coll_fail(&c, "n·block overflows");
    if (recv == BSP_COLL_IN_PLACE && !here(k->recv_in_place, at_root))
        bspram__coll_fail(&c, "recv may be BSP_COLL_IN_PLACE only at a scatter's root");
    if (send == BSP_COLL_IN_PLACE && !here(k->send_in_place, at_root))
        bspram__coll_fail(&c, "send may be BSP_COLL_IN_PLACE only at the root of a gather or reduce");
    if (n > 0 && b > 0) {
        if (!send && here(k->send_needed, at_root))
            bspram__coll_fail(&c, "send is NULL");
        if (!recv && here(k->recv_needed, at_root))
            bspram__coll_fail(&c, k->one_buffer ? "buf is NULL" : "recv is NULL");
    }
    coll_args a = {.send = send, .recv = recv, .block = b, .count = k->reduces ? size : 0,
                   .root = root, .op = op, .exclusive = k->exclusive, .radix = o.radix,
                   .ports = o.ports, .tradeoff = o.tradeoff};
    if (send == BSP_COLL_IN_PLACE) {
        const size_t at = k->in_place_from == IN_RECV_AT_RANK   ? (size_t)rank * b
                          : k->in_place_from == IN_RECV_AT_ROOT ? (size_t)root * b
                                                                : 0;
        a.send = (unsigned char *)recv + at;
    }
    if (recv == BSP_COLL_IN_PLACE) /* a scatter's root keeps its block in send */
        a.recv = (unsigned char *)(uintptr_t)send + (size_t)root * b;
    if (k->one_buffer)
        a.send = recv;

    /* What must agree: on the whole machine the arguments as resolved; in a
     * group as passed (members of one group resolve them alike, and groups
     * of different sizes passing the same arguments then agree). */
    const bsp_coll_options *as = g ? &given : &o;
    uint64_t sig[] = {size, k->rooted ? root : 0, k->reduces ? op : 0, (uint64_t)as->algorithm,
                      as->radix, as->ports, (uint64_t)as->tradeoff};
    bspram__coll_begin(&c, me, k->call, g, k->code, sig, sizeof sig / sizeof *sig, &desc);
    /* The operation, resolved for the algorithm: an unknown one fails
     * before any round. */
    if (k->reduces && n > 0)
        a.fold = bspram__coll_op_get(&c, op);
    if (last) { /* kept for the call's repetition (a user's op is checked at every call) */
        last->valid = !k->reduces || op < BSPRAM_BUILTIN_OPS;
        last->send = send;
        last->recv = recv;
        last->size = size;
        last->root = root;
        last->op = op;
        last->given = given;
        last->e = e;
        last->a = a;
        last->desc = desc;
        last->sig = c.sig;
        last->mask = c.mask;
        _Static_assert(sizeof sig == sizeof last->words, "the signature's words");
        memcpy(last->words, sig, sizeof sig);
        /* The call as its repetition opens it (call_again): its own
         * description and words, not this frame's. */
        last->c = c;
        last->c.desc = &last->desc;
        last->c.words = last->words;
    }
    if (n > 0)
        e->run(&c, &a);
    bspram__coll_end(&c);
}

/* The last call of its kind again (same_call): checked and resolved then;
 * its arguments for the algorithm, its description and signature serve
 * again (they change at the next call of this kind, which cannot begin
 * before this one ends), and so does the call itself, opened anew. */
static inline __attribute__((always_inline)) void call_again(struct coll_last_call *last, const bsp_coll_options *opt)
{
    last->desc.opt = opt;
    coll_call *c = &last->c; /* opened as bspram__coll_open did at the last call, again */
    c->mask = last->mask;
    c->tag = coll_sig_tag(c->sig, c->mask);
    c->then = 0;
    c->rounds = 0;
    c->more = 0;
    if (c->log)
        c->log[0] = bspram__router_log(c->me->router)->n;
    last->e->run(c, &last->a); /* n = p ≥ 1 */
    bspram__coll_end(c);
}

/* One call of any operation (KIND[kind]): inline in each, so that a
 * repeated call's comparison reads its constant row and its arguments where
 * they arrive. */
static inline __attribute__((always_inline)) void call(unsigned kind, const bsp_coll_group *g, const void *send,
                                                       void *recv, size_t size, unsigned root, unsigned op,
                                                       const bsp_coll_options *opt)
{
    bsplib_proc *me = bsplib_me(KIND[kind].call);
    const bsp_coll_options given = opt ? *opt : (bsp_coll_options){0};
    struct coll_last_call *last = g ? NULL : &coll_state_of(me)->last_call[kind];
    if (__builtin_expect(last && same_call(last, send, recv, size, root, op, &given), 1))
        call_again(last, opt);
    else
        call_anew(kind, g, send, recv, size, root, op, opt);
}

void bsp_coll_broadcast(const bsp_coll_group *g, void *buf, bsp_size_t size, bsp_pid_t root,
                        const bsp_coll_options *opt)
{
    call(BSP_COLL_BROADCAST, g, buf, buf, size, root, 0, opt);
}

void bsp_coll_scatter(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                      bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_SCATTER, g, send, recv, block, root, 0, opt);
}

void bsp_coll_gather(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                     bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_GATHER, g, send, recv, block, root, 0, opt);
}

void bsp_coll_allgather(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                        const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLGATHER, g, send, recv, block, 0, 0, opt);
}

void bsp_coll_alltoall(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                       const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLTOALL, g, send, recv, block, 0, 0, opt);
}

void bsp_coll_reduce(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                     unsigned op, bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_REDUCE, g, send, recv, count, root, op, opt);
}

void bsp_coll_allreduce(const bsp_coll_group *g, const void *send, void *recv,
                        bsp_size_t count, unsigned op, const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLREDUCE, g, send, recv, count, 0, op, opt);
}

void bsp_coll_scan(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                   unsigned op, const bsp_coll_options *opt)
{
    call(BSP_COLL_SCAN, g, send, recv, count, 0, op, opt);
}

void bsp_coll_exscan(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                     unsigned op, const bsp_coll_options *opt)
{
    call(EXSCAN, g, send, recv, count, 0, op, opt);
}
