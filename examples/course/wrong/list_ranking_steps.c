/* Exercise 2 (docs/course/02_list_ranking.md), a WRONG solution: too many
 * steps.
 *
 * One VP walks the list from its head, a node a step, writing each node's
 * rank (n − 1 for the head, one less for each node after it). O(n) work and
 * EREW, but n steps where the exercise asks O(log n).
 * fails: steps
 *
 *   list_ranking_steps N   exit 0 if every rank is right (they are) */
#include <pram/pram.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* The input: a number in [0, bound) from (seed, i, stream), the same every
 * run (a splitmix64 finaliser of the three). */
static uint64_t input(uint64_t seed, uint64_t i, uint64_t stream, uint64_t bound)
{
    uint64_t x = seed * UINT64_C(0x9e3779b97f4a7c15) + stream * UINT64_C(0xd1b54a32d192ed03) + i;
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (x ^ (x >> 31)) % bound;
}

static bspram_pram_array S, R, HEAD;

/* The walker, VP 0: first it reads the head (the input names it); then at
 * node reg[0], the k-th of the list, it writes its rank and moves on. */
static void start(bspram_vp *vp, void *arg)
{
    (void)arg;
    if (bspram_vp_id(vp) == 0)
        bspram_vp_registers(vp)[0] = bspram_vp_get(vp, HEAD, 0);
}

static void walk(bspram_vp *vp, void *arg)
{
    const uint64_t k = *(const uint64_t *)arg, n = bspram_vp_n(vp);
    if (bspram_vp_id(vp) != 0)
        return;
    uint64_t *reg = bspram_vp_registers(vp);
    bspram_vp_write(vp, R, reg[0], n - 1 - k);
    reg[0] = bspram_vp_get(vp, S, reg[0]);
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: list_ranking_steps N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *order = malloc(n * sizeof *order), *succ = malloc(n * sizeof *succ), *rank = malloc(n * sizeof *rank);
    if (!order || !succ || !rank)
        return 1;
    for (uint64_t k = 0; k < n; k++)
        order[k] = k;
    for (uint64_t k = n; k > 1; k--) {
        uint64_t j = input(2, k, 0, k), t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    for (uint64_t k = 0; k < n; k++)
        succ[order[k]] = order[k + 1 < n ? k + 1 : k];

    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_EREW);
    bspram_pram *P = bspram_pram_create(&c);
    S = bspram_pram_alloc(P, "S", n);
    R = bspram_pram_alloc(P, "R", n);
    HEAD = bspram_pram_alloc(P, "HEAD", 1);
    bspram_pram_load(P, S, succ, n);
    bspram_pram_load(P, HEAD, &order[0], 1);
    bspram_pram_for_all(P, start, NULL);
    for (uint64_t k = 0; k < n; k++)
        bspram_pram_for_all(P, walk, &k);
    bspram_pram_store(P, R, rank, n);
    bspram_pram_destroy(P);
    for (uint64_t k = 0; k < n; k++)
        if (rank[order[k]] != n - 1 - k) {
            fprintf(stderr, "list_ranking_steps: node %" PRIu64 " has rank %" PRIu64 ", not %" PRIu64 "\n",
                    order[k], rank[order[k]], n - 1 - k);
            free(order);
            free(succ);
            free(rank);
            return 1;
        }
    free(order);
    free(succ);
    free(rank);
    return 0;
}
