/* Algorithm A1a: A1 with every transfer sent in two halves in consecutive
 * cycles (Ho & Johnsson 1988, §4.2.1). In A1 a process that sends in cycle
 * t neither sends in t − 1 nor in t + 1 (nor receives in t ± 1 when it
 * receives in t), so cycle t can carry the first half of A1's cycle t and
 * the second half of A1's cycle t − 1 with still one message out and one in
 * per process: a process forwards the first half while the second arrives.
 * Each block is cut into a low half of up = ⌈K/2⌉ bytes and a high half of
 * down = ⌊K/2⌋, and the pair buf[1], buf[2] is stored as
 *     buf[1] low | buf[2] low | buf[1] high | buf[2] high,
 * so that the first half of a transfer is the low halves of its blocks —
 * which have all arrived when it leaves (a block received whole in cycle t
 * − 1 may go on in cycle t; its high half then still travels) — and every
 * half is one contiguous message. Per real cycle of order σ ≥ 3:
 *     C1 = σ + 1,  C2 = up + (σ − 2)·2up + max(up, 2·down) + down
 *                     = σK for even K
 * (Table 2's one-port A1a: σ_p K t_c, counting σ_p start-ups for packets of
 * K; the pipeline's fill adds one superstep per cycle); σ = 2: C1 = 3,
 * C2 = 2·up + down. Real cycles run one after another (Lemma 5). */
#include "coll/sdp_internal.h"

coll_prediction bspram__coll_sdp_predict_a1a(const sdp_plan *pl)
{
    coll_prediction p = {0, 0};
    uint64_t up = (pl->K + 1) / 2, down = pl->K / 2;
    for (unsigned c = 0; c < pl->cycles; c++) {
        unsigned s = pl->order[c];
        p.c1 += s + 1;
        p.c2 += s == 2 ? 2 * up + down
                       : up + (s - 2) * 2 * up + (up > 2 * down ? up : 2 * down) + down;
    }
    return p;
}

/* One half (hi = 0: low, 1: high) of A1's transfer st, as a contiguous
 * range of the split layout: *from, *to, *len. */
static void half_of(const sdp_a1_step *st, size_t K, int hi, size_t *from, size_t *to, size_t *len)
{
    size_t up = (K + 1) / 2, down = K / 2, part = hi ? down : up, base = hi ? 2 * up : 0;
    if (st->len == 2 * K) { /* both blocks */
        *from = *to = base;
        *len = 2 * part;
    } else { /* block st->from / K to block st->to / K */
        *from = base + (st->from / (K ? K : 1)) * part;
        *to = base + (st->to / (K ? K : 1)) * part;
        *len = part;
    }
}

/* Block b (0: buf[1], 1: buf[2]) between the split layout and K bytes. */
static void block_copy(unsigned char *pair, unsigned char *buf, size_t K, int b, int out)
{
    size_t up = (K + 1) / 2, down = K / 2;
    unsigned char *lo = pair + b * up, *hi = pair + 2 * up + b * down;
    if (out) {
        memcpy(buf, lo, up);
        memcpy(buf + up, hi, down);
    } else {
        memcpy(lo, buf, up);
        memcpy(hi, buf + up, down);
    }
}

void bspram__coll_sdp_a1a(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    size_t K = pl->K;
    unsigned pid = c->rank, total = 0, done = 0;
    for (unsigned cyc = 0; cyc < pl->cycles; cyc++)
        total += pl->order[cyc] + 1u;
    unsigned char *pair = coll_scratch(c, 1, K ? 2 * K : 1);
    for (unsigned cyc = 0; cyc < pl->cycles; cyc++) {
        block_copy(pair, buf, K, 0, 0);
        bspram__coll_window(c, pair, 2 * K);
        unsigned s = pl->order[cyc];
        sdp_a1_step prev = {0};
        size_t result = 0;
        for (unsigned t = 0; t <= s; t++) {
            sdp_a1_step st = t < s ? bspram__coll_sdp_a1_schedule(pl, cyc, t, pid) : (sdp_a1_step){0};
            size_t from, to, len;
            if (st.send) { /* the low half of A1's cycle t */
                half_of(&st, K, 0, &from, &to, &len);
                bspram__coll_put(c, pid ^ (1u << st.dim), to, pair + from, len);
            }
            if (prev.send) { /* the high half of A1's cycle t − 1 */
                half_of(&prev, K, 1, &from, &to, &len);
                bspram__coll_put(c, pid ^ (1u << prev.dim), to, pair + from, len);
            }
            if (t < s)
                result = st.result;
            prev = st;
            bspram__coll_round(c, ++done == total);
        }
        block_copy(pair, buf, K, result ? 1 : 0, 1);
    }
}
