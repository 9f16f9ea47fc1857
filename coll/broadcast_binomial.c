/* Broadcast, binomial: the spanning binomial tree of Saad and Schultz,
 * "Data communication in parallel architectures", Yale RR-461, 1986, §3.2
 * (the switch's second algorithm: "first send the data to one other node.
 * Then the two nodes send in parallel their data to two other nodes and so
 * on", Log2 k steps), generalised to the k-port model of Bruck, Ho, Kipnis,
 * Upfal and Weathersby, "Efficient algorithms for all-to-all communications
 * in multiport message-passing systems", IEEE TPDS 8(11), 1997, §2: in
 * round t (0-based) each of the (k+1)^t members v that hold the data (ranks
 * relative to the root, v < (k+1)^t) sends it to v + j·(k+1)^t, j = 1..k
 * (those below n) — the (k+1)-nomial tree. The holders multiply by k + 1 in
 * every round, so
 *     C1 = ⌈log_{k+1} n⌉,  C2 = size·C1
 * (every round moves the whole buffer), which meets Bruck's lower bound
 * C1 ≥ ⌈log_{k+1} n⌉ for spreading one member's data to all. Each member
 * sends at most k messages to distinct members and receives one, once. */
#include "coll/coll_internal.h"

COLL_PREDICT(broadcast_binomial)
{
    (void)radix, (void)tradeoff;
    if (n <= 1)
        return (coll_prediction){0, 0};
    uint64_t k = ports == 0 ? 1 : ports < n - 1 ? ports : n - 1;
    uint64_t c1 = bspram__coll_ceil_log(n, k + 1);
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_broadcast_binomial(coll_call *c, const coll_args *a)
{
    unsigned n = c->n;
    if (n == 1)
        return;
    uint64_t k = a->ports < n - 1 ? a->ports : n - 1;
    unsigned v = (c->rank + n - a->root) % n; /* rank relative to the root */
    unsigned rounds = bspram__coll_ceil_log(n, k + 1);
    size_t size = a->block;
    unsigned char *buf = a->recv;
    bspram__coll_window(c, buf, size); /* the one put to me lands on the buffer */
    uint64_t span = 1;         /* (k+1)^t: the members that hold the data */
    for (unsigned t = 0; t < rounds; t++, span *= k + 1) {
        if (v < span)
            for (uint64_t j = 1; j <= k && v + j * span < n; j++)
                bspram__coll_put(c, (unsigned)((v + j * span + a->root) % n), 0, buf, size);
        bspram__coll_round(c, t + 1 == rounds);
    }
}
