/* The reduce-scatter by recursive halving that Rabenseifner's allreduce and
 * reduce share (Rabenseifner, ICCS 2004; Thakur, Rabenseifner and Gropp,
 * IJHPCA 19(1), 2005): the count words cut into n' pieces, piece j the
 * words [⌊j·W/n'⌋, ⌊(j+1)·W/n'⌋); survivor s halves its range of pieces in
 * round t = 0 .. f−1 with partner s ^ 2^t, keeping the lower half if bit t
 * of s is 0, sending the other half's partials and folding the partner's
 * into its own, lower block first (L ⊕ R), so that each piece is reduced
 * in rank order. Members that are no survivor (pairing.c) take part in the
 * rounds without a message. */
#include "coll/coll_internal.h"

size_t bspram__coll_piece_word(size_t j, size_t np, size_t W) { return j * (W / np) + j * (W % np) / np; }

uint64_t bspram__coll_most_words(uint64_t np, uint64_t W, uint64_t q, int parity)
{
    uint64_t most = 0;
    for (uint64_t g = 0; g < np / q; g++) {
        if (parity != 2 && (int)(g & 1) != parity)
            continue;
        uint64_t w = bspram__coll_piece_word((size_t)((g + 1) * q), (size_t)np, (size_t)W) -
                     bspram__coll_piece_word((size_t)(g * q), (size_t)np, (size_t)W);
        most = w > most ? w : most;
    }
    return most;
}

void bspram__coll_halve(coll_call *c, const coll_pairing *pp, const coll_op *op, uint64_t *acc, uint64_t *in,
                        size_t W, size_t *lo, size_t *hi, unsigned *done, unsigned rounds)
{
    const int s = pp->s;
    const size_t np = pp->np;
    *lo = 0;
    *hi = np;
    for (unsigned t = 0; t < pp->f; t++) {
        if (s < 0) {
            bspram__coll_window(c, NULL, 0);
            bspram__coll_round(c, ++*done == rounds);
            continue;
        }
        const unsigned partner = coll_survivor(pp, (unsigned)s ^ (1u << t));
        const size_t mid = *lo + (*hi - *lo) / 2;
        const int upper = ((unsigned)s >> t) & 1;
        const size_t keep_lo = upper ? mid : *lo, keep_hi = upper ? *hi : mid;
        const size_t give_lo = upper ? *lo : mid, give_hi = upper ? mid : *hi;
        const size_t gw = bspram__coll_piece_word(give_lo, np, W);
        const size_t gn = bspram__coll_piece_word(give_hi, np, W) - gw;
        const size_t kw = bspram__coll_piece_word(keep_lo, np, W);
        const size_t kn = bspram__coll_piece_word(keep_hi, np, W) - kw;
        bspram__coll_put(c, partner, 0, acc + gw, 8 * gn);
        bspram__coll_window(c, in, 8 * kn);
        bspram__coll_round(c, ++*done == rounds);
        if (upper) /* the partner's block is the lower one */
            bspram__coll_op_fold_left(op, acc + kw, in, kn);
        else
            bspram__coll_op_fold(op, acc + kw, in, kn);
        *lo = keep_lo;
        *hi = keep_hi;
    }
}
