/* bsp_sdp.h — stable dimension permutations on the Boolean cube, for BSPlib
 * programs, with the algorithms of Ho & Johnsson, "Optimal algorithms for
 * stable dimension permutations on Boolean cubes", Proc. Third Conference on
 * Hypercube Concurrent Computers and Applications, 1988 (Yale report
 * YALEU/DCS/TR-620).
 *
 *     #include <bsp.h>
 *     #include <bsp_sdp.h>
 *     cc prog.c $(pkg-config --cflags --libs bspram)
 *
 * The machine. P = 2^n BSP processes are the nodes of an n-cube: processes
 * whose pids differ in one bit are neighbours. Every algorithm here sends
 * only between neighbours, so its records are those of a cube machine.
 *
 * The data (Ho–Johnsson §2). 2^m elements of `elem` bytes, with logic
 * addresses w = (w_{m−1} … w_0), are spread over the cube by a dimension
 * allocation π: logic dimension i ↦ machine dimension π(i) ∈ [0, m), where
 * machine dimensions 0..n−1 are the processor address (pid) and n..m−1 the
 * local address. Element w lives on process Σ_{π(i)<n} w_i·2^{π(i)}, at
 * local index Σ_{π(i)≥n} w_i·2^{π(i)−n}: every process holds 2^{m−n}
 * elements, K = 2^{m−n}·elem bytes (the paper's data volume per process).
 * Cyclic allocation maps the n lowest logic dimensions to the processor
 * (π(i) = i); consecutive maps the n highest (π(m−n+j) = j, π(i) = n + i
 * below). Logic dimensions on processor dimensions are *real*, the others
 * *virtual*.
 *
 * The permutation (§2, Definition 4). A permutation δ of the logic dimensions
 * moves element w to the address that element dp(w) had, where
 * dp(w)_{δ(i)} = w_i: bit i of w ends where bit δ(i) was. The allocation is
 * kept (the permutation is *stable*). Shuffle: δ(i) = i + 1 mod the order
 * (a left rotation of the address); unshuffle: i − 1; k-shuffle: i + k;
 * bit reversal: i ↦ order − 1 − i; transpose of a matrix partitioned in
 * 2^{order/2} × 2^{order/2} blocks: the two halves swapped. Each acts on a
 * range of `order` logic dimensions starting at `first` (identity
 * elsewhere). δ splits into cycles, the generalized shuffles (GSH, §2
 * Definition 8): a cycle is real if all its dimensions are real, virtual if
 * none is, mixed otherwise. δ is *separable* (Definition 10) if no cycle is
 * mixed. Virtual cycles move data within each process only (no message);
 * real cycles move each process's whole K bytes to another process. The
 * real order σ_p is the number of real dimensions δ moves, β the number of
 * real cycles, oJ the number of real cycles of odd order.
 *
 * Cost (C1 = supersteps that move a message; C2 = Σ over them of the largest
 * message's data: read them with bsp_coll_last_cost() after the call, as
 * for any collective of bsp_coll.h). One-port algorithms run the real
 * cycles one after another (§4.4.1, Lemma 5); σ_i is cycle i's order:
 *   A1   exchanges at real distance 2 with look-ahead (§4.2.1):
 *        C1 = Σ σ_i (a shuffle of real order n takes n supersteps),
 *        C2 = 2(σ_p − β)K;
 *   A1a  A1 with every transfer split in two halves sent in consecutive
 *        supersteps (a process forwards one half while the other arrives):
 *        C1 = Σ (σ_i + 1), C2 = Σ σ_i·K for even K — Table 2's σ_p K t_c —
 *        but 3K/2 for a cycle of order 2 (its two transfers pipeline into
 *        three supersteps of K/2: half a block below Table 2's 2K); with
 *        halves of ⌈K/2⌉ and ⌊K/2⌋ bytes, sdp_a1a.c gives the exact count;
 *   A2   exchanges with a virtual dimension (§4.2.1, Swarztrauber's): a
 *        cycle of order σ_i takes σ_i + 1 exchanges of half the block,
 *        C1 = σ_p + β (n + 1 for a shuffle), C2 = (σ_p + β)·⌈K/2⌉ — Table
 *        2's (σ_p + β)·K/2 t_c and σ_p + β start-ups exactly for K even; for
 *        K odd the halves are ⌈K/2⌉ bytes (one byte of padding travels);
 *   A3   two all-to-all personalized communications (§4.4.2), each the
 *        cube's standard exchange (BSP_COLL_EXCHANGE of bsp_coll.h): the
 *        block cut into P pieces of ⌈K/P⌉ bytes (the last ones short,
 *        padded): C1 = 2n, C2 = 2n·(P/2)·⌈K/P⌉ = n·P·⌈K/P⌉ (n = log2 P) —
 *        Table 2's nK t_c and 2n start-ups exactly when P divides K; the
 *        same for every δ with a real cycle.
 * n-port (`ports` = n; a process sends to up to σ_i neighbours at once):
 *   A2   the σ_i exchange sequences of §4.2.2 (sequence j starts at the
 *        cycle's j-th dimension, so in every step they cross σ_i different
 *        dimensions), each carrying a piece of ⌈K/σ_i⌉ bytes; cycles one
 *        after another (Lemma 6's first form): C1 = σ_p + β,
 *        C2 = Σ (σ_i + 1)·⌈K/(2σ_i)⌉. For β = 1 that is Table 2's n-port A2,
 *        (σ + 1)K/(2σ) t_c. For β > 1 Table 2's row, β·max_i (σ_i + 1)
 *        K/(2σ_iβ) t_c with β·max_i (σ_i + 1) start-ups, is Lemma 6's second
 *        form (every cycle at once, on K/β each): about β times less C2,
 *        as many start-ups or more (the transpose on a 6-cube, β = 3,
 *        K = 512: C1 = 9 both, C2 = 1152 here against Table 2's 384).
 *   A5   the cycles' A2 sequences combined (§4.4.3): S = σ_p + β + σ_min − 1
 *        sequences, each a shift of the first, carry K/S each, at most two on
 *        a dimension per superstep, packed into one message per neighbour:
 *        C1 = σ_p + β, C2 ≈ (σ_p + β)·K/S (Table 2; exact in sdp_a5.c) —
 *        the transpose above: C2 = 468.
 * The n-port A1a (§4.2.2's 2σ paths) and A6 are not provided.
 * Lower bounds (§3.2, Theorem 1): C1 ≥ σ_p − oJ; C2 ≥ σ_p·K/2 one-port,
 * C2 ≥ K/2 n-port. Its BSP cost is Σ over the supersteps of (g·h + l).
 *
 * Errors (fatal: one line naming the call, its arguments, the superstep and
 * the pid; exit status 1): P not a power of two; m < n or m > 62; an
 * allocation that is not a permutation of [0, m); δ not a permutation of
 * [0, m); a mixed cycle (δ not separable: the cycle is named); an unknown
 * algorithm; ports other than 1 or n, n ports with A1, A1a or A3, one port
 * with A5 (AUTO chooses among the algorithms with the ports given); src or dst
 * NULL with K > 0; processes passing different layouts, permutations,
 * algorithms or ports (checked in the first superstep's barrier, as for the
 * collectives).
 *
 * NULL: layout and perm must not be NULL, in every call (bsp_sdp's line
 * names the superstep and the pid); opt NULL is AUTO on one port
 * (docs/limits.md).
 */
