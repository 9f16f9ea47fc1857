/* Optimal list ranking by random mate on an EREW PRAM, written in the
 * textbook style (bspram_pram_for_all).
 *
 * Algorithm: randomized list contraction ("random mate": G. L. Miller,
 * J. H. Reif, "Parallel tree contraction and its application", FOCS 1985;
 * R. J. Anderson, G. L. Miller, "Deterministic parallel list ranking",
 * 1988; JáJá 1992, "An Introduction to Parallel Algorithms", §3.1): in each
 * round every node flips a coin, and a node with tails whose predecessor
 * has heads is spliced out — its predecessor takes its successor and its
 * weight — so no two neighbours leave together and a quarter of the nodes
 * leave per round, in expectation. After R = 3·ceil(log2 log2 n) rounds the
 * few that are left are ranked by pointer jumping (Wyllie), and the spliced
 * nodes come back in the reverse order of their rounds: rank(j) = rank(p) −
 * w_p, p its predecessor and w_p p's weight when j left. Model: EREW — a
 * node's cells are read by itself and by its one predecessor only (its own
 * running sum kept in a register). Time: 1 + 2R + 1 + ceil(log2 n) + R
 * steps; work O(n) expected (the jumps are the remaining nodes'); n VPs.
 *
 *   step 1      for all i in parallel:  PRED[NEXT[i]] ← i
 *   R rounds    for all live i in parallel:  (next, pred) ← (NEXT[i], PRED[i])
 *               for all live i with coin(i) = tails, coin(pred) = heads in parallel:
 *                   W[pred] ← W[pred] + W[i];  NEXT[pred] ← next;  PRED[next] ← pred;
 *                   i leaves in this round, keeping w_pred (before the sum)
 *   jumps       S ← W[i], then ceil(log2 n) times for all live i with a successor:
 *                   S ← S + RANK[next];  next ← NEXT[next]   (RANK[i] ← S each time)
 *   R steps     for r = R .. 1: for all i that left in round r:  RANK[i] ← RANK[pred] − w_pred
 *
 * The coins are a pure function of (seed, node, round): a node knows its
 * predecessor's. rank(i) is the number of nodes after i (the tail 0, the
 * head n − 1), checked against a walk of the list.
 *
 *   pram_random_mate [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

enum { R_NEXT, R_PRED, R_LEFT, R_SAVE, R_SUM, REGISTERS }; /* R_LEFT: 0 live, r + 1 left in round r */

typedef struct contraction {
    bspram_pram_array NEXT, PRED, W, RANK;
    uint64_t n, seed, round;
    int phase; /* 0 preds, 1 look, 2 splice, 3 sums, 4 jump, 5 reinsert */
} contraction;

static bool heads(const contraction *c, uint64_t i) { return pram_example_random(c->seed, i, 2 + c->round, 2); }

