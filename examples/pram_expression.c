/* Expression evaluation by tree contraction (rake), on an EREW PRAM,
 * written in the textbook style (bspram_pram_for_all).
 *
 * Algorithm: parallel tree contraction with the rake operation (K.
 * Abrahamson, N. Dadoun, D. G. Kirkpatrick, T. Przytycka, "A simple
 * parallel tree contraction algorithm", J. Algorithms 10, 1989; JáJá 1992,
 * "An Introduction to Parallel Algorithms", §3.3, expression evaluation):
 * every node v carries a linear function (a_v, b_v) of the value it sends
 * up, at first x ↦ x. To rake a leaf u (value x) whose parent p has the
 * operation ⊙ and the other child s, s takes p's place under p's parent,
 * its function becoming x ↦ a_p·((a_u·x_u + b_u) ⊙ (a_s·x + b_s)) + b_p —
 * linear in x for ⊙ ∈ {+, ×}. The leaves are numbered left to right; each
 * round rakes the odd-numbered leaves that are left children, then those
 * that are right children (no two of them are then neighbours: EREW), and
 * the remaining leaves halve their numbers. After ceil(log2 L) rounds one
 * leaf is left, the root: the value is a·x + b. Model: EREW. Time:
 * 6·ceil(log2 L) + 2 steps (each half-round: read the parent, read its
 * children, side and parent, rake); work O(L): only the odd leaves of a
 * round read or write; L VPs, one per leaf. Arithmetic is mod 2^64.
 *
 *   step 1       for all leaves i in parallel:  u ← LEAF[i]
 *   rounds       for side = left, right: for all odd leaves i in parallel:
 *                  p ← PAR[u];  (l, r, g, left?) ← p's children, parent, side;
 *                  if u is p's `side` child: rake u (s ← the other child)
 *   last step    the leaf left: RESULT ← a·VAL[u] + b
 *
 * The tree: a random full binary tree of L leaves (random splits), the
 * operations + or × at random, the leaves' values in [0, 10); checked
 * against a sequential evaluation.
 *
 *   pram_expression [L] [seed] [p] [threads]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pram/example.h"

enum { R_U, R_NUM, R_P, R_L, R_R, R_G, R_PLEFT, REGISTERS };
enum { OP_ADD, OP_MUL };

typedef struct contraction {
    bspram_pram_array LEAF, PAR, LEFT, RIGHT, ISLEFT, OP, VAL, A, B, RESULT;
    uint64_t nil;
    int phase;  /* 0 leaves, 1 parent, 2 family, 3 rake, 5 result */
    bool right; /* rake the right children (else the left ones) */
} contraction;

static void step(bspram_vp *vp, void *arg)
{
    const contraction *c = arg;
    uint64_t *r = bspram_vp_registers(vp);
    const uint64_t nil = c->nil;
    if (c->phase == 0) {
        r[R_U] = bspram_vp_get(vp, c->LEAF, bspram_vp_id(vp));
        r[R_NUM] = bspram_vp_id(vp);
        return;
    }
    if (r[R_U] == nil)
        return; /* raked */
    if (c->phase == 5) {
        if (r[R_NUM] == 0)
            bspram_vp_write(vp, c->RESULT, 0,
                            bspram_vp_get(vp, c->A, r[R_U]) * bspram_vp_get(vp, c->VAL, r[R_U]) +
                                bspram_vp_get(vp, c->B, r[R_U]));
        return;
    }
    if (r[R_NUM] % 2 == 0) { /* even leaves wait; after a round (every odd leaf raked) they halve */
        if (c->phase == 3 && c->right)
            r[R_NUM] /= 2;
        return;
    }
    if (c->phase == 1) {
        r[R_P] = bspram_vp_get(vp, c->PAR, r[R_U]);
        return;
    }
    const uint64_t u = r[R_U], p = r[R_P];
    if (c->phase == 2) {
        r[R_L] = bspram_vp_get(vp, c->LEFT, p);
        r[R_R] = bspram_vp_get(vp, c->RIGHT, p);
        r[R_G] = bspram_vp_get(vp, c->PAR, p);
        r[R_PLEFT] = bspram_vp_get(vp, c->ISLEFT, p);
        return;
    }
    /* phase 3: rake u if it is the child of this half-round's side */
    if ((r[R_L] == u) == c->right)
        return;
    const uint64_t s = r[R_L] == u ? r[R_R] : r[R_L], g = r[R_G];
    uint64_t x = bspram_vp_get(vp, c->VAL, u), au = bspram_vp_get(vp, c->A, u), bu = bspram_vp_get(vp, c->B, u);
    uint64_t op = bspram_vp_get(vp, c->OP, p), ap = bspram_vp_get(vp, c->A, p), bp = bspram_vp_get(vp, c->B, p);
    uint64_t as = bspram_vp_get(vp, c->A, s), bs = bspram_vp_get(vp, c->B, s);
    const uint64_t k = au * x + bu; /* what u sends up */
    uint64_t a, b;
    if (op == OP_ADD) { /* a_p·(k + a_s·x + b_s) + b_p */
        a = ap * as;
        b = ap * (k + bs) + bp;
    } else { /* a_p·(k·(a_s·x + b_s)) + b_p */
        a = ap * k * as;
        b = ap * k * bs + bp;
    }
    bspram_vp_write(vp, c->A, s, a);
    bspram_vp_write(vp, c->B, s, b);
    bspram_vp_write(vp, c->PAR, s, g);
    bspram_vp_write(vp, c->ISLEFT, s, r[R_PLEFT]);
    if (g != nil)
        bspram_vp_write(vp, r[R_PLEFT] ? c->LEFT : c->RIGHT, g, s);
    r[R_U] = nil;
}

