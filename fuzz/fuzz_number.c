/* Fuzz the strict number parsers (base/number.h): bspram_parse_u64 and
 * bspram_parse_double never read past the string, and what they accept is
 * in range, spelled as the grammar says, and prints back to the same value.
 *
 * Input: one byte choosing the range, then the text. */
#include <math.h>
#include <float.h>

#include "base/number.h"
#include "fuzz/fuzz.h"

static const uint64_t u_range[][2] = {
    {0, UINT64_MAX}, {1, 1024}, {1, UINT64_C(1) << 31}, {0, 0}, {7, 7}, {UINT64_MAX - 5, UINT64_MAX},
};
static const double d_range[][2] = {
    {0, DBL_MAX}, {-DBL_MAX, DBL_MAX}, {0, 1}, {-1e-300, 1e-300}, {1e300, DBL_MAX},
};
#define COUNT(a) (sizeof a / sizeof a[0])

static void check_u64(const char *text, uint64_t min, uint64_t max)
{
    uint64_t x = 12345, untouched = 12345;
    if (bspram_parse_u64(text, min, max, &x) != 0) {
        FUZZ_CHECK(x == untouched);
        return;
    }
    FUZZ_CHECK(x >= min && x <= max);
    FUZZ_CHECK(*text && strspn(text, "0123456789") == strlen(text));
    char again[32];
    snprintf(again, sizeof again, "%llu", (unsigned long long)x);
    uint64_t y = 0;
    FUZZ_CHECK(bspram_parse_u64(again, min, max, &y) == 0 && y == x);
}

static void check_double(const char *text, double min, double max)
{
    double x = 12345, untouched = 12345;
    if (bspram_parse_double(text, min, max, &x) != 0) {
        FUZZ_CHECK(x == untouched);
        return;
    }
    FUZZ_CHECK(isfinite(x) && x >= min && x <= max);
    /* strtod's extras never pass: no space, '+' first, hex, nan or inf. */
    FUZZ_CHECK(strspn(text, "0123456789.eE+-") == strlen(text));
    FUZZ_CHECK(text[0] != '+');
    /* Printed with 17 significant digits, a double reads back as itself.
     * (A subnormal may be refused as an underflow either way: skipped.) */
    if (x == 0 || fpclassify(x) == FP_NORMAL) {
        char again[40];
        snprintf(again, sizeof again, "%.17g", x);
        double y = 0;
        FUZZ_CHECK(bspram_parse_double(again, min, max, &y) == 0 && y == x);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned pick = data[0];
    char *text = fuzz_string(data + 1, size - 1);
    const uint64_t *u = u_range[pick % COUNT(u_range)];
    const double *d = d_range[(pick / COUNT(u_range)) % COUNT(d_range)];
    check_u64(text, u[0], u[1]);
    check_u64(text, 0, UINT64_MAX);
    check_double(text, d[0], d[1]);
    check_double(text, -DBL_MAX, DBL_MAX);
    free(text);
    return 0;
}
