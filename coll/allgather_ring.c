/* Allgather, ring: Y. Saad and M. H. Schultz, "Data communication in
 * parallel architectures", Yale University, Research Report YALEU/DCS/RR-461,
 * 1986, §3.3 (total exchange), (C) Ring — the round-robin or daisy chain:
 * in the first step every member sends its block to the right (rank + 1),
 * in every later step it forwards the block it received in the step
 * before; after n − 1 steps every member holds every block. Round t
 * (0-based) sends block rank − t (mod n) to rank + 1, where it lands in
 * place (recv is the window). One port, one message of b bytes per member
 * and round:
 *     C1 = n − 1,  C2 = b(n − 1)
 * — optimal C2 for one port (Bruck et al. 1997 §2: ⌈b(n − 1)/k⌉), and
 * nearest-neighbour only, but n − 1 rounds against Bruck's ⌈log2 n⌉.
 * In place (send = recv + rank·b) works: the own block is never written. */
#include "coll/coll_internal.h"

COLL_PREDICT(allgather_ring)
{
    (void)radix, (void)ports, (void)tradeoff;
    uint64_t c1 = n > 1 ? n - 1 : 0;
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_allgather_ring(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t b = a->block;
    unsigned char *recv = a->recv;
    const unsigned char *own = a->send;
    if (b && own != recv + (size_t)me * b)
        memmove(recv + (size_t)me * b, own, b);
    if (n == 1)
        return;
    static unsigned char none[1]; /* b = 0: empty messages, recv may be NULL */
    unsigned char *base = b ? recv : none;
    bspram__coll_window(c, base, (size_t)n * b);
    unsigned right = (me + 1) % n;
    for (unsigned t = 0; t + 1 < n; t++) {
        size_t block = (size_t)((me + n - t) % n) * b;
        bspram__coll_put(c, right, block, base + block, b);
        bspram__coll_round(c, t + 2 == n);
    }
}
