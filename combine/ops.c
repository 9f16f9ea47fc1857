/* The built-in commutative associative operations (Valiant §5: "sum, product,
 * minimum, or Boolean disjunction over arbitrary sets of elements"), on
 * 64-bit words read as int64, uint64 or double: one table of descriptors
 * (ops_internal.h), each row's functions made from one expression of a and b. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "combine/combine.h"
#include "combine/ops_internal.h"

/* An operation's apply, fold and fold_left, from its expression of a and b
 * (ops_internal.h, BSPRAM__OP_EXPR_fn: the one place each is written). */
#define OP_FUNCTIONS(fn)                                                         \
    static uint64_t fn##_apply(uint64_t a, uint64_t b) { return BSPRAM__OP_EXPR_##fn(a, b); } \
    static void fn##_fold(uint64_t *acc, const uint64_t *x, size_t n)            \
    {                                                                            \
        for (size_t i = 0; i < n; i++)                                           \
            acc[i] = BSPRAM__OP_EXPR_##fn(acc[i], x[i]);                         \
    }                                                                            \
    static void fn##_fold_left(uint64_t *acc, const uint64_t *x, size_t n)       \
    {                                                                            \
        for (size_t i = 0; i < n; i++)                                           \
            acc[i] = BSPRAM__OP_EXPR_##fn(x[i], acc[i]);                         \
    }

/* Integers: sums and products wrap mod 2^64 (as int64 in two's complement),
 * so i64 and u64 share them, and the bitwise operations; doubles' and, or
 * and xor are logical (nonzero is true; 1.0 or 0.0). */
OP_FUNCTIONS(sum)
OP_FUNCTIONS(prod)
OP_FUNCTIONS(min_i64)
OP_FUNCTIONS(max_i64)
OP_FUNCTIONS(min_u64)
OP_FUNCTIONS(max_u64)
OP_FUNCTIONS(and)
OP_FUNCTIONS(or)
OP_FUNCTIONS(xor)
OP_FUNCTIONS(sum_f64)
OP_FUNCTIONS(prod_f64)
OP_FUNCTIONS(min_f64)
OP_FUNCTIONS(max_f64)
OP_FUNCTIONS(and_f64)
OP_FUNCTIONS(or_f64)
OP_FUNCTIONS(xor_f64)

/* Row KIND:TYPE at its op code; ID is the identity's union member and value. */
#define OP_ROW(KIND, TYPE, text, ID, fn)                                          \
    [BSPRAM_OP_##KIND + 7 * BSPRAM_TYPE_##TYPE] = {                               \
        .name = text, .kind = BSPRAM_OP_##KIND, .type = BSPRAM_TYPE_##TYPE,        \
        .identity = {ID}, .apply = fn##_apply, .fold = fn##_fold,                 \
        .fold_left = fn##_fold_left},

const op_desc bspram__combine_ops[BSPRAM_BUILTIN_OPS] = {BSPRAM__OP_ROWS(OP_ROW)};

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

/* An id past the built-in ones is a misuse (a user operation's id, or
 * none): a value made up for it (0, or a unchanged) would look computed. */
static void builtin_check(const char *call, unsigned op)
{
    if (op >= BSPRAM_BUILTIN_OPS)
        bspram__base_fatal("%s(op=%u): not a built-in operation; valid: 0..%u (a combiner's own "
                           "operations: bspram_combiner_op_identity)", call, op, BSPRAM_BUILTIN_OPS - 1);
}

uint64_t bspram_op_identity(unsigned op)
{
    builtin_check(__func__, op);
    return bspram__combine_ops[op].identity.u;
}

uint64_t bspram_op_apply(unsigned op, uint64_t a, uint64_t b)
{
    builtin_check(__func__, op);
    return bspram__combine_ops[op].apply(a, b);
}
