/* Reduce, direct: every member sends its operand straight to the root, which
 * receives from k of them per round — the k-port model of Bruck, Ho,
 * Kipnis, Upfal and Weathersby, "Efficient algorithms for all-to-all
 * communications in multiport message-passing systems", IEEE TPDS 8(11),
 * 1997, §2 (at most k messages into a processor per round) — and folds them
 * in rank order when all are in:
 *     C1 = ⌈(n−1)/k⌉,  C2 = m·C1  (m = 8·count; one round with k = n − 1,
 *     the default for DIRECT).
 * The member at distance v = (rank − root) mod n, 1 ≤ v < n, sends in
 * round ⌊(v − 1)/k⌋. The fold is the sequential left fold
 * (…(x_0 ⊕ x_1) ⊕ …) ⊕ x_{n−1}, whatever the root: the root gathers all
 * operands first (n·m bytes of scratch), as the gather would. */
#include "coll/coll_internal.h"

COLL_PREDICT(reduce_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_reduce_direct(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank, root = a->root;
    unsigned k = a->ports < n - 1 ? a->ports : n - 1;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    if (n == 1) {
        if (m && a->recv != a->send)
            coll_copy(a->recv, a->send, m);
        return;
    }
    unsigned rounds = (n - 1 + k - 1) / k, v = (me + n - root) % n;
    uint64_t *all = NULL;
    if (me == root) { /* block i of the window holds x_i */
        all = coll_scratch(c, 0, (size_t)n * m + 8);
        if (m)
            coll_copy(all + (size_t)root * count, a->send, m);
    }
    for (unsigned t = 0; t < rounds; t++) {
        if (me == root)
            bspram__coll_window(c, all, (size_t)n * m);
        else
            bspram__coll_window(c, NULL, 0);
        if (me != root && (rounds == 1 || (v - 1) / k == t)) /* one round: every member's */
            bspram__coll_put(c, root, (size_t)me * m, a->send, m);
        bspram__coll_round(c, t + 1 == rounds);
    }
    if (me == root) {
        for (unsigned i = 1; i < n; i++)
            bspram__coll_op_fold(&op, all, all + (size_t)i * count, count);
        if (m)
            coll_copy(a->recv, all, m);
    }
}
