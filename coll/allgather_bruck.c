/* Allgather, Bruck's concatenation: J. Bruck, C.-T. Ho, S. Kipnis, E. Upfal
 * and D. Weathersby, "Efficient algorithms for all-to-all communications in
 * multiport message-passing systems", IEEE TPDS 8(11), 1997, §4 (the
 * circulant-graph algorithm for k ports), with Appendix B's direction and
 * buffer (one-port pseudocode).
 *
 * k is the ports, but at most n − 1 (a round has at most n − 1 distinct
 * partners); d = ⌈log_{k+1} n⌉, n1 = (k+1)^(d−1), n2 = n − n1. Every member
 * keeps its blocks in a rotated buffer (scratch 0): position t holds block
 * rank + t (mod n), so what it holds is always the byte prefix [0, H).
 *   - §4.1, rounds i = 0 .. d−2: for each offset s in S_i = {(k+1)^i,
 *     2(k+1)^i, …, k(k+1)^i} a member sends its (k+1)^i blocks to rank − s,
 *     landing at position s; it receives the same from rank + s. After them
 *     every member holds n1 blocks, and C2 so far is b(n1 − 1)/k.
 *   - §4.2, the last round: the n2 missing blocks are a table of n2 columns
 *     (blocks) by b rows (bytes), cut at byte granularity into k areas, each
 *     sent on its own offset. Here an area is a run of bytes of the missing
 *     region [n1·b, n·b), in block order — it is one put, contiguous at both
 *     ends — and a run [p, e) can come from rank + s for every s with
 *     e − H ≤ s·b ≤ p (the sender holds it in its prefix): its column span
 *     is at most n1 blocks. The runs are cut greedily, each as long as the
 *     span and the area limit m allow; the offsets must differ, and are
 *     given from the right, each the largest allowed (the run's leftmost
 *     column, the paper's choice, whenever runs start in different
 *     columns; e.g. k = 1 is Appendix B: s = n1). Among cuts into k runs
 *     of at most m bytes the greedy reaches farthest (a run's reach is
 *     monotone in where it starts; for m ≥ b the runs start in different
 *     columns and the offsets never bind), and with m = α = ⌈b·n2/k⌉ it
 *     covers the table — Proposition 4.2's "straightforward partitioning"
 *     — for every n, b, k outside the range b ≥ 3, k ≥ 3,
 *     (k+1)^d − k < n < (k+1)^d (Theorem 4.3 claims it for all; checked
 *     exhaustively for k ≤ 13, b ≤ 13, n < 700 when this was written).
 *     Inside that range α is often still reached (b = 4, k = 4,
 *     n = 23: yes; b = 3, k = 3, n = 15: no); where it is not, a->tradeoff
 *     (§4.2's closing remark) picks:
 *       BSP_COLL_OPTIMAL_C1: still one last round, with the least m ≥ α the
 *         greedy covers with (binary search; m ≤ b·n1 = α + ⌊b(k·n1 − n2)/k⌋
 *         always works: whole columns, n1 per run);
 *       BSP_COLL_OPTIMAL_C2: two last rounds: runs of n1 − 1 whole columns
 *         (k of them, m = b(n1 − 1)), then the k − j remaining columns (j =
 *         k·n1 − n2, 1 ≤ j ≤ k − 1) in k runs of ⌈b(k − j)/k⌉ bytes; together
 *         b·n1 − ⌊bj/k⌋ = α bytes.
 * A local rotation then puts block j at recv + j·b (Appendix B, lines 17–18).
 *
 * Cost (exactly what bspram__coll_predict_allgather_bruck returns), with
 * k = min(ports, n − 1):
 *   outside the range, or inside it where the greedy reaches α:
 *     C1 = ⌈log_{k+1} n⌉ and C2 = ⌈b(n − 1)/k⌉, both optimal (§2);
 *   inside it otherwise, OPTIMAL_C1: C1 = d, C2 = b(n1 − 1)/k + m with
 *     α < m ≤ α + b − 1 (the least the greedy needs);
 *   inside it otherwise, OPTIMAL_C2: C1 = d + 1, C2 = ⌈b(n − 1)/k⌉.
 * With ports ≥ n − 1 the bound ⌈b(n − 1)/ports⌉ is below b but no schedule
 * beats C2 = b (a member receives from at most n − 1 others per round):
 * this is one round, C2 = b. b = 0: the same rounds with empty messages
 * (the last round one message, on offset n1), C2 = 0.
 *
 * Buffers: scratch 0 (n·b bytes, the rotated blocks) and scratch 1 (the
 * last round's runs); send and recv must not lie in them. In place (send =
 * recv + rank·b) works: the own block is copied out before any round and
 * recv is written only at the end. */
