/* The built-in commutative associative operations (Valiant §5: "sum, product,
 * minimum, or Boolean disjunction over arbitrary sets of elements"), on
 * 64-bit words read as int64, uint64 or double. */
#include <stdio.h>
#include <string.h>

#include "base/error.h"
#include "combine/combine.h"
#include "combine/ops_internal.h"

static const char *const op_names[7] = {"sum", "prod", "min", "max", "and", "or", "xor"};
static const char *const type_names[3] = {"i64", "u64", "f64"};

int bspram_op_parse(const char *name)
{
    BSPRAM_NONNULL(name);
    char base[16];
    const char *colon = strchr(name, ':');
    size_t len = colon ? (size_t)(colon - name) : strlen(name);
    if (len == 0 || len >= sizeof base)
        return -1;
    memcpy(base, name, len);
    base[len] = 0;
    int type = 0;
    if (colon) {
        type = -1;
        for (int t = 0; t < 3; t++)
            if (!strcmp(colon + 1, type_names[t]))
                type = t;
        if (type < 0)
            return -1;
    }
    for (int k = 0; k < 7; k++)
        if (!strcmp(base, op_names[k]))
            return (int)bspram_op_builtin((bspram_op_kind)k, (bspram_type)type);
    return -1;
}

const char *bspram_op_name(unsigned op)
{
    static const char *const names[BSPRAM_BUILTIN_OPS] = {
        "sum:i64", "prod:i64", "min:i64", "max:i64", "and:i64", "or:i64", "xor:i64",
        "sum:u64", "prod:u64", "min:u64", "max:u64", "and:u64", "or:u64", "xor:u64",
        "sum:f64", "prod:f64", "min:f64", "max:f64", "and:f64", "or:f64", "xor:f64"};
    return op < BSPRAM_BUILTIN_OPS ? names[op] : NULL;
}

uint64_t bspram_op_identity(unsigned op)
{
    return op_identity(op);
}

uint64_t bspram_op_apply(unsigned op, uint64_t a, uint64_t b)
{
    return op_apply_builtin(op, a, b);
}
