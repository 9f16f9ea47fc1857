/* Allreduce, recursive doubling: in round t every member exchanges its
 * partial with the member whose rank differs in bit t, and both combine the
 * two — Thakur, Rabenseifner and Gropp, "Optimization of collective
 * communication operations in MPICH", IJHPCA 19(1), 2005, the section on
 * allreduce (short messages), with its handling of n not a power of two:
 * with n' = 2^⌊log2 n⌋ and r = n − n', the 2r lowest ranks pair off first
 * (odd 2i+1 sends its operand to even 2i, which takes the pair's partial;
 * MPICH sends the other way), the n' survivors double, and in a last round
 * each even 2i < 2r hands the result to 2i+1:
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
    coll_op op = bspram__coll_op_get(c, a->op);
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    if (m)
        memcpy(acc, a->send, m);
    unsigned f = 0;
    while ((2u << f) <= n)
        f++;
    unsigned np = 1u << f, r = n - np;
    /* My survivor rank, or −1 (an odd rank below 2r, paired off). */
    int s = me < 2 * r ? (me % 2 ? -1 : (int)(me / 2)) : (int)(me - r);
    unsigned rounds = f + (r ? 2 : 0), done = 0;

    if (r) { /* pair off: 2i+1 → 2i */
        if (me < 2 * r && me % 2)
            bspram__coll_put(c, me - 1, 0, acc, m);
        bspram__coll_window(c, me < 2 * r && me % 2 == 0 ? in : NULL, me < 2 * r && me % 2 == 0 ? m : 0);
        bspram__coll_round(c, ++done == rounds);
        if (me < 2 * r && me % 2 == 0)
            bspram__coll_op_fold(&op, acc, in, count); /* x_2i ⊕ x_2i+1 */
    }
    for (unsigned t = 0; t < f; t++) { /* survivors double */
        if (s >= 0) {
            unsigned ps = (unsigned)s ^ (1u << t), partner = ps < r ? 2 * ps : ps + r;
            bspram__coll_put(c, partner, 0, acc, m);
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
    if (r) { /* hand the result back: 2i → 2i+1 */
        if (me < 2 * r && me % 2 == 0)
            bspram__coll_put(c, me + 1, 0, acc, m);
        bspram__coll_window(c, s < 0 ? acc : NULL, s < 0 ? m : 0);
        bspram__coll_round(c, ++done == rounds);
    }
    if (m)
        memcpy(a->recv, acc, m);
}
