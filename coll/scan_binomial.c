/* Scan, binomial: up the tree, then down — Blelloch, "Prefix sums and their
 * applications", CMU-CS-90-190, 1990, its PRAM implementation (the
 * work-efficient up-sweep and down-sweep on a balanced binary tree), the
 * tree's nodes held by members: the aligned rank block
 * B = [j·2^t, (j+1)·2^t) ∩ [0, n) of level t is held by its highest rank.
 *
 * Up (rounds t = 0 … d−1, d = ⌈log2 n⌉): for each parent block P of level
 * t+1 whose right half R is not empty, the holder of the left half L sends
 * its sum S_L to the holder of R (= P's holder), which keeps S_L and forms
 * S_P = S_L ⊕ S_R: n − 1 operations and messages in all. Down (levels
 * t = d−2 … 0): the holder of P knows prefix(P) = x_0 ⊕ … ⊕ x_{start(P)−1};
 * it sends it to the holder of L (prefix(L) = prefix(P)) and forms
 * prefix(R) = prefix(P) ⊕ S_L itself — no message where P starts at 0
 * (the prefix is empty). Each member's result: inclusive prefix(B) ⊕ S_B
 * for the highest block B it holds; exclusive prefix({rank}), the
 * operation's identity at rank 0. All folds are in rank order, lower
 * range first. One port: a member sends at most one message and receives
 * at most one per round (it holds one block per level).
 *     C1 = 2d − 1 for n ≥ 2, except 2d − 2 when 3 ≤ n ≤ 3·2^(d−2): down
 *     level d−2 has a message only if a block [2^(d−1), …) of that level
 *     has a right half, i.e. 3·2^(d−2) < n, and a level without one takes
 *     no round (n = 3: 2 rounds; 5, 6: 4; 9–12: 6; 17–24: 8; 65–96: 12);
 *     C2 = m·C1 (m = 8·count).
 * Inclusive and exclusive take the same rounds: the last up round brings
 * rank n−1 both its inclusive sum and prefix of the right half.
 * Operations: n − 1 up; in all 2n − ⌈log2 n⌉ − 2 for the exclusive scan
 * (n = 64: 120), a few more for the inclusive one, whose members with a
 * left top block not starting at 0 form prefix ⊕ S themselves (n = 64: 146)
 * — against Hillis–Steele's Σ_t (n − 2^t) (n = 64: 321). */
#include "coll/coll_internal.h"

/* Down level t has a message: some P of level t+1 starting at p0 ≥ 2^(t+1)
 * has a right half, 2^(t+1) + 2^t < n. */
static int down_level_sends(uint64_t n, unsigned t) { return 3 * (UINT64_C(1) << t) < n; }

static unsigned scan_rounds(uint64_t n)
{
    unsigned d = bspram__coll_ceil_log(n, 2), r = d;
    for (unsigned t = 0; t + 2 <= d; t++)
        r += down_level_sends(n, t);
    return r;
}

COLL_PREDICT(scan_binomial)
{
    (void)radix, (void)ports, (void)tradeoff;
    uint64_t c1 = scan_rounds(n);
    return (coll_prediction){c1, b * c1};
}

void bspram__coll_scan_binomial(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    unsigned d = bspram__coll_ceil_log(n, 2), rounds = scan_rounds(n), done = 0;
    /* acc: S of my current block; pre: its prefix (have_pre: not empty);
     * sl + t·count: S_L received in up round t (right[t]: I got one). */
    uint64_t *acc = coll_scratch(c, 0, m ? m : 8);
    uint64_t *sl = coll_scratch(c, 1, d * m + 8);
    uint64_t *pre = coll_scratch(c, 2, m ? m : 8);
    uint32_t right = 0;
    if (m)
        memcpy(acc, a->send, m);

    /* Up. top: the highest level whose block I hold (d: the whole [0, n)). */
    unsigned top = d;
    for (unsigned t = 0; t < d; t++) {
        unsigned half = 1u << t, p0 = me & ~(2 * half - 1), mid = p0 + half;
        unsigned end = p0 + 2 * half < n ? p0 + 2 * half : n;
        int recv = 0;
        if (top == d && mid < n) { /* I hold my level-t block; P has two halves */
            if (me < mid) { /* L's holder (me = mid − 1): my top block */
                bspram__coll_put(c, end - 1, 0, acc, m);
                top = t;
            } else { /* R's holder (me = end − 1) */
                recv = 1;
            }
        }
        bspram__coll_window(c, recv ? sl + (size_t)t * count : NULL, recv ? m : 0);
        bspram__coll_round(c, ++done == rounds);
        if (recv) {
            right |= UINT32_C(1) << t;
            bspram__coll_op_fold_left(&op, acc, sl + (size_t)t * count, count); /* S_L ⊕ S_R */
        }
    }

    /* Down. Level t: P of level t+1 around me, split at mid. */
    int have_pre = 0; /* top = d: [0, n), empty prefix, acc is the inclusive result */
    for (unsigned t = d; t-- > 0;) {
        unsigned half = 1u << t, p0 = me & ~(2 * half - 1), mid = p0 + half;
        int recv = t == top && p0 > 0; /* prefix(P) for my top block L */
        if (down_level_sends(n, t)) {
            if (t < top && (right >> t & 1) && have_pre)
                bspram__coll_put(c, mid - 1, 0, pre, m);
            bspram__coll_window(c, recv ? pre : NULL, recv ? m : 0);
            bspram__coll_round(c, ++done == rounds);
        }
        if (t == top) {
            have_pre = recv;
            if (have_pre && !a->exclusive) /* inclusive: prefix(L) ⊕ S_L */
                bspram__coll_op_fold_left(&op, acc, pre, count);
        } else if (t < top && (right >> t & 1) && (t > 0 || a->exclusive)) {
            if (have_pre) /* prefix(R) = prefix(P) ⊕ S_L */
                bspram__coll_op_fold(&op, pre, sl + (size_t)t * count, count);
            else if (m)
                memcpy(pre, sl + (size_t)t * count, m);
            have_pre = 1;
        }
    }
    const uint64_t *res = acc;
    if (a->exclusive) {
        if (!have_pre) /* rank 0 */
            for (size_t i = 0; i < count; i++)
                pre[i] = op.identity;
        res = pre;
    }
    if (m)
        memcpy(a->recv, res, m);
}
