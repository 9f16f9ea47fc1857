/* List ranking by pointer jumping on a CREW PRAM, written VP by VP.
 *
 * Algorithm: Wyllie's pointer jumping (J. C. Wyllie, "The complexity of
 * parallel computations", PhD thesis, Cornell University, 1979; JáJá 1992,
 * "An Introduction to Parallel Algorithms", ch. 2, pointer jumping). Model:
 * CREW — once pointers reach the tail, many VPs read the tail's cells in one
 * step; every cell is written by its own VP only. Time: 1 + ceil(log2 n)
 * steps; work O(n log n); n VPs, one per node.
 *
 * The list: NEXT[i] is the node after i, the tail points to itself.
 * RANK[i] starts at 1 (0 for the tail); at the end it is i's distance to the
 * tail. VP i keeps next and rank in its two private registers:
 *
 *   step 1                  for all i in parallel:  next ← NEXT[i]; rank ← RANK[i]
 *   steps 2 .. ceil(log2 n)+1,  for all i in parallel:
 *       rank ← rank + RANK[next];  next ← NEXT[next];  RANK[i] ← rank;  NEXT[i] ← next
 *
 * This file shows the per-VP style (bspram_pram_step): the read callback is
 * the step's read phase of one VP, the write callback its computation and
 * writes — the textbook's "for all i in parallel do" line by line. Checked
 * against a sequential walk of the list.
 *
 *   ./build/pram_list_ranking [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "examples/pram/example.h"

typedef struct {
    bspram_pram_array NEXT, RANK;
} list;

/* Step 1: VP i reads NEXT[i] and RANK[i] into its registers. */
static void load_read(bspram_vp *vp, void *arg)
{
    const list *L = arg;
    bspram_vp_read(vp, L->NEXT, bspram_vp_id(vp)); /* read 0 */
    bspram_vp_read(vp, L->RANK, bspram_vp_id(vp)); /* read 1 */
}

static void load_write(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t *r = bspram_vp_registers(vp); /* r[0] = next, r[1] = rank */
    r[0] = bspram_vp_value(vp, 0);
    r[1] = bspram_vp_value(vp, 1);
}

/* A jump: read the successor's rank and pointer ... */
static void jump_read(bspram_vp *vp, void *arg)
{
    const list *L = arg;
    uint64_t next = bspram_vp_registers(vp)[0];
    bspram_vp_read(vp, L->RANK, next); /* read 0 */
    bspram_vp_read(vp, L->NEXT, next); /* read 1 */
}

/* ... then add, jump, and publish the VP's own new rank and pointer. */
static void jump_write(bspram_vp *vp, void *arg)
{
    const list *L = arg;
    uint64_t *r = bspram_vp_registers(vp), i = bspram_vp_id(vp);
    r[1] += bspram_vp_value(vp, 0);
    r[0] = bspram_vp_value(vp, 1);
    bspram_vp_write(vp, L->RANK, i, r[1]);
    bspram_vp_write(vp, L->NEXT, i, r[0]);
}

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n;
    /* A random list: the nodes in the order of a random permutation. */
    uint64_t *order = pram_example_words(n, "order"), *next = pram_example_words(n, "next");
    uint64_t *rank0 = pram_example_words(n, "rank"), *got = pram_example_words(n, "result");
    for (uint64_t i = 0; i < n; i++)
        order[i] = i;
    for (uint64_t i = n; i-- > 1;) { /* Fisher–Yates */
        uint64_t j = pram_example_random(prm->seed, i, 1, i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint64_t k = 0; k < n; k++) {
        next[order[k]] = k + 1 < n ? order[k + 1] : order[k];
        rank0[order[k]] = k + 1 < n;
    }

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, n, 2, false, res);
    list L = {bspram_pram_alloc(P, "NEXT", n), bspram_pram_alloc(P, "RANK", n)};
    bspram_pram_load(P, L.NEXT, next, n);
    bspram_pram_load(P, L.RANK, rank0, n);
    double t1 = pram_example_clock();
    bspram_pram_step(P, load_read, load_write, &L);
    for (uint64_t span = 1; span < n; span *= 2) /* ceil(log2 n) jumps */
        bspram_pram_step(P, jump_read, jump_write, &L);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, L.RANK, got, n);
    pram_example_finish(P, res);

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
    free(rank0);
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
    .max_n = UINT64_C(1) << 26,
    .small_n = 1000,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_list_ranking); }
#endif