#ifndef BSPRAM_COLL_BSP_SDP_H
#define BSPRAM_COLL_BSP_SDP_H

#include <stdint.h>

#include "base/api.h"
#include "bsp/bsp.h"

BSPRAM_BEGIN_DECLS

/* The most logic dimensions. */
#define BSP_SDP_MAX_DIMS 62

/* Where the elements are: m logic dimensions, π, and the element size. */
typedef struct bsp_sdp_layout {
    unsigned m;                          /* logic dimensions, n ≤ m ≤ 62 */
    unsigned char pi[BSP_SDP_MAX_DIMS];  /* π(i) for i < m: a permutation of [0, m) */
    size_t elem;                     /* bytes per element (0 is legal) */
} bsp_sdp_layout;

/* The cyclic allocation of 2^m elements of `elem` bytes on 2^n
 * processes: the n lowest logic dimensions on the processor (π(i) = i).
 *
 * @param n       the processor dimensions (P = 2^n), n ≤ m
 * @param m       the logic dimensions, at most 62
 * @param elem    the bytes per element (0 is legal)
 * @return        the layout
 * @pre           None.
 * @par Errors
 *     n > m or m > 62: "bspram: bsp_sdp_cyclic(n=3, m=2, elem=8): need n ≤ m ≤
 *     62", exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_layout bsp_sdp_cyclic(unsigned n, unsigned m, size_t elem);

/* The consecutive allocation of 2^m elements of `elem` bytes on 2^n
 * processes: the n highest logic dimensions on the processor
 * (π(m−n+j) = j, π(i) = n + i below).
 *
 * @param n       the processor dimensions (P = 2^n), n ≤ m
 * @param m       the logic dimensions, at most 62
 * @param elem    the bytes per element (0 is legal)
 * @return        the layout
 * @pre           None.
 * @par Errors
 *     n > m or m > 62: "bspram: bsp_sdp_consecutive(n=3, m=2, elem=8): need n ≤ m ≤
 *     62", exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_layout bsp_sdp_consecutive(unsigned n, unsigned m, size_t elem);

/* A permutation δ of m logic dimensions. */
typedef struct bsp_sdp_perm {
    unsigned m;
    unsigned char delta[BSP_SDP_MAX_DIMS]; /* δ(i) for i < m */
} bsp_sdp_perm;

