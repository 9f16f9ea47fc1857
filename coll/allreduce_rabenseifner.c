/* Allreduce for long operands, Rabenseifner's: a reduce-scatter by
 * recursive halving, then an allgather by recursive doubling — Rabenseifner,
 * "Optimization of collective reduction operations", ICCS 2004, and Thakur,
 * Rabenseifner and Gropp, IJHPCA 19(1), 2005 (allreduce, long messages).
 * Each member sends about 2m(1 − 1/n') bytes instead of recursive
 * doubling's m·log2 n, in twice the rounds.
 *
 * With n' = 2^⌊log2 n⌋ and r = n − n', the 2r lowest ranks pair off first
 * (2i+1 sends its operand to 2i) and the result goes back to them last
 * (pairing.c). The count words are cut into n' pieces, piece j
 * the words [j·W/n', (j+1)·W/n'). Survivor s halves its range of pieces in
 * round t = 0 .. f−1 with partner s ^ 2^t, keeping the lower half if bit t
 * of s is 0 and sending the other half's partials; after the f rounds it
 * holds one piece reduced over everyone. The allgather retraces the rounds,
 * t = f−1 .. 0, each member sending what it holds and receiving the half it
 * gave away, straight into the result:
 *     C1 = 2⌊log2 n⌋, + 2 when n is not a power of two;
 *     C2 = 2 Σ_t 8·(the most words in a half sent in round t), + 2m when
 *          n is not a power of two (one port).
 *
 * Rank order and identical bits. Distances grow 1, 2, 4, …: in round t the
 * partners hold partials over the two aligned survivor blocks of size 2^t
 * next to each other (survivors stand for contiguous ranks, in order), and
 * both fold lower block first, L ⊕ R; each piece is reduced once, by its
 * owner, and then copied, so every member gets the same bits. */
#include "coll/coll_internal.h"

COLL_PREDICT(allreduce_rabenseifner)
{
    (void)radix, (void)ports, (void)tradeoff;
    if (n < 2)
        return (coll_prediction){0, 0};
    const coll_pairing pp = bspram__coll_pairing((unsigned)n, 0); /* n is a P: an unsigned */
    const unsigned f = pp.f;
    const uint64_t np = pp.np, W = b / 8, r = pp.r;
    uint64_t c2 = 0;
    for (unsigned t = 0; t < f; t++) { /* halves of 2^(f-1-t) pieces, aligned */
        c2 += 2 * 8 * bspram__coll_most_words(np, W, np >> (t + 1), 2);
    }
    return (coll_prediction){2 * f + (r ? 2 : 0), c2 + (r ? 2 * b : 0)};
}

void bspram__coll_allreduce_rabenseifner(coll_call *c, const coll_args *a)
{
    const unsigned n = c->n, me = c->rank;
    const size_t W = a->count, m = a->block;
    const coll_op op = a->fold;
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8), *in = coll_scratch(c, 1, m ? m : 8);
    if (m)
        memcpy(acc, a->send, m);
    const coll_pairing pp = bspram__coll_pairing(n, me);
    const unsigned f = pp.f, np = pp.np, r = pp.r;
    const int s = pp.s;
    const unsigned rounds = 2 * f + (r ? 2 : 0);
    unsigned done = 0;
    if (r)
        bspram__coll_pair_off(c, &pp, &op, acc, in, W, ++done == rounds);
    /* Reduce-scatter: my range of pieces [lo, hi) halves every round. */
    size_t lo, hi;
    bspram__coll_halve(c, &pp, &op, acc, in, W, &lo, &hi, &done, rounds);
    /* Allgather: the rounds retraced, each half landing where it belongs. */
    for (unsigned t = f; t-- > 0;) {
        if (s >= 0) {
            const unsigned partner = coll_survivor(&pp, (unsigned)s ^ (1u << t));
            const size_t size = hi - lo;
            const int upper = ((unsigned)s >> t) & 1;
            const size_t other_lo = upper ? lo - size : hi, other_hi = upper ? lo : hi + size;
            const size_t mw = bspram__coll_piece_word(lo, np, W), mn = bspram__coll_piece_word(hi, np, W) - mw;
            const size_t ow = bspram__coll_piece_word(other_lo, np, W), on = bspram__coll_piece_word(other_hi, np, W) - ow;
            bspram__coll_put(c, partner, 0, acc + mw, 8 * mn);
            bspram__coll_window(c, acc + ow, 8 * on);
            lo = upper ? other_lo : lo;
            hi = upper ? hi : other_hi;
        } else {
            bspram__coll_window(c, NULL, 0);
        }
        bspram__coll_round(c, ++done == rounds);
    }
    if (r)
        bspram__coll_hand_back(c, &pp, acc, W, ++done == rounds);
    if (m)
        memcpy(a->recv, acc, m);
}
