/* Connected components by hooking and pointer jumping on a CRCW-arbitrary PRAM.
 *
 * Algorithm: in the style of Shiloach & Vishkin (Y. Shiloach, U. Vishkin,
 * "An O(log n) parallel connectivity algorithm", Journal of Algorithms 3,
 * 1982; JáJá 1992, "An Introduction to Parallel Algorithms", ch. 5,
 * connected components): a forest D of pointers, D[v] ≤ v, whose trees are
 * grown by hooking the root of one tree onto the root of a neighbouring
 * tree and flattened by pointer jumping. Model: CRCW-arbitrary — many edges
 * may hook one root in the same step and an arbitrary one of them wins;
 * concurrent reads of the roots. VPs: max(n, m), VP j serving vertex j and
 * edge j.
 *
 *   step 1   for all edges e in parallel:  (u_e, v_e) ← (U[e], V[e])   (into private memory)
 *   repeat
 *     hook   for all live edges e in parallel:  a ← D[u_e]; b ← D[v_e];
 *                if a = b then e retires (its ends are in one tree for good)
 *                else D[max(a, b)] ← min(a, b)
 *     until no edge hooked
 *     jump   repeat  for all vertices v not settled in parallel:
 *                g ← D[D[v]]; if g = D[v] then v settles, else D[v] ← g
 *            until no pointer changes                       (every tree is a star)
 *
 * At the start of each hook step every tree is a star, so D[u_e] and D[v_e]
 * are roots, and a root is only hooked onto a smaller one: no cycles. In a
 * jump phase no root changes, so a vertex whose parent is a root has
 * nothing more to do in that phase (it settles); an edge whose ends share a
 * root never hooks again (it retires). Both only leave idle VPs out. At the
 * end D[v] is the least vertex of v's component, checked against a
 * sequential union-find.
 *
 * Unlike Shiloach & Vishkin's algorithm this version has no unconditional
 * hooking of stagnant stars and flattens the trees fully between hooks (as
 * practical codes do, e.g. the GAP benchmark suite's "sv"): the number of
 * hook rounds is not bounded by O(log n) for every graph, but on random
 * graphs it is small (the program prints it). Time: 1 + Σ over rounds of
 * (1 hook + its jumps) + 1 steps; work O(n + m) per step at most.
 *
 * A loop's test ("until no edge hooked", "until no pointer changes") is
 * one cell: every VP that hooks or jumps writes the step's number to FLAG
 * (concurrent writes of one value), and the program reads FLAG between
 * steps, as a PRAM's VPs would all read it in the next step.
 *
 * The graph: n vertices and m = n random edges (u, v), u and v uniform —
 * mean degree 2: a giant component of about 80 % of the vertices and many
 * small ones.
 *
 *   pram_components [n] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

static uint64_t find(uint64_t *parent, uint64_t v) /* with path halving */
{
    while (parent[v] != v) {
        parent[v] = parent[parent[v]];
        v = parent[v];
    }
    return v;
}

static uint64_t vps_of(uint64_t n) { return n; } /* max(n, m), m = n */

