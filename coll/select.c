/* Selection: the algorithm, radix and ports whose predicted cost
 * C1·l + H·g is least — the tuning Bruck et al. §3.5 asks for, with C1 and
 * C2 from each algorithm's own formula (coll_predict_<name>) in the k-port
 * model, and g, l measured (gl.c says from where). Kept apart from the
 * algorithms, as MPICH keeps its selection apart from its collectives. */
#include <math.h>

#include "base/error.h"
#include "coll/coll_internal.h"


/* A round of the k-port model sends at most k messages per process, none
 * above the round's largest, so its h is at most min(k, n − 1) times that
 * message: H = min(k, n − 1)·C2, exact where a round's messages are equal
 * (1-port schedules: H = C2). The round is charged l + g·h, as the router
 * charges a superstep (Bruck's C2 alone undercharges a k-port round k-fold). */
static bsp_coll_choice choice(bsp_coll_op op, unsigned n, size_t b, bsp_coll_algorithm alg,
                              unsigned radix, unsigned ports, bsp_coll_tradeoff t, double g,
                              double l)
{
    coll_prediction p = bspram__coll_table[op][alg].predict(n, b, radix, ports, t);
    const uint64_t k = n < 2 ? 1 : ports < n - 1 ? ports : n - 1;
    const uint64_t h = k * p.c2;
    return (bsp_coll_choice){alg, radix, ports, p.c1, p.c2, h, (double)p.c1 * l + (double)h * g};
}

/* Ties go to the fewer rounds, then to the direct schedule, which has no
 * plan to compute (on 2 processes every algorithm is one exchange, and
 * Bruck's plan cost more instructions than the rest of the call). */
static int better(const bsp_coll_choice *a, const bsp_coll_choice *b)
{
    if (a->cost_ns != b->cost_ns)
        return a->cost_ns < b->cost_ns;
    if (a->c1 != b->c1)
        return a->c1 < b->c1;
    return a->algorithm == BSP_COLL_DIRECT && b->algorithm != BSP_COLL_DIRECT;
}

bsp_coll_choice bsp_coll_select(bsp_coll_op op, bsp_pid_t n, bsp_size_t block, unsigned ports,
                                double g, double l)
{
    if ((unsigned)op >= COLL_OPS)
        bspram__base_fatal("bsp_coll_select(op=%d, n=%u, block=%zu): unknown operation", (int)op, n,
                     block);
    if (n == 0)
        bspram__base_fatal("bsp_coll_select(op=%s, n=0, block=%zu): n must be at least 1",
                     bsp_coll_op_name(op), block);
    /* A negative g or l asks for the probe's; NaN and infinity mean nothing
     * (a NaN cost compares false with every other and picks at random). */
    if (!isfinite(g) || !isfinite(l))
        bspram__base_fatal("bsp_coll_select(op=%s, n=%u, block=%zu, g=%g, l=%g): g and l must be finite "
                     "(ns; negative: the probe's)", bsp_coll_op_name(op), n, block, g, l);
    if (g < 0 || l < 0) {
        double mg, ml;
        bspram__coll_gl_current(&mg, &ml);
        g = g < 0 ? mg : g;
        l = l < 0 ? ml : l;
    }
    /* ports = 0 lets the choice take the ports too: one, or n − 1 (every
     * message in one superstep) where the algorithm takes ports. */
    const unsigned ks[2] = {ports ? ports : 1, n > 2 ? n - 1 : 1};
    const int nk = ports || n <= 2 ? 1 : 2;
    bsp_coll_choice best = {0};
    int have = 0;
    for (unsigned alg = 1; alg < COLL_ALGORITHMS; alg++) {
        const coll_entry *e = &bspram__coll_table[op][alg];
        if (!e->run || (alg == BSP_COLL_EXCHANGE && (n & (n - 1))))
            continue; /* the exchange runs on a cube only */
        for (int ik = 0; ik < nk; ik++) {
            const unsigned k = ks[ik];
            if (k > 1 && !e->ports)
                continue;
            for (unsigned r = coll_radix(e, n, 0), r_hi = coll_radix_max(e, n); r <= r_hi; r++) {
                bsp_coll_choice ch = choice(op, n, block, (bsp_coll_algorithm)alg, r, k,
                                            BSP_COLL_OPTIMAL_C1, g, l);
                ch.radix = coll_radix_reported(e, r);
                if (!have || better(&ch, &best))
                    best = ch;
                have = 1;
            }
        }
    }
    return best;
}

bsp_coll_choice bspram__coll_select(coll_state *cs, bsp_coll_op op, unsigned n, size_t block,
                                    unsigned ports)
{
    /* The last choice per operation, in the process's state (no
     * thread-local look-up): a call's selection costs up to n formula
     * evaluations (every radix of alltoall), a loop repeats one call. */
    struct coll_last_choice *last = &cs->last[op];
    if (!last->valid || last->n != n || last->block != block || last->ports != ports ||
        last->g != cs->g || last->l != cs->l) {
        last->choice = bsp_coll_select(op, n, block, ports, cs->g, cs->l);
        last->n = n;
        last->block = block;
        last->ports = ports;
        last->g = cs->g;
        last->l = cs->l;
        last->valid = 1;
    }
    return last->choice;
}

int bsp_coll_has(bsp_coll_op op, bsp_coll_algorithm a, unsigned n)
{
    if ((unsigned)op >= COLL_OPS || (unsigned)a >= COLL_ALGORITHMS || n == 0)
        return 0;
    if (a == BSP_COLL_AUTO)
        return 1;
    return bspram__coll_table[op][a].run && !(a == BSP_COLL_EXCHANGE && (n & (n - 1)));
}

bsp_coll_choice bsp_coll_predict(bsp_coll_op op, bsp_pid_t n, bsp_size_t block,
                                 const bsp_coll_options *opt)
{
    bsp_coll_options o = opt ? *opt : (bsp_coll_options){0};
    if ((unsigned)op >= COLL_OPS || n == 0 || (unsigned)o.algorithm >= COLL_ALGORITHMS)
        bspram__base_fatal("bsp_coll_predict(op=%d, n=%u, block=%zu, algorithm=%d): unknown "
                     "operation or algorithm, or n = 0", (int)op, n, block, (int)o.algorithm);
    if (o.algorithm == BSP_COLL_AUTO)
        return bsp_coll_select(op, n, block, o.ports, -1, -1);
    if (!bspram__coll_table[op][o.algorithm].run)
        bspram__base_fatal("bsp_coll_predict: %s has no algorithm %s", bsp_coll_op_name(op),
                     bsp_coll_algorithm_name(o.algorithm));
    if (o.algorithm == BSP_COLL_EXCHANGE && (n & (n - 1)))
        bspram__base_fatal("bsp_coll_predict(op=%s, n=%u, block=%zu, algorithm=exchange): algorithm "
                     "exchange needs n a power of two", bsp_coll_op_name(op), n, block);
    const coll_entry *e = &bspram__coll_table[op][o.algorithm];
    o.radix = coll_radix(e, n, o.radix);
    bspram__coll_default_ports(o.algorithm, n, &o.ports);
    double g, l;
    bspram__coll_gl_current(&g, &l);
    bsp_coll_choice ch = choice(op, n, block, o.algorithm, o.radix, o.ports, o.tradeoff, g, l);
    ch.radix = coll_radix_reported(e, o.radix);
    return ch;
}
