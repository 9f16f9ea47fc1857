/* List ranking by pointer jumping on a CREW PRAM, written VP by VP.
 *
 * Algorithm: Wyllie's pointer jumping (J. C. Wyllie, "The complexity of
 * parallel computations", PhD thesis, Cornell University, 1979; JáJá 1992,
 * "An Introduction to Parallel Algorithms", ch. 2, pointer jumping). Model:
 * CREW — once pointers reach the tail, several VPs read the tail's cell in
 * one step; every cell is written by its own VP only. Time: 1 + ceil(log2 n)
 * steps; work O(n log n); n VPs, one per node.
 *
 * The list: node i's successor next(i), the tail its own successor, and a
 * rank, 1 (0 for the tail) at the start and i's distance to the tail at the
 * end. Node i is one cell, NODE[i] = (next(i), rank(i)), a 64-bit word of
 * two 32-bit halves — one read and one write per jump instead of two of
 * each. VP i keeps next, rank and whether it is done in private registers:
 *
 *   step 1                      for all i in parallel:  (next, rank) ← NODE[i]
 *   steps 2 .. ceil(log2 n)+1,  for all i not done in parallel:
 *       (next', rank') ← NODE[next]
 *       if next' = next then done          (next is the tail: rank is final)
 *       else rank ← rank + rank';  next ← next';  NODE[i] ← (next, rank)
 *
 * A VP whose successor is the tail has its final rank and stops — the
 * textbook's loop with the idle VPs left out; it changes neither the result
 * nor the number of steps. This file shows the per-VP style
 * (bspram_pram_step): the read callback is one VP's read phase, the write
 * callback its computation and writes — "for all i in parallel do" line by
 * line. Checked against a sequential walk of the list.
 *
 *   pram_list_ranking [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

/* A node's cell: the successor in the high half, the rank in the low half. */
#define NODE(next, rank) ((uint64_t)(next) << 32 | (uint64_t)(rank))
#define NEXT_OF(w) ((w) >> 32)
#define RANK_OF(w) ((w) & 0xffffffffu)

/* The registers of VP i. */
enum { R_NEXT, R_RANK, R_DONE, REGISTERS };

/* Step 1: VP i reads its node into its registers. */
static void load_read(bspram_vp *vp, void *arg)
{
    bspram_vp_read(vp, *(const bspram_pram_array *)arg, bspram_vp_id(vp)); /* read 0 */
}

static void load_write(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t *r = bspram_vp_registers(vp), w = bspram_vp_value(vp, 0);
    r[R_NEXT] = NEXT_OF(w);
    r[R_RANK] = RANK_OF(w);
}

/* A jump: read the successor's node ... */
static void jump_read(bspram_vp *vp, void *arg)
{
    const uint64_t *r = bspram_vp_registers(vp);
    if (!r[R_DONE])
        bspram_vp_read(vp, *(const bspram_pram_array *)arg, r[R_NEXT]); /* read 0 */
}

/* ... then add its rank, take its successor, publish the VP's own node. */
static void jump_write(bspram_vp *vp, void *arg)
{
    uint64_t *r = bspram_vp_registers(vp);
    if (r[R_DONE])
        return;
    uint64_t w = bspram_vp_value(vp, 0);
    if (NEXT_OF(w) == r[R_NEXT]) { /* the successor is the tail */
        r[R_DONE] = 1;
        return;
    }
    r[R_RANK] += RANK_OF(w);
    r[R_NEXT] = NEXT_OF(w);
    bspram_vp_write(vp, *(const bspram_pram_array *)arg, bspram_vp_id(vp), NODE(r[R_NEXT], r[R_RANK]));
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n;
    /* A random list: the nodes in the order of a random permutation. */
    uint64_t *order = pram_example_words(n, "order"), *next = pram_example_words(n, "next");
    uint64_t *node0 = pram_example_words(n, "nodes"), *got = pram_example_words(n, "result");
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    for (uint64_t i = n; i-- > 1;) { /* Fisher–Yates */
        uint64_t j = pram_example_random(prm->seed, i, 1, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint64_t k = 0; k < n; k++) {
        next[order[k]] = k + 1 < n ? order[k + 1] : order[k];
        node0[order[k]] = NODE(next[order[k]], k + 1 < n);
    }

    double t0 = pram_example_clock();
    /* ADAPTIVE: a jump's reads meet at the nodes near the tail, whose
     * readers double every step (all n at the end); a one-phase basis sends
     * them all to one owner (charge 29012 at n = 2^16 against 4313). */
    bspram_pram *P = pram_example_create(prm, n, REGISTERS, false, PRAM_EXAMPLE_ADAPTIVE, res);
    bspram_pram_array NODES = bspram_pram_alloc(P, "NODE", n);
    bspram_pram_load(P, NODES, node0, n);
    double t1 = pram_example_clock();
    bspram_pram_step(P, load_read, load_write, &NODES);
    for (uint64_t span = 1; span < n; span *= 2) /* ceil(log2 n) jumps */
        bspram_pram_step(P, jump_read, jump_write, &NODES);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, NODES, got, n);
    pram_example_finish(P, res);
    for (uint64_t i = 0; i < n; i++)
        got[i] = RANK_OF(got[i]);

    /* The sequential reference: find the head, walk the list. */
    uint64_t *ref = pram_example_words(n, "reference");
    t0 = pram_example_clock();
    for (uint64_t i = 0; i < n; i++) /* ref[i] = 1: i is someone's successor */
        if (next[i] != i)
            ref[next[i]] = 1;
    uint64_t head = 0;
    while (head < n && ref[head])
        head++;
    uint64_t pos = 0;
    for (uint64_t i = head;; i = next[i]) {
        ref[i] = n - 1 - pos++;
        if (next[i] == i)
            break;
    }
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 2 * n; /* n successors read, n ranks written (a walk of the list) */

    uint64_t bad = n;
    for (uint64_t i = 0; i < n && bad == n; i++)
        if (got[i] != ref[i])
            bad = i;
    res->verified = bad == n;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail, "head %" PRIu64 " has rank %" PRIu64, head, got[head]);
    else
        snprintf(res->detail, sizeof res->detail, "node %" PRIu64 " has rank %" PRIu64 ", expected %" PRIu64,
                 bad, got[bad], ref[bad]);
    free(order);
    free(next);
    free(node0);
    free(got);
    free(ref);
}

const pram_example pram_example_list_ranking = {
    .name = "list_ranking",
    .title = "list ranking by pointer jumping (Wyllie), CREW, 1 + ceil(log2 n) steps, per-VP style",
    .n_means = "list nodes",
    .models = PRAM_MODELS_CREW_UP,
    .model = BSPRAM_CREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_list_ranking); }
#endif
