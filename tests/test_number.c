/* The strict number parsers (base/number.h): the whole string or nothing,
 * the range checked, overflow detected — never strtoull's lenient reading
 * (" -1" as 2^64 - 1, "2x" as 2, "1e3" as 1, "abc" as 0). */
#include <math.h>
#include <stdint.h>

#include "base/number.h"
#include "check.h"

#define SENTINEL UINT64_C(424242)

/* Parse text in [min, max]; the value, or SENTINEL if refused (and then
 * *out must be untouched, which the sentinel also shows). */
static uint64_t u(const char *text, uint64_t min, uint64_t max)
{
    uint64_t x = SENTINEL;
    int rc = bspram__base_parse_u64(text, min, max, &x);
    if (rc != 0)
        CHECK(x == SENTINEL); /* refused: *out untouched */
    return rc == 0 ? x : SENTINEL;
}

static int d_ok(const char *text, double min, double max, double want)
{
    double x = -12345;
    return bspram__base_parse_double(text, min, max, &x) == 0 && x == want;
}

static int d_refused(const char *text, double min, double max)
{
    double x = -12345;
    return bspram__base_parse_double(text, min, max, &x) == -1 && x == -12345;
}

int main(void)
{
    const uint64_t M = UINT64_MAX;
    /* boundaries */
    CHECK_EQ_U64(u("0", 0, M), 0);
    CHECK_EQ_U64(u("0", 1, M), SENTINEL);
    CHECK_EQ_U64(u("1", 1, 10), 1);
    CHECK_EQ_U64(u("10", 1, 10), 10);
    CHECK_EQ_U64(u("11", 1, 10), SENTINEL);
    CHECK_EQ_U64(u("65536", 1, 65536), 65536);
    CHECK_EQ_U64(u("65537", 1, 65536), SENTINEL);
    CHECK_EQ_U64(u("4294967295", 1, 4294967295u), 4294967295u);
    CHECK_EQ_U64(u("4294967296", 1, 4294967295u), SENTINEL);
    CHECK_EQ_U64(u("18446744073709551615", 0, M), M);           /* 2^64 - 1 */
    CHECK_EQ_U64(u("18446744073709551616", 0, M), SENTINEL);    /* 2^64 */
    CHECK_EQ_U64(u("18446744073709551620", 0, M), SENTINEL);
    CHECK_EQ_U64(u("99999999999999999999999", 0, M), SENTINEL);
    /* leading zeros are fine */
    CHECK_EQ_U64(u("01", 0, M), 1);
    CHECK_EQ_U64(u("000000000000000000000000000042", 0, M), 42);
    /* not whole numbers */
    CHECK_EQ_U64(u("", 0, M), SENTINEL);
    CHECK_EQ_U64(u(NULL, 0, M), SENTINEL);
    CHECK_EQ_U64(u(" 1", 0, M), SENTINEL);
    CHECK_EQ_U64(u("1 ", 0, M), SENTINEL);
    CHECK_EQ_U64(u("+1", 0, M), SENTINEL);
    CHECK_EQ_U64(u("-0", 0, M), SENTINEL);
    CHECK_EQ_U64(u("-1", 0, M), SENTINEL);
    CHECK_EQ_U64(u(" -1", 0, M), SENTINEL);
    CHECK_EQ_U64(u("0x10", 0, M), SENTINEL);
    CHECK_EQ_U64(u("1e3", 0, M), SENTINEL);
    CHECK_EQ_U64(u("2x", 0, M), SENTINEL);
    CHECK_EQ_U64(u("abc", 0, M), SENTINEL);
    CHECK_EQ_U64(u("1.0", 0, M), SENTINEL);
    CHECK_EQ_U64(u("1\n", 0, M), SENTINEL);

    /* doubles */
    CHECK(d_ok("1", 0, 10, 1));
    CHECK(d_ok("0", 0, 10, 0));
    CHECK(d_ok("-0", -1, 10, 0));
    CHECK(d_ok("2.5", 0, 10, 2.5));
    CHECK(d_ok(".5", 0, 10, 0.5));
    CHECK(d_ok("5.", 0, 10, 5));
    CHECK(d_ok("1e3", 0, 1e4, 1000));
    CHECK(d_ok("1.5E-3", 0, 1, 1.5e-3));
    CHECK(d_ok("-1", -10, 10, -1));
    CHECK(d_ok("10", 0, 10, 10));
    CHECK(d_refused("10.0001", 0, 10));
    CHECK(d_refused("-1", 0, 10));
    CHECK(d_refused("", 0, 10));
    CHECK(d_refused(NULL, 0, 10));
    CHECK(d_refused(" 1", 0, 10));
    CHECK(d_refused("1 ", 0, 10));
    CHECK(d_refused("+1", 0, 10));
    CHECK(d_refused(".", 0, 10));
    CHECK(d_refused("e3", 0, 10));
    CHECK(d_refused("1e", 0, 10));
    CHECK(d_refused("1e+", 0, 10));
    CHECK(d_refused("0x10", 0, 100));
    CHECK(d_refused("0x1p3", 0, 100));
    CHECK(d_refused("nan", -INFINITY, INFINITY));
    CHECK(d_refused("NAN", -INFINITY, INFINITY));
    CHECK(d_refused("inf", -INFINITY, INFINITY));
    CHECK(d_refused("-inf", -INFINITY, INFINITY));
    CHECK(d_refused("infinity", -INFINITY, INFINITY));
    CHECK(d_refused("1e400", -INFINITY, INFINITY));
    CHECK(d_refused("-1e400", -INFINITY, INFINITY));
    CHECK(d_refused("1e-400", -INFINITY, INFINITY));
    CHECK(d_refused("1,5", 0, 10));
    /* a range of NaN bounds accepts nothing */
    CHECK(d_refused("1", NAN, 10));
    return check_report("test_number");
}
