/* Reduce, binomial: the spanning binomial tree of Saad and Schultz, "Data
 * communication in parallel architectures", Parallel Computing 11, 1989
 * (Yale report 1986), §3.2 (broadcast down a hypercube's spanning tree) run
 * backwards as in §3.4 (gather: the same tree, the rounds reversed), the
 * data combined instead of concatenated on the way:
 *     C1 = ⌈log2 n⌉,  C2 = m·C1  (m = 8·count),  one port.
 * Every round halves the number of partial results; one message of m bytes
 * per member and round at most, in and out.
 *
 * The bracketing is the aligned binary one of rank 0's tree, whatever the
 * root: in round t (0-based) the partial of the aligned rank block
 * L = [j·2^(t+1), j·2^(t+1) + 2^t) and that of its right sibling
 * R = [j·2^(t+1) + 2^t, j·2^(t+1) + 2^(t+1)) ∩ [0, n) (if not empty) are
 * combined, L ⊕ R, into their parent block. Each block's partial is held by
 * one of its members — the root if the block contains it, else the block's
 * lowest rank — so the parent's holder is one of the children's holders and
 * the other child's holder sends it its partial (each member sends once,
 * and receives at most once per round: it holds at most one block per
 * level). So every partial is a left fold over a contiguous range of ranks,
 * the result is x_0 ⊕ … ⊕ x_{n−1} with a bracketing fixed by n alone (the
 * same bits for every root; for n a power of two the same bracketing as
 * allreduce_doubling.c), and no rotation or wrap-around arises. Round t has
 * a message for every t < ⌈log2 n⌉ (the pair [0, 2^t), [2^t, …) exists
 * since 2^t < n), so C1 is exact. */
#include "coll/coll_internal.h"

COLL_PREDICT(reduce_binomial)
{
    (void)radix, (void)ports, (void)tradeoff;
    uint64_t c1 = bspram__coll_ceil_log(n, 2);
    return (coll_prediction){c1, b * c1};
}

/* The member holding the partial of the block [lo, hi) ∩ [0, n). */
static unsigned holder(unsigned lo, unsigned hi, unsigned root)
{
    return root >= lo && root < hi ? root : lo;
}

void bspram__coll_reduce_binomial(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank, root = a->root;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    /* Aligned scratch: the user's buffers need not be, and in place the
     * root's send is its recv. */
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    if (m)
        memcpy(acc, a->send, m);
    unsigned d = bspram__coll_ceil_log(n, 2);
    int holds = 1; /* I hold my block of the current level */
    for (unsigned t = 0; t < d; t++) {
        unsigned half = 1u << t, lo = me & ~(2 * half - 1), mid = lo + half;
        unsigned hi = mid + half < n ? mid + half : n;
        int receives = 0;
        if (holds && mid < n) {
            unsigned parent = holder(lo, hi, root);
            if (parent == me) { /* receive the other child's partial */
                receives = 1;
                bspram__coll_window(c, in, m);
            } else { /* send mine to the parent's holder */
                bspram__coll_put(c, parent, 0, acc, m);
                holds = 0;
            }
        }
        if (!receives)
            bspram__coll_window(c, NULL, 0);
        bspram__coll_round(c, t + 1 == d);
        if (receives) {
            if (me < mid) /* I hold L: acc ← acc ⊕ R */
                bspram__coll_op_fold(&op, acc, in, count);
            else /* I hold R: acc ← L ⊕ acc */
                bspram__coll_op_fold_left(&op, acc, in, count);
        }
    }
    if (me == root && m)
        memcpy(a->recv, acc, m);
}
