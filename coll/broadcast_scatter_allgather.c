/* Broadcast of long messages, scatter then allgather: the buffer is cut
 * into n pieces of p = ⌈size/n⌉ bytes (the last ones shorter or empty, sent
 * padded to p), the root scatters them (recursive halving, scatter_binomial.c)
 * and the members concatenate them (Bruck's allgather with k ports,
 * allgather_bruck.c) — van de Geijn's long-message broadcast (M. Barnett,
 * S. Gupta, D. Payne, L. Shuler, R. van de Geijn and J. Watts, "Interprocessor
 * Collective Communication Library (InterCom)", SHPCC 1994), built from
 * the operations of Saad and Schultz, "Data communication in parallel
 * architectures", Yale RR-461, 1986, §3.4 (scatter) and §3.3 (total
 * exchange), the allgather being Bruck, Ho, Kipnis, Upfal and Weathersby,
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", IEEE TPDS 8(11), 1997, §4. The binomial tree
 * moves the whole buffer ⌈log_{k+1} n⌉ times; this moves it about twice:
 *     C1 = ⌈log2 n⌉ + ⌈log_{k+1} n⌉,
 *     C2 = p·(n − 1) + C2 of Bruck's allgather of p-byte blocks
 *        (= p(n − 1) + ⌈p(n − 1)/k⌉ outside Bruck §4.2's tradeoff range),
 * about 2·size for one port and n | size. The allgather takes the call's
 * tradeoff (BSP_COLL_OPTIMAL_C2: one round more where §4.2 says).
 *
 * Buffers: the n·p bytes live in scratch 2 for the call (the parts use
 * scratch 0 and 1); the root copies the buffer in (its padding zeroed),
 * every other member copies `size` bytes out at the end. */
#include "coll/coll_internal.h"

COLL_PREDICT(broadcast_scatter_allgather)
{
    (void)radix;
    if (n <= 1)
        return (coll_prediction){0, 0};
    uint64_t p = coll_ceil_div(b, n);
    coll_prediction s = bspram__coll_predict_scatter_binomial(n, p, 2, 1, tradeoff);
    coll_prediction g = bspram__coll_predict_allgather_bruck(n, p, 2, ports, tradeoff);
    return (coll_prediction){s.c1 + g.c1, s.c2 + g.c2};
}

void bspram__coll_broadcast_scatter_allgather(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    if (n == 1)
        return;
    size_t size = a->block, p = coll_ceil_div(size, n), whole = (size_t)n * p;
    unsigned char *buf = a->recv;
    unsigned char *pieces = coll_scratch(c, 2, whole);
    unsigned char *mine = p ? pieces + (size_t)me * p : pieces;
    if (me == a->root && size) {
        memcpy(pieces, buf, size);
        memset(pieces + size, 0, whole - size);
    }
    coll_args s = {.send = pieces, .recv = mine, .block = p, .root = a->root, .radix = 2,
                   .ports = 1, .tradeoff = a->tradeoff};
    c->then = 1; /* the allgather's rounds follow */
    bspram__coll_scatter_binomial(c, &s);
    c->then = 0;
    coll_args g = {.send = mine, .recv = pieces, .block = p, .radix = 2, .ports = a->ports,
                   .tradeoff = a->tradeoff};
    bspram__coll_allgather_bruck(c, &g);
    if (me != a->root && size)
        memcpy(buf, pieces, size);
}
