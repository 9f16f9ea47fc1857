/* bspram — the small rules of sizes that every layer follows: 8-byte
 * alignment of payloads and records, and arrays that grow by doubling.
 * Internal (not installed). */
#ifndef BSPRAM_BASE_GROW_H
#define BSPRAM_BASE_GROW_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* n rounded up to a multiple of 8: payloads, tags and wire records are
 * 8-byte aligned so that any word in them can be read in place. The caller
 * keeps n ≤ SIZE_MAX − 7 (sizes are checked where they enter the library). */
static inline uint64_t bspram__round8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* The capacity, doubling from cap (or from `initial` when cap is 0), that
 * holds `need` elements. Doubling keeps appends O(1) amortised. */
static inline size_t bspram__capacity(size_t cap, size_t need, size_t initial)
{
    size_t c = cap ? cap : initial;
    while (c < need)
        c *= 2;
    return c;
}

/* Make the array *ptr of *cap elements of `elem` bytes hold at least `need`,
 * doubling (from `initial`); the contents are kept. Out of memory is fatal,
 * naming `what`. Returns the (possibly moved) array. */
static inline void *bspram__grow(void *ptr, size_t *cap, size_t need, size_t elem, size_t initial,
                                 const char *what)
{
    if (need <= *cap)
        return ptr;
    *cap = bspram__capacity(*cap, need, initial);
    return bspram__base_realloc(ptr, *cap * elem, what);
}

#endif
