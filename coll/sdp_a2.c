/* Algorithm A2: a generalized shuffle through exchanges at real distance 1
 * with a virtual dimension (Ho & Johnsson 1988, §4.2.1, after
 * Swarztrauber). Every process is seen as two virtual processes, the two
 * halves of its data; the virtual dimension v is exchanged in turn with
 * α_0, α_1, …, α_{σ−1} and α_0 again:
 *     (v | … x_0) → (x_0 | … x_1 v) → … → (x_{σ−1} | … x_0 v) → (v | … x_0 x_{σ−1}),
 * σ + 1 steps in each of which every process sends its half whose
 * virtual bit differs from its processor bit d to the neighbour across d,
 * where it lands in the half that neighbour sends. Real cycles run one after another
 * (Lemma 5). With K odd the halves are ⌈K/2⌉ bytes (one byte of padding
 * travels). One port, per cycle of order σ:
 *     C1 = σ + 1,  C2 = (σ + 1)·⌈K/2⌉        (Table 2: (σ_p + β)K/2 t_c).
 * n ports (§4.2.2): the data cut in σ pieces; piece i runs the same
 * sequence rotated to start at α_i, so in every step the σ pieces cross σ
 * different dimensions — σ messages per process, to distinct neighbours:
 *     C1 = σ + 1,  C2 = (σ + 1)·⌈⌈K/σ⌉/2⌉ = (σ + 1)·⌈K/(2σ)⌉
 *                                  (Table 2's n-port A2 with β = 1: (σ + 1)K/(2σ) t_c).
 * Several cycles run one after another here too (Lemma 6's first form);
 * Table 2's n-port row for β > 1 runs them all at once on K/β each (the
 * second form), with about β times less C2 (bsp_sdp.h). */
#include "coll/sdp_internal.h"

static unsigned pieces_of(const sdp_plan *pl, unsigned cyc)
{
    return pl->ports > 1 ? pl->order[cyc] : 1;
}

coll_prediction bspram__coll_sdp_predict_a2(const sdp_plan *pl)
{
    coll_prediction p = {0, 0};
    for (unsigned c = 0; c < pl->cycles; c++) {
        unsigned s = pl->order[c], k = pieces_of(pl, c);
        size_t biggest = (pl->K + k - 1) / k;
        p.c1 += s + 1;
        p.c2 += (uint64_t)(s + 1) * ((biggest + 1) / 2);
    }
    return p;
}

void bspram__coll_sdp_a2(coll_call *c, const sdp_plan *pl, unsigned char *buf)
{
    size_t K = pl->K;
    unsigned pid = c->rank, total = 0, done = 0;
    for (unsigned cyc = 0; cyc < pl->cycles; cyc++)
        total += pl->order[cyc] + 1u;
    for (unsigned cyc = 0; cyc < pl->cycles; cyc++) {
        const unsigned *a = pl->alpha + pl->start[cyc];
        unsigned s = pl->order[cyc], k = pieces_of(pl, cyc);
        /* Piece i padded to two halves of h_i bytes, side by side. */
        size_t h = ((K + k - 1) / k + 1) / 2;
        unsigned char *work = coll_scratch(c, 1, h ? 2 * h * k : 1);
        bspram__coll_sdp_pieces(buf, K, k, work, 2 * h, 0);
        bspram__coll_window(c, work, 2 * h * k);
        for (unsigned t = 0; t <= s; t++) {
            for (unsigned i = 0; i < k; i++) {
                unsigned d = a[(i + t) % s]; /* step t of the sequence starting at α_i */
                size_t mine = (pid >> d) & 1u, base = 2 * h * i;
                /* The half whose virtual bit differs from bit d leaves; it
                 * arrives with the bits exchanged, as the neighbour's half
                 * `mine` — the one the neighbour sends. */
                bspram__coll_put(c, pid ^ (1u << d), base + mine * h, work + base + (1 - mine) * h, h);
            }
            bspram__coll_round(c, ++done == total);
        }
        bspram__coll_sdp_pieces(buf, K, k, work, 2 * h, 1);
    }
}
