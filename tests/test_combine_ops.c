/* The built-in operations on literal values (their documented meaning), and
 * their names. */
#include <string.h>

#include "check.h"
#include "combine/combine.h"

static uint64_t d(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static uint64_t ap(const char *name, uint64_t a, uint64_t b)
{
    int op = bspram_op_parse(name);
    CHECK(op >= 0);
    return bspram_op_apply((unsigned)op, a, b);
}

int main(void)
{
    CHECK_EQ_U64(ap("sum", 5, (uint64_t)-7), (uint64_t)-2);
    CHECK_EQ_U64(ap("prod:i64", (uint64_t)-3, 4), (uint64_t)-12);
    CHECK_EQ_U64(ap("min", (uint64_t)-3, 2), (uint64_t)-3);      /* signed */
    CHECK_EQ_U64(ap("min:u64", (uint64_t)-3, 2), 2);             /* unsigned */
    CHECK_EQ_U64(ap("max:i64", (uint64_t)-3, 2), 2);
    CHECK_EQ_U64(ap("max:u64", (uint64_t)-3, 2), (uint64_t)-3);
    CHECK_EQ_U64(ap("and", 12, 10), 8);
    CHECK_EQ_U64(ap("or:u64", 12, 10), 14);
    CHECK_EQ_U64(ap("xor", 12, 10), 6);
    CHECK_EQ_U64(ap("sum:f64", d(1.5), d(2.25)), d(3.75));
    CHECK_EQ_U64(ap("prod:f64", d(1.5), d(-2.0)), d(-3.0));
    CHECK_EQ_U64(ap("min:f64", d(-0.5), d(2.0)), d(-0.5));
    CHECK_EQ_U64(ap("max:f64", d(-0.5), d(2.0)), d(2.0));
    CHECK_EQ_U64(ap("and:f64", d(3.0), d(0.0)), d(0.0));
    CHECK_EQ_U64(ap("or:f64", d(3.0), d(0.0)), d(1.0));
    CHECK_EQ_U64(ap("xor:f64", d(3.0), d(-1.0)), d(0.0));
    /* identities */
    static const char *const names[] = {"sum", "prod", "min", "max", "and", "or", "xor"};
    static const char *const types[] = {"i64", "u64", "f64"};
    uint64_t samples[3] = {(uint64_t)-5, 77, d(-2.5)};
    for (int t = 0; t < 3; t++)
        for (int k = 0; k < 7; k++) {
            char name[16];
            snprintf(name, sizeof name, "%s:%s", names[k], types[t]);
            int op = bspram_op_parse(name);
            CHECK(op >= 0 && !strcmp(bspram_op_name((unsigned)op), name));
            uint64_t x = samples[t];
            if (t == 2 && k >= 4)
                x = d(1.0); /* logical ops: identity holds on truth values */
            CHECK_EQ_U64(bspram_op_apply((unsigned)op, bspram_op_identity((unsigned)op), x), x);
        }
    CHECK(bspram_op_parse("median") == -1);
    CHECK(bspram_op_parse("sum:i32") == -1);
    CHECK(bspram_op_name(21) == NULL);
    return check_report("test_combine_ops");
}
