/* Fuzz the strict number parsers (base/number.h): bspram__base_parse_u64 and
 * bspram__base_parse_double never read past the string, and what they accept is
 * in range, spelled as the grammar says, and prints back to the same value.
 * And the quoting of text in error lines, bspram__base_escape_controls: no control
 * character left, the length it says, cut only between escapes.
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
    if (bspram__base_parse_u64(text, min, max, &x) != 0) {
        FUZZ_CHECK(x == untouched);
        return;
    }
    FUZZ_CHECK(x >= min && x <= max);
    FUZZ_CHECK(*text && strspn(text, "0123456789") == strlen(text));
    char again[32];
    snprintf(again, sizeof again, "%llu", (unsigned long long)x);
    uint64_t y = 0;
    FUZZ_CHECK(bspram__base_parse_u64(again, min, max, &y) == 0 && y == x);
}

static void check_double(const char *text, double min, double max)
{
    double x = 12345, untouched = 12345;
    if (bspram__base_parse_double(text, min, max, &x) != 0) {
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
        FUZZ_CHECK(bspram__base_parse_double(again, min, max, &y) == 0 && y == x);
    }
}

/* The escape of one byte: \n, \r, \t, \xHH or the byte itself. */
static size_t escape_len(unsigned char c)
{
    return c == '\n' || c == '\r' || c == '\t' ? 2 : c < 0x20 || c == 0x7f ? 4 : 1;
}

static void check_escape(const char *text, size_t room)
{
    size_t need = bspram__base_escape_controls(NULL, 0, text);
    char *all = malloc(need + 1), *some = malloc(room + 1);
    if (!all || !some)
        abort();
    FUZZ_CHECK(bspram__base_escape_controls(all, need + 1, text) == need && strlen(all) == need);
    for (const unsigned char *s = (const unsigned char *)all; *s; s++)
        FUZZ_CHECK(*s >= 0x20 && *s != 0x7f);
    /* Byte by byte: each escape where it should be, the printable bytes as
     * they are. */
    size_t at = 0;
    for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
        size_t k = escape_len(*s);
        FUZZ_CHECK(at + k <= need);
        if (k == 1)
            FUZZ_CHECK((unsigned char)all[at] == *s);
        else
            FUZZ_CHECK(all[at] == '\\');
        at += k;
    }
    FUZZ_CHECK(at == need);
    /* A smaller buffer holds the escapes that fit whole, and nothing past it. */
    some[room] = 'X';
    FUZZ_CHECK(bspram__base_escape_controls(some, room, text) == need);
    FUZZ_CHECK(some[room] == 'X');
    if (room) {
        size_t want = 0;
        for (const unsigned char *s = (const unsigned char *)text; *s && want + escape_len(*s) < room; s++)
            want += escape_len(*s);
        FUZZ_CHECK(strlen(some) == want && !strncmp(some, all, want));
    }
    free(all);
    free(some);
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
    check_escape(text, pick % 24);
    free(text);
    return 0;
}
