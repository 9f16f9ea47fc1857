/* Scan, direct: every member sends its operand straight to every higher
 * rank, k of them per round — in round t (0-based) to ranks rank + tk + 1 …
 * rank + tk + k (those < n), so every member also receives at most k per
 * round, from distinct members (the k-port model of Bruck, Ho, Kipnis,
 * Upfal and Weathersby, "Efficient algorithms for all-to-all communications
 * in multiport message-passing systems", IEEE TPDS 8(11), 1997, §2) — and
 * folds what it got in rank order:
 *     C1 = ⌈(n−1)/k⌉,  C2 = m·C1  (m = 8·count; rank 0 sends in every
 *     round; one round with k = n − 1, the default for DIRECT).
 * Member i's result is the sequential left fold (…(x_0 ⊕ x_1) ⊕ …) ⊕ x_i
 * (exclusive: … ⊕ x_{i−1}, and the operation's identity at rank 0), the
 * bracketing of reduce_direct.c. */
#include "coll/coll_internal.h"

COLL_PREDICT(scan_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_scan_direct(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    unsigned k = n > 1 && a->ports < n - 1 ? a->ports : (n > 1 ? n - 1 : 1);
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    /* Block j of the window holds x_j, j ≤ me (my own at j = me). */
    uint64_t *all = coll_scratch(c, 0, (size_t)(me + 1) * m + 8);
    if (m)
        coll_copy(all + (size_t)me * count, a->send, m);
    unsigned rounds = n > 1 ? (n - 1 + k - 1) / k : 0;
    bspram__coll_window(c, all, (size_t)me * m);
    for (unsigned t = 0; t < rounds; t++) {
        for (unsigned j = 1; j <= k; j++) {
            unsigned to = me + t * k + j;
            if (to < n)
                bspram__coll_put(c, to, (size_t)me * m, all + (size_t)me * count, m);
        }
        bspram__coll_round(c, t + 1 == rounds);
    }
    unsigned last = a->exclusive ? me : me + 1; /* fold blocks [0, last) */
    if (last == 0)
        for (size_t i = 0; i < count; i++)
            all[i] = op.identity;
    for (unsigned j = 1; j < last; j++)
        bspram__coll_op_fold(&op, all, all + (size_t)j * count, count);
    if (m)
        coll_copy(a->recv, all, m);
}
