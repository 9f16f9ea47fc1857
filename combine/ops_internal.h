/* The built-in operations as one table of descriptors (not installed),
 * indexed by the op code (bspram_op_builtin: kind + 7·type) and defined in
 * ops.c. Everything that knows what an op code means reads it:
 * bspram_op_name, bspram_op_parse, bspram_op_identity and bspram_op_apply
 * (ops.c), the engine's inner loop (engine_internal.h, bspram__apply) and
 * the collectives' folds (coll/ops.c). */
#ifndef BSPRAM_COMBINE_OPS_INTERNAL_H
#define BSPRAM_COMBINE_OPS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "combine/combine.h"

typedef struct op_desc {
    const char *name;  /* "sum:i64": bspram_op_name, bspram_op_parse */
    bspram_op_kind kind;
    bspram_type type;  /* how the 64-bit words are read */
    union {
        uint64_t u;    /* the identity as a word (always read as .u) */
        double f;
    } identity;
    uint64_t (*apply)(uint64_t a, uint64_t b); /* a ⊕ b */
    /* acc[i] ← acc[i] ⊕ x[i] and acc[i] ← x[i] ⊕ acc[i] for i < n (the
     * collectives keep the operands' order: min and max of doubles are not
     * commutative on −0/+0 and NaNs) */
    void (*fold)(uint64_t *acc, const uint64_t *x, size_t n);
    void (*fold_left)(uint64_t *acc, const uint64_t *x, size_t n);
} op_desc;

extern const op_desc bspram__combine_ops[BSPRAM_BUILTIN_OPS];

#endif
