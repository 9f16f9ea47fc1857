/* Allreduce, recursive doubling: in round t every member exchanges its
 * partial with the member whose rank differs in bit t, and both combine the
 * two — Thakur, Rabenseifner and Gropp, "Optimization of collective
 * communication operations in MPICH", IJHPCA 19(1), 2005, the section on
 * allreduce (short messages), with its handling of n not a power of two
 * (pairing.c: the 2r lowest ranks pair off first, the n' = 2^⌊log2 n⌋
 * survivors double, and the result goes back to the odd ones last):
 *     C1 = log2 n for n a power of two, else ⌊log2 n⌋ + 2;  C2 = m·C1
 * (m = 8·count; one port: one message out and one in per member and round).
 *
 * Rank order and identical bits. The survivors' ranks s = 0..n'−1 stand for
 * contiguous rank ranges in order (s < r: {2s, 2s+1}; else {s + r}), so
 * after round t survivor s holds the left fold of the aligned survivor block
 * of size 2^(t+1) around it; the two partners combine their values lower
 * block first, L ⊕ R, from the same two operands: both get the same bits,
 * and so, by induction, does every member. For n a power of two the
 * bracketing is the aligned binary one of reduce_binomial.c. */
#include "coll/coll_internal.h"

COLL_PREDICT(allreduce_doubling)
{
    (void)radix, (void)ports, (void)tradeoff;
    uint64_t c1 = 0;
    if (n > 1) {
        unsigned f = 0;
        while ((UINT64_C(2) << f) <= n)
            f++; /* f = ⌊log2 n⌋ */
        c1 = (UINT64_C(1) << f) == n ? f : f + 2;
    }
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_allreduce_doubling(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    if (m)
        coll_copy(acc, a->send, m);
    const coll_pairing pp = bspram__coll_pairing(n, me);
    const int s = pp.s;
    const unsigned rounds = pp.f + (pp.r ? 2 : 0);
    unsigned done = 0;
    if (pp.r)
        bspram__coll_pair_off(c, &pp, &op, acc, in, count, ++done == rounds);
    for (unsigned t = 0; t < pp.f; t++) { /* survivors double */
        if (s >= 0) {
            bspram__coll_put(c, coll_survivor(&pp, (unsigned)s ^ (1u << t)), 0, acc, m);
            bspram__coll_window(c, in, m);
        } else {
            bspram__coll_window(c, NULL, 0);
        }
        bspram__coll_round(c, ++done == rounds);
        if (s >= 0) {
            if ((unsigned)s & (1u << t)) /* my block is the right one */
                bspram__coll_op_fold_left(&op, acc, in, count);
            else
                bspram__coll_op_fold(&op, acc, in, count);
        }
    }
    if (pp.r)
        bspram__coll_hand_back(c, &pp, acc, count, ++done == rounds);
    if (m)
        coll_copy(a->recv, acc, m);
}
