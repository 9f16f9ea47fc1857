/* Scan, dissemination: Hillis and Steele, "Data parallel algorithms", CACM
 * 29(12), 1986, the partial sums of an array by doubling distances (its
 * section on summing an array of numbers):
 * in round t (0-based) each member sends its partial to rank + 2^t (if
 * < n) and combines the partial it gets from rank − 2^t (if ≥ 0) in front
 * of its own, so after round t member i holds x_{max(0, i−2^(t+1)+1)} ⊕ … ⊕
 * x_i:
 *     C1 = ⌈log2 n⌉,  C2 = m·C1  (m = 8·count),  one port
 * (one message out and one in per member and round; rank 0 sends in every
 * round, since 2^t < n). Received partials cover the ranks just below the
 * held one, so every fold is in rank order (in ⊕ acc).
 *
 * Exclusive scan: the received partials, folded the same way into a second
 * accumulator, make x_0 ⊕ … ⊕ x_{i−1} exactly (they tile [0, i) from the
 * top down) — no inverse needed; rank 0 gets the operation's identity. */
#include "coll/coll_internal.h"

COLL_PREDICT(scan_dissemination)
{
    (void)radix, (void)ports, (void)tradeoff;
    uint64_t c1 = bspram__coll_ceil_log(n, 2);
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_scan_dissemination(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    uint64_t *ex = coll_scratch(c, 2, m ? m : 8);
    if (m)
        memcpy(acc, a->send, m);
    int have_ex = 0;
    unsigned d = bspram__coll_ceil_log(n, 2);
    for (unsigned t = 0; t < d; t++) {
        unsigned dist = 1u << t;
        if (me + dist < n)
            bspram__coll_put(c, me + dist, 0, acc, m);
        bspram__coll_window(c, me >= dist ? in : NULL, me >= dist ? m : 0);
        bspram__coll_round(c, t + 1 == d);
        if (me >= dist) {
            if (a->exclusive) {
                if (have_ex)
                    bspram__coll_op_fold_left(&op, ex, in, count);
                else if (m)
                    memcpy(ex, in, m);
                have_ex = 1;
            }
            bspram__coll_op_fold_left(&op, acc, in, count);
        }
    }
    const uint64_t *res = acc;
    if (a->exclusive) {
        if (!have_ex) /* rank 0 */
            for (size_t i = 0; i < count; i++)
                ex[i] = op.identity;
        res = ex;
    }
    if (m)
        memcpy(a->recv, res, m);
}
