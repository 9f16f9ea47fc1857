/* Helpers of the collectives' tests: the process counts every one runs with,
 * and the ceiling of a logarithm as the papers' formulas use it. */
#ifndef BSPRAM_TESTS_COLL_CHECK_H
#define BSPRAM_TESTS_COLL_CHECK_H

#include <stdint.h>

/* n = 1..40 and 64, 65, 100: every small n, powers of two and their
 * neighbours, and one above the sizes where patterns repeat. */
enum { COLL_TEST_NPS = 43 };
static inline unsigned coll_test_p(unsigned i)
{
    static const unsigned extra[] = {64, 65, 100};
    return i < 40 ? i + 1 : extra[i - 40];
}

/* ⌈log_base n⌉ (0 for n = 1). */
static inline unsigned ceil_log(uint64_t n, uint64_t base)
{
    unsigned d = 0;
    for (uint64_t span = 1; span < n; d++)
        span *= base;
    return d;
}

#endif
