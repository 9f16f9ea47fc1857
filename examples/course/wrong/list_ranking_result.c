/* Exercise 2 (docs/course/02_list_ranking.md), a WRONG solution: a wrong
 * result.
 *
 * The reference's pointer jumping (examples/course/list_ranking.c) with one
 * round too few: the rounds start at span 2, as if the first step had
 * jumped already. After ceil(log2 n) − 1 rounds a pointer spans at most
 * n/2 nodes, so the nodes farther than that from the tail get a rank that
 * is short, and the program says so.
 * fails: exit
 *
 *   list_ranking_result N   exit 1: some rank is wrong (N > 2) */
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

static bspram_pram_array S, R;

/* Step 1: VP i reads its successor, keeps it, and writes R[i] = 1 (0 at
 * the tail). */
static void start(bspram_vp *vp, void *arg)
{
    (void)arg;
    const uint64_t i = bspram_vp_id(vp);
    uint64_t *reg = bspram_vp_registers(vp);
    reg[0] = bspram_vp_get(vp, S, i);
    reg[1] = reg[0] != i;
    bspram_vp_write(vp, R, i, reg[1]);
}

/* A round: jump over the successor. */
static void jump(bspram_vp *vp, void *arg)
{
    (void)arg;
    const uint64_t i = bspram_vp_id(vp);
    uint64_t *reg = bspram_vp_registers(vp);
    const uint64_t r = reg[1] + bspram_vp_get(vp, R, reg[0]), s = bspram_vp_get(vp, S, reg[0]);
    bspram_vp_write(vp, R, i, r);
    bspram_vp_write(vp, S, i, s);
    reg[0] = s;
    reg[1] = r;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: list_ranking_result N, 1 <= N <= 2^22\n");
        return 2;
    }
    /* order[k]: the k-th node of the list (a random permutation) */
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

    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
    bspram_pram *P = bspram_pram_create(&c);
    S = bspram_pram_alloc(P, "S", n);
    R = bspram_pram_alloc(P, "R", n);
    bspram_pram_load(P, S, succ, n);
    bspram_pram_for_all(P, start, NULL);
    for (uint64_t span = 2; span < n; span *= 2) /* one round short */
        bspram_pram_for_all(P, jump, NULL);
    bspram_pram_store(P, R, rank, n);
    bspram_pram_destroy(P);

    for (uint64_t k = 0; k < n; k++)
        if (rank[order[k]] != n - 1 - k) {
            fprintf(stderr, "list_ranking_result: node %" PRIu64 " has rank %" PRIu64 ", not %" PRIu64 "\n", order[k],
                    rank[order[k]], n - 1 - k);
            free(order);
            free(succ);
            free(rank);
            return 1;
        }
    printf("list_ranking_result: n = %" PRIu64 ", the head %" PRIu64 " has rank %" PRIu64 "\n", n, order[0],
           rank[order[0]]);
    free(order);
    free(succ);
    free(rank);
    return 0;
}
