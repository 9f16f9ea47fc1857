/* bspram — counter-based randomness.
 *
 * Determinism (docs/architecture.md): every random choice in the library (hash seeds, the
 * spreading offsets k_i of each request in each phase, arbitrary-write winners)
 * is a pure function of (seed, a few 64-bit words). There is no generator state
 * to share or advance, so results never depend on the number of threads or on
 * scheduling. The function is XXH3-64 of the words with the seed as XXH3's seed.
 *
 * Cost: one XXH3 of 8–32 bytes (≈ 2–3 ns).
 */
#ifndef BSPRAM_HASH_RANDOM_H
#define BSPRAM_HASH_RANDOM_H

#include <stdint.h>

#include "base/api.h"

BSPRAM_BEGIN_DECLS

/* A uniform 64-bit word determined by (seed, a), (seed, a, b), (seed, a, b, c). */
uint64_t bspram_random1(uint64_t seed, uint64_t a);
uint64_t bspram_random2(uint64_t seed, uint64_t a, uint64_t b);
uint64_t bspram_random3(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

/* A uniform value in [0, n), n ≥ 1 (multiply-high reduction of bspram_random3).
 * n = 0 is fatal: "bspram_random_below(n=0): n must be ≥ 1". */
uint64_t bspram_random_below(uint64_t n, uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

/* A uniform double in [0, 1) with 53 random bits. */
double bspram_random_unit(uint64_t seed, uint64_t a, uint64_t b, uint64_t c);

BSPRAM_END_DECLS
#endif
