/* The reductions' operations: the combining engine's, built in or
 * registered with bsp_shm_add_op (combine.h, bsp_shm.h). Folds keep the
 * operands' rank order (left ⊕ right), so non-commutative bracketing never
 * arises and every algorithm's result is a fold of x_0 … x_{n−1} in order. */
#include "coll/coll_internal.h"
#include "combine/bsp_shm_internal.h"
#include "combine/ops_internal.h"

coll_op bspram__coll_op_get(const coll_call *c, unsigned id)
{
    coll_op op = {id, NULL, NULL, 0};
    if (id < BSPRAM_BUILTIN_OPS) {
        op.identity = bspram__combine_ops[id].identity.u;
        return op;
    }
    if (bspram__combine_bsplib_shm_user_op(c->me->world, id, &op.user, &op.ctx, &op.identity) != 0)
        bspram__coll_fail(c, "unknown operation %u; valid: 0..%u (built in: bspram_op_builtin) and the "
                  "ids bsp_shm_add_op returned, from the superstep after the call", id,
                  BSPRAM_BUILTIN_OPS - 1);
    return op;
}

void bspram__coll_op_fold(const coll_op *op, uint64_t *acc, const uint64_t *x, size_t count)
{
    if (op->user) {
        for (size_t i = 0; i < count; i++)
            acc[i] = op->user(acc[i], x[i], op->ctx);
        return;
    }
    bspram__combine_ops[op->id].fold(acc, x, count);
}

void bspram__coll_op_fold_left(const coll_op *op, uint64_t *acc, const uint64_t *x, size_t count)
{
    if (op->user) {
        for (size_t i = 0; i < count; i++)
            acc[i] = op->user(x[i], acc[i], op->ctx);
        return;
    }
    bspram__combine_ops[op->id].fold_left(acc, x, count);
}