#include "coll/coll_internal.h"

/* One run of the last phase: bytes [at, at + len) of the rotated buffer,
 * from rank + s, for an s in [lo, hi]. */
typedef struct run {
    uint64_t at, len, lo, hi, s;
} run;

/* The geometry of a call. */
typedef struct geometry {
    uint64_t n, b, k, d, n1;
} geometry;

static geometry geometry_of(uint64_t n, uint64_t b, unsigned ports)
{
    geometry g = {.n = n, .b = b, .k = ports < n - 1 ? ports : n - 1};
    if (g.k < 1)
        g.k = 1;
    g.d = bspram__coll_ceil_log(n, g.k + 1);
    g.n1 = 1;
    for (uint64_t i = 0; i + 1 < g.d; i++)
        g.n1 *= g.k + 1;
    return g;
}

/* One round of the last phase: every member holds [0, held); runs of at
 * most m bytes from `held` on, at most k of them, each as long as m and its
 * column span allow, while the offsets can still be told apart (the least
 * free one each: the intervals [lo, hi] grow with the run, so this finds
 * distinct offsets whenever any exist). Returns the end reached, 0 if the
 * offsets ran out; *big gets the longest run; runs (if not NULL) the runs. */
static uint64_t cut(const geometry *g, uint64_t held, uint64_t m, run *runs, uint64_t *count,
                    uint64_t *big)
{
    uint64_t b = g->b, total = g->n * b, p = held, prev = 0, r = 0;
    *big = 0;
    while (p < total && r < g->k) {
        uint64_t col = p / b, e = p + m;
        if (e > col * b + held)
            e = col * b + held;
        if (e > total)
            e = total;
        if (e <= p)
            return 0;
        uint64_t lo = (e - 1 - held) / b + 1, hi = col;
        uint64_t s = lo > prev + 1 ? lo : prev + 1;
        if (s > hi)
            return 0;
        if (runs)
            runs[r] = (run){.at = p, .len = e - p, .lo = lo, .hi = hi};
        r++;
        prev = s;
        *big = e - p > *big ? e - p : *big;
        p = e;
    }
    if (count)
        *count = r;
    return p;
}

/* Does one last round with runs of at most m bytes finish? */
static int covers(const geometry *g, uint64_t m, uint64_t *big)
{
    return cut(g, g->n1 * g->b, m, NULL, NULL, big) == g->n * g->b;
}

/* The last phase's plan: one round with limit m[0], or two (m[0], m[1]). */
typedef struct plan {
    unsigned rounds;
    uint64_t m[2];
    uint64_t c2; /* Σ of the rounds' longest runs */
} plan;

static plan plan_of(const geometry *g, bsp_coll_tradeoff tradeoff)
{
    uint64_t b = g->b, n2 = g->n - g->n1, alpha = coll_ceil_div(b * n2, g->k), big = 0;
    if (b == 0)
        return (plan){.rounds = 1};
    if (covers(g, alpha, &big))
        return (plan){.rounds = 1, .m = {alpha}, .c2 = big};
    /* §4.2's range: the tradeoff. */
    if (tradeoff == BSP_COLL_OPTIMAL_C2 && g->n1 >= 2) {
        uint64_t first = 0, second = 0, held = g->n1 * b;
        uint64_t reach = cut(g, held, b * (g->n1 - 1), NULL, NULL, &first);
        if (reach > held) {
            uint64_t m = coll_ceil_div(g->n * b - reach, g->k);
            if (cut(g, reach, m, NULL, NULL, &second) == g->n * b)
                return (plan){.rounds = 2, .m = {b * (g->n1 - 1), m}, .c2 = first + second};
        }
    }
    uint64_t lo = alpha + 1, hi = b * g->n1; /* hi always covers: n1 whole columns per run */
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (covers(g, mid, &big))
            hi = mid;
        else
            lo = mid + 1;
    }
    (void)covers(g, lo, &big);
    return (plan){.rounds = 1, .m = {lo}, .c2 = big};
}

