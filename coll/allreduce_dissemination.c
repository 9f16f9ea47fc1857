/* Allreduce, dissemination: every member gets every operand by Bruck's
 * concatenation — Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient
 * algorithms for all-to-all communications in multiport message-passing
 * systems", IEEE TPDS 8(11), 1997, §4 (k ports; allgather_bruck.c) — with
 * blocks of m = 8·count bytes, and folds them locally in rank order,
 * (…(x_0 ⊕ x_1) ⊕ …) ⊕ x_{n−1}:
 *     C1 = ⌈log_{k+1} n⌉,  C2 = ⌈m(n−1)/k⌉,
 * the concatenation's, both optimal (Bruck Theorem 4.3) except in the range
 * of bsp_coll_tradeoff (m ≥ 3 always holds here; k ≥ 3 and
 * (k+1)^d − k < n < (k+1)^d), where the concatenation's own figures hold
 * (one round more, or C2 up to m − 1 above). The fewest rounds of any
 * allreduce, for short vectors; every member folds the same operands in the
 * same order, so all get the same bits, and the bracketing is the
 * sequential one of reduce_direct.c and scan_direct.c. With k ≥ n − 1 the
 * concatenation is one round of every operand straight to every member,
 * put from send into its place, without Bruck's plan and rotation. */

#include "coll/coll_internal.h"

COLL_PREDICT(allreduce_dissemination)
{
    return bspram__coll_predict_allgather_bruck(n, b, radix, ports, tradeoff);
}

void bspram__coll_allreduce_dissemination(coll_call *c, const coll_args *a)
{
    unsigned n = c->n;
    size_t count = a->count, m = a->block;
    const coll_op op = a->fold;
    /* The concatenation's output: scratch 2, which the concatenation does
     * not use (it keeps its blocks in 0 and its plan in 1). */
    uint64_t *all = coll_scratch(c, 2, (size_t)n * m + 8);
    if (n >= 2 && a->ports >= n - 1) {
        /* One round (k ≥ n − 1: Bruck's concatenation is then every operand
         * straight to every member, the same messages): put the operand
         * from send itself into place, no plan, no rotation. */
        const unsigned me = c->rank;
        if (m)
            coll_copy(all + (size_t)me * count, a->send, m);
        bspram__coll_window(c, all, (size_t)n * m);
        for (unsigned d = 1; d < n; d++)
            bspram__coll_put(c, (me + d) % n, (size_t)me * m, a->send, m);
        bspram__coll_round(c, true);
    } else {
        coll_args g = {.send = m ? a->send : (const void *)all, .recv = all, .block = m,
                       .radix = a->radix, .ports = a->ports, .tradeoff = a->tradeoff};
        bspram__coll_allgather_bruck(c, &g); /* the last part: c->then stays 0 */
    }
    /* Left to right, (…(x_0 ⊕ x_1) ⊕ …) ⊕ x_{n−1}, in the aligned scratch
     * (the user's recv need not be aligned). */
    for (unsigned i = 1; i < n; i++)
        bspram__coll_op_fold(&op, all, all + (size_t)i * count, count);
    if (m)
        coll_copy(a->recv, all, m);
}
