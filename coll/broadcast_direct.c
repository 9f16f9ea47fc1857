/* Broadcast, direct: the root sends the buffer straight to every other
 * member, k of them per round (the k-port model of Bruck, Ho, Kipnis, Upfal
 * and Weathersby, "Efficient algorithms for all-to-all communications in
 * multiport message-passing systems", IEEE TPDS 8(11), 1997, §2) — in round
 * t (0-based) to the ranks root + tk + 1 … root + tk + k (mod n). The
 * broadcast of Saad and Schultz, "Data communication in parallel
 * architectures", Yale RR-461, 1986, §3.2, without a tree: the baseline the
 * (k+1)-nomial tree is measured against, and the best choice when k ≥ n − 1
 * (one round, the default ports of DIRECT):
 *     C1 = ⌈(n−1)/k⌉,  C2 = size·C1. */
#include "coll/coll_internal.h"

COLL_PREDICT(broadcast_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports ? ports : 1) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_broadcast_direct(coll_call *c, const coll_args *a)
{
    const unsigned n = c->n;
    if (n == 1)
        return;
    const unsigned k = a->ports < n - 1 ? a->ports : n - 1, rounds = (n - 2) / k + 1; /* ⌈(n−1)/k⌉ */
    bspram__coll_window(c, a->recv, a->block);
    if (k == n - 1) { /* one round (DIRECT's default ports): the loop below with t = 0 */
        if (c->rank == a->root)
            for (unsigned j = 1, to = a->root + 1; j < n; j++, to++)
                bspram__coll_put(c, to < n ? to : to - n, 0, a->recv, a->block);
        bspram__coll_round(c, true);
        return;
    }
    for (unsigned t = 0, d = 1; t < rounds; t++, d += k) {
        if (c->rank == a->root) /* ranks root + d … root + d + k − 1 (mod n), none past n − 1 */
            for (unsigned j = d; j < d + k && j < n; j++)
                bspram__coll_put(c, (a->root + j) % n, 0, a->recv, a->block);
        bspram__coll_round(c, t + 1 == rounds);
    }
}