/* The identity permutation of m logic dimensions: δ(i) = i. (The paper's
 * permutations below act on logic dimensions [first, first + order) of m
 * and are the identity elsewhere.)
 *
 * @param m       the logic dimensions, at most 62
 * @return        the permutation
 * @pre           None.
 * @par Errors
 *     m above 62: "bspram: bsp_sdp_identity(m=63): m is above 62", exit
 *     status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_perm bsp_sdp_identity(unsigned m);

/* The k-shuffle: δ(first + j) = first + (j + k mod order), a left rotation
 * of the address by k (k = 1: shuffle; k = −1: unshuffle).
 *
 * @param m       the logic dimensions, at most 62
 * @param first   the first logic dimension the permutation acts on
 * @param order   the number of dimensions it acts on: [first, first +
 *                order) ⊆ [0, m)
 * @param k       the rotation; may be negative, taken mod order
 * @return        the permutation
 * @pre           None.
 * @par Errors
 *     A range outside [0, m) or m above 62: "bspram: bsp_sdp_shuffle(m=4,
 *     first=2, order=3): the dimensions [first, first + order) must lie in
 *     [0, m), m ≤ 62". Exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_perm bsp_sdp_shuffle(unsigned m, unsigned first, unsigned order, int k);

/* Bit reversal: δ(first + j) = first + order − 1 − j.
 *
 * @param m       the logic dimensions, at most 62
 * @param first   the first logic dimension the permutation acts on
 * @param order   the number of dimensions it acts on: [first, first +
 *                order) ⊆ [0, m)
 * @return        the permutation
 * @pre           None.
 * @par Errors
 *     A range outside [0, m) or m above 62: "bspram: bsp_sdp_bit_reversal(m=4,
 *     first=2, order=3): the dimensions [first, first + order) must lie in
 *     [0, m), m ≤ 62". Exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_perm bsp_sdp_bit_reversal(unsigned m, unsigned first, unsigned order);

/* The transpose of a matrix partitioned in 2^(order/2) × 2^(order/2)
 * blocks: the two halves of the range swapped (the order/2-shuffle).
 *
 * @param m       the logic dimensions, at most 62
 * @param first   the first logic dimension the permutation acts on
 * @param order   the number of dimensions it acts on: [first, first +
 *                order) ⊆ [0, m); even
 * @return        the permutation
 * @pre           None.
 * @par Errors
 *     A range outside [0, m) or m above 62: "bspram: bsp_sdp_transpose(m=4,
 *     first=2, order=3): the dimensions [first, first + order) must lie in
 *     [0, m), m ≤ 62"; an odd order: "bspram: bsp_sdp_transpose(m=4,
 *     first=0, order=3): a 2^(order/2) × 2^(order/2) block matrix needs an
 *     even order". Exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_perm bsp_sdp_transpose(unsigned m, unsigned first, unsigned order);

/* δ split into its cycles (pure, local). Cycles of order ≥ 2 only, in order
 * of their smallest dimension; cycle c is dims[start[c] .. start[c] +
 * order[c]), with δ(dims[j]) = dims[j + 1] inside it, wrapping. */
