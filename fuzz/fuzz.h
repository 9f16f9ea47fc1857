/* What every fuzz harness shares: the input as a C string, and a failed
 * invariant as a crash that libFuzzer reports and keeps. */
#ifndef BSPRAM_FUZZ_H
#define BSPRAM_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The bytes as a NUL-terminated string (cut at the first NUL: the parsers
 * take C strings). Free it. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* An invariant that must hold: abort (a crash libFuzzer saves) if not. */
#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
            abort();                                                                      \
        }                                                                                 \
    } while (0)

#endif
