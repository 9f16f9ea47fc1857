/* The pairing off that lets recursive doubling and halving run on any n
 * (Thakur, Rabenseifner and Gropp, IJHPCA 19(1), 2005, allreduce): with
 * n' = 2^⌊log2 n⌋ and r = n − n', the 2r lowest ranks pair off first — odd
 * 2i+1 sends its operand to even 2i, which takes the pair's partial (MPICH
 * sends the other way) — the n' survivors run the algorithm, and in a last
 * round each even 2i < 2r hands the result to 2i+1. Survivor ranks
 * s = 0..n'−1 stand for contiguous rank ranges in order (s < r: {2s, 2s+1};
 * else {s + r}), so folding lower survivor blocks first folds in rank order. */
#include <limits.h>

#include "coll/coll_internal.h"

coll_pairing bspram__coll_pairing_rooted(unsigned n, unsigned me, unsigned root)
{
    coll_pairing pp = {0, 1, 0, 0, me, UINT_MAX, root};
    pp.f = n ? 31u - (unsigned)__builtin_clz(n) : 0; /* ⌊log2 n⌋ */
    pp.np = 1u << pp.f;
    pp.r = n - pp.np;
    if (root < 2 * pp.r)
        pp.root_pair = root / 2;
    pp.s = me < 2 * pp.r ? (me == coll_survivor(&pp, me / 2) ? (int)(me / 2) : -1) : (int)(me - pp.r);
    return pp;
}

coll_pairing bspram__coll_pairing(unsigned n, unsigned me) { return bspram__coll_pairing_rooted(n, me, UINT_MAX); }

void bspram__coll_pair_off(coll_call *c, const coll_pairing *pp, const coll_op *op, uint64_t *acc,
                           uint64_t *in, size_t count, bool last)
{
    const unsigned me = pp->me;
    const size_t m = 8 * count;
    const bool paired = me < 2 * pp->r, taker = paired && me % 2 == 0;
    if (paired && !taker)
        bspram__coll_put(c, me - 1, 0, acc, m);
    bspram__coll_window(c, taker ? in : NULL, taker ? m : 0);
    bspram__coll_round(c, last);
    if (taker)
        bspram__coll_op_fold(op, acc, in, count); /* x_2i ⊕ x_2i+1 */
}

void bspram__coll_hand_back(coll_call *c, const coll_pairing *pp, uint64_t *acc, size_t count, bool last)
{
    const unsigned me = pp->me;
    const size_t m = 8 * count;
    if (me < 2 * pp->r && me % 2 == 0)
        bspram__coll_put(c, me + 1, 0, acc, m);
    bspram__coll_window(c, pp->s < 0 ? acc : NULL, pp->s < 0 ? m : 0);
    bspram__coll_round(c, last);
}
