/* Exercise 9 (docs/course/09_components.md): the connected components of a
 * graph on a CRCW-arbitrary PRAM in O(log² n) steps. The reference solution.
 *
 * Hooking and pointer jumping in the style of Shiloach and Vishkin (1982;
 * JáJá 1992, §5.1.3): a forest D, D[v] ≤ v, each tree a set of vertices
 * known to be connected, its root the least of them.
 *   repeat
 *     hook   for all edges (u, v) in parallel: a ← D[u], b ← D[v];
 *            if a ≠ b then D[max(a, b)] ← min(a, b), and FLAG ← the step
 *     until no edge hooked (FLAG unchanged)
 *     jump   repeat for all vertices v in parallel: g ← D[D[v]];
 *                   if g ≠ D[v] then D[v] ← g, and FLAG ← the step
 *            until no pointer changed                 (every tree a star)
 * Before each hook every tree is a star, so a and b are roots; a root is
 * hooked only onto a smaller one: no cycles. Edges that hook one root at
 * once write different values and one wins: CRCW-arbitrary; the FLAG
 * writes are concurrent too. At the end D[v] is the least vertex of v's
 * component. VP j serves vertex j and edge j (n VPs, m ≤ n edges).
 *
 * The graph: the vertices in a random order cut into four paths, each
 * vertex joined to the next — four components of diameter n/4, where a
 * label would take n/4 steps to travel.
 *
 *   components N     (4 ≤ N ≤ 2^20; 1000 without N) exit 0 if every D[v]
 *                    is the least vertex of v's component */
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

static bspram_pram_array U, V, D, FLAG;

enum { EDGE_U, EDGE_V, PTR };

typedef struct round {
    uint64_t m;    /* edges */
    uint64_t step; /* the step's number, FLAG's stamp */
    int what;      /* 0 read the edges, 1 hook, 2 jump */
} round;

static void work(bspram_vp *vp, void *arg)
{
    const round *r = arg;
    const uint64_t j = bspram_vp_id(vp);
    uint64_t *reg = bspram_vp_registers(vp);
    if (r->what == 0) { /* edge j's ends into the registers; vertex j is a root */
        if (j < r->m) {
            reg[EDGE_U] = bspram_vp_get(vp, U, j);
            reg[EDGE_V] = bspram_vp_get(vp, V, j);
        }
        reg[PTR] = j;
    } else if (r->what == 1) {
        if (j < r->m) {
            const uint64_t a = bspram_vp_get(vp, D, reg[EDGE_U]), b = bspram_vp_get(vp, D, reg[EDGE_V]);
            if (a != b) {
                bspram_vp_write(vp, D, a > b ? a : b, a > b ? b : a);
                bspram_vp_write(vp, FLAG, 0, r->step);
            }
        }
    } else {
        const uint64_t g = bspram_vp_get(vp, D, reg[PTR]);
        if (g != reg[PTR]) {
            bspram_vp_write(vp, D, j, g);
            bspram_vp_write(vp, FLAG, 0, r->step);
        }
        reg[PTR] = g;
    }
}

/* One step of kind `what`; whether any VP stamped FLAG. */
static int run(bspram_pram *P, round *r, int what)
{
    uint64_t flag;
    r->what = what;
    r->step++;
    bspram_pram_for_all(P, work, r);
    bspram_pram_store(P, FLAG, &flag, 1);
    return flag == r->step;
}

static uint64_t find(uint64_t *up, uint64_t v)
{
    while (up[v] != v)
        v = up[v] = up[up[v]];
    return v;
}

int main(int argc, char **argv)
{
    const uint64_t n = argc > 1 ? strtoull(argv[argc - 1], NULL, 10) : 1000;
    if (n < 4 || n > (UINT64_C(1) << 20)) {
        fprintf(stderr, "usage: components N, 4 <= N <= 2^20\n");
        return 2;
    }
    uint64_t *order = malloc(n * sizeof *order), *eu = malloc(n * sizeof *eu), *ev = malloc(n * sizeof *ev),
             *ident = malloc(n * sizeof *ident), *got = malloc(n * sizeof *got), *up = malloc(n * sizeof *up);
    if (!order || !eu || !ev || !ident || !got || !up)
        return 1;
    for (uint64_t k = 0; k < n; k++)
        order[k] = ident[k] = up[k] = k;
    for (uint64_t k = n; k > 1; k--) {
        uint64_t j = input(9, k, 0, k), t = order[k - 1];
        order[k - 1] = order[j];
        order[j] = t;
    }
    uint64_t m = 0;
    for (uint64_t k = 1; k < n; k++)
        if (k % (n / 4) != 0) { /* four paths */
            eu[m] = order[k - 1];
            ev[m++] = order[k];
        }

    bspram_pram_config c = bspram_pram_config_default(n, BSPRAM_CRCW_ARBITRARY);
    bspram_pram *P = bspram_pram_create(&c);
    U = bspram_pram_alloc(P, "U", m ? m : 1);
    V = bspram_pram_alloc(P, "V", m ? m : 1);
    D = bspram_pram_alloc(P, "D", n);
    FLAG = bspram_pram_alloc(P, "FLAG", 1);
    bspram_pram_load(P, U, eu, m);
    bspram_pram_load(P, V, ev, m);
    bspram_pram_load(P, D, ident, n);
    round r = {m, 0, 0};
    run(P, &r, 0);
    while (run(P, &r, 1)) /* hook, then flatten */
        while (run(P, &r, 2))
            ;
    bspram_pram_store(P, D, got, n);
    bspram_pram_destroy(P);

    /* the least vertex of each component, by union-find */
    for (uint64_t e = 0; e < m; e++) {
        uint64_t a = find(up, eu[e]), b = find(up, ev[e]);
        if (a != b)
            up[a > b ? a : b] = a > b ? b : a;
    }
    for (uint64_t v = 0; v < n; v++)
        if (got[v] != find(up, v)) {
            fprintf(stderr, "components: D[%" PRIu64 "] = %" PRIu64 ", not %" PRIu64 "\n", v, got[v], find(up, v));
            free(order);
            free(eu);
            free(ev);
            free(ident);
            free(got);
            free(up);
            return 1;
        }
    printf("components: n = %" PRIu64 ", %" PRIu64 " steps\n", n, r.step);
    free(order);
    free(eu);
    free(ev);
    free(ident);
    free(got);
    free(up);
    return 0;
}
