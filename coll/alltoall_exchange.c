/* Alltoall (index) by the hypercube's standard dimension exchange: Johnsson
 * and Ho, "Optimum broadcasting and personalized communication in
 * hypercubes", IEEE Trans. Computers 38(9), 1989 (the one-port standard
 * exchange algorithm for all-to-all personalized communication).
 *
 * For n = 2^d members only. Rank i works in recv, one slot of b bytes per
 * position j = 0..n−1 (initially its send blocks: slot j for rank j). In
 * step t = 0..d−1 it exchanges with rank i XOR 2^t — a cube neighbour — the
 * n/2 slots j whose bit t differs from bit t of i, packed in position order
 * into one message; the partner's n/2 slots land in the slots just sent,
 * in the same order. The invariant after step t: slot j of rank i holds the
 * block from source s to destination e with e = (j above bit t | i up to
 * bit t) and s = (i above bit t | j up to bit t); after the last step slot
 * j holds the block rank j sent to i, which is recv's order. (In the last
 * step the slots sent are one contiguous half: it is put and received in
 * place, without packing.)
 *
 * Cost, one port (one message out and one in per round, to a neighbour):
 *     C1 = d = log2 n,  C2 = b·(n/2)·d,
 * the same as Bruck's index with radix 2 (alltoall_bruck.c) — which sends
 * to rank + 2^x, not to a neighbour — so C1 is optimal and C2 is about
 * (d/2)/(1 − 1/n) times the lower bound b(n − 1). */
#include <string.h>

#include "coll/coll_internal.h"

COLL_PREDICT(alltoall_exchange)
{
    (void)radix, (void)ports, (void)tradeoff;
    if (n < 2)
        return (coll_prediction){0, 0};
    uint64_t d = bspram__coll_ceil_log(n, 2);
    return (coll_prediction){d, b * (n / 2) * d};
}

/* Copy the slots of buf whose bit t is `bit` to out in position order, or
 * (unpack) back from out. Runs of 2^t slots are one copy. */
static void pack_bit(unsigned char *buf, unsigned char *out, size_t b, unsigned n, unsigned t,
                     unsigned bit, int unpack)
{
    size_t run = ((size_t)1 << t) * b;
    for (unsigned j = bit << t; j < n; j += 2u << t) {
        if (unpack)
            memcpy(buf + (size_t)j * b, out, run);
        else
            memcpy(out, buf + (size_t)j * b, run);
        out += run;
    }
}

void bspram__coll_alltoall_exchange(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank, d = bspram__coll_ceil_log(n, 2);
    size_t b = a->block, half = (size_t)(n / 2) * b;
    unsigned char none[1] = {0};
    unsigned char *buf = b ? a->recv : none;
    if (b && a->send != a->recv)
        memcpy(buf, a->send, (size_t)n * b);
    for (unsigned t = 0; t < d; t++) {
        unsigned away = ((me >> t) & 1u) ^ 1u; /* bit t of the slots sent */
        unsigned to = me ^ (1u << t);
        if (t + 1 == d || b == 0) { /* the slots sent are one run: in place */
            unsigned char *run = b ? buf + away * half : none;
            bspram__coll_window(c, run, half);
            bspram__coll_put(c, to, 0, run, half);
            bspram__coll_round(c, t + 1 == d);
            continue;
        }
        unsigned char *out = coll_scratch(c, 1, half), *in = coll_scratch(c, 2, half);
        pack_bit(buf, out, b, n, t, away, 0);
        bspram__coll_window(c, in, half);
        bspram__coll_put(c, to, 0, out, half);
        bspram__coll_round(c, false);
        pack_bit(buf, in, b, n, t, away, 1);
    }
}
