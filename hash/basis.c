/* Basis sequences (Valiant §2, §4): validation, parsing, formatting. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "hash/basis.h"

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    if (err && len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int bspram_basis_make(bspram_basis *out, uint64_t p, unsigned m, const uint64_t *b,
                      char *err, size_t err_len)
{
    BSPRAM_NONNULL(out);
    BSPRAM_NONNULL(b);
    if (m < 1 || m > BSPRAM_MAX_PHASES)
        return fail(err, err_len, "basis has %u entries; it needs 1 to %d", m, BSPRAM_MAX_PHASES);
    uint64_t prod = 1;
    for (unsigned i = 0; i < m; i++) {
        if (b[i] == 0)
            return fail(err, err_len, "basis entry b_%u is 0; every entry must be >= 1", i + 1);
        if (prod > UINT64_MAX / b[i])
            return fail(err, err_len, "basis product overflows 64 bits; it must equal p = %llu",
                        (unsigned long long)p);
        prod *= b[i];
    }
    if (prod != p)
        return fail(err, err_len, "basis product is %llu; it must equal p = %llu",
                    (unsigned long long)prod, (unsigned long long)p);
    memset(out, 0, sizeof *out);
    out->m = m;
    out->p = p;
    for (unsigned i = 0; i < m; i++)
        out->b[i + 1] = b[i];
    out->suffix[m] = 1;
    for (unsigned i = m; i > 0; i--)
        out->suffix[i - 1] = out->suffix[i] * out->b[i];
    return 0;
}

int bspram_basis_parse(bspram_basis *out, uint64_t p, const char *text, char *err, size_t err_len)
{
    BSPRAM_NONNULL(out);
    BSPRAM_NONNULL(text);
    uint64_t b[BSPRAM_MAX_PHASES];
    unsigned m = 0;
    const char *s = text;
    if (!s || !*s)
        return fail(err, err_len, "empty basis; write it like 8x8x8x8");
    for (;;) {
        if (*s < '0' || *s > '9')
            return fail(err, err_len, "cannot read '%s' as a basis; write it like 8x8x8x8", text);
        errno = 0;
        char *end;
        unsigned long long v = strtoull(s, &end, 10);
        if (errno)
            return fail(err, err_len, "basis entry in '%s' is out of range", text);
        if (m == BSPRAM_MAX_PHASES)
            return fail(err, err_len, "basis '%s' has more than %d entries", text, BSPRAM_MAX_PHASES);
        b[m++] = v;
        s = end;
        if (*s == 0)
            break;
        if (*s != 'x' && *s != ',')
            return fail(err, err_len, "cannot read '%s' as a basis; write it like 8x8x8x8", text);
        s++;
    }
    return bspram_basis_make(out, p, m, b, err, err_len);
}

size_t bspram_basis_format(const bspram_basis *basis, char *buf, size_t len)
{
    BSPRAM_NONNULL(basis);
    if (len > 0) /* as snprintf: NULL with len 0 asks for the length only */
        BSPRAM_NONNULL(buf);
    /* Count every factor's bytes, writing those that fit: a caller learns
     * the whole length, never a silently shortened basis. */
    size_t n = 0;
    if (len)
        buf[0] = 0;
    for (unsigned i = 1; i <= basis->m && i <= BSPRAM_MAX_PHASES; i++) {
        char one[24];
        int k = snprintf(one, sizeof one, i == 1 ? "%llu" : "x%llu", (unsigned long long)basis->b[i]);
        if (n + 1 < len) {
            size_t room = len - 1 - n, take = (size_t)k < room ? (size_t)k : room;
            memcpy(buf + n, one, take);
            buf[n + take] = 0;
        }
        n += (size_t)k;
    }
    return n;
}

void bspram_basis_require(bspram_basis *out, uint64_t p, const char *text)
{
    BSPRAM_NONNULL(out);
    BSPRAM_NONNULL(text);
    char err[256];
    if (bspram_basis_parse(out, p, text, err, sizeof err) != 0)
        bspram__base_fatal("bspram_basis_require(p=%llu, basis=%s): %s", (unsigned long long)p,
                     text, err);
}
