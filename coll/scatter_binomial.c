/* Scatter, binomial: recursive halving, the hypercube scatter of Saad and
 * Schultz, "Data communication in parallel architectures", Yale RR-461,
 * 1986, §3.4 (E) and (F) ("the amount of data to be moved shrinks by a
 * factor of 2 at each step": Log2 k steps, N/b data time), for any n. Ranks
 * are taken relative to the root (v = rank − root mod n), and the root holds
 * the blocks of v in [0, n). A member holding [lo, hi) with hi − lo ≥ 2
 * splits it at mid = lo + ⌈(hi − lo)/2⌉ and sends the upper half's blocks
 * [mid, hi), in one message, to mid; both halves go on in the next round.
 * After t rounds the longest range has ⌈n/2^t⌉ blocks, so
 *     C1 = ⌈log2 n⌉,
 * and round t's largest message is ⌊⌈n/2^t⌉/2⌋ = ⌈n/2^t⌉ − ⌈n/2^(t+1)⌉
 * blocks, which telescopes to
 *     C2 = b·(n − 1)   for every n (not only powers of two):
 * the root's b(n − 1) bytes must leave it through its one port anyway, so
 * C2 is optimal in the one-port model and C1 meets the lower bound
 * ⌈log2 n⌉ of Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient
 * algorithms for all-to-all communications in multiport message-passing
 * systems", IEEE TPDS 8(11), 1997, §2. One port: in a round a member is in
 * one range, and sends (as its lo) or receives (as its mid) one message.
 *
 * Buffers: a member receiving more than its own block holds its range in
 * scratch 0, in relative order (its own block first); the root sends
 * straight from send, but for the one range that wraps past rank n − 1 in
 * the user's order, which it packs into scratch 0. */
#include "coll/coll_internal.h"

COLL_PREDICT(scatter_binomial)
{
    (void)radix, (void)ports, (void)tradeoff;
    if (n <= 1)
        return (coll_prediction){0, 0};
    return (coll_prediction){bspram__coll_ceil_log(n, 2), b * (n - 1)};
}

/* p + off, but p itself for off = 0 (p may be NULL when b = 0). */
static inline const unsigned char *at(const unsigned char *p, size_t off)
{
    return off ? p + off : p;
}

void bspram__coll_scatter_binomial(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, root = a->root, v = (c->rank + n - root) % n;
    size_t b = a->block;
    const unsigned char *send = a->send;
    unsigned char *recv = a->recv;
    if (v == 0 && b && recv != send + (size_t)root * b) /* in place: already there */
        memcpy(recv, send + (size_t)root * b, b);
    if (n == 1)
        return;
    unsigned rounds = bspram__coll_ceil_log(n, 2);
    unsigned lo = 0, hi = n;
    const unsigned char *hold = NULL; /* a non-root's range [v, hi), from its receipt on */
    for (unsigned t = 0; t < rounds; t++) {
        unsigned mid = lo + (hi - lo + 1) / 2;
        bspram__coll_window(c, NULL, 0);
        if (hi - lo >= 2 && v == lo) {
            size_t len = (size_t)(hi - mid) * b;
            const unsigned char *src;
            if (v != 0) {
                src = at(hold, (size_t)(mid - v) * b);
            } else {
                unsigned s = (root + mid) % n; /* the user's rank of block mid */
                if (s + (hi - mid) <= n || b == 0) {
                    src = at(send, (size_t)s * b);
                } else { /* wraps past rank n − 1: pack */
                    unsigned char *pack = coll_scratch(c, 0, len);
                    size_t first = (size_t)(n - s) * b;
                    memcpy(pack, send + (size_t)s * b, first);
                    memcpy(pack + first, send, len - first);
                    src = pack;
                }
            }
            bspram__coll_put(c, (mid + root) % n, 0, src, len);
        } else if (hi - lo >= 2 && v == mid) {
            /* My range arrives: a leaf's own block straight into recv. */
            unsigned char *w = hi - mid == 1 ? recv : coll_scratch(c, 0, (size_t)(hi - mid) * b);
            bspram__coll_window(c, w, (size_t)(hi - mid) * b);
            hold = w;
        }
        if (v < mid)
            hi = mid;
        else
            lo = mid;
        bspram__coll_round(c, t + 1 == rounds);
    }
    if (v != 0 && hold != recv && b) /* my own block, first of my range */
        memcpy(recv, hold, b);
}