typedef enum bsp_sdp_cycle_kind { BSP_SDP_REAL, BSP_SDP_VIRTUAL, BSP_SDP_MIXED } bsp_sdp_cycle_kind;
typedef struct bsp_sdp_cycles {
    unsigned count;                           /* cycles */
    unsigned char start[BSP_SDP_MAX_DIMS];
    unsigned char order[BSP_SDP_MAX_DIMS];
    unsigned char kind[BSP_SDP_MAX_DIMS];     /* bsp_sdp_cycle_kind */
    unsigned char dims[BSP_SDP_MAX_DIMS];     /* logic dimensions */
    int separable;                            /* no mixed cycle */
    unsigned real_order;                      /* σ_p */
    unsigned real_cycles;                     /* β */
    unsigned odd_real_cycles;                 /* oJ */
} bsp_sdp_cycles;
/* δ split into its cycles under the layout (pure, local): their dimensions,
 * kinds (real, virtual, mixed), σ_p, β and oJ, and whether δ is separable.
 *
 * @param n       the processor dimensions (P = 2^n)
 * @param layout  the allocation π; must not be NULL
 * @param perm    the permutation δ, of the layout's m; must not be NULL
 * @return        the cycles of order ≥ 2 (see bsp_sdp_cycles)
 * @pre           None.
 * @par Errors
 *     "bspram: bsp_sdp_analyze(layout=NULL): layout must not be NULL" (and
 *     perm); an invalid layout or δ: "bspram: bsp_sdp_analyze(n=3, m=2): m =
 *     2 must lie in [n, 62] (n = 3)", "…: the permutation has m = 4, the
 *     layout 5", "…: the allocation is not a permutation of [0, 5) (π(2) =
 *     7)", "…: δ is not a permutation of [0, 5) (δ(1) = 1)". Exit status 1.
 * @par BSP cost
 *     None: local, O(m).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_cycles bsp_sdp_analyze(unsigned n, const bsp_sdp_layout *layout, const bsp_sdp_perm *perm);

typedef enum bsp_sdp_algorithm {
    BSP_SDP_AUTO = 0, /* the least predicted C1·l + C2·g (bspram probe's g, l) */
    BSP_SDP_A1,
    BSP_SDP_A1A,
    BSP_SDP_A2,
    BSP_SDP_A3,
    BSP_SDP_A5  /* n ports only */
} bsp_sdp_algorithm;

typedef struct bsp_sdp_options {
    bsp_sdp_algorithm algorithm;
    unsigned ports; /* 1 (0 means 1) or n */
} bsp_sdp_options;

/* Permute: src holds this process's 2^{m−n} elements in local-index order;
 * dst (K bytes; may equal src) gets the elements that belong here after δ,
 * in local-index order. Collective: every process calls it in the same
 * superstep with the same layout, δ and options, n = log2 bsp_nprocs().
 * Like a collective of bsp_coll.h, its first superstep ends the superstep
 * in progress; a δ with no real cycle takes no superstep.
 *
 * @param layout  the allocation π of the 2^m elements; must not be NULL
 * @param perm    the permutation δ of the m logic dimensions; must not be
 *                NULL
 * @param src     this process's K = 2^{m−n}·elem bytes; NULL only with
 *                K = 0
 * @param dst     where the K bytes after δ go (may equal src); NULL only
 *                with K = 0
 * @param opt     the algorithm and ports (NULL: AUTO, one port)
 * @pre           Inside a section of P = 2^n processes; every process calls
 *                it in the same superstep with the same layout, δ and
 *                options.
 * @par Errors
 *     Outside a section: "bspram: bsp_sdp: called outside a bsp_begin/bsp_end
 *     section". Each of the following names the call, "bspram: bsp_sdp(m=5,
 *     elem=8, src=0x…, dst=0x…, algorithm=auto, ports=0): the cube needs P =
 *     2^n processes, not 6 (superstep 2, pid 1)": "layout is NULL", "perm is
 *     NULL"; the layout or δ invalid (the lines of bsp_sdp_analyze);
 *     "unknown algorithm 9", "ports must be 1 or n = 3, not 2", "algorithm
 *     A1 has one port only", "algorithm A5 needs n = 3 ports"; "δ is not
 *     separable: its cycle (0 3) mixes real and virtual dimensions (Ho &
 *     Johnsson's algorithms move real cycles only)"; "2^(m−n)·elem bytes per
 *     process overflow"; "src is NULL", "dst is NULL". Processes passing
 *     different layouts, permutations, algorithms or ports, found in the
 *     first superstep: "bspram: bsp_sdp: processes disagree in superstep 2:
 *     pid 0 called bsp_sdp(…) but pid 1 called bsp_sdp(…) (the allocation
 *     or permutation differs); every process must pass the same arguments".
 *     Exit status 1.
 * @par BSP cost
 *     C1 supersteps that move messages (one record each, "bsp_sdp"), C2 the
 *     sum of their largest messages' data, as given at the top of this file
 *     per algorithm (bsp_sdp_predict computes them); the BSP cost is Σ over
 *     the supersteps of (g·h + l). The virtual cycles: O(K·(m − n)) local
 *     work, and K bytes of scratch when dst = src.
 * @par Thread safety
 *     A BSPlib process inside a section: every process of the section.
 */
