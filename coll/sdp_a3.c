/* Algorithm A3: any stable dimension permutation as two all-to-all
 * personalized communications (Ho & Johnsson 1988, §4.4.2, after Stout and
 * Wager): process x cuts its K bytes into P pieces and sends piece t to
 * process t; then every process sends the pieces it holds on to their
 * block's destination. Each all-to-all is the cube's standard exchange
 * (Johnsson & Ho's one-port algorithm, coll/alltoall_exchange.c, the
 * collectives' BSP_COLL_EXCHANGE): in step d every process exchanges with
 * its neighbour across dimension d the P/2 pieces whose destination differs
 * from it in bit d — neighbours only, one message each way. The pieces are
 * the all-to-alls' blocks, b = ⌈K/P⌉ bytes (the last ones padded with
 * zeros, which travel): the first all-to-all leaves in slot s the piece
 * source s sent here; the slots reordered so that slot sdp_target(s) holds
 * it, the second sends it to that process, where it lands in slot pid —
 * its piece number, so the K bytes arrive in order. n = log2 P:
 *     C1 = 2n,  C2 = 2n·(P/2)·b ≈ nK        (Table 2, one-port A3: nK t_c, 2n start-ups).
 * It ignores the cycles' structure, so it costs the same for every δ — the
 * paper's point: inferior to A1a and A2 on separable permutations. */
#include "coll/sdp_internal.h"

coll_prediction bspram__coll_sdp_predict_a3(const sdp_plan *pl)
{
    uint64_t P = (uint64_t)1 << pl->n, b = (pl->K + P - 1) / P;
    if (pl->cycles == 0 || pl->n == 0)
        return (coll_prediction){0, 0};
    coll_prediction x = bspram__coll_predict_alltoall_exchange(P, b, 0, 1, BSP_COLL_OPTIMAL_C1);
    return (coll_prediction){2 * x.c1, 2 * x.c2};
}

void bspram__coll_sdp_a3(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    unsigned P = 1u << pl->n;
    size_t K = pl->K, b = (K + P - 1) / P, all = (size_t)P * b;
    /* The slots: in buf when the pieces fill it exactly, else padded in
     * scratch; `next`: the slots reordered for the second all-to-all
     * (scratch 0 — the exchange packs in scratch 1 and 2). */
    int padded = all != K;
    unsigned char *scratch = coll_scratch(c, 0, (padded ? 2 * all : all) + 1);
    unsigned char *slots = padded ? scratch : buf, *next = padded ? scratch + all : scratch;
    if (padded) {
        if (K)
            memcpy(slots, buf, K);
        memset(slots + K, 0, all - K);
    }
    coll_args a = {.send = slots, .recv = slots, .block = b, .ports = 1};
    c->then = 1; /* the second all-to-all follows */
    bspram__coll_alltoall_exchange(c, &a); /* piece t to process t */
    c->then = 0;
    for (unsigned s = 0; s < P && b; s++) /* source s's piece goes where s's block belongs */
        memcpy(next + (size_t)sdp_target(pl, s) * b, slots + (size_t)s * b, b);
    a.send = next;
    bspram__coll_alltoall_exchange(c, &a); /* recv = slots: piece y of the block arriving here */
    if (padded && K)
        memcpy(buf, slots, K);
}
