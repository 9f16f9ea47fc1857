/* Algorithm A1: a generalized shuffle through exchanges at real distance 2,
 * with look-ahead (Ho & Johnsson 1988, §4.2.1; §4.3 for any cycle of
 * processor dimensions α_0 … α_{σ−1}). A0 realises the shuffle as σ − 1
 * exchanges of adjacent dimensions [α_{j+1}, α_j], j = σ−2 … 0, each two
 * neighbour hops; A1 merges the second hop of one exchange with the first of
 * the next (both cross α_j): σ cycles instead of 2(σ − 1). Between cycles
 * half the processes hold two blocks (buf[1], buf[2]: 2K bytes) and half
 * none; the paper's pseudocode, with dimension j read as α_j.
 * Real cycles run one after another (Lemma 5). Per cycle of order σ:
 *     C1 = σ,  C2 = K + 2K(σ − 2) + K = 2(σ − 1)K
 * (Table 2, one-port A1: 2(σ_p − β)K t_c and σ_p start-ups with B ≥ 2K).
 * One port: a process sends at most one message and receives at most one. */
#include "coll/sdp_internal.h"

static unsigned bit(unsigned pid, const unsigned *alpha, unsigned j)
{
    return (pid >> alpha[j]) & 1u;
}

sdp_a1_step bspram__coll_sdp_a1_schedule(const sdp_plan *pl, unsigned cycle, unsigned t, unsigned pid)
{
    const unsigned *a = pl->alpha + pl->start[cycle];
    unsigned s = pl->order[cycle];
    size_t K = pl->K;
    sdp_a1_step st = {.result = 0};
    if (t == 0) { /* the first hop of exchange [α_{σ−1}, α_{σ−2}] */
        st.dim = a[s - 1];
        if (bit(pid, a, s - 1) != bit(pid, a, s - 2))
            st.send = 1, st.from = 0, st.to = K, st.len = K; /* buf[1] → buf[2] */
        else
            st.recv = 1;
    } else if (t < s - 1) { /* cycle t crosses α_j, j = σ − 1 − t */
        unsigned j = s - 1 - t;
        st.dim = a[j];
        int holding = bit(pid, a, j + 1) == bit(pid, a, j);
        if (holding && bit(pid, a, j) != bit(pid, a, j - 1))
            st.send = 1, st.from = 0, st.to = 0, st.len = 2 * K; /* buf[1:2] */
        else if (!holding && bit(pid, a, j) == bit(pid, a, j - 1))
            st.recv = 1;
    } else { /* the last cycle crosses α_0 */
        st.dim = a[0];
        if (bit(pid, a, 1) == bit(pid, a, 0)) {
            int keep1 = bit(pid, a, 0) == bit(pid, a, s - 1); /* send buf[2], keep buf[1] */
            st.send = 1, st.from = keep1 ? K : 0, st.to = 0, st.len = K;
            st.result = keep1 ? 0 : K;
        } else {
            st.recv = 1; /* into buf[1] */
        }
    }
    return st;
}

static unsigned rounds(const sdp_plan *pl)
{
    unsigned r = 0;
    for (unsigned c = 0; c < pl->cycles; c++)
        r += pl->order[c];
    return r;
}

coll_prediction bspram__coll_sdp_predict_a1(const sdp_plan *pl)
{
    coll_prediction p = {0, 0};
    for (unsigned c = 0; c < pl->cycles; c++) {
        p.c1 += pl->order[c];
        p.c2 += 2 * (uint64_t)(pl->order[c] - 1) * pl->K;
    }
    return p;
}

void bspram__coll_sdp_a1(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    size_t K = pl->K;
    unsigned pid = c->rank, total = rounds(pl), done = 0;
    unsigned char *pair = coll_scratch(c, 1, K ? 2 * K : 1);
    for (unsigned cyc = 0; cyc < pl->cycles; cyc++) {
        if (K)
            memcpy(pair, buf, K); /* buf[1] */
        bspram__coll_window(c, pair, 2 * K);
        size_t result = 0;
        for (unsigned t = 0; t < pl->order[cyc]; t++) {
            sdp_a1_step st = bspram__coll_sdp_a1_schedule(pl, cyc, t, pid);
            if (st.send)
                bspram__coll_put(c, pid ^ (1u << st.dim), st.to, pair + st.from, st.len);
            result = st.result;
            bspram__coll_round(c, ++done == total);
        }
        if (K)
            memcpy(buf, pair + result, K);
    }
}