static uint64_t vps_of(uint64_t leaves) { return leaves; }

static void run(const pram_example_params *prm, pram_example_result *res)
{
    const uint64_t L = prm->n, nodes = 2 * L - 1, nil = nodes;
    uint64_t *par = pram_example_words(nodes, "parents"), *left = pram_example_words(nodes, "left");
    uint64_t *right = pram_example_words(nodes, "right"), *isleft = pram_example_words(nodes, "sides");
    uint64_t *op = pram_example_words(nodes, "operations"), *val = pram_example_words(nodes, "values");
    uint64_t *one = pram_example_words(nodes, "ones"), *leaf = pram_example_words(L, "leaves");
    uint64_t *span = pram_example_words(nodes, "spans"), *stack = pram_example_words(nodes, "stack");
    /* A random full binary tree: node 0 spans L leaves; a node of k ≥ 2
     * leaves splits them at random; depth first, left first, so the leaves
     * come out numbered left to right. */
    uint64_t made = 1, sp = 0, nleaf = 0;
    span[0] = L;
    par[0] = nil;
    stack[sp++] = 0;
    while (sp) {
        uint64_t v = stack[--sp], k = span[v];
        one[v] = 1;
        if (k == 1) {
            left[v] = right[v] = nil;
            val[v] = pram_example_random(prm->seed, v, 0, 10);
            leaf[nleaf++] = v;
            continue;
        }
        uint64_t kl = 1 + pram_example_random(prm->seed, v, 1, k - 1), l = made++, rr = made++;
        op[v] = pram_example_random(prm->seed, v, 2, 2);
        left[v] = l, right[v] = rr;
        span[l] = kl, span[rr] = k - kl;
        par[l] = par[rr] = v;
        isleft[l] = 1, isleft[rr] = 0;
        stack[sp++] = rr; /* the left one first */
        stack[sp++] = l;
    }

    double t0 = pram_example_clock();
    bspram_pram *P = pram_example_create(prm, vps_of(L), REGISTERS, false, 1, res); /* exclusive */
    contraction c = {bspram_pram_alloc(P, "LEAF", L),      bspram_pram_alloc(P, "PAR", nodes),
                     bspram_pram_alloc(P, "LEFT", nodes),  bspram_pram_alloc(P, "RIGHT", nodes),
                     bspram_pram_alloc(P, "ISLEFT", nodes), bspram_pram_alloc(P, "OP", nodes),
                     bspram_pram_alloc(P, "VAL", nodes),   bspram_pram_alloc(P, "A", nodes),
                     bspram_pram_alloc(P, "B", nodes),     bspram_pram_alloc(P, "RESULT", 1), nil, 0, false};
    bspram_pram_load(P, c.LEAF, leaf, L);
    bspram_pram_load(P, c.PAR, par, nodes);
    bspram_pram_load(P, c.LEFT, left, nodes);
    bspram_pram_load(P, c.RIGHT, right, nodes);
    bspram_pram_load(P, c.ISLEFT, isleft, nodes);
    bspram_pram_load(P, c.OP, op, nodes);
    bspram_pram_load(P, c.VAL, val, nodes);
    bspram_pram_load(P, c.A, one, nodes); /* x ↦ 1·x + 0 */
    double t1 = pram_example_clock();
    bspram_pram_for_all(P, step, &c);
    const unsigned rounds = pram_example_log2(pram_example_pow2(L));
    for (unsigned k = 0; k < rounds; k++)
        for (int side = 0; side < 2; side++) {
            c.right = side;
            for (c.phase = 1; c.phase <= 3; c.phase++)
                bspram_pram_for_all(P, step, &c);
        }
    c.phase = 5;
    bspram_pram_for_all(P, step, &c);
    res->pram_seconds = pram_example_clock() - t1;
    res->setup_seconds = t1 - t0;
    uint64_t got;
    bspram_pram_store(P, c.RESULT, &got, 1);
    pram_example_finish(P, res);

    /* The sequential evaluation: children before parents (node ids grow
     * downwards), so one pass from the last node to the first. */
    t0 = pram_example_clock();
    for (uint64_t v = nodes; v-- > 0;)
        if (left[v] != nil)
            val[v] = op[v] == OP_ADD ? val[left[v]] + val[right[v]] : val[left[v]] * val[right[v]];
    res->seq_seconds = pram_example_clock() - t0;
    res->seq_work = 3 * nodes; /* two children's values read, one written, per node */
    const uint64_t bound = 6u * rounds + 2u;
    res->verified = got == val[0] && res->stats.steps == bound;
    snprintf(res->detail, sizeof res->detail, "value %" PRIu64 "%s of %" PRIu64 " leaves; %" PRIu64
             " steps, 6 ceil(log2 L) + 2 = %" PRIu64, got, got == val[0] ? "" : " (wrong)", L, res->stats.steps,
             bound);
    free(par), free(left), free(right), free(isleft), free(op), free(val), free(one), free(leaf), free(span);
    free(stack);
}

const pram_example pram_example_expression = {
    .name = "expression",
    .title = "expression evaluation by tree contraction (rake), EREW, textbook style",
    .n_means = "leaves",
    .models = PRAM_MODELS_EREW_UP,
    .model = BSPRAM_EREW,
    .min_n = 1,
    .max_n = UINT64_C(1) << 21,
    .small_n = 1000,
    .vps = vps_of,
    .run = run,
};

#ifndef PRAM_EXAMPLES_LIBRARY
int main(int argc, char **argv) { return pram_example_main(argc, argv, &pram_example_expression); }
#endif
