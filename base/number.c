/* The strict number parsers (number.h). */
#include "base/number.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bspram__base_parse_u64(const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    if (!text || !*text)
        return -1;
    uint64_t x = 0;
    for (const char *s = text; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (x > (UINT64_MAX - d) / 10) /* x·10 + d would wrap */
            return -1;
        x = x * 10 + d;
    }
    if (x < min || x > max)
        return -1;
    *out = x;
    return 0;
}

int bspram__base_parse_double(const char *text, double min, double max, double *out)
{
    if (!text)
        return -1;
    /* The grammar first, so that strtod's extras (space, '+', hex, nan, inf)
     * never get a chance: -?digits[.digits][(e|E)[+-]digits], at least one
     * digit in the mantissa. */
    const char *s = text;
    if (*s == '-')
        s++;
    int digits = 0;
    while (*s >= '0' && *s <= '9')
        s++, digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (!digits)
        return -1;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return -1;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s)
        return -1;
    char *end;
    errno = 0;
    double x = strtod(text, &end);
    if (*end || errno == ERANGE || !isfinite(x) || !(x >= min && x <= max))
        return -1;
    *out = x;
    return 0;
}

size_t bspram__base_escape_controls(char *dst, size_t len, const char *src)
{
    if (!src)
        src = "(null)";
    size_t need = 0, o = 0; /* o: written to dst; stops at the first escape that does not fit */
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        char one[5];
        size_t k = 1;
        one[0] = (char)*s;
        if (*s == '\n' || *s == '\r' || *s == '\t')
            one[0] = '\\', one[1] = *s == '\n' ? 'n' : *s == '\r' ? 'r' : 't', k = 2;
        else if (*s < 0x20 || *s == 0x7f)
            k = (size_t)snprintf(one, sizeof one, "\\x%02x", *s);
        if (o == need && o + k < len) {
            memcpy(dst + o, one, k);
            o += k;
        }
        need += k;
    }
    if (len)
        dst[o] = 0;
    return need;
}
