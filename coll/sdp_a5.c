/* Algorithm A5: the generalized shuffles combined, n ports (Ho & Johnsson
 * 1988, §4.4.3, Lemma 7). Sequence 0 concatenates, for every real cycle
 * α_c0 … α_c(σc−1), its A2 exchange sequence α_c0, α_c1, …, α_c(σc−1), α_c0;
 * sequence k + 1 is sequence k without its first dimension d_0 and with
 * μ(d_0) — the next dimension of d_0's cycle — appended. Each of the
 * S = σ_p + β + σ_min − 1 sequences carries the whole permutation for its
 * own piece of the data (an A2 exchange sequence leaves the virtual
 * dimension as it found it, so a cycle's sequence may be interrupted by
 * another's), and in any step a dimension is used by at most two sequences
 * (Lemma 7): a process sends at most one message — the pieces of those two
 * sequences, packed — to each neighbour per superstep. With pieces of
 * ⌈K/S⌉ bytes halved to h = ⌈⌈K/S⌉/2⌉:
 *     C1 = σ_p + β,  C2 = Σ_steps (sequences on the busiest dimension)·h
 *                       ≈ (σ_p + β)·K/S        (Table 2: (σ_p+β)K t_c/(σ_p+β+σ_min−1)). */
#include <stdlib.h>

#include "coll/sdp_internal.h"

#define MAX_SEQ (3 * BSP_SDP_MAX_DIMS)
#define MAX_LEN (2 * BSP_SDP_MAX_DIMS)

/* The sequences: seq[k][t], k < *count, t < *len. Their 23 KB live on the
 * heap for the call, not in thread-local storage: static TLS is mapped and
 * zeroed in every thread's stack, i.e. in every BSPlib process. */
static void sequences(const sdp_plan *pl, unsigned char seq[MAX_SEQ][MAX_LEN], unsigned *count,
                      unsigned *len)
{
    unsigned L = 0, smin = BSP_SDP_MAX_DIMS;
    for (unsigned c = 0; c < pl->cycles; c++) {
        const unsigned *a = pl->alpha + pl->start[c];
        for (unsigned j = 0; j < pl->order[c]; j++)
            seq[0][L++] = (unsigned char)a[j];
        seq[0][L++] = (unsigned char)a[0];
        if (pl->order[c] < smin)
            smin = pl->order[c];
    }
    *len = L;
    *count = pl->cycles ? L + smin - 1 : 0;
    for (unsigned k = 1; k < *count; k++) {
        memcpy(seq[k], seq[k - 1] + 1, L - 1);
        seq[k][L - 1] = (unsigned char)pl->mu[seq[k - 1][0]];
    }
}

/* The sequences that cross dimension d in step t, in order (at most two). */
static unsigned users(unsigned char seq[MAX_SEQ][MAX_LEN], unsigned count, unsigned t, unsigned d,
                      unsigned *ks)
{
    unsigned u = 0;
    for (unsigned k = 0; k < count; k++)
        if (seq[k][t] == d)
            ks[u++] = k;
    return u;
}

coll_prediction bspram__coll_sdp_predict_a5(const sdp_plan *pl)
{
    unsigned char (*seq)[MAX_LEN] = bspram__base_malloc(sizeof(unsigned char[MAX_SEQ][MAX_LEN]), "bsp_coll (a5)");
    unsigned count, len, ks[MAX_SEQ];
    sequences(pl, seq, &count, &len);
    coll_prediction p = {0, 0};
    if (!count) {
        free(seq);
        return p;
    }
    uint64_t h = ((pl->K + count - 1) / count + 1) / 2;
    for (unsigned t = 0; t < len; t++) {
        unsigned most = 0;
        for (unsigned d = 0; d < pl->n; d++) {
            unsigned u = users(seq, count, t, d, ks);
            most = u > most ? u : most;
        }
        p.c1++;
        p.c2 += most * h;
    }
    free(seq);
    return p;
}

void bspram__coll_sdp_a5(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    unsigned char (*seq)[MAX_LEN] = bspram__base_malloc(sizeof(unsigned char[MAX_SEQ][MAX_LEN]), "bsp_coll (a5)");
    unsigned count, len, ks[MAX_SEQ], pid = c->rank, n = pl->n;
    sequences(pl, seq, &count, &len);
    size_t K = pl->K, h = ((K + count - 1) / count + 1) / 2;
    /* Piece k padded to two halves of h bytes; a staging slot of 2h per
     * dimension for what arrives across it; a packing buffer. */
    unsigned char *work = coll_scratch(c, 0, h ? 2 * h * count : 1);
    unsigned char *stage = coll_scratch(c, 1, h ? 2 * h * n : 1);
    unsigned char *pack = coll_scratch(c, 2, h ? 2 * h : 1);
    bspram__coll_sdp_pieces(buf, K, count, work, 2 * h, 0);
    bspram__coll_window(c, stage, 2 * h * n);
    for (unsigned t = 0; t < len; t++) {
        for (unsigned d = 0; d < n; d++) {
            unsigned u = users(seq, count, t, d, ks);
            if (!u)
                continue;
            size_t send = 1 - ((pid >> d) & 1u); /* the half whose virtual bit differs */
            for (unsigned j = 0; j < u; j++)
                memcpy(pack + j * h, work + 2 * h * ks[j] + send * h, h);
            bspram__coll_put(c, pid ^ (1u << d), 2 * h * d, pack, u * h);
        }
        bspram__coll_round(c, t + 1 == len);
        for (unsigned d = 0; d < n; d++) { /* each piece lands in the half it left */
            unsigned u = users(seq, count, t, d, ks);
            size_t half = 1 - ((pid >> d) & 1u);
            for (unsigned j = 0; j < u; j++)
                memcpy(work + 2 * h * ks[j] + half * h, stage + 2 * h * d + j * h, h);
        }
    }
    bspram__coll_sdp_pieces(buf, K, count, work, 2 * h, 1);
    free(seq);
}
