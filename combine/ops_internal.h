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
#include <string.h>

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

static inline double bspram__op_f(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}
static inline uint64_t bspram__op_w(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

/* Each built-in operation's expression of a and b, written once: ops.c makes
 * the table's functions of them, bspram__op_apply_builtin a switch. */
#define BSPRAM__OP_EXPR_sum(a, b) ((a) + (b))
#define BSPRAM__OP_EXPR_prod(a, b) ((a) * (b))
#define BSPRAM__OP_EXPR_min_i64(a, b) ((int64_t)(a) < (int64_t)(b) ? (a) : (b))
#define BSPRAM__OP_EXPR_max_i64(a, b) ((int64_t)(a) > (int64_t)(b) ? (a) : (b))
#define BSPRAM__OP_EXPR_min_u64(a, b) ((a) < (b) ? (a) : (b))
#define BSPRAM__OP_EXPR_max_u64(a, b) ((a) > (b) ? (a) : (b))
#define BSPRAM__OP_EXPR_and(a, b) ((a) & (b))
#define BSPRAM__OP_EXPR_or(a, b) ((a) | (b))
#define BSPRAM__OP_EXPR_xor(a, b) ((a) ^ (b))
#define BSPRAM__OP_EXPR_sum_f64(a, b) bspram__op_w(bspram__op_f(a) + bspram__op_f(b))
#define BSPRAM__OP_EXPR_prod_f64(a, b) bspram__op_w(bspram__op_f(a) * bspram__op_f(b))
#define BSPRAM__OP_EXPR_min_f64(a, b) (bspram__op_f(a) <= bspram__op_f(b) ? (a) : (b))
#define BSPRAM__OP_EXPR_max_f64(a, b) (bspram__op_f(a) >= bspram__op_f(b) ? (a) : (b))
#define BSPRAM__OP_EXPR_and_f64(a, b) \
    bspram__op_w((bspram__op_f(a) != 0.0 && bspram__op_f(b) != 0.0) ? 1.0 : 0.0)
#define BSPRAM__OP_EXPR_or_f64(a, b) \
    bspram__op_w((bspram__op_f(a) != 0.0 || bspram__op_f(b) != 0.0) ? 1.0 : 0.0)
#define BSPRAM__OP_EXPR_xor_f64(a, b) \
    bspram__op_w(((bspram__op_f(a) != 0.0) != (bspram__op_f(b) != 0.0)) ? 1.0 : 0.0)

/* The rows: X(KIND, TYPE, name, identity, expression) at op code KIND + 7·TYPE. */
#define BSPRAM__OP_ROWS(X)                                                      \
    X(SUM, I64, "sum:i64", .u = 0, sum)                                         \
    X(PROD, I64, "prod:i64", .u = 1, prod)                                      \
    X(MIN, I64, "min:i64", .u = (uint64_t)INT64_MAX, min_i64)                   \
    X(MAX, I64, "max:i64", .u = (uint64_t)INT64_MIN, max_i64)                   \
    X(AND, I64, "and:i64", .u = ~UINT64_C(0), and)                              \
    X(OR, I64, "or:i64", .u = 0, or)                                            \
    X(XOR, I64, "xor:i64", .u = 0, xor)                                         \
    X(SUM, U64, "sum:u64", .u = 0, sum)                                         \
    X(PROD, U64, "prod:u64", .u = 1, prod)                                      \
    X(MIN, U64, "min:u64", .u = UINT64_MAX, min_u64)                            \
    X(MAX, U64, "max:u64", .u = 0, max_u64)                                     \
    X(AND, U64, "and:u64", .u = ~UINT64_C(0), and)                              \
    X(OR, U64, "or:u64", .u = 0, or)                                            \
    X(XOR, U64, "xor:u64", .u = 0, xor)                                         \
    X(SUM, F64, "sum:f64", .f = 0.0, sum_f64)                                   \
    X(PROD, F64, "prod:f64", .f = 1.0, prod_f64)                                \
    X(MIN, F64, "min:f64", .f = __builtin_inf(), min_f64)                       \
    X(MAX, F64, "max:f64", .f = -__builtin_inf(), max_f64)                      \
    X(AND, F64, "and:f64", .f = 1.0, and_f64)                                   \
    X(OR, F64, "or:f64", .f = 0.0, or_f64)                                      \
    X(XOR, F64, "xor:f64", .f = 0.0, xor_f64)

#define BSPRAM__OP_CASE(KIND, TYPE, text, ID, fn) \
    case BSPRAM_OP_##KIND + 7 * BSPRAM_TYPE_##TYPE: return BSPRAM__OP_EXPR_##fn(a, b);

/* a ⊕ b for built-in op < BSPRAM_BUILTIN_OPS as a switch, so that the
 * engine's loops inline it (the table's call through a pointer cost +0.84 %
 * instructions and a call per merge). */
static inline uint64_t bspram__op_apply_builtin(unsigned op, uint64_t a, uint64_t b)
{
    switch (op) {
        BSPRAM__OP_ROWS(BSPRAM__OP_CASE)
    default: return a;
    }
}

#endif
