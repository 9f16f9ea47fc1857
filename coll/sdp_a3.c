/* Algorithm A3: any stable dimension permutation as two all-to-all
 * personalized communications (Ho & Johnsson 1988, §4.4.2, after Stout and
 * Wager): process x cuts its K bytes into P pieces and sends piece t to
 * process t; then every process sends the pieces it holds on to their
 * block's destination. Each all-to-all is the cube's standard exchange
 * (Johnsson & Ho's one-port algorithm): in step d every process exchanges
 * with its neighbour across dimension d the P/2 pieces whose destination
 * differs from it in bit d — neighbours only, one message each way. With
 * pieces of b = ⌈K/P⌉ bytes (padded), n = log2 P:
 *     C1 = 2n,  C2 = 2n·(P/2)·b ≈ nK        (Table 2, one-port A3: nK t_c, 2n start-ups).
 * It ignores the cycles' structure, so it costs the same for every δ — the
 * paper's point: inferior to A1a and A2 on separable permutations. */
#include "coll/sdp_internal.h"

/* The standard exchange: slots[j·b …] holds the piece for destination
 * (pid XOR j)… indexed so that the piece for destination t starts in slot
 * t, and after the n steps slot s holds the piece from source s. */
static void exchange(coll_call *c, unsigned n, size_t b, unsigned char *slots,
                     unsigned char *pack, unsigned char *stage, unsigned *done, unsigned total)
{
    unsigned pid = c->rank, P = 1u << n;
    coll_window(c, stage, (size_t)(P / 2) * b);
    for (unsigned d = 0; d < n; d++) {
        unsigned mine = (pid >> d) & 1u, k = 0;
        for (unsigned j = 0; j < P; j++) /* the slots whose destination bit d differs */
            if (((j >> d) & 1u) != mine)
                memcpy(pack + (size_t)k++ * b, slots + (size_t)j * b, b);
        coll_put(c, pid ^ (1u << d), 0, pack, (size_t)k * b);
        coll_round(c, ++*done == total);
        k = 0;
        for (unsigned j = 0; j < P; j++) /* the partner's pieces fill the slots sent */
            if (((j >> d) & 1u) != mine)
                memcpy(slots + (size_t)j * b, stage + (size_t)k++ * b, b);
    }
}

coll_prediction sdp_predict_a3(const sdp_plan *pl)
{
    uint64_t P = (uint64_t)1 << pl->n, b = (pl->K + P - 1) / P;
    if (pl->cycles == 0 || pl->n == 0)
        return (coll_prediction){0, 0};
    return (coll_prediction){2 * (uint64_t)pl->n, 2 * (uint64_t)pl->n * (P / 2) * b};
}

void sdp_a3(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    unsigned n = pl->n, P = 1u << n, pid = c->rank, done = 0;
    size_t K = pl->K, b = (K + P - 1) / P, all = (size_t)P * b;
    unsigned char *slots = coll_scratch(c, 0, all ? all : 1);
    unsigned char *pack = coll_scratch(c, 1, all ? all : 1);
    unsigned char *stage = coll_scratch(c, 2, all ? all : 1);
    memset(slots, 0, all);
    memcpy(slots, buf, K);
    exchange(c, n, b, slots, pack, stage, &done, 2 * n); /* piece t to process t */
    for (unsigned s = 0; s < P; s++) /* source s's piece goes where s's block belongs */
        memcpy(pack + (size_t)sdp_target(pl, s) * b, slots + (size_t)s * b, b);
    memcpy(slots, pack, all);
    exchange(c, n, b, slots, pack, stage, &done, 2 * n);
    (void)pid;
    memcpy(buf, slots, K);
}
