/* Gather, binomial: the binomial scatter's rounds reversed (Saad and
 * Schultz, "Data communication in parallel architectures", Yale RR-461,
 * 1986, §3: "an algorithm for scatter can be derived from an algorithm for
 * gathering simply reversing the data paths"; the hypercube scatter of
 * §3.4 (E), (F)). Ranks relative to the root (v = rank − root mod n); the
 * ranges are those of recursive halving: [lo, hi) splits at mid = lo +
 * ⌈(hi − lo)/2⌉. Scatter round t is gather round ⌈log2 n⌉ − 1 − t, in which
 * mid sends lo the blocks [mid, hi) it has collected, in one message. The
 * messages are those of the scatter, so
 *     C1 = ⌈log2 n⌉,  C2 = b·(n − 1)   for every n
 * (round t's largest message, ⌊⌈n/2^t⌉/2⌋ blocks, telescopes to n − 1), both
 * optimal in the one-port model of Bruck, Ho, Kipnis, Upfal and Weathersby,
 * "Efficient algorithms for all-to-all communications in multiport
 * message-passing systems", IEEE TPDS 8(11), 1997, §2. One port: in a round
 * a member sends (as a mid) or receives (as a lo) one message.
 *
 * Buffers: a member collecting more than its own block holds its range
 * [v, e) in scratch 0, in relative order, and its children put at their
 * offsets in it. The root receives straight into recv at the user's
 * offsets, but for the one range that wraps past rank n − 1, which lands in
 * scratch 0 and is copied in two parts. */
#include "coll/coll_internal.h"

COLL_PREDICT(gather_binomial)
{
    (void)radix, (void)ports, (void)tradeoff;
    if (n <= 1)
        return (coll_prediction){0, 0};
    return (coll_prediction){bspram__coll_ceil_log(n, 2), b * (n - 1)};
}

typedef struct split {
    unsigned lo, mid, hi; /* my range at a depth, and where it splits */
} split;

void bspram__coll_gather_binomial(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, root = a->root, v = (c->rank + n - root) % n;
    size_t b = a->block;
    const unsigned char *send = a->send;
    unsigned char *recv = a->recv;
    if (v == 0 && b && send != recv + (size_t)root * b) /* in place: already there */
        memcpy(recv + (size_t)root * b, send, b);
    if (n == 1)
        return;
    /* The scatter's recursion, from the top: my range at every depth. */
    unsigned rounds = bspram__coll_ceil_log(n, 2), e = n;
    split sp[64];
    for (unsigned t = 0, lo = 0, hi = n; t < rounds; t++) {
        unsigned mid = lo + (hi - lo + 1) / 2;
        sp[t] = (split){lo, mid, hi};
        if (hi - lo >= 2 && v == mid)
            e = hi; /* from here on I collect [v, hi) */
        if (v < mid)
            hi = mid;
        else
            lo = mid;
    }
    /* What I collect, own block first. */
    const unsigned char *hold = send;
    unsigned char *buf = NULL;
    if (v != 0 && e - v >= 2) {
        buf = coll_scratch(c, 0, (size_t)(e - v) * b);
        if (b)
            memcpy(buf, send, b);
        hold = buf;
    }
    for (unsigned r = 0; r < rounds; r++) {
        split s = sp[rounds - 1 - r];
        int active = s.hi - s.lo >= 2;
        size_t len = (size_t)(s.hi - s.mid) * b;
        unsigned first = (root + s.mid) % n; /* the user's rank of block mid */
        int wraps = b && first + (s.hi - s.mid) > n;
        unsigned char *landing = NULL;
        bspram__coll_window(c, NULL, 0);
        if (active && v == s.mid) {
            size_t offset = s.lo != 0 ? (size_t)(s.mid - s.lo) * b : wraps ? 0 : (size_t)first * b;
            bspram__coll_put(c, (s.lo + root) % n, offset, hold, len);
        } else if (active && v == s.lo) {
            if (v != 0)
                bspram__coll_window(c, buf, (size_t)(e - v) * b);
            else if (!wraps)
                bspram__coll_window(c, recv, (size_t)n * b);
            else
                bspram__coll_window(c, landing = coll_scratch(c, 0, len), len);
        }
        bspram__coll_round(c, r + 1 == rounds);
        if (landing) { /* the root's wrapping range: ranks first … n − 1, then 0 … */
            size_t part = (size_t)(n - first) * b;
            memcpy(recv + (size_t)first * b, landing, part);
            memcpy(recv, landing + part, len - part);
        }
    }
}
