/* The built-in commutative associative operations (Valiant §5: "sum, product,
 * minimum, or Boolean disjunction over arbitrary sets of elements"), on
 * 64-bit words read as int64, uint64 or double: one table of descriptors
 * (ops_internal.h), each row's functions made from one expression of a and b. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "combine/combine.h"
#include "combine/ops_internal.h"

static inline double op_f(uint64_t x)
{
    double d;
    memcpy(&d, &x, sizeof d);
    return d;
}

static inline uint64_t op_w(double d)
{
    uint64_t x;
    memcpy(&x, &d, sizeof x);
    return x;
}

/* An operation's apply, fold and fold_left, from its expression of a and b. */
#define OP_FUNCTIONS(fn, expr)                                                   \
    static uint64_t fn##_apply(uint64_t a, uint64_t b) { return (expr); }        \
    static void fn##_fold(uint64_t *acc, const uint64_t *x, size_t n)            \
    {                                                                            \
        for (size_t i = 0; i < n; i++) {                                         \
            uint64_t a = acc[i], b = x[i];                                       \
            acc[i] = (expr);                                                     \
        }                                                                        \
    }                                                                            \
    static void fn##_fold_left(uint64_t *acc, const uint64_t *x, size_t n)       \
    {                                                                            \
        for (size_t i = 0; i < n; i++) {                                         \
            uint64_t a = x[i], b = acc[i];                                       \
            acc[i] = (expr);                                                     \
        }                                                                        \
    }

/* Integers: sums and products wrap mod 2^64 (as int64 in two's complement),
 * so i64 and u64 share them, and the bitwise operations. */
OP_FUNCTIONS(sum, a + b)
OP_FUNCTIONS(prod, a * b)
OP_FUNCTIONS(min_i64, (int64_t)a < (int64_t)b ? a : b)
OP_FUNCTIONS(max_i64, (int64_t)a > (int64_t)b ? a : b)
OP_FUNCTIONS(min_u64, a < b ? a : b)
OP_FUNCTIONS(max_u64, a > b ? a : b)
OP_FUNCTIONS(and, a & b)
OP_FUNCTIONS(or, a | b)
OP_FUNCTIONS(xor, a ^ b)
/* Doubles; and, or and xor are logical (nonzero is true; 1.0 or 0.0). */
OP_FUNCTIONS(sum_f64, op_w(op_f(a) + op_f(b)))
OP_FUNCTIONS(prod_f64, op_w(op_f(a) * op_f(b)))
OP_FUNCTIONS(min_f64, op_f(a) <= op_f(b) ? a : b)
OP_FUNCTIONS(max_f64, op_f(a) >= op_f(b) ? a : b)
OP_FUNCTIONS(and_f64, op_w((op_f(a) != 0.0 && op_f(b) != 0.0) ? 1.0 : 0.0))
OP_FUNCTIONS(or_f64, op_w((op_f(a) != 0.0 || op_f(b) != 0.0) ? 1.0 : 0.0))
OP_FUNCTIONS(xor_f64, op_w(((op_f(a) != 0.0) != (op_f(b) != 0.0)) ? 1.0 : 0.0))

/* Row KIND:TYPE at its op code; ID is the identity's union member and value. */
#define OP_ROW(KIND, TYPE, text, ID, fn)                                          \
    [BSPRAM_OP_##KIND + 7 * BSPRAM_TYPE_##TYPE] = {                               \
        .name = text, .kind = BSPRAM_OP_##KIND, .type = BSPRAM_TYPE_##TYPE,        \
        .identity = {ID}, .apply = fn##_apply, .fold = fn##_fold,                 \
        .fold_left = fn##_fold_left}

const op_desc bspram__combine_ops[BSPRAM_BUILTIN_OPS] = {
    OP_ROW(SUM, I64, "sum:i64", .u = 0, sum),
    OP_ROW(PROD, I64, "prod:i64", .u = 1, prod),
    OP_ROW(MIN, I64, "min:i64", .u = (uint64_t)INT64_MAX, min_i64),
    OP_ROW(MAX, I64, "max:i64", .u = (uint64_t)INT64_MIN, max_i64),
    OP_ROW(AND, I64, "and:i64", .u = ~UINT64_C(0), and),
    OP_ROW(OR, I64, "or:i64", .u = 0, or),
    OP_ROW(XOR, I64, "xor:i64", .u = 0, xor),
    OP_ROW(SUM, U64, "sum:u64", .u = 0, sum),
    OP_ROW(PROD, U64, "prod:u64", .u = 1, prod),
    OP_ROW(MIN, U64, "min:u64", .u = UINT64_MAX, min_u64),
    OP_ROW(MAX, U64, "max:u64", .u = 0, max_u64),
    OP_ROW(AND, U64, "and:u64", .u = ~UINT64_C(0), and),
    OP_ROW(OR, U64, "or:u64", .u = 0, or),
    OP_ROW(XOR, U64, "xor:u64", .u = 0, xor),
    OP_ROW(SUM, F64, "sum:f64", .f = 0.0, sum_f64),
    OP_ROW(PROD, F64, "prod:f64", .f = 1.0, prod_f64),
    OP_ROW(MIN, F64, "min:f64", .f = __builtin_inf(), min_f64),
    OP_ROW(MAX, F64, "max:f64", .f = -__builtin_inf(), max_f64),
    OP_ROW(AND, F64, "and:f64", .f = 1.0, and_f64),
    OP_ROW(OR, F64, "or:f64", .f = 0.0, or_f64),
    OP_ROW(XOR, F64, "xor:f64", .f = 0.0, xor_f64),
};

int bspram_op_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    /* "kind:type" is a row's name; a bare "kind" is kind:i64. */
    const size_t len = strlen(name);
    const int bare = strchr(name, ':') == NULL;
    for (unsigned op = 0; op < BSPRAM_BUILTIN_OPS; op++) {
        const op_desc *d = &bspram__combine_ops[op];
        if (bare ? d->type == BSPRAM_TYPE_I64 && !strncmp(name, d->name, len) && d->name[len] == ':'
                 : !strcmp(name, d->name))
            return (int)op;
    }
    return -1;
}

const char *bspram_op_name(unsigned op)
{
    return op < BSPRAM_BUILTIN_OPS ? bspram__combine_ops[op].name : NULL;
}

uint64_t bspram_op_identity(unsigned op)
{
    return op < BSPRAM_BUILTIN_OPS ? bspram__combine_ops[op].identity.u : 0;
}

uint64_t bspram_op_apply(unsigned op, uint64_t a, uint64_t b)
{
    return op < BSPRAM_BUILTIN_OPS ? bspram__combine_ops[op].apply(a, b) : a;
}
