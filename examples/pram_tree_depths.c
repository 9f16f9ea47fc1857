/* The depths of a tree's vertices by its Euler tour and pointer jumping, on
 * a CREW PRAM, written in the textbook style (bspram_pram_for_all).
 *
 * Algorithm: the Euler-tour technique (R. E. Tarjan, U. Vishkin, "An
 * efficient parallel biconnectivity algorithm", SIAM J. Comput. 14, 1985;
 * JáJá 1992, "An Introduction to Parallel Algorithms", §3.2): each edge
 * (parent(v), v) is two arcs, down(v) and up(v); the tour's successor of an
 * arc is found in O(1) from the children's lists; with weight +1 on a down
 * arc and −1 on an up arc, the depth of v is the sum of the weights up to
 * down(v), here from the suffix sums of the tour by pointer jumping (Wyllie
 * 1979, as pram_list_ranking). Model: CREW — in a jump, S[a] is read by VP
 * a and by the arc whose successor is a. Time: 2 + ceil(log2(2(n − 1))) steps; work
 * O(n log n); 2(n − 1) VPs, one per arc.
 *
 *   step 1     for all arcs a in parallel:  NEXT[a] ← the tour's successor of a
 *              (down(v): down(first child of v), else up(v); up(v): down(next
 *              sibling of v), else up(parent(v)), else END: the tour's last arc);
 *              S[a] ← +1 or −1
 *   log steps  for all arcs a with NEXT[a] ≠ END in parallel:
 *                  S[a] ← S[a] + S[NEXT[a]];  NEXT[a] ← NEXT[NEXT[a]]
 *   last step  for all v ≥ 1 in parallel:  D[v] ← 1 − S[down(v)]   (the tour's weights sum to 0)
 *
 * NEXT[a] is kept in the VP's register as well, so that a jump's reads
 * depend on no value read in its own step (pram.h). The tree: vertex 0 the
 * root, parent(v) uniform in [0, v); the children's lists (first child,
 * next sibling) are the input, as the textbook assumes. D is checked
 * against depth(v) = depth(parent(v)) + 1 computed in vertex order.
 *
 *   pram_tree_depths [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

typedef struct tour {
    bspram_pram_array FC, NS, PAR, NEXT, S, D;
    uint64_t n;
    int phase; /* 0 successors, 1 jump, 2 depths */
} tour;

static uint64_t down_arc(uint64_t v) { return 2 * (v - 1); }
static uint64_t up_arc(uint64_t v) { return 2 * (v - 1) + 1; }

static void step(bspram_vp *vp, void *arg)
{
    const tour *t = arg;
    const uint64_t a = bspram_vp_id(vp), v = a / 2 + 1, none = t->n, end = 2 * (t->n - 1);
    uint64_t *next = bspram_vp_registers(vp);
    const bool down = a % 2 == 0;
    if (t->phase == 0) {
        if (down) {
            uint64_t fc = bspram_vp_get(vp, t->FC, v);
            *next = fc != none ? down_arc(fc) : up_arc(v);
        } else {
            uint64_t ns = bspram_vp_get(vp, t->NS, v), par = bspram_vp_get(vp, t->PAR, v);
            *next = ns != none ? down_arc(ns) : par != 0 ? up_arc(par) : end;
        }
        bspram_vp_write(vp, t->NEXT, a, *next);
        bspram_vp_write(vp, t->S, a, down ? 1 : UINT64_MAX); /* −1 mod 2^64 */
    } else if (t->phase == 1) {
        if (*next == end)
            return; /* its suffix sum is whole */
        uint64_t s = bspram_vp_get(vp, t->S, a), s2 = bspram_vp_get(vp, t->S, *next);
        uint64_t n2 = bspram_vp_get(vp, t->NEXT, *next);
        bspram_vp_write(vp, t->S, a, s + s2);
        bspram_vp_write(vp, t->NEXT, a, n2);
        *next = n2;
    } else if (down) {
        bspram_vp_write(vp, t->D, v, 1 - bspram_vp_get(vp, t->S, a));
    }
}

static uint64_t vps_of(uint64_t n) { return 2 * (n - 1); }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, arcs = vps_of(n);
    uint64_t *par = pram_example_words(n, "parents"), *fc = pram_example_words(n, "first children");
    uint64_t *ns = pram_example_words(n, "next siblings"), *d = pram_example_words(n, "depths");
    uint64_t *ref = pram_example_words(n, "reference");
    for (uint64_t v = 0; v < n; v++)
        fc[v] = ns[v] = n; /* none */
    for (uint64_t v = n - 1; v >= 1; v--) { /* each child pushed on its parent's list */
        par[v] = pram_example_random(prm->seed, v, 0, v);
        ns[v] = fc[par[v]];
        fc[par[v]] = v;
    }

    double t0 = pram_example_clock();
    /* degree 2: a jump's S[a] is read by VP a and by the one arc before it
     * (one phase: charge 6345 at n = 2^16 against 14556 with ADAPTIVE) */
    bspram_pram *P = pram_example_create(prm, arcs, 1, false, 2, res);
    tour t = {bspram_pram_alloc(P, "FC", n),      bspram_pram_alloc(P, "NS", n),  bspram_pram_alloc(P, "PAR", n),
              bspram_pram_alloc(P, "NEXT", arcs), bspram_pram_alloc(P, "S", arcs), bspram_pram_alloc(P, "D", n),
              n, 0};
    bspram_pram_load(P, t.FC, fc, n);
    bspram_pram_load(P, t.NS, ns, n);
    bspram_pram_load(P, t.PAR, par, n);
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, step, &t);
    t.phase = 1;
    const unsigned jumps = pram_example_log2(pram_example_pow2(arcs));
    for (unsigned k = 0; k < jumps; k++)
        bspram_pram_for_all(P, step, &t);
    t.phase = 2;
    bspram_pram_for_all(P, step, &t);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, t.D, d, n);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    ref[0] = 0;
    for (uint64_t v = 1; v < n; v++) /* parents come first */
        ref[v] = ref[par[v]] + 1;
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 3 * n; /* a parent and its depth read, a depth written, per vertex */
    uint64_t bad = n, deepest = 0;
    for (uint64_t v = 0; v < n; v++) {
        if (d[v] != ref[v] && bad == n)
            bad = v;
        deepest = ref[v] > deepest ? ref[v] : deepest;
    }
    res->verified = bad == n && res->stats.steps == 2u + jumps;
    if (bad == n)
        snprintf(res->detail, sizeof res->detail, "depths of %" PRIu64 " vertices (deepest %" PRIu64 "); %" PRIu64
                 " steps, 2 + ceil(log2(2(n - 1))) = %u", n, deepest, res->stats.steps, 2 + jumps);
    else
        snprintf(res->detail, sizeof res->detail, "depth of %" PRIu64 " is %" PRIu64 ", expected %" PRIu64, bad,
                 d[bad], ref[bad]);
    free(par);
    free(fc);
    free(ns);
    free(d);
    free(ref);
}

const pram_example pram_example_tree_depths = {
    .name = "tree_depths",
    .title = "a tree's depths by its Euler tour and pointer jumping, CREW, textbook style",
    .n_means = "vertices",
    .models = PRAM_MODELS_CREW_UP,
    .model = BSPRAM_CREW,
    .min_n = 2,
    .max_n = UINT64_C(1) << 21,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_tree_depths); }
#endif
