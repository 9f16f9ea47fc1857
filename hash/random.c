/* Counter-based randomness: XXH3 of the words, seeded. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "base/error.h"
#include "hash/hash.h"
#include "hash/random.h"
#include "hash/hash_internal.h"

uint64_t bspram_random1(uint64_t seed, uint64_t a)
{
    return XXH3_64bits_withSeed(&a, sizeof a, seed);
}

uint64_t bspram_random2(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t w[2] = {a, b};
    return XXH3_64bits_withSeed(w, sizeof w, seed);
}

uint64_t bspram_random3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t w[3] = {a, b, c};
    return XXH3_64bits_withSeed(w, sizeof w, seed);
}

uint64_t bspram_random_below(uint64_t n, uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    if (n == 0)
        bspram__base_fatal("bspram_random_below(n=0): n must be >= 1");
    return bspram_reduce(bspram_random3(seed, a, b, c), n);
}

double bspram_random_unit(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    return (double)(bspram_random3(seed, a, b, c) >> 11) * 0x1.0p-53;
}
