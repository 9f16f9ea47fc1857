/* Exercise 6 (docs/course/06_roots.md), a WRONG solution: too many
 * steps, and too much work.
 *
 * Each node climbs its tree one level a step, along the parents it was
 * given (P is never changed): p ← P[p] until p is a root. Right, and CREW,
 * but a node at depth d needs d steps — n/2 for the deepest — where the
 * exercise asks O(log n); and the work is the sum of the depths, Θ(n²) on
 * these paths.
 * fails: steps, work
 *
 *   roots_steps N     (1 ≤ N ≤ 2^22) exit 0 if every node is at its root (it is) */
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

static bspram_pram_array P, R;

static void start(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_registers(vp)[0] = bspram_vp_get(vp, P, bspram_vp_id(vp));
}

static void report(bspram_vp *vp, void *arg)
{
    (void)arg;
    bspram_vp_write(vp, R, bspram_vp_id(vp), bspram_vp_registers(vp)[0]);
}

static void jump(bspram_vp *vp, void *arg)
{
    (void)arg;
    uint64_t *p = bspram_vp_registers(vp);
    const uint64_t up = bspram_vp_get(vp, P, p[0]);
    if (up == p[0]) /* at the root: nothing more to do */
        return;
    p[0] = up;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 1 || n > (UINT64_C(1) << 22)) {
        fprintf(stderr, "usage: roots_steps N, 1 <= N <= 2^22\n");
        return 2;
    }
    uint64_t *order = malloc(n * sizeof *order), *parent = malloc(n * sizeof *parent),
             *root = malloc(n * sizeof *root), *got = malloc(n * sizeof *got);
    if (!order || !parent || !root || !got)
        return 1;
    for (uint64_t k = 0; k < n; k++)
        order[k] = k;
    for (uint64_t k = n; k > 1; k--) {
        uint64_t j = input(6, k, 0, k), t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    /* paths [0, n/2), then four of n/8: a path starts where k is a start */
    for (uint64_t k = 0; k < n; k++) {
        const int first = k == 0 || k == n / 2 || k == n / 2 + n / 8 || k == n / 2 + n / 4 ||
                          k == n / 2 + 3 * (n / 8);
        parent[order[k]] = first ? order[k] : order[k - 1];
        root[order[k]] = first ? order[k] : root[order[k - 1]];
    }

    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CREW);
    bspram_pram *PR = bspram_pram_create(&c);
    P = bspram_pram_alloc(PR, "P", n);
    R = bspram_pram_alloc(PR, "R", n);
    bspram_pram_load(PR, P, parent, n);
    bspram_pram_for_all(PR, start, NULL);
    for (uint64_t level = 1; level < n / 2; level++) /* the deepest node's depth */
        bspram_pram_for_all(PR, jump, NULL);
    bspram_pram_for_all(PR, report, NULL);
    bspram_pram_store(PR, R, got, n);
    bspram_pram_destroy(PR);
    for (uint64_t v = 0; v < n; v++)
        if (got[v] != root[v]) {
            fprintf(stderr, "roots_steps: node %" PRIu64 " points to %" PRIu64 ", not its root %" PRIu64 "\n", v, got[v],
                    root[v]);
            free(order);
            free(parent);
            free(root);
            free(got);
            return 1;
        }
    printf("roots_steps: n = %" PRIu64 ", every node at its root\n", n);
    free(order);
    free(parent);
    free(root);
    free(got);
    return 0;
}