COLL_PREDICT(allgather_bruck)
{
    (void)radix;
    if (n <= 1)
        return (coll_prediction){0, 0};
    geometry g = geometry_of(n, b, ports);
    /* First d − 1 rounds: b·Σ (k+1)^i = b(n1 − 1)/k. */
    uint64_t first = (g.n1 - 1) / g.k;
    if (b > (UINT64_MAX / 4) / n) /* no such buffer: the optimum, saturated */
        return (coll_prediction){g.d, b > UINT64_MAX / (n - 1) ? UINT64_MAX
                                                               : coll_ceil_div(b * (n - 1), g.k)};
    plan p = plan_of(&g, tradeoff);
    return (coll_prediction){g.d - 1 + p.rounds, b * first + p.c2};
}

void bspram__coll_allgather_bruck(coll_call *c, const coll_args *a)
{
    unsigned n = c->n, me = c->rank;
    size_t b = a->block;
    unsigned char *recv = a->recv;
    const unsigned char *own = a->send;
    if (n == 1) {
        if (b && own != recv)
            memmove(recv, own, b);
        return;
    }
    static unsigned char none[1];
    geometry g = geometry_of(n, b, a->ports);
    plan p = plan_of(&g, a->tradeoff);
    unsigned char *tmp = b ? coll_scratch(c, 0, (size_t)n * b) : none;
    if (b)
        memcpy(tmp, own, b);
    bspram__coll_window(c, tmp, (size_t)n * b);

    /* §4.1: rounds 0 .. d−2, offsets S_i, everything held so far. */
    uint64_t held = 1; /* blocks */
    for (uint64_t i = 0; i + 1 < g.d; i++) {
        for (uint64_t j = 1; j <= g.k; j++) {
            uint64_t s = j * held; /* < (k+1)^(i+1) ≤ n1 < n */
            bspram__coll_put(c, (unsigned)((me + n - s) % n), (size_t)(s * b), tmp, (size_t)(held * b));
        }
        bspram__coll_round(c, false);
        held *= g.k + 1;
    }

    /* §4.2: the last round (or two). */
    if (b == 0) {
        bspram__coll_put(c, (unsigned)((me + n - g.n1) % n), 0, tmp, 0);
        bspram__coll_round(c, true);
    } else {
        run *runs = coll_scratch(c, 1, (size_t)g.k * sizeof *runs);
        uint64_t at = g.n1 * b;
        for (unsigned t = 0; t < p.rounds; t++) {
            uint64_t count = 0, big;
            uint64_t reach = cut(&g, at, p.m[t], runs, &count, &big);
            if (reach == 0)
                bspram__coll_fail(c, "allgather_bruck: no schedule (internal error)");
            /* Offsets from the right, each the largest still free. */
            for (uint64_t r = count; r-- > 0;) {
                uint64_t s = runs[r].hi;
                if (r + 1 < count && s >= runs[r + 1].s)
                    s = runs[r + 1].s - 1;
                if (s < runs[r].lo) /* cannot be: cut found distinct offsets from the left */
                    bspram__coll_fail(c, "allgather_bruck: no offsets (internal error)");
                runs[r].s = s;
            }
            for (uint64_t r = 0; r < count; r++)
                bspram__coll_put(c, (unsigned)((me + n - runs[r].s) % n), (size_t)runs[r].at,
                         tmp + (runs[r].at - runs[r].s * b), (size_t)runs[r].len);
            bspram__coll_round(c, t + 1 == p.rounds);
            at = reach;
        }
    }

    /* Block t of tmp is block rank + t: rotate into place. */
    if (b) {
        size_t lead = (size_t)(n - me) * b;
        memcpy(recv + (size_t)me * b, tmp, lead);
        memcpy(recv, tmp + lead, (size_t)me * b);
    }
}
