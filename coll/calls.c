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

static const char *const CALLS[] = {
    "bsp_coll_broadcast", "bsp_coll_scatter", "bsp_coll_gather", "bsp_coll_allgather",
    "bsp_coll_alltoall", "bsp_coll_reduce", "bsp_coll_allreduce", "bsp_coll_scan"};

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

/* One call of any operation; `exclusive` only for scans. */
static void call(bsp_coll_op kind, const bsp_coll_group *g, const void *send, void *recv,
                 size_t size, unsigned root, unsigned op, int exclusive,
                 const bsp_coll_options *opt)
{
    const char *name = exclusive ? "bsp_coll_exscan" : CALLS[kind];
    bsplib_proc *me = bsplib_me(name);
    int rooted = kind == BSP_COLL_BROADCAST || kind == BSP_COLL_SCATTER ||
                 kind == BSP_COLL_GATHER || kind == BSP_COLL_REDUCE;
    int reduces = kind >= BSP_COLL_REDUCE;
    coll_desc desc = {g, send, recv, size,
                      kind == BSP_COLL_BROADCAST ? "size" : reduces ? "count" : "block",
                      rooted ? (long)root : -1, reduces ? (long)op : -1, opt, NULL, NULL};
    coll_call c = {.me = me, .name = name, .desc = &desc};
    unsigned n = g ? g->n : me->p, rank = g ? g->rank : me->pid;

    /* The algorithm and its radix and ports. */
    bsp_coll_options o = opt ? *opt : (bsp_coll_options){0};
    const bsp_coll_options given = o;
    if ((unsigned)o.algorithm >= COLL_ALGORITHMS)
        bspram__coll_fail(&c, "unknown algorithm %d", (int)o.algorithm);
    if ((unsigned)o.tradeoff > BSP_COLL_OPTIMAL_C2)
        bspram__coll_fail(&c, "unknown tradeoff %d", (int)o.tradeoff);
    size_t b = reduces ? size * 8 : size;
    if (reduces && size > SIZE_MAX / 8)
        bspram__coll_fail(&c, "count is too large");
    /* g and l, at the first call of the section that may select: one that
     * selects, or any group call (groups may differ in their options, and
     * a probe needs every process). */
    coll_state *cs = NULL;
    if (o.algorithm == BSP_COLL_AUTO || g) {
        cs = coll_state_of(me);
        if (!cs->gl_ready)
            bspram__coll_gl_resolve(me, cs);
    }
    if (o.algorithm == BSP_COLL_AUTO) {
        if (o.radix)
            bspram__coll_fail(&c, "a radix needs an algorithm that takes one (bruck, for alltoall)");
        if (n > 0) {
            bsp_coll_choice ch = bspram__coll_select(cs, kind, n, b, o.ports);
            o.algorithm = ch.algorithm;
            o.radix = ch.radix;
            o.ports = ch.ports;
        }
    }
    const coll_entry *e = &bspram__coll_table[kind][o.algorithm];
    if (!e->run)
        bspram__coll_fail(&c, "%s has no algorithm %s", bsp_coll_op_name(kind),
                  bsp_coll_algorithm_name(o.algorithm));
    if (given.radix && e->radix != COLL_RADIX_CHOSEN)
        bspram__coll_fail(&c, "algorithm %s takes no radix", bsp_coll_algorithm_name(o.algorithm));
    if (o.ports > 1 && !e->ports)
        bspram__coll_fail(&c, "algorithm %s of %s has one port", bsp_coll_algorithm_name(o.algorithm),
                  bsp_coll_op_name(kind));
    if (o.algorithm == BSP_COLL_EXCHANGE && (n & (n - 1)))
        bspram__coll_fail(&c, "algorithm exchange needs n a power of two, not %u", n);
    o.radix = coll_radix(e, n, o.radix);
    bspram__coll_default_ports(o.algorithm, n, &o.ports);
    if (e->radix == COLL_RADIX_CHOSEN && n >= 2 && o.radix > n)
        bspram__coll_fail(&c, "radix %u is outside [2, n = %u]", o.radix, n);
    if (e->radix == COLL_RADIX_CHOSEN && o.radix < 2)
        bspram__coll_fail(&c, "radix %u is below 2", o.radix);

    /* Buffers. */
    if (rooted && n > 0 && root >= n)
        bspram__coll_fail(&c, "root %u is outside the group's ranks [0, %u)", root, n);
    int at_root = rooted && rank == root;
    int blocks = !reduces && kind != BSP_COLL_BROADCAST; /* n blocks somewhere */
    if (blocks && n > 0 && b > SIZE_MAX / n)
        bspram__coll_fail(&c, "n·block overflows");
    size_t whole = blocks ? (size_t)n * b : b;
    if (recv == BSP_COLL_IN_PLACE && !(kind == BSP_COLL_SCATTER && at_root))
        bspram__coll_fail(&c, "recv may be BSP_COLL_IN_PLACE only at a scatter's root");
    if (send == BSP_COLL_IN_PLACE &&
        (kind == BSP_COLL_SCATTER || (rooted && !at_root) || kind == BSP_COLL_BROADCAST))
        bspram__coll_fail(&c, "send may be BSP_COLL_IN_PLACE only %s",
                  rooted ? "at the root of a gather or reduce" : "here with recv holding the data");
    coll_args a = {.send = send, .recv = recv, .block = b, .count = reduces ? size : 0,
                   .root = root, .op = op, .exclusive = exclusive, .radix = o.radix,
                   .ports = o.ports, .tradeoff = o.tradeoff};
    if (n > 0 && whole > 0) {
        int needs_send = kind == BSP_COLL_SCATTER ? at_root : kind != BSP_COLL_BROADCAST;
        int needs_recv = kind == BSP_COLL_GATHER || kind == BSP_COLL_REDUCE ? at_root : 1;
        if (needs_send && !send)
            bspram__coll_fail(&c, "send is NULL");
        if (needs_recv && !recv)
            bspram__coll_fail(&c, kind == BSP_COLL_BROADCAST ? "buf is NULL" : "recv is NULL");
    }
    if (send == BSP_COLL_IN_PLACE) {
        unsigned char *r = recv;
        a.send = kind == BSP_COLL_ALLGATHER ? r + (size_t)rank * b
                 : kind == BSP_COLL_GATHER  ? r + (size_t)root * b
                                            : recv;
    }
    if (recv == BSP_COLL_IN_PLACE) /* a scatter's root keeps its block in send */
        a.recv = (unsigned char *)(uintptr_t)send + (size_t)root * b;
    if (kind == BSP_COLL_BROADCAST)
        a.send = recv;

    /* What must agree: on the whole machine the arguments as resolved; in a
     * group as passed (members of one group resolve them alike, and groups
     * of different sizes passing the same arguments then agree). */
    const bsp_coll_options *as = g ? &given : &o;
    uint64_t sig[] = {size, rooted ? root : 0, reduces ? op : 0, (uint64_t)as->algorithm,
                      as->radix, as->ports, (uint64_t)as->tradeoff};
    static const char *const reductions[] = {"count", "root", "op", "algorithm", "radix",
                                             "ports", "tradeoff"};
    static const char *const blocks_of[] = {"block", "root", "op", "algorithm", "radix",
                                            "ports", "tradeoff"};
    static const char *const broadcast[] = {"size", "root", "op", "algorithm", "radix",
                                            "ports", "tradeoff"};
    desc.names = reduces ? reductions : kind == BSP_COLL_BROADCAST ? broadcast : blocks_of;
    bspram__coll_begin(&c, me, name, g, exclusive ? COLL_CODE_EXSCAN : (unsigned)kind, sig,
               sizeof sig / sizeof *sig, &desc);
    if (reduces && n > 0)
        (void)bspram__coll_op_get(&c, op); /* an unknown operation fails before any round */
    if (n > 0)
        e->run(&c, &a);
    bspram__coll_end(&c);
}

