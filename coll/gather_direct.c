/* Gather, direct: every member sends its block straight to the root, k
 * members per round (the k-port model of Bruck, Ho, Kipnis, Upfal and
 * Weathersby, "Efficient algorithms for all-to-all communications in
 * multiport message-passing systems", IEEE TPDS 8(11), 1997, §2: the root
 * receives at most k messages a round) — in round t (0-based) the ranks
 * root + tk + 1 … root + tk + k (mod n). The reverse of the direct scatter
 * (Saad and Schultz, "Data communication in parallel architectures", Yale
 * RR-461, 1986, §3: a gather is a scatter with the data paths reversed):
 *     C1 = ⌈(n−1)/k⌉,  C2 = b·C1. */
#include "coll/coll_internal.h"

COLL_PREDICT(gather_direct)
{
    (void)radix, (void)tradeoff;
    uint64_t c1 = n > 1 ? coll_ceil_div(n - 1, ports ? ports : 1) : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_gather_direct(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, root = a->root;
    size_t b = a->block;
    int at_root = c->rank == root;
    const unsigned char *send = a->send;
    unsigned char *recv = a->recv;
    /* The root's own block; in place, send already is that block. */
    if (at_root && b && send != recv + (size_t)root * b)
        coll_copy(recv + (size_t)root * b, send, b);
    if (n == 1)
        return;
    unsigned k = a->ports < n - 1 ? a->ports : n - 1;
    bspram__coll_window(c, at_root ? recv : NULL, at_root ? (size_t)n * b : 0);
    if (k == n - 1) { /* one round (DIRECT's default ports): the loop below with t = 0 */
        if (!at_root)
            bspram__coll_put(c, root, (size_t)c->rank * b, send, b);
        bspram__coll_round(c, true);
        return;
    }
    unsigned rounds = (unsigned)coll_ceil_div(n - 1, k);
    unsigned v = (c->rank + n - root) % n; /* rank relative to the root */
    for (unsigned t = 0; t < rounds; t++) {
        if (v != 0 && (v - 1) / k == t)
            bspram__coll_put(c, root, (size_t)c->rank * b, send, b);
        bspram__coll_round(c, t + 1 == rounds);
    }
}
