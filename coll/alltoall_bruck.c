/* Alltoall (index), Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient
 * algorithms for all-to-all communications in multiport message-passing
 * systems", IEEE TPDS 8(11), 1997, §3 (the index algorithms, radix r, §3.4
 * with k ports) and Appendix A (its pseudocode, one port).
 *
 * Three phases on rank i, working in recv:
 *   1. local rotation: block j of send moves to position (j − i) mod n, so
 *      the block at position j is bound for rank i + j;
 *   2. communication: position j travels j ranks to the right, digit by
 *      digit of j in radix r. In subphase x (weight p = r^x, x = 0..w−1,
 *      w = ⌈log_r n⌉) the blocks whose digit x is z go to rank i + z·p,
 *      for z = 1..h−1 (h = r, but ⌈n/r^(w−1)⌉ in the last subphase); they
 *      keep their positions. The h − 1 steps are independent, so k of them
 *      (consecutive z) share a round: k messages to k distinct ranks, and k
 *      received from k distinct ranks (the offsets z·p are distinct and
 *      below n). Each message packs its blocks contiguously, in position
 *      order; the round's messages land side by side in a scratch window and
 *      are unpacked into the positions they left;
 *   3. local rotation with reversal (Appendix A, lines 21–23): recv block j
 *      ← position (i − j) mod n, done in place as swaps (the map is an
 *      involution).
 * After phase 2, position j of rank d holds the block rank d − j sent to d.
 *
 * Cost: a subphase takes ⌈(h − 1)/k⌉ rounds, so
 *     C1 = Σ_x ⌈(h_x − 1)/k⌉  ≤ ⌈(r−1)/k⌉·⌈log_r n⌉,
 * and a round's largest message is its first (smallest) z's, since the
 * count of positions j ∈ [0, n) with digit x equal to z does not grow with z:
 *     C2 = b · Σ_rounds cnt_x(z_first).
 * §3.2 bounds every message by b⌈n/r⌉, hence C2 ≤ b·⌈(r−1)/k⌉·⌈n/r⌉·w;
 * that holds for r = 2, r = n and n a power of r, but not in general: a
 * digit's blocks number up to r^x·⌈n/r^(x+1)⌉ (n = 40, r = 4, x = 1, z = 1:
 * j = 4..7, 20..23, 36..39, 12 blocks > ⌈40/4⌉ = 10; C2 = 38b for k = 3,
 * against the bound's 30b). The schedule is the paper's; its stated bound
 * is too low there.
 * r = 2, k = 1 gives C1 = ⌈log2 n⌉ (optimal); r = n is the direct algorithm
 * (BSP_COLL_DIRECT): C1 = ⌈(n−1)/k⌉, C2 = b·C1 (b(n−1) for k = 1, optimal). */
#include <string.h>

#include "coll/coll_internal.h"

/* How many j ∈ [0, n) have radix-r digit z at weight p (p = r^x < n). */
static uint64_t digit_count(uint64_t n, uint64_t p, uint64_t r, uint64_t z)
{
    uint64_t period = p * r, rem = n % period, lo = z * p;
    uint64_t part = rem > lo ? (rem - lo < p ? rem - lo : p) : 0;
    return n / period * p + part;
}

COLL_PREDICT(alltoall_bruck)
{
    (void)tradeoff;
    if (n < 2)
        return (coll_prediction){0, 0};
    uint64_t r = radix < 2 ? 2 : radix > n ? n : radix, k = ports ? ports : 1;
    unsigned w = bspram__coll_ceil_log(n, r);
    uint64_t c1 = 0, blocks = 0, p = 1;
    for (unsigned x = 0; x < w; x++, p *= r) {
        uint64_t h = x + 1 == w ? coll_ceil_div(n, p) : r, rounds = coll_ceil_div(h - 1, k);
        /* The rounds' first digits are z = 1, 1 + k, …, 1 + (rounds−1)k;
         * cnt(z) = full + p for z < m, full + f for z = m, full above
         * (m, f: the partial period's whole digits and remainder). */
        uint64_t period = p * r, full = n / period * p, m = n % period / p, f = n % period % p;
        uint64_t below = m >= 2 ? (m - 2) / k + 1 : 0;
        blocks += rounds * full + p * (below < rounds ? below : rounds);
        if (m >= 1 && (m - 1) % k == 0 && (m - 1) / k < rounds)
            blocks += f;
        c1 += rounds;
    }
    return (coll_prediction){c1, b * blocks};
}

