/* Scatter, direct: the root sends every member its block straight, k
 * members per round (the k-port model of Bruck, Ho, Kipnis, Upfal and
 * Weathersby, "Efficient algorithms for all-to-all communications in
 * multiport message-passing systems", IEEE TPDS 8(11), 1997, §2) — in round
 * t (0-based) to the ranks root + tk + 1 … root + tk + k (mod n). The
 * scatter of Saad and Schultz, "Data communication in parallel
 * architectures", Yale RR-461, 1986, §3 and §3.4 ("a different data set is
 * sent to every processor"), without a tree: the baseline of recursive
 * halving, and with k = n − 1 (the default ports of DIRECT) one round:
 *     C1 = ⌈(n−1)/k⌉,  C2 = b·C1. */
#include "coll/coll_internal.h"

COLL_PREDICT(scatter_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports ? ports : 1) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_scatter_direct(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, root = a->root;
    size_t b = a->block;
    int at_root = c->rank == root;
    const unsigned char *send = a->send;
    unsigned char *recv = a->recv;
    /* The root's own block; in place, recv already is that block. */
    if (at_root && b && recv != send + (size_t)root * b)
        coll_copy(recv, send + (size_t)root * b, b);
    if (n == 1)
        return;
    unsigned k = a->ports < n - 1 ? a->ports : n - 1;
    bspram__coll_window(c, at_root ? NULL : recv, at_root ? 0 : b);
    if (k == n - 1) { /* one round (DIRECT's default ports): the loop below with t = 0 */
        if (at_root)
            for (unsigned d = 1, to = root + 1; d < n; d++, to++) {
                const unsigned r = to < n ? to : to - n;
                bspram__coll_put(c, r, 0, send + (size_t)r * b, b);
            }
        bspram__coll_round(c, true);
        return;
    }
    unsigned rounds = (unsigned)coll_ceil_div(n - 1, k);
    for (unsigned t = 0, d = 1; t < rounds; t++) {
        for (unsigned j = 0; j < k && d < n; j++, d++) {
            unsigned to = (root + d) % n;
            if (at_root)
                bspram__coll_put(c, to, 0, send + (size_t)to * b, b);
        }
        bspram__coll_round(c, t + 1 == rounds);
    }
}