static void step(bspram_vp *vp, void *arg)
{
    const contraction *c = arg;
    const uint64_t i = bspram_vp_id(vp), nil = c->n;
    uint64_t *r = bspram_vp_registers(vp);
    switch (c->phase) {
    case 0: {
        uint64_t next = bspram_vp_get(vp, c->NEXT, i);
        if (next != nil)
            bspram_vp_write(vp, c->PRED, next, i);
        break;
    }
    case 1:
        if (!r[R_LEFT]) {
            r[R_NEXT] = bspram_vp_get(vp, c->NEXT, i);
            r[R_PRED] = bspram_vp_get(vp, c->PRED, i);
        }
        break;
    case 2:
        if (!r[R_LEFT] && r[R_PRED] != nil && !heads(c, i) && heads(c, r[R_PRED])) {
            uint64_t w = bspram_vp_get(vp, c->W, i), wp = bspram_vp_get(vp, c->W, r[R_PRED]);
            bspram_vp_write(vp, c->W, r[R_PRED], wp + w);
            bspram_vp_write(vp, c->NEXT, r[R_PRED], r[R_NEXT]);
            if (r[R_NEXT] != nil)
                bspram_vp_write(vp, c->PRED, r[R_NEXT], r[R_PRED]);
            r[R_LEFT] = c->round + 1;
            r[R_SAVE] = wp;
        }
        break;
    case 3:
        if (!r[R_LEFT]) {
            r[R_NEXT] = bspram_vp_get(vp, c->NEXT, i);
            r[R_SUM] = bspram_vp_get(vp, c->W, i);
            bspram_vp_write(vp, c->RANK, i, r[R_SUM]);
        }
        break;
    case 4:
        if (!r[R_LEFT] && r[R_NEXT] != nil) {
            uint64_t s = bspram_vp_get(vp, c->RANK, r[R_NEXT]), next = bspram_vp_get(vp, c->NEXT, r[R_NEXT]);
            r[R_SUM] += s;
            r[R_NEXT] = next;
            bspram_vp_write(vp, c->RANK, i, r[R_SUM]);
            bspram_vp_write(vp, c->NEXT, i, next);
        }
        break;
    default:
        if (r[R_LEFT] == c->round + 1)
            bspram_vp_write(vp, c->RANK, i, bspram_vp_get(vp, c->RANK, r[R_PRED]) - r[R_SAVE]);
        break;
    }
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t n = prm->n, nil = n;
    /* A random list: the nodes in the order of a random permutation. */
    uint64_t *order = pram_example_words(n, "order"), *next = pram_example_words(n, "next");
    uint64_t *pred = pram_example_words(n, "pred"), *w = pram_example_words(n, "weights");
    uint64_t *got = pram_example_words(n, "result");
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    for (uint64_t i = n; i-- > 1;) { /* Fisher–Yates */
        uint64_t j = pram_example_random(prm->seed, i, 1, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint64_t k = 0; k < n; k++) {
        next[order[k]] = k + 1 < n ? order[k + 1] : nil;
        w[order[k]] = k + 1 < n; /* the tail weighs 0: rank = nodes after */
        pred[k] = nil;            /* (step 1 sets all but the head's) */
    }
    const unsigned lg = pram_example_log2(pram_example_pow2(n)), rounds = 3 * pram_example_log2(pram_example_pow2(lg));

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, REGISTERS, false, 1, res); /* exclusive */
    contraction c = {bspram_pram_alloc(P, "NEXT", n), bspram_pram_alloc(P, "PRED", n), bspram_pram_alloc(P, "W", n),
                     bspram_pram_alloc(P, "RANK", n), n, prm->seed, 0, 0};
    bspram_pram_load(P, c.NEXT, next, n);
    bspram_pram_load(P, c.PRED, pred, n);
    bspram_pram_load(P, c.W, w, n);
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, step, &c);
    for (c.round = 0; c.round < rounds; c.round++)
        for (c.phase = 1; c.phase <= 2; c.phase++)
            bspram_pram_for_all(P, step, &c);
    c.phase = 3;
    bspram_pram_for_all(P, step, &c);
    c.phase = 4;
    for (unsigned k = 0; k < lg; k++)
        bspram_pram_for_all(P, step, &c);
    c.phase = 5;
    for (c.round = rounds; c.round-- > 0;)
        bspram_pram_for_all(P, step, &c);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, c.RANK, got, n);
    pram_example_finish(P, res);

    t0 = pram_example_clock();
    uint64_t bad = n;
    for (uint64_t k = 0; k < n; k++) /* the walk: order[k] has n − 1 − k nodes after it */
        if (got[order[k]] != n - 1 - k && bad == n)
            bad = order[k];
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n successors read, n ranks written (a walk of the list) */
    const uint64_t bound = 2u + 3u * rounds + lg;
    res->verified = bad == n && res->stats.steps == bound;
    if (bad == n)
        snprintf(res->detail, sizeof res->detail, "ranks of %" PRIu64 " nodes; %" PRIu64 " steps, 2 + 3R + "
                 "ceil(log2 n) = %" PRIu64 " (R = %u rounds)", n, res->stats.steps, bound, rounds);
    else
        snprintf(res->detail, sizeof res->detail, "node %" PRIu64 " has rank %" PRIu64 ", wrong", bad, got[bad]);
    free(order);
    free(next);
    free(pred);
    free(w);
    free(got);
}

const pram_example pram_example_random_mate = {
    .name = "random_mate",
    .title = "optimal list ranking by random mate, EREW, textbook style: O(log n) steps, O(n) work",
    .n_means = "list nodes",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_random_mate); }
#endif