static void run(const pram_example_params *prm, pram_example_result *res)
{
    uint64_t n = prm->n, m = n, vps = vps_of(n);
    uint64_t *eu = pram_example_words(m, "edges"), *ev = pram_example_words(m, "edges");
    uint64_t *ident = pram_example_words(n, "vertices");
    for (uint64_t e = 0; e < m; e++) {
        eu[e] = pram_example_random(prm->seed, e, 0, n);
        ev[e] = pram_example_random(prm->seed, e, 1, n);
    }
    for (uint64_t v = 0; v < n; v++)
        ident[v] = v;

    double t0 = pram_example_clock();
    /* No hint: the roots are read by every vertex of their trees, and
     * hooking writes meet at them; one phase would send them all to one
     * owner (charge 137082 at n = 2^16 against 7053). */
    bspram_pram *P = pram_example_create(prm, vps, 0, false, 0, res);
    bspram_pram_array U = bspram_pram_alloc(P, "U", m), V = bspram_pram_alloc(P, "V", m);
    bspram_pram_array D = bspram_pram_alloc(P, "D", n), FLAG = bspram_pram_alloc(P, "FLAG", 1);
    bspram_pram_load(P, U, eu, m);
    bspram_pram_load(P, V, ev, m);
    bspram_pram_load(P, D, ident, n); /* D[v] = v: every vertex a root */
    uint64_t *cells = pram_example_words(2 * vps, "cells"), *vals = pram_example_words(2 * vps, "values");
    uint64_t *u = pram_example_words(vps, "edge ends"), *w = pram_example_words(vps, "edge ends");
    uint64_t *d = pram_example_words(n, "parents"); /* VP v's private copy of D[v] */
    uint64_t *got = pram_example_words(n, "result");
    uint64_t flag_cell = bspram_pram_cell(P, FLAG, 0), step = 0, flag, rounds = 0, jumps = 0;
    for (uint64_t j = 0; j < 2 * vps; j++)
        cells[j] = BSPRAM_PRAM_NONE;
    double t1 = pram_example_clock();

    /* Step 1: edge VP e reads its edge into private memory. */
    for (uint64_t e = 0; e < m; e++) {
        cells[2 * e] = bspram_pram_cell(P, U, e);
        cells[2 * e + 1] = bspram_pram_cell(P, V, e);
    }
    bspram_pram_gather(P, 2, cells, vals);
    step++;
    for (uint64_t e = 0; e < m; e++) {
        u[e] = vals[2 * e];
        w[e] = vals[2 * e + 1];
    }
    for (uint64_t v = 0; v < n; v++)
        d[v] = v;

    unsigned char *retired = calloc(m, 1), *settled = calloc(n, 1);
    if (!retired || !settled) {
        fprintf(stderr, "pram_components: out of memory\n");
        exit(1);
    }
    for (;;) {
        /* hook: live edge VP e reads the roots of its ends; the larger is
         * hooked onto the smaller (an arbitrary edge wins), FLAG is stamped. */
        step++;
        for (uint64_t e = 0; e < m; e++) {
            cells[2 * e] = retired[e] ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, D, u[e]);
            cells[2 * e + 1] = retired[e] ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, D, w[e]);
        }
        bspram_pram_gather(P, 2, cells, vals);
        for (uint64_t e = 0; e < m; e++) {
            uint64_t a = vals[2 * e], b = vals[2 * e + 1];
            int hook = !retired[e] && a != b;
            retired[e] |= !hook;
            cells[2 * e] = hook ? bspram_pram_cell(P, D, a > b ? a : b) : BSPRAM_PRAM_NONE;
            vals[2 * e] = a > b ? b : a;
            cells[2 * e + 1] = hook ? flag_cell : BSPRAM_PRAM_NONE;
            vals[2 * e + 1] = step;
        }
        bspram_pram_scatter(P, 2, cells, vals);
        bspram_pram_store(P, FLAG, &flag, 1);
        if (flag != step)
            break;
        rounds++;
        for (uint64_t j = 0; j < 2 * vps; j++)
            cells[j] = BSPRAM_PRAM_NONE;

        /* jump until every tree is a star: vertex VP v reads D[d_v]; if it
         * differs, v takes it as its pointer and stamps FLAG, else v settles. */
        for (uint64_t v = 0; v < n; v++)
            settled[v] = 0;
        do {
            step++;
            jumps++;
            for (uint64_t v = 0; v < n; v++)
                cells[v] = settled[v] ? BSPRAM_PRAM_NONE : bspram_pram_cell(P, D, d[v]);
            bspram_pram_gather(P, 1, cells, got);
            for (uint64_t v = 0; v < n; v++) {
                int moved = !settled[v] && got[v] != d[v];
                settled[v] |= !moved;
                d[v] = moved ? got[v] : d[v];
                cells[2 * v] = moved ? bspram_pram_cell(P, D, v) : BSPRAM_PRAM_NONE;
                vals[2 * v] = d[v];
                cells[2 * v + 1] = moved ? flag_cell : BSPRAM_PRAM_NONE;
                vals[2 * v + 1] = step;
            }
            bspram_pram_scatter(P, 2, cells, vals);
            bspram_pram_store(P, FLAG, &flag, 1);
            for (uint64_t j = 0; j < 2 * n; j++)
                cells[j] = BSPRAM_PRAM_NONE;
        } while (flag == step);
    }
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    bspram_pram_store(P, D, got, n);
    pram_example_finish(P, res);
    free(cells);
    free(vals);
    free(retired);
    free(settled);
    free(u);
    free(w);
    free(d);

    /* The sequential reference: union-find, then the least vertex of each set. */
    uint64_t *parent = pram_example_words(n, "union-find"), *least = pram_example_words(n, "labels");
    t0 = pram_example_clock();
    for (uint64_t v = 0; v < n; v++)
        parent[v] = v;
    for (uint64_t e = 0; e < m; e++) {
        uint64_t a = find(parent, eu[e]), b = find(parent, ev[e]);
        if (a != b) /* the larger root under the smaller: each root is its set's least vertex */
            parent[a > b ? a : b] = a > b ? b : a;
    }
    for (uint64_t v = 0; v < n; v++)
        least[v] = find(parent, v);
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = n + 2 * m; /* its n labels and the 2m edge ends it reads (union-find: O((n + m) α(n))) */

    uint64_t bad = n, components = 0;
    for (uint64_t v = 0; v < n; v++) {
        components += least[v] == v;
        if (bad == n && got[v] != least[v])
            bad = v;
    }
    res->verified = bad == n;
    if (res->verified)
        snprintf(res->detail, sizeof res->detail,
                 "%" PRIu64 " components, %" PRIu64 " hook rounds, %" PRIu64 " jump steps", components, rounds,
                 jumps);
    else
        snprintf(res->detail, sizeof res->detail, "vertex %" PRIu64 " labelled %" PRIu64 ", expected %" PRIu64,
                 bad, got[bad], least[bad]);
    free(parent);
    free(least);
    free(got);
    free(eu);
    free(ev);
    free(ident);
}

const pram_example pram_example_components = {
    .name = "components",
    .title = "connected components by hooking and pointer jumping (Shiloach-Vishkin style), CRCW-arbitrary",
    .n_means = "vertices (n random edges, n VPs)",
    .models = PRAM_MODEL_BIT(BSPRAM_CRCW_ARBITRARY) | PRAM_MODEL_BIT(BSPRAM_CRCW_PRIORITY),
    .model = BSPRAM_CRCW_ARBITRARY,
    .min_n = 1,
    .max_n = UINT64_C(1) << 22,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_components); }
#endif
