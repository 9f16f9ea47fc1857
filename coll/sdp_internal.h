/* The dimension permutations' frame (not installed): what bsp_sdp (sdp.c)
 * hands the algorithm files sdp_*.c. sdp.c checks the arguments, splits δ
 * into cycles (bsp_sdp_analyze), applies the virtual cycles locally, and
 * leaves the algorithm the real cycles as a permutation μ of the processor
 * (machine) dimensions: the K bytes of process x belong, afterwards, on the
 * process y with y_{μ(j)} = x_j for every j < n (Ho & Johnsson §2: a real
 * GSH moves whole local memories, the local address map is preserved).
 * The algorithm moves them with the collectives' frame (coll_internal.h:
 * bspram__coll_window, bspram__coll_put, bspram__coll_round) between cube neighbours only.
 */
#ifndef BSPRAM_COLL_SDP_INTERNAL_H
#define BSPRAM_COLL_SDP_INTERNAL_H

#include "coll/bsp_sdp.h"
#include "coll/coll_internal.h"

/* The real cycles, in processor dimensions. */
typedef struct sdp_plan {
    unsigned n;                          /* cube dimension: P = 2^n */
    unsigned ports;                      /* 1, or n (n-port variants) */
    size_t K;                            /* bytes per process */
    unsigned cycles;                     /* β: real cycles of order ≥ 2 */
    unsigned start[BSP_SDP_MAX_DIMS];    /* cycle c: alpha[start[c] .. start[c] + order[c]) */
    unsigned order[BSP_SDP_MAX_DIMS];    /* σ_c */
    unsigned alpha[BSP_SDP_MAX_DIMS];    /* processor dimensions, μ(alpha[j]) = alpha[j+1]
                                            within a cycle, wrapping */
    unsigned mu[BSP_SDP_MAX_DIMS];       /* μ(j) for j < n (identity off the cycles) */
} sdp_plan;

/* Where process x's block belongs after the permutation: y with
 * y_{μ(j)} = x_j. */
static inline unsigned sdp_target(const sdp_plan *pl, unsigned x)
{
    unsigned y = 0;
    for (unsigned j = 0; j < pl->n; j++)
        y |= ((x >> j) & 1u) << pl->mu[j];
    return y;
}

/* buf's K bytes cut into `pieces` pieces whose sizes differ by at most one
 * byte, piece i at the start of work's slot i (`stride` bytes each, the rest
 * zero) — or, with back, from the slots into buf (sdp.c; A2 and A5 give
 * every piece its two halves). */
void bspram__coll_sdp_pieces(unsigned char *buf, size_t K, unsigned pieces, unsigned char *work, size_t stride,
                int back);

/* One algorithm: on entry buf (pl->K bytes) holds this process's block, on
 * return the block of the process x with sdp_target(x) = this pid. Every
 * process calls bspram__coll_round the same number of times (none when
 * pl->cycles = 0), passing last = true in its final round. Puts go to
 * neighbours only. `sdp_predict_<name>` gives the C1 and C2 its schedule
 * makes (exact), from the plan alone. */
#define SDP_ALGORITHM(name)                                                     \
    void bspram__coll_sdp_##name(coll_call *c, const sdp_plan *pl, unsigned char *buf);     \
    coll_prediction bspram__coll_sdp_predict_##name(const sdp_plan *pl)

SDP_ALGORITHM(a1);   /* sdp_a1.c: one port */
SDP_ALGORITHM(a1a);  /* sdp_a1a.c: one port */
SDP_ALGORITHM(a2);   /* sdp_a2.c: one port, and n ports (§4.2.2's σ sequences) */
SDP_ALGORITHM(a3);   /* sdp_a3.c: one port (two all-to-alls by dimension exchange) */
SDP_ALGORITHM(a5);   /* sdp_a5.c: n ports (the cycles' A2 sequences combined) */

/* Algorithm A1's transfer in cycle t of a GSH (sdp_a1.c), which A1a sends
 * in halves: this process sends `len` bytes from offset `from` of its pair
 * of buffers (2K bytes: buf[1], buf[2] of §4.2.1) to offset `to` of the
 * neighbour's across processor dimension `dim` (send), or receives from it
 * (recv); after the last cycle the result is at offset `result`. */
typedef struct sdp_a1_step {
    int send, recv;
    unsigned dim;
    size_t from, to, len;
    size_t result;
} sdp_a1_step;
sdp_a1_step bspram__coll_sdp_a1_schedule(const sdp_plan *pl, unsigned cycle, unsigned t, unsigned pid);

#endif
