/* Reduce for long operands, Rabenseifner's: a reduce-scatter by recursive
 * halving, then a gather of the pieces to the root by a binomial tree —
 * Rabenseifner, "Optimization of collective reduction operations", ICCS
 * 2004, and Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005 (reduce,
 * long messages). The root receives about m(1 − 1/n') bytes in the gather
 * and each member sends about as much in the halving, instead of the
 * binomial tree's m·⌈log2 n⌉.
 *
 * With n' = 2^⌊log2 n⌋ and r = n − n', the 2r lowest ranks pair off first:
 * in each pair {2i, 2i+1} one member sends its operand to the other, which
 * folds x_2i ⊕ x_2i+1 and stands for the pair — the root if it is in the
 * pair (so the root is always a survivor and the gather ends at it, with
 * no round more, whatever the root), else 2i. The halving is that of
 * allreduce_rabenseifner.c: the count words cut into n' pieces (piece j the
 * words [⌊j·W/n'⌋, ⌊(j+1)·W/n'⌋)), survivor s halving its range in round
 * t = 0 .. f−1 with partner s ^ 2^t and keeping the lower half if bit t of
 * s is 0. The gather retraces the rounds, t = f−1 .. 0: among the
 * survivors that agree with the root's survivor s_r on the bits above t,
 * the one whose bit t differs from s_r's sends everything it holds to its
 * partner and is done. One port:
 *     C1 = 2⌊log2 n⌋, + 1 when n is not a power of two;
 *     C2 = Σ_t 8·(the most words in a half sent in halving round t)
 *        + Σ_t 8·(the most words a sender holds in gather round t)
 *        + m when n is not a power of two.
 * In gather round t a sender holds an aligned block of n'/2^(t+1) pieces
 * whose index (its first piece over the block's size) has parity unlike
 * bit t of s_r; blocks differ by at most one word, so the C2 of two roots
 * differ by at most 8 bytes a round, and none where n' divides W.
 * bsp_coll_predict gives root 0's.
 *
 * Rank order and identical bits: the pieces are folded over the same
 * blocks, lower block first, as by the allreduce (and by recursive
 * doubling: allreduce_doubling.c), and the gather only copies, so the root
 * gets the bits the allreduce gives. */
#include "coll/coll_internal.h"


COLL_PREDICT(reduce_rabenseifner)
{
    (void)radix, (void)ports, (void)tradeoff;
    if (n < 2)
        return (coll_prediction){0, 0};
    const coll_pairing pp = bspram__coll_pairing((unsigned)n, 0); /* n is a P: an unsigned */
    const unsigned f = pp.f;
    const uint64_t np = pp.np, W = b / 8, r = pp.r;
    uint64_t c2 = 0;
    for (unsigned t = 0; t < f; t++) {
        const uint64_t q = np >> (t + 1);
        c2 += 8 * bspram__coll_most_words(np, W, q, 2);   /* halving: every block is given away */
        c2 += 8 * bspram__coll_most_words(np, W, q, 1);   /* gather to root 0 (s_r = 0): odd blocks */
    }
    return (coll_prediction){2 * f + (r ? 1 : 0), c2 + (r ? b : 0)};
}

void bspram__coll_reduce_rabenseifner(coll_call *c, const coll_args *a)
{
    const unsigned n = c->n, me = c->rank, root = a->root;
    const size_t W = a->count, m = a->block;
    const coll_op op = a->fold;
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    if (m)
        memcpy(acc, a->send, m);
    /* The pair {2i, 2i+1}'s survivor: the root if in it, else 2i. */
    const coll_pairing pp = bspram__coll_pairing_rooted(n, me, root);
    const unsigned f = pp.f, np = pp.np, r = pp.r;
    const int s = pp.s;
    const unsigned sr = root < 2 * r ? root / 2 : root - r;
    const unsigned rounds = 2 * f + (r ? 1 : 0);
    unsigned done = 0;
    if (r) { /* pair off: x_2i ⊕ x_2i+1 at the pair's survivor */
        const bool paired = me < 2 * r, taker = paired && s >= 0;
        if (paired && !taker)
            bspram__coll_put(c, coll_survivor(&pp, me / 2), 0, acc, m);
        bspram__coll_window(c, taker ? in : NULL, taker ? m : 0);
        bspram__coll_round(c, ++done == rounds);
        if (taker && me % 2 == 0)
            bspram__coll_op_fold(&op, acc, in, W);
        else if (taker)
            bspram__coll_op_fold_left(&op, acc, in, W);
    }
    /* Reduce-scatter: my range of pieces [lo, hi) halves every round. */
    size_t lo, hi;
    bspram__coll_halve(c, &pp, &op, acc, in, W, &lo, &hi, &done, rounds);
    /* Gather: the rounds retraced, the halves flowing towards s_r. */
    for (unsigned t = f; t-- > 0;) {
        const int active = s >= 0 && (((unsigned)s ^ sr) >> (t + 1)) == 0;
        if (active) {
            const unsigned partner = coll_survivor(&pp, (unsigned)s ^ (1u << t));
            const size_t size = hi - lo;
            const int upper = ((unsigned)s >> t) & 1;
            if (upper != (int)((sr >> t) & 1)) { /* send all I hold; done */
                const size_t mw = bspram__coll_piece_word(lo, np, W), mn = bspram__coll_piece_word(hi, np, W) - mw;
                bspram__coll_put(c, partner, 0, acc + mw, 8 * mn);
                bspram__coll_window(c, NULL, 0);
            } else { /* receive the partner's range, next to mine */
                const size_t other_lo = upper ? lo - size : hi, other_hi = upper ? lo : hi + size;
                const size_t ow = bspram__coll_piece_word(other_lo, np, W), on = bspram__coll_piece_word(other_hi, np, W) - ow;
                bspram__coll_window(c, acc + ow, 8 * on);
                lo = upper ? other_lo : lo;
                hi = upper ? hi : other_hi;
            }
        } else {
            bspram__coll_window(c, NULL, 0);
        }
        bspram__coll_round(c, ++done == rounds);
    }
    if (me == root && m)
        memcpy(a->recv, acc, m);
}