void bsp_sdp(const bsp_sdp_layout *layout, const bsp_sdp_perm *perm, const void *src, void *dst,
             const bsp_sdp_options *opt);

/* The C1 and C2 an algorithm's schedule makes (the formulas above, exact),
 * the lower bounds of Theorem 1, and the algorithm AUTO picks (pure, local;
 * the algorithm is resolved in .algorithm). Errors: as bsp_sdp. */
typedef struct bsp_sdp_prediction {
    bsp_sdp_algorithm algorithm;
    unsigned ports;
    uint64_t c1, c2;
    uint64_t c1_lower, c2_lower;
} bsp_sdp_prediction;

/* The C1 and C2 an algorithm's schedule makes for this layout and δ (the
 * formulas at the top of this file, exact), the lower bounds of Theorem 1,
 * and for AUTO the algorithm it picks (the least C1·l + C2·g with the
 * probe's g and l; ties to the fewer supersteps).
 *
 * @param n       the processor dimensions (P = 2^n)
 * @param layout  the allocation π; must not be NULL
 * @param perm    the permutation δ; must not be NULL
 * @param opt     the algorithm and ports (NULL: AUTO, one port)
 * @return        the algorithm (resolved if AUTO), ports, C1, C2 and their
 *                lower bounds
 * @pre           None.
 * @par Errors
 *     "bspram: bsp_sdp_predict(layout=NULL): layout must not be NULL" (and
 *     perm); the other errors of bsp_sdp (not the buffers), in one line
 *     "bspram: bsp_sdp_predict(n=3, m=5, elem=8, algorithm=A5, ports=1):
 *     algorithm A5 needs n = 3 ports". Exit status 1.
 * @par BSP cost
 *     None: local, no communication (the cycles in O(m), then each
 *     algorithm's count); reads the parameter file once per program (AUTO).
 * @par Thread safety
 *     Any thread.
 */
bsp_sdp_prediction bsp_sdp_predict(unsigned n, const bsp_sdp_layout *layout,
                                   const bsp_sdp_perm *perm, const bsp_sdp_options *opt);

/* The name of an algorithm: "auto", "A1", "A1a", "A2", "A3" or "A5".
 *
 * @param a       the algorithm
 * @return        its name (a static string); "unknown" for a value outside
 *                bsp_sdp_algorithm
 * @pre           None.
 * @par Errors
 *     None.
 * @par BSP cost
 *     None: local, O(1).
 * @par Thread safety
 *     Any thread.
 */
const char *bsp_sdp_algorithm_name(bsp_sdp_algorithm a);

/* The algorithm named `name`, in any case ("a1a" is A1a).
 *
 * @param name    the name; must not be NULL
 * @return        the bsp_sdp_algorithm, or −1 for an unknown name
 * @pre           None.
 * @par Errors
 *     name NULL: "bspram: bsp_sdp_algorithm_parse(name=NULL): name must not
 *     be NULL", exit status 1.
 * @par BSP cost
 *     None: local, O(length of name).
 * @par Thread safety
 *     Any thread.
 */
int bsp_sdp_algorithm_parse(const char *name);

BSPRAM_END_DECLS
#endif