static void copy(void *to, const void *from, size_t len)
{
    if (len)
        memcpy(to, from, len);
}

/* Swap len bytes at x and y (disjoint). */
static void swap_bytes(unsigned char *x, unsigned char *y, size_t len)
{
    unsigned char t[256];
    while (len) {
        size_t m = len < sizeof t ? len : sizeof t;
        memcpy(t, x, m);
        memcpy(x, y, m);
        memcpy(y, t, m);
        x += m, y += m, len -= m;
    }
}

/* Reverse the order of blocks lo..hi−1 of buf. */
static void reverse_blocks(unsigned char *buf, size_t b, size_t lo, size_t hi)
{
    while (hi > lo + 1) {
        hi--;
        swap_bytes(buf + lo * b, buf + hi * b, b);
        lo++;
    }
}

/* Copy the blocks of buf whose digit (weight p, radix r) is z to out, in
 * position order (unpack: the other way). Runs of p positions are one copy. */
static void pack_digit(unsigned char *buf, unsigned char *out, size_t b, uint64_t n, uint64_t p,
                       uint64_t r, uint64_t z, int unpack)
{
    for (uint64_t j = z * p; j < n; j += p * r) {
        size_t len = (size_t)((n - j < p ? n - j : p) * b);
        if (unpack)
            copy(buf + j * b, out, len);
        else
            copy(out, buf + j * b, len);
        out += len;
    }
}

void bspram__coll_alltoall_bruck(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t b = a->block;
    unsigned char *buf = a->recv;
    const unsigned char *send = a->send;

    /* Phase 1: buf[j] ← send[(j + me) mod n] (in place: a left rotation by
     * me blocks, as three reversals). */
    if (b && send != buf) {
        memcpy(buf, send + (size_t)me * b, (size_t)(n - me) * b);
        copy(buf + (size_t)(n - me) * b, send, (size_t)me * b);
    } else if (b && me) {
        reverse_blocks(buf, b, 0, me);
        reverse_blocks(buf, b, me, n);
        reverse_blocks(buf, b, 0, n);
    }
    if (n == 1)
        return;

    /* Phase 2. */
    uint64_t r = a->radix < 2 ? 2 : a->radix > n ? n : a->radix;
    unsigned k = a->ports ? a->ports : 1;
    unsigned w = bspram__coll_ceil_log(n, r);
    uint64_t p = 1;
    for (unsigned x = 0; x < w; x++, p *= r) {
        uint64_t h = x + 1 == w ? coll_ceil_div(n, p) : r;
        for (uint64_t z0 = 1; z0 < h;) {
            uint64_t z1 = h - z0 > k ? z0 + k : h;
            size_t total = 0;
            for (uint64_t z = z0; z < z1; z++)
                total += (size_t)digit_count(n, p, r, z) * b;
            unsigned char none[1] = {0};
            unsigned char *in = b ? coll_scratch(c, 2, total) : none;
            unsigned char *out = b ? coll_scratch(c, 1, (size_t)digit_count(n, p, r, z0) * b) : none;
            bspram__coll_window(c, in, total);
            size_t off = 0;
            for (uint64_t z = z0; z < z1; z++) {
                size_t len = (size_t)digit_count(n, p, r, z) * b;
                if (b)
                    pack_digit(buf, out, b, n, p, r, z, 0);
                bspram__coll_put(c, (unsigned)((me + z * p) % n), off, out, len);
                off += len;
            }
            bspram__coll_round(c, x + 1 == w && z1 == h);
            off = 0;
            for (uint64_t z = z0; z < z1 && b; z++) {
                pack_digit(buf, in + off, b, n, p, r, z, 1);
                off += (size_t)digit_count(n, p, r, z) * b;
            }
            z0 = z1;
        }
    }

    /* Phase 3: recv[j] ← position (me − j) mod n, an involution: swaps. */
    if (b)
        for (unsigned j = 0; j < n; j++) {
            unsigned i = (me + n - j) % n;
            if (j < i)
                swap_bytes(buf + (size_t)j * b, buf + (size_t)i * b, b);
        }
}