void bsp_coll_broadcast(const bsp_coll_group *g, void *buf, bsp_size_t size, bsp_pid_t root,
                        const bsp_coll_options *opt)
{
    call(BSP_COLL_BROADCAST, g, buf, buf, size, root, 0, 0, opt);
}

void bsp_coll_scatter(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                      bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_SCATTER, g, send, recv, block, root, 0, 0, opt);
}

void bsp_coll_gather(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                     bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_GATHER, g, send, recv, block, root, 0, 0, opt);
}

void bsp_coll_allgather(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                        const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLGATHER, g, send, recv, block, 0, 0, 0, opt);
}

void bsp_coll_alltoall(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t block,
                       const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLTOALL, g, send, recv, block, 0, 0, 0, opt);
}

void bsp_coll_reduce(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                     unsigned op, bsp_pid_t root, const bsp_coll_options *opt)
{
    call(BSP_COLL_REDUCE, g, send, recv, count, root, op, 0, opt);
}

void bsp_coll_allreduce(const bsp_coll_group *g, const void *send, void *recv,
                        bsp_size_t count, unsigned op, const bsp_coll_options *opt)
{
    call(BSP_COLL_ALLREDUCE, g, send, recv, count, 0, op, 0, opt);
}

void bsp_coll_scan(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                   unsigned op, const bsp_coll_options *opt)
{
    call(BSP_COLL_SCAN, g, send, recv, count, 0, op, 0, opt);
}

void bsp_coll_exscan(const bsp_coll_group *g, const void *send, void *recv, bsp_size_t count,
                     unsigned op, const bsp_coll_options *opt)
{
    call(BSP_COLL_SCAN, g, send, recv, count, 0, op, 1, opt);
}
