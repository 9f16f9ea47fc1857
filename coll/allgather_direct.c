/* Allgather, direct: every member sends its block straight to the others,
 * k of them per round — in round t (0-based) to ranks rank + tk + 1 …
 * rank + tk + k (mod n), so every member receives from k distinct members
 * too (the k-port model, Bruck et al. 1997 §2). The baseline the
 * concatenation algorithms are measured against:
 *     C1 = ⌈(n−1)/k⌉,  C2 = b·C1  (optimal C2 = ⌈b(n−1)/k⌉ only when k | n−1
 *     or b = 1; one round, C2 = b, with k = n − 1). */
#include "coll/coll_internal.h"

COLL_PREDICT(allgather_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_allgather_direct(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank, k = a->ports < n - 1 ? a->ports : n - 1;
    size_t b = a->block;
    unsigned char *recv = a->recv;
    const unsigned char *own = a->send;
    if (b == 0) /* nothing to copy (recv may be NULL): the rounds still run */
        recv = (unsigned char *)&n;
    else if (own != recv + (size_t)me * b)
        coll_copy(recv + (size_t)me * b, own, b);
    if (n == 1)
        return;
    bspram__coll_window(c, recv, (size_t)n * b);
    if (k == n - 1) { /* one round (DIRECT's default ports): the loop below, once */
        for (unsigned d = 1, to = me + 1; d < n; d++, to++)
            bspram__coll_put(c, to < n ? to : to - n, (size_t)me * b, recv + (size_t)me * b, b);
        bspram__coll_round(c, true);
        return;
    }
    for (unsigned d = 1; d < n;) {
        for (unsigned j = 0; j < k && d < n; j++, d++)
            bspram__coll_put(c, (me + d) % n, (size_t)me * b, recv + (size_t)me * b, b);
        bspram__coll_round(c, d == n);
    }
}
